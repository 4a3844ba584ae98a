"""Seals: the dice commitment and the turn codes that make an archive tamper-evident.

During a game the players cannot see the archive (it holds the dice secret),
but they keep what the thread shows. So the public posts show:
- turn 0: the commitment to the secret, `sha256:<64 hex digits>`;
- every turn: the turn's code, `pbp#<n>/xxxx-xxxx-xxxx-xxxx` (its first 16 hex
  digits; the MJ report shows it whole, `pbp#<n>/<64 hex digits>`).
At the end the MJ publishes the archive with its secret (`pbp reveal`), and
anyone recomputes all of it (`pbp audit`, pbp/trust/audit.py).

Definitions (version 1: any change to them is a new version string)

    commitment = hex(sha256("pbp-commit-v1:" + secret))
    key        = sha256("pbp-seal-key-v1:" + secret)              (32 bytes)
    code(n)    = hex(HMAC-SHA256(key, message(n)))
    message(n) = "pbp-seal-v1\\n"
                 "turn <n>\\n"
                 "previous <code(n-1); for turn 0, the commitment>\\n"
                 then, for every file of turns/NNN/ sorted by path:
                 "<hex(sha256(sealed bytes of the file))> <path in turns/NNN/, with />\\n"

What a code covers. Every file of its turn folder: the inputs (orders/*,
gm.yaml) and the outputs (state.yaml, rolls.yaml, events.yaml, turn.yaml,
public.*, gm.*, private/*); hidden files (`.name`), `*.tmp` and the pages
`pbp preview` writes beside the posts (preview*.html, never committed) are
left out.
Through `previous`, every earlier turn and the secret. Not campaign.yaml,
world.yaml, characters.yaml nor the campaign's templates: they are checked by
the replay (every turn must come out of them byte for byte) and the secret by
the commitment.

What it cannot cover: itself (a post shows the code of its own turn). The
sealed bytes of a post (public.*, gm.*, private/*.<ext>) are its bytes with the
value of every seal token (`pbp#<n>/<hex>`, `sha256:<hex>`) put back to the
placeholder the templates write (`<pbp:seal>`, `<pbp:seal-full>`,
`<pbp:commitment>`, see templates/common/<lang>/seal.j2). So a code covers
every byte of every post but the hex digits of the codes shown in it, and
those are checked by the replay, which must write them again. The same form is
computed from a post just rendered (placeholders) and from a post on disk
(codes): a code is recomputed from the archive's files alone. A player who
types a code-like token in their roleplay changes nothing: it is put back to
the placeholder on both sides alike, and `fill` only ever replaces
placeholders, never text that looks like a code.

Why HMAC keyed by the secret rather than a plain hash: a plain hash of a turn's
files could be tested against guesses of a secret value (who is the murderer)
by someone who knew every other byte; keyed by the secret, a code says nothing
until the reveal, and the commitment binds the key (the MJ cannot pick another
secret later). Why 16 hex digits in the thread: 64 bits; to change a turn
already posted and keep its short code, a cheating MJ would need some 2^64
tries, and every later turn again.

Everything here is deterministic: no clock, no randomness.

What pbp printed and what the MJ posted is kept in `seals.yaml`, compared with
the archive for `pbp status` and `pbp verify`: pbp/engine/seal_log.py.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import stat
import unicodedata
from pathlib import Path

from pbp.base.patterns import Lazy
from pbp.base.record import Record
from pbp.base.memtree import MemoryPath
from pbp.engine.campaign import FORMATS

VERSION = "pbp-seal-v1"
SHORT_DIGITS = 16

#: what the templates write where the codes go (seal.j2); `fill` replaces them
PLACEHOLDER_SHORT = "<pbp:seal>"
PLACEHOLDER_FULL = "<pbp:seal-full>"
PLACEHOLDER_COMMITMENT = "<pbp:commitment>"

_HEX64 = "[0-9a-f]{64}"
_SHORT = "[0-9a-f]{4}(?:-[0-9a-f]{4}){3}"
#: a seal token with its value: a code (whole or short) or the commitment, or their placeholder
_TOKEN = Lazy(f"(pbp#[0-9]{{1,9}}/)({_HEX64}|{_SHORT}|{re.escape(PLACEHOLDER_FULL)}|{re.escape(PLACEHOLDER_SHORT)})"
                    f"|(sha256:)({_HEX64}|{re.escape(PLACEHOLDER_COMMITMENT)})")

#: the words of the seal lines (templates/common/<lang>/seal.j2), in every language pbp writes
SEAL_WORDS = ("Sceau du tour", "Seal of turn")
COMMITMENT_WORDS = ("Engagement des dés", "Dice commitment")
#: any space but a line break: a forum's page copied as text may keep a no-break space or make it a space
_BLANK = r"[^\S\n]"


def _seal_line(words: tuple[str, ...], number: str, value: str) -> str:
    """A seal line as a thread shows it (`find_codes`): a line of its own, the
    words in bold ([b]…[/b] or **…**: the posts' source) or plain (the forum's
    page copied as text), the colon, the value, nothing else."""
    said = "|".join(f"{_BLANK}+".join(re.escape(w) for w in phrase.split()) for phrase in words)
    return (f"^{_BLANK}*(?:(?P<bb>\\[b\\])|(?P<md>\\*\\*))?(?:{said}){number}(?(bb)\\[/b\\]|(?(md)\\*\\*))"
            f"{_BLANK}*:{_BLANK}*{value}{_BLANK}*$")


_SEAL_LINE = Lazy(_seal_line(SEAL_WORDS, f"{_BLANK}+(?P<n>[0-9]{{1,9}})", f"pbp#(?P=n)/(?P<code>{_HEX64}|{_SHORT})"),
                  re.IGNORECASE | re.MULTILINE)
_COMMITMENT_LINE = Lazy(_seal_line(COMMITMENT_WORDS, "", f"sha256:(?P<code>{_HEX64})"), re.IGNORECASE | re.MULTILINE)
_POST_SUFFIXES = {"." + ext for ext in FORMATS.values()}
#: `pbp preview` pages (`is_preview_page`): git's pathspec in archive.commit is made of them too
PREVIEW_PREFIX, PREVIEW_SUFFIX = "preview", ".html"


# -- the commitment and the codes ----------------------------------------------------

def commitment(secret: str) -> str:
    """What turn 0's public post shows of the dice secret (the secret stays secret)."""
    return hashlib.sha256(f"pbp-commit-v1:{secret}".encode()).hexdigest()


def _key(secret: str) -> bytes:
    return hashlib.sha256(f"pbp-seal-key-v1:{secret}".encode()).digest()


def short(code: str) -> str:
    """The code as the thread shows it: 16 hex digits in groups of 4."""
    head = code[:SHORT_DIGITS]
    return "-".join(head[i:i + 4] for i in range(0, SHORT_DIGITS, 4))


def is_post(rel: str) -> bool:
    """public.<ext>, gm.<ext> or private/<handle>.<ext> of a turn folder."""
    parts = rel.split("/")
    return os.path.splitext(rel)[1] in _POST_SUFFIXES and (len(parts) == 1 or (len(parts) == 2 and parts[0] == "private"))


def _canonical(match: re.Match) -> str:
    if match.group(1):
        value = match.group(2)
        full = value == PLACEHOLDER_FULL or len(value) == 64
        return match.group(1) + (PLACEHOLDER_FULL if full else PLACEHOLDER_SHORT)
    return match.group(3) + PLACEHOLDER_COMMITMENT


def sealed_bytes(rel: str, data: bytes) -> bytes:
    """What the code covers of a file: its bytes; for a post, with the value of
    each seal token put back to its placeholder (see the module's docstring)."""
    if not is_post(rel) or (b"pbp#" not in data and b"sha256:" not in data):
        return data
    text = data.decode("utf-8", errors="surrogateescape")  # a post edited by hand may not be UTF-8
    return _TOKEN.sub(_canonical, text).encode("utf-8", errors="surrogateescape")


def digest(rel: str, data: bytes) -> str:
    """What `message` holds of a file: the hex SHA-256 of its sealed bytes."""
    return hashlib.sha256(sealed_bytes(rel, data)).hexdigest()


def message(n: int, previous: str, digests: dict[str, str]) -> bytes:
    """`digests`: path in the turn folder -> `digest` of the file."""
    lines = [VERSION, f"turn {n}", f"previous {previous}"]
    lines += [f"{digests[rel]} {rel}" for rel in sorted(digests)]
    return ("\n".join(lines) + "\n").encode()


def turn_code(secret: str, n: int, previous: str, files: dict[str, bytes]) -> str:
    """The code of turn `n` from its files (path in the turn folder -> bytes)."""
    return code_of(secret, n, previous, {rel: digest(rel, data) for rel, data in files.items()})


def code_of(secret: str, n: int, previous: str, digests: dict[str, str]) -> str:
    """The code of turn `n` from its files' digests."""
    return hmac.new(_key(secret), message(n, previous, digests), hashlib.sha256).hexdigest()


def fill(data: bytes, code: str, commit: str) -> bytes:
    """A post just rendered, its placeholders replaced by the codes (only
    placeholders: text that merely looks like a code stays as it is)."""
    def value(match: re.Match) -> str:
        if match.group(1):
            if match.group(2) == PLACEHOLDER_FULL:
                return match.group(1) + code
            if match.group(2) == PLACEHOLDER_SHORT:
                return match.group(1) + short(code)
        elif match.group(4) == PLACEHOLDER_COMMITMENT:
            return match.group(3) + commit
        return match.group(0)

    text = data.decode("utf-8", errors="surrogateescape")
    return _TOKEN.sub(value, text).encode("utf-8", errors="surrogateescape")


def has_placeholders(data: bytes) -> bool:
    """Whether `fill` or `unfilled` would change anything in `data`: a post as
    its turn wrote it has its codes in it already (`pbp post` then needs no code)."""
    return any(placeholder.encode() in data
               for placeholder in (PLACEHOLDER_FULL, PLACEHOLDER_SHORT, PLACEHOLDER_COMMITMENT))


def unfilled(data: bytes) -> bytes:
    """A post with no codes in it (placeholders left out), for a post that
    cannot know its code: a turn not sealed yet."""
    text = data.decode("utf-8", errors="surrogateescape")
    for placeholder in (PLACEHOLDER_FULL, PLACEHOLDER_SHORT, PLACEHOLDER_COMMITMENT):
        text = text.replace(placeholder, "?")
    return text.encode("utf-8", errors="surrogateescape")


# -- a turn's files ------------------------------------------------------------------

def is_preview_page(rel: str) -> bool:
    """A `pbp preview` page at the top of a turn folder: preview.html,
    preview-<who>.html (pbp/render/preview.py, `file_name`). Made again from the
    archive at will and never committed (pbp/engine/archive.py, `commit`), so never
    sealed nor revealed either: a page written after a turn was posted must not
    change its code."""
    return rel.startswith(PREVIEW_PREFIX) and rel.endswith(PREVIEW_SUFFIX) and "/" not in rel


def _turn_paths(folder: Path):
    """(path with / in the turn folder, path on disk, os.stat) of every regular
    file of a turn folder: what a turn's code covers. Left out: hidden files and
    folders, *.tmp (an interrupted write), `pbp preview` pages (`is_preview_page`).
    A link to a file is followed, a link to a folder is not (as os.walk does).
    os.scandir: verify goes through the whole archive this way, and a folder's
    listing says which entries are folders without a stat of its own (one stat
    a file)."""
    pending = [(str(folder), "")]
    while pending:
        top, prefix = pending.pop()
        try:
            listing = os.scandir(top)
        except OSError:
            continue
        with listing:
            for entry in listing:
                name = entry.name
                if name.startswith("."):
                    continue
                try:
                    if entry.is_dir():
                        if not entry.is_symlink():
                            pending.append((entry.path, f"{prefix}{name}/"))
                        continue
                    if name.endswith(".tmp") or (not prefix and is_preview_page(name)):
                        continue
                    info = entry.stat()
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode):
                    yield prefix + name, entry.path, info


def _memory_turn_paths(folder: MemoryPath):
    """`_turn_paths` of a turn folder held in memory (an audited bundle: no links,
    every member a regular file): (path with /, MemoryPath, None)."""
    for rel in sorted(folder.files_below()):
        parts = rel.split("/")
        if any(p.startswith(".") for p in parts) or parts[-1].endswith(".tmp") \
                or (len(parts) == 1 and is_preview_page(rel)):
            continue
        yield rel, folder / rel, None


def _read(path) -> bytes:
    if isinstance(path, MemoryPath):
        return path.read_bytes()
    with open(path, "rb") as handle:
        return handle.read()


def turn_files(folder: Path | MemoryPath) -> dict[str, bytes]:
    """Every file of a turn folder its code covers (path with / -> bytes; `_turn_paths`)."""
    paths = _memory_turn_paths(folder) if isinstance(folder, MemoryPath) else _turn_paths(folder)
    return dict(sorted((rel, _read(path)) for rel, path, _ in paths))


def turn_digests(folder: Path, remembered: dict | None = None) -> dict[str, str]:
    """The `digest` of every file of a turn folder (as `turn_files` finds them).
    `remembered`: path on disk -> (signature, digest), from earlier commands: a
    file with the same `usercache.file_signature` (size, inode, modification and
    change times) is not read again. New digests are added to it once their
    file has `usercache.settled` (the user's cache's one rule)."""
    from pbp.base import usercache

    if isinstance(folder, MemoryPath):  # an audited bundle: nothing remembered
        return {rel: digest(rel, data) for rel, data in turn_files(folder).items()}
    found = {}
    for rel, path, info in _turn_paths(folder):
        signature = usercache.file_signature(info)
        kept = remembered.get(path) if remembered is not None else None
        if kept is not None and tuple(kept[0]) == signature:
            found[rel] = kept[1]
            continue
        found[rel] = digest(rel, _read(path))
        if remembered is not None and usercache.settled(info):
            remembered[path] = (signature, found[rel])
    return found


def seal_output(campaign, out, previous: str | None = None) -> str:
    """Seal a computed turn (pbp.engine.turn.TurnOutput, rendered): its code over the
    turn's inputs on disk and its outputs in memory; the placeholders of its
    posts are replaced by the codes. Returns the code. Outputs left on disk by
    an earlier run of the turn are not counted: `turn.write` removes them.
    `previous`: turn n-1's code (default: as the archive gives it)."""
    from pbp.engine import turn

    folder = campaign.turn_dir(out.turn)
    stale = set(turn.outputs_on_disk(campaign, out.turn))
    files = {rel: data for rel, data in turn_files(folder).items() if rel not in stale}
    files.update(out.files)
    if previous is None:
        previous = previous_of(campaign, out.turn, None)
    code = turn_code(campaign.secret, out.turn, previous, files)
    commit = commitment(campaign.secret)
    for rel in list(out.files):
        if is_post(rel):
            out.files[rel] = fill(out.files[rel], code, commit)
    return code


def previous_of(campaign, n: int, codes: dict[int, str] | None) -> str:
    """What turn n's code chains on: turn n-1's code as the archive gives it
    (the commitment for turn 0)."""
    if n == 0:
        return commitment(campaign.secret)
    codes = codes if codes is not None else archive_codes(campaign, upto=n - 1)
    return codes.get(n - 1) or ""


def archive_codes(campaign, upto: int | None = None, remembered: bool = False) -> dict[int, str]:
    """The code of every resolved turn (up to `upto`), recomputed from the
    archive's files alone: what `pbp verify`, `reveal` and `audit` read, every
    byte. `remembered`: the everyday commands' chain (status, run, post), whose
    cost does not grow with the campaign (`_remembered_codes`)."""
    if remembered:
        return _remembered_codes(campaign, upto)
    codes: dict[int, str] = {}
    for n in campaign.resolved_turns():
        if upto is not None and n > upto:
            break
        codes[n] = code_of(campaign.secret, n, previous_of(campaign, n, codes), turn_digests(campaign.turn_dir(n)))
    return codes


#: the last turns whose every file the everyday commands look at again (`_remembered_codes`)
RECENT_TURNS = 10
#: the user's cache folder tag of the chains kept between commands (a new shape, a new tag)
_CHAIN_TAG = f"{VERSION}-chain-1"


def first_recent_turn(campaign) -> int:
    """The first of the last RECENT_TURNS resolved turns (0 in a shorter
    campaign): from it on, the everyday commands look at every file again; a
    turn's commit stages from it on (pbp/engine/archive.py, `commit`)."""
    resolved = campaign.last_resolved(RECENT_TURNS)
    return resolved[0] if len(resolved) >= RECENT_TURNS else 0


def _remembered_codes(campaign, upto: int | None) -> dict[int, str]:
    """`archive_codes` at a cost that does not grow with the campaign's length
    (docs/design.md, "The seal chain between commands"). The user's cache keeps
    the campaign's chain: for each turn, its code, the code it chained on and
    the `usercache.file_signature` of its state.yaml. Every file of the last
    RECENT_TURNS turns is looked at again (a file with its signature unchanged
    is not read: `turn_digests`); an older turn's kept code holds while its
    state.yaml (written again whenever the turn is played again, the file an
    MJ edits by hand) and the code before it are the same. Anything else is
    computed from the files, and kept."""
    from pbp.base import usercache

    name = f"{campaign.root.resolve()}\n{commitment(campaign.secret)}"
    kept = usercache.read_entry("seals", _CHAIN_TAG, name)
    if not (isinstance(kept, dict) and isinstance(kept.get("chain"), dict) and isinstance(kept.get("files"), dict)):
        kept = {"chain": {}, "files": {}}
    states = campaign.resolved_states()
    recent = set(list(states)[-RECENT_TURNS:])
    chain, files = dict(kept["chain"]), dict(kept["files"])
    codes: dict[int, str] = {}
    previous = commitment(campaign.secret)
    for n, info in states.items():
        if upto is not None and n > upto:
            break
        signature = usercache.file_signature(info)
        link = chain.get(n)
        if n in recent or not (isinstance(link, tuple) and len(link) == 3 and link[:2] == (signature, previous)):
            digests = turn_digests(campaign.turn_dir(n), files)
            link = (signature, previous, code_of(campaign.secret, n, previous, digests))
            if usercache.settled(info):
                chain[n] = link
        codes[n] = previous = link[2]
    # the files remembered are the recent turns' only: the entry stays the same size
    folders = tuple(f"{campaign.turn_dir(n)}{os.sep}" for n in recent)
    files = {path: value for path, value in files.items() if path.startswith(folders)}
    chain = {n: link for n, link in chain.items() if n in states}
    if chain != kept["chain"] or files != kept["files"]:
        usercache.write_entry("seals", _CHAIN_TAG, name, {"chain": chain, "files": files})
    return codes


# -- what the thread shows -----------------------------------------------------------

class ThreadCodes(Record):
    """What the seal lines of a text show (a thread's posts pasted into a file)."""

    __slots__ = ("codes", "commitments")

    def __init__(self, codes: dict[int, list[str]] | None = None, commitments: list[str] | None = None):
        self.codes = {} if codes is None else codes  # turn -> codes, as shown (lower case)
        self.commitments = [] if commitments is None else commitments


def find_codes(text: str) -> ThreadCodes:
    """The codes and commitments a thread's seal lines show, every one of them.

    Only a seal line counts, as seal.j2 writes it under a post: a line of its
    own holding nothing but `Sceau du tour N : pbp#N/<code>` (`Seal of turn N:`
    in English; the same N twice), or `Engagement des dés : sha256:<hex>`; in
    bold as the posts' source writes it (`[b]…[/b]`, `**…**`) or plain as the
    forum's page copies it, whatever became of the no-break spaces, line
    endings and accents. A code anywhere else (a player's roleplay quoting
    one, a chat message, a quote inside a line) is not the thread's seal of
    anything, and is ignored.

    What player text can do about it: pbp's escaping keeps it from writing the
    source's line (every `[` of player text is followed by a zero-width space,
    which a copy keeps; its `*` are escaped and its Markdown quote lines start
    with `>`). In a page copied as text, though, nothing tells a player's quoted
    line typed to look like a seal line from the MJ's. So every seal line of a
    turn is kept, and the audit wants every one to show the archive's code
    (`TurnVerdict.thread_ok`): such a line can make an honest game show a
    difference, which names the code, never make a changed turn look right.
    Taking the line that matches, or the bold one, would let a line typed by a
    player hide a changed turn (a post in Markdown shows a player's `[b]` or
    `**` as typed, and its page copied as text keeps them)."""
    found = ThreadCodes()
    text = "\n".join(unicodedata.normalize("NFC", text).splitlines())
    for match in _SEAL_LINE.finditer(text):
        codes = found.codes.setdefault(int(match.group("n")), [])
        if match.group("code").lower() not in codes:
            codes.append(match.group("code").lower())
    for match in _COMMITMENT_LINE.finditer(text):
        if match.group("code").lower() not in found.commitments:
            found.commitments.append(match.group("code").lower())
    return found


def matches(shown: str, code: str) -> bool:
    """Whether a code as shown (short or whole) is `code`."""
    return shown in (code, short(code))
