"""The reveal bundle and the public audit.

`pbp reveal` writes the campaign archive with its secret, and nothing else from
the MJ's machine, as a tar.gz any player can check with `pbp audit`:

    pbp-reveal.yaml          what the bundle is: format, pbp version, ruleset,
                             commitment, turns
    campaign/campaign.yaml   world.yaml, characters.yaml,
    campaign/secret.yaml     the dice secret (in campaign.yaml in a campaign made before),
    campaign/seals.yaml      the codes pbp printed,
    campaign/templates/...   the campaign's own templates, if any,
    campaign/turns/...       every turn folder (inputs and outputs)

Nothing else: not the git history (it may hold the MJ's other work, and an MJ
can rewrite it anyway: the thread's codes are the evidence), not hidden files
nor *.tmp, nor `pbp preview` pages (no code covers them). The bundle is
deterministic: sorted entries, no dates, no owners, so the same archive always
gives the same bytes.

The audit opens a bundle as an untrusted file: its raw tar headers are read
first (member count, each member's size, the total: a refusal before anything
is read), then each member, a plain file with a plain relative path, is read
into memory within its size; nothing is written to disk. The campaign is read
from there (pbp.base.memtree) by the very code `pbp verify` reads a folder with.
The audit then checks: the
secret against the commitment (turn 0's post, seals.yaml, the thread), every
turn replayed byte for byte by the replay `pbp verify` runs (pbp.engine.replay),
every code recomputed, and,
given the thread's posts pasted into a text file, every code its seal lines
show (seal.find_codes). A campaign's own templates are data: they render in
jinja2's sandbox, bounded (pbp.render.render), like every template.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pbp.base import yamlio
from pbp.base.errors import InputError
from pbp.base.memtree import MemoryPath, MemoryTree
from pbp.engine import seal, seal_log
from pbp.engine.campaign import CAMPAIGN_FILE, FORMATS, SECRET_FILE
from pbp.engine.replay import Replay, replay_turn

BUNDLE_FORMAT = 1
MANIFEST = "pbp-reveal.yaml"
PREFIX = "campaign"
CAMPAIGN_FILES = (CAMPAIGN_FILE, SECRET_FILE, "world.yaml", "characters.yaml", "rules.yaml",
                  seal_log.SEALS_FILE)  # rules.yaml: a data campaign's rules
CAMPAIGN_FOLDERS = ("templates", "turns")
#: what an audit accepts of a bundle: it comes from a stranger
MAX_MEMBERS = 100_000  # tar headers: a 200-turn game of 50 players writes some 22,000
MAX_MEMBER_BYTES = 16 * 1024 * 1024  # one file, unpacked (a large world.yaml is some hundred KiB)
MAX_HEADER_BYTES = 64 * 1024  # a PAX or long-name header, and the manifest
#: the whole bundle, unpacked: it is held in memory, so this bounds the audit's peak (some 40 MB of its
#: own plus this plus one member: bench/bench_hostile_bundle.py, under 200 MB); an honest game of
#: 20 players and 100 turns unpacks to some 15 MB
MAX_BYTES = 96 * 1024 * 1024
MAX_POSTS_BYTES = 64 * 1024 * 1024


def pbp_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pbp")
    except PackageNotFoundError:  # pragma: no cover - a source tree never installed
        return "?"


# -- the bundle ----------------------------------------------------------------------

def bundle_files(campaign) -> dict[str, bytes]:
    """The campaign's archive as it goes in the bundle: path in the campaign -> bytes."""
    root = campaign.root
    out = {name: (root / name).read_bytes() for name in CAMPAIGN_FILES if (root / name).is_file()}
    for folder in CAMPAIGN_FOLDERS:
        for path in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else []:
            rel = path.relative_to(root)
            if any(p.startswith(".") for p in rel.parts) or path.suffix == ".tmp" or not path.is_file():
                continue
            if folder == "turns" and len(rel.parts) == 3 and seal.is_preview_page(rel.parts[2]):
                continue  # no code covers it (seal._turn_paths): pbp preview makes it again at will
            out[rel.as_posix()] = path.read_bytes()
    return out


def manifest(campaign) -> dict:
    turns = campaign.resolved_turns()
    return {"format": BUNDLE_FORMAT, "pbp": pbp_version(), "title": campaign.title, "ruleset": campaign.ruleset.id,
            "commitment": seal.commitment(campaign.secret), "turns": turns[-1] if turns else None}


def bundle_bytes(campaign) -> tuple[bytes, int]:
    """The bundle (tar.gz) and how many campaign files it holds."""
    files = bundle_files(campaign)
    members = {MANIFEST: yamlio.dumps(manifest(campaign)).encode()}
    members.update({f"{PREFIX}/{rel}": data for rel, data in files.items()})
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(members):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(members[name]), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(members[name]))
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0) as gz:
        gz.write(raw.getvalue())
    return packed.getvalue(), len(files)


def _member_path(name: str, bundle: str) -> PurePosixPath:
    path = PurePosixPath(name)
    if path.is_absolute() or not path.parts or any(p in ("", ".", "..") for p in path.parts) or "\\" in name \
            or (path.parts[0] != PREFIX and name != MANIFEST):
        raise InputError("bundle_bad_member", file=bundle, member=name)
    return path


class _HeaderTooLarge(Exception):
    """A tar metadata header (PAX, GNU long name) larger than any pbp writes:
    tarfile would read it whole into memory."""

    def __init__(self, size: int):
        self.size = size


class _BoundedTarInfo(tarfile.TarInfo):
    """tarfile's member, refusing an extended header over MAX_HEADER_BYTES
    before tarfile reads it (it reads the size the header claims, whole)."""

    def _proc_gnulong(self, tarfile_):
        self._bounded()
        return super()._proc_gnulong(tarfile_)

    def _proc_pax(self, tarfile_):
        self._bounded()
        return super()._proc_pax(tarfile_)

    def _bounded(self):
        if self.size > MAX_HEADER_BYTES:
            raise _HeaderTooLarge(self.size)


def _scan(bundle: Path, shown: str) -> None:
    """The bundle's limits, checked on its raw tar headers before anything is
    written: how many members, each member's size, the total. A header is 512
    bytes; its data is skipped unread (tarfile would parse each header whole:
    seconds for a hundred thousand empty members)."""
    count = total = 0
    with gzip.open(bundle, "rb") as stream:
        while (header := stream.read(tarfile.BLOCKSIZE)) and header.strip(b"\0"):
            count += 1
            if count > MAX_MEMBERS:
                raise InputError("bundle_too_many_members", file=shown, limit=MAX_MEMBERS)
            size = tarfile.nti(header[124:136])
            metadata = header[156:157] in tarfile.XHDTYPE + tarfile.XGLTYPE + tarfile.GNUTYPE_LONGNAME \
                + tarfile.GNUTYPE_LONGLINK
            limit = MAX_HEADER_BYTES if metadata else MAX_MEMBER_BYTES
            if size > limit:
                name = header[:100].split(b"\0", 1)[0].decode("utf-8", "replace")
                raise InputError("bundle_member_too_large", file=shown, member=name, size=size, limit=limit)
            total += size
            if total > MAX_BYTES:
                raise InputError("bundle_too_large", file=shown, limit=MAX_BYTES)
            stream.seek(-(-size // tarfile.BLOCKSIZE) * tarfile.BLOCKSIZE, io.SEEK_CUR)


def _members(tar: tarfile.TarFile):
    """The members in order, not kept (TarFile keeps every member it read)."""
    while (member := tar.next()) is not None:
        tar.members.clear()
        yield member


def read_bundle(bundle: Path) -> tuple[MemoryPath, dict]:
    """A bundle's campaign folder, held in memory, as an untrusted file: its
    limits checked first (`_scan`), then plain files with plain relative paths
    only, each read within its header's size. Nothing is written to disk.
    Returns the campaign folder (pbp.base.memtree) and the manifest."""
    shown = str(bundle)
    if not bundle.is_file():
        raise InputError("file_missing", file=shown)
    files: dict[str, bytes] = {}
    try:
        _scan(bundle, shown)
        with tarfile.open(bundle, mode="r:gz", tarinfo=_BoundedTarInfo) as tar:
            total = 0
            for member in _members(tar):
                data = _member_bytes(tar, member, shown)
                if data is not None:
                    total += len(data)
                    if total > MAX_BYTES:
                        raise InputError("bundle_too_large", file=shown, limit=MAX_BYTES)
                    files[member.name] = data
    except _HeaderTooLarge as exc:
        raise InputError("bundle_member_too_large", file=shown, member="(PAX)", size=exc.size,
                         limit=MAX_HEADER_BYTES) from None
    except (tarfile.TarError, OSError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InputError("bundle_unreadable", file=shown, reason=str(exc)[:200]) from None
    found_manifest = files.pop(MANIFEST, b"")
    found_manifest = yamlio.loads(found_manifest.decode("utf-8", errors="replace"), MANIFEST) or {}
    tree = MemoryTree({name[len(PREFIX) + 1:]: data for name, data in files.items()}, shown)
    root = tree.root()
    if not (root / CAMPAIGN_FILE).is_file():
        raise InputError("bundle_no_campaign", file=shown)
    return root, found_manifest if isinstance(found_manifest, dict) else {}


def _member_bytes(tar: tarfile.TarFile, member: tarfile.TarInfo, shown: str) -> bytes | None:
    """One member's bytes (None for a folder), refused unless it is a plain file
    with a plain relative path, of the size its header says, within the limits."""
    if member.isdir():
        _member_path(member.name.rstrip("/"), shown)
        return None
    if not member.isfile():
        raise InputError("bundle_bad_member", file=shown, member=member.name)
    _member_path(member.name, shown)
    limit = MAX_HEADER_BYTES if member.name == MANIFEST else MAX_MEMBER_BYTES
    # again as tarfile reads them: a PAX header may give the next member another size
    if member.size > limit:
        raise InputError("bundle_member_too_large", file=shown, member=member.name, size=member.size, limit=limit)
    with tar.extractfile(member) as source:
        data = source.read(member.size + 1)
    if len(data) != member.size:
        raise InputError("bundle_unreadable", file=shown, reason=member.name)
    return data


# -- the audit -----------------------------------------------------------------------

@dataclass
class TurnVerdict:
    turn: int
    code: str  # as the archive's files give it
    replay: Replay
    thread: list[str] | None = None  # codes the thread's seal lines show for this turn (None: no posts file)
    printed: list[str] = field(default_factory=list)
    forced: list[dict] = field(default_factory=list)

    @property
    def thread_ok(self) -> bool | None:
        """True: the thread's seal lines for this turn show this code; False: one
        of them shows another (even if another line shows this one: seal.find_codes
        says why); None: no seal line of this turn found."""
        if not self.thread:
            return None
        return not self.thread_differs

    @property
    def thread_differs(self) -> list[str]:
        """The codes the thread's seal lines show for this turn that are not its code."""
        return [c for c in self.thread or [] if not seal.matches(c, self.code)]

    @property
    def printed_ok(self) -> bool:
        return not self.printed or self.printed[-1] == self.code

    @property
    def ok(self) -> bool:
        return not self.replay.diffs and self.replay.error is None and self.thread_ok is not False \
            and self.printed_ok


@dataclass
class Report:
    title: str
    ruleset: str
    lang: str
    commitment: str
    commitment_shown: dict[str, str | None]  # where -> commitment shown there (None: absent)
    turns: list[TurnVerdict]
    bundle_version: str | None
    posts_given: bool
    own_templates: bool = False
    thread_extra: dict[int, list[str]] = field(default_factory=dict)  # turns the archive does not have
    secret_length: int = 0

    @property
    def commitment_ok(self) -> bool:
        return all(v in (None, self.commitment) for v in self.commitment_shown.values())

    @property
    def problems(self) -> int:
        return (0 if self.commitment_ok else 1) + sum(not t.ok for t in self.turns) + len(self.thread_extra)


def _commitment_in_post(campaign) -> str | None:
    """The commitment turn 0's public post shows in the archive (on its line, as in the thread)."""
    for ext in FORMATS.values():
        path = campaign.turn_dir(0) / f"public.{ext}"
        if path.is_file():
            found = seal.find_codes(path.read_text(encoding="utf-8", errors="replace")).commitments
            return found[0] if found else None
    return None


def _thread_commitment(found: list[str], expected: str) -> str | None:
    """The commitment the thread shows: one that is not the expected one if any
    line shows one (every line must show it, as for the codes), else the expected one."""
    if not found:
        return None
    return next((c for c in found if c != expected), expected)


def forced_rolls(campaign, n: int, rolls, version: int) -> list[dict]:
    """The turn's forced rolls, each with what the seed would have given
    (with the dice version the turn was played with)."""
    from pbp.model.dice import Dice, forum

    dice = Dice(campaign.secret, n, version=version)
    out = []
    for roll in rolls:
        if not roll.forced:
            continue
        out.append({"label": roll.label, "roll": forum(roll), "reason": roll.reason,
                    "seeded": forum(dice.seeded(roll.label, roll.expr))})
    return out


def audit_campaign(campaign, posts_text: str | None = None, bundle_version: str | None = None) -> Report:
    seals = seal_log.load_seals(campaign)
    codes = seal.archive_codes(campaign)
    thread = seal.find_codes(posts_text) if posts_text is not None else None
    commit = seal.commitment(campaign.secret)
    own_templates = (campaign.root / "templates").is_dir() and any(
        p.is_file() for p in (campaign.root / "templates").rglob("*"))
    verdicts = []
    for n in campaign.resolved_turns():
        replay = replay_turn(campaign, n, seal.previous_of(campaign, n, codes))
        printed = seals["turns"].get(n, {}).get("printed") or []
        verdict = TurnVerdict(n, codes[n], replay, thread.codes.get(n, []) if thread else None, printed)
        if replay.error is None:
            verdict.forced = forced_rolls(campaign, n, replay.rolls, replay.dice)
        verdicts.append(verdict)
    shown = {"post": _commitment_in_post(campaign), "seals": seals["commitment"]}
    if thread is not None:
        shown["thread"] = _thread_commitment(thread.commitments, commit)
    extra = {n: c for n, c in sorted(thread.codes.items()) if n not in codes} if thread else {}
    return Report(campaign.title, campaign.ruleset.id, campaign.lang, commit, shown, verdicts, bundle_version,
                  thread is not None, own_templates, extra, len(campaign.secret))


def audit_bundle(bundle: Path, posts_text: str | None = None) -> Report:
    from pbp.engine.campaign import open_campaign

    root, info = read_bundle(bundle)
    campaign = open_campaign(root)
    return audit_campaign(campaign, posts_text, str(info.get("pbp")) if info else None)


def read_posts(path: Path) -> str:
    """The thread's posts pasted into a text file (any encoding pbp can read)."""
    from pbp.engine.campaign import read_text

    if path.is_file() and path.stat().st_size > MAX_POSTS_BYTES:
        raise InputError("file_too_large", file=str(path), size=path.stat().st_size, limit=MAX_POSTS_BYTES,
                         limit_key="posts")
    try:
        return read_text(path, str(path))
    except InputError as exc:
        if exc.key != "not_utf8":
            raise
        return path.read_bytes().decode("latin-1")


# -- the report, as lines ------------------------------------------------------------

def lines(report: Report, lang: str) -> list[str]:
    """The audit as the player reads it, in `lang`: what the bundle is, the
    commitment, each turn, the forced rolls, the verdict."""
    from pbp.base import i18n

    def t(key, **params):
        return i18n.t(lang, key, **params)

    out = _bundle_lines(report, t) + _commitment_lines(report, t)
    for v in report.turns:
        out += _turn_lines(report, v, t, lang)
    for n, shown in report.thread_extra.items():
        out.append(t("audit_thread_extra", turn=n, codes=shown))
    out += _forced_lines(report, t)
    out.append(t("audit_ok", turns=len(report.turns)) if not report.problems
               else t("audit_failed", count=report.problems))
    return out


def _bundle_lines(report: Report, t) -> list[str]:
    """What the bundle is, and what to know before reading on."""
    out = [t("audit_bundle", title=report.title, ruleset=report.ruleset, turns=len(report.turns),
             version=report.bundle_version or "?")]
    mine = pbp_version()
    if report.bundle_version and report.bundle_version != mine:
        out.append(t("audit_version_differs", bundle=report.bundle_version, mine=mine))
    if report.own_templates:
        out.append(t("audit_templates_own"))
    if report.secret_length < 16:
        out.append(t("audit_weak_secret", length=report.secret_length))
    return out


def _commitment_lines(report: Report, t) -> list[str]:
    """The secret against the commitment each place shows."""
    def where(names):
        return [t(f"audit_where_{name}") for name in names]

    wrong = {name: v for name, v in report.commitment_shown.items() if v is not None and v != report.commitment}
    seen = [name for name, v in report.commitment_shown.items() if v == report.commitment]
    out = [t("audit_commitment_differs", where=where([name]), shown=value, now=report.commitment)
           for name, value in wrong.items()]
    if not wrong:
        out.append(t("audit_commitment_ok", commitment=report.commitment, where=where(seen) if seen else "—"))
    if report.posts_given and report.commitment_shown.get("thread") is None:
        out.append(t("audit_commitment_not_in_thread"))
    return out


def _turn_lines(report: Report, v: TurnVerdict, t, lang: str) -> list[str]:
    """One turn's verdict, and what differs."""
    if v.ok:
        out = [t("audit_turn_ok_thread" if v.thread_ok else "audit_turn_ok", turn=v.turn, code=seal.short(v.code))]
    else:
        out = [t("audit_turn_differs", turn=v.turn)] + ["  - " + part for part in _what(v, t, lang)]
    if report.posts_given and v.thread_ok is None:
        out.append(t("audit_turn_not_in_thread", turn=v.turn))
    if len(set(v.printed)) > 1:
        out.append(t("audit_turn_reprinted", turn=v.turn, count=len(set(v.printed)),
                     codes=[seal.short(c) for c in v.printed]))
    return out


def _forced_lines(report: Report, t) -> list[str]:
    """Every forced roll of the game, with what the seed would have given."""
    forced = [(v.turn, f) for v in report.turns for f in v.forced]
    if not forced:
        return [t("audit_forced_none")]
    return [t("audit_forced_header", count=len(forced))] + [
        t("audit_forced_reason" if f["reason"] else "audit_forced", turn=n, **f) for n, f in forced]


def _what(v: TurnVerdict, t, lang: str) -> list[str]:
    """What differs in a turn, one sentence each."""
    what = []
    if v.replay.error is not None:
        what.append(t("audit_what_error") + " " + v.replay.error.text(lang))
    elif v.replay.codes_only:
        what.append(t("audit_what_codes_only", files=v.replay.diffs))
    elif v.replay.diffs:
        what.append(t("audit_what_files", files=v.replay.diffs))
    if v.replay.extra:
        what.append(t("audit_what_extra", files=v.replay.extra))
    if v.thread_ok is False:
        what.append(t("audit_what_thread", shown=v.thread_differs, code=seal.short(v.code)))
    if not v.printed_ok:
        what.append(t("audit_what_printed", printed=seal.short(v.printed[-1]), code=seal.short(v.code)))
    return what
