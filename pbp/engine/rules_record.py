"""The rules a turn was played with, kept with the turn.

A ruleset may read its rules from files of the campaign (the data ruleset:
rules.yaml, and any file beside it it reads: `Ruleset.sources`). An MJ may edit
them mid-game: the change applies from the next turn, and `pbp verify` and
`pbp audit` replay every turn with the rules it was played with.

Each turn's record (turn.yaml) says, for every such file, the sha256 of the
bytes the turn was played with and the turn folder that keeps those bytes:

    rules_files:
      rules.yaml: {sha256: 9f86d0…, kept_in: 3}

A turn whose files differ from the previous turn's (turn 0 always, and the
first turn an older campaign plays with this record) keeps a copy of them in its
own folder, `turns/NNN/rules/<name>`; the next turns name that folder. So the
text lives once in the archive however long the game (a bundle holds every turn
folder: a copy a turn would make a 500-turn game carry 500 copies), and the
folder where a copy appears is where the rules changed, for anyone to see.

What guards it: the copy and turn.yaml are files of their turn folders, so the
turn codes cover them (pbp/engine/seal.py); a replay reads the copy back and refuses it
when its bytes are not the sha256 its record says; and the replay writes the
copy and the record again, which must come out byte for byte. A record without
`rules_files` (an archive from before) replays with the campaign's files of
today, as it always did.
"""

from __future__ import annotations

import hashlib
import re

from pbp.base import yamlio
from pbp.base.errors import InputError
from pbp.base.record import Record

#: the key of turn.yaml, and the folder of a turn that keeps the copies
KEY = "rules_files"
COPY_FOLDER = "rules"
#: the name of a rules file as recorded: a plain name in the campaign's folder, never a path
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
#: how many changes `changes` lists before it says how many more
SHOWN_CHANGES = 20
#: the most bytes a kept copy is read to: a ruleset refuses its own files beyond
#: their limit (the data ruleset: 256 KiB) with its message; this only bounds the read
MAX_COPY_BYTES = 1024 * 1024


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def copy_path(name: str) -> str:
    """Where a turn folder keeps its copy of the rules file `name`."""
    return f"{COPY_FOLDER}/{name}"


def stamp(campaign, n: int, record: dict, previous: dict) -> dict[str, bytes]:
    """Add to turn n's `record` the rules files its ruleset was read from
    (right after the `rules` overrides); returns the copies turn n keeps (path
    in its folder -> bytes): those that differ from the previous turn's."""
    sources = campaign.ruleset.sources
    if not sources:
        return {}
    before = previous.get(KEY) if isinstance(previous.get(KEY), dict) else {}
    entries, copies = {}, {}
    for name, data in sorted(sources.items()):
        digest = sha256(data)
        was = before.get(name)
        if isinstance(was, dict) and was.get("sha256") == digest and isinstance(was.get("kept_in"), int):
            entries[name] = {"sha256": digest, "kept_in": was["kept_in"]}
        else:
            entries[name] = {"sha256": digest, "kept_in": n}
            copies[copy_path(name)] = data
    rest = {k: record.pop(k) for k in list(record) if k not in ("roster", "render", "dice", "rules")}
    record[KEY] = entries
    record.update(rest)
    return copies


def check(record: dict, n: int, file: str, text: str) -> None:
    """A record's `rules_files` as pbp writes it, refused on its line of turn.yaml
    (`file`) otherwise: plain file names, each with a sha256 and the turn
    (0 to n) that keeps its copy. An archive is a stranger's file in an audit."""
    entries = record.get(KEY)
    if entries is None:
        return
    if not isinstance(entries, dict) or not entries:
        raise InputError("rules_record_bad", file=file, line=yamlio.line_of(text, (KEY,)), turn=n)
    for name, entry in entries.items():
        at = (KEY, name)
        if not isinstance(name, str) or not NAME.match(name):
            raise InputError("rules_record_name", file=file, line=yamlio.line_of(text, at), name=name)
        if not isinstance(entry, dict) or set(entry) != {"sha256", "kept_in"}:
            wrong = at
        elif not isinstance(entry["sha256"], str) or not SHA256.match(entry["sha256"]):
            wrong = at + ("sha256",)
        elif type(entry["kept_in"]) is not int or not 0 <= entry["kept_in"] <= n:
            wrong = at + ("kept_in",)
        else:
            continue
        raise InputError("rules_record_bad", file=file, line=yamlio.line_of(text, wrong), turn=n)


def same_as_now(campaign, record: dict) -> bool:
    """Whether a turn was played with the rules files the campaign has today
    (a record without them: from before they were recorded, so yes)."""
    entries = record.get(KEY)
    if entries is None:
        return True
    now = {name: sha256(data) for name, data in campaign.ruleset.sources.items()}
    return now == {name: entry["sha256"] for name, entry in entries.items()}


class Recorded(Record):
    """The rules files a turn's record names: read back from the folders that
    keep them (`files`), each held to its recorded sha256."""

    __slots__ = ("turn", "record_file", "entries")

    def __init__(self, turn: int, record_file: str, entries: dict):
        self.turn = turn
        self.record_file = record_file  # turns/NNN/turn.yaml, as a message names it
        self.entries = entries  # name -> {sha256, kept_in}, as `check` let them through

    def shown(self, campaign) -> dict[str, str]:
        """name -> the copy's path in the campaign, as a message names it."""
        return {name: campaign.rel(campaign.turn_dir(e["kept_in"]) / COPY_FOLDER / name)
                for name, e in self.entries.items()}

    def files(self, campaign) -> dict[str, bytes]:
        """name -> the bytes its copy holds (`file`)."""
        return {name: self.file(campaign, name) for name in self.entries}

    def file(self, campaign, name: str) -> bytes:
        """The bytes the copy of `name` holds (at most MAX_COPY_BYTES); a copy
        missing or not the bytes recorded is refused, naming both files."""
        entry = self.entries[name]
        path = campaign.turn_dir(entry["kept_in"]) / COPY_FOLDER / name
        rel = campaign.rel(path)
        if not campaign.has_input(path):
            raise InputError("rules_copy_missing", file=rel, record=self.record_file, turn=self.turn)
        data = campaign.read_input(path, MAX_COPY_BYTES, "rules_copy_bytes")
        if sha256(data) != entry["sha256"]:
            raise InputError("rules_copy_changed", file=rel, record=self.record_file, turn=self.turn)
        return data


def recorded(campaign, n: int, record: dict) -> Recorded:
    return Recorded(n, campaign.rel(campaign.turn_dir(n) / "turn.yaml"), dict(record[KEY]))


# -- what changed, for the MJ ----------------------------------------------------------

class Change(Record):
    """One value of a rules file that is not what it was."""

    __slots__ = ("file", "line", "path", "was", "now")

    def __init__(self, file: str, line: int | None, path: str, was, now):
        self.file, self.line, self.path, self.was, self.now = file, line, path, was, now


MISSING = object()


def changes(campaign, previous: dict, previous_turn: int) -> list[Change]:
    """What the campaign's rules say today that they did not say when turn
    `previous_turn` was played (its record, `previous`): each value of its
    rules files and of campaign.yaml's `rules:` overrides that changed, was
    added or removed, at its line. Nothing for a record from before pbp
    recorded them."""
    from pbp.engine.campaign import CAMPAIGN_FILE

    found: list[Change] = []
    if "rules" in previous and (previous["rules"] or {}) != (campaign.config.get("rules") or {}):
        found += _differences(CAMPAIGN_FILE, previous["rules"] or {}, campaign.config.get("rules") or {},
                              _lines(campaign.text), ("rules",))
    entries = previous.get(KEY)
    if isinstance(entries, dict):
        sources = campaign.ruleset.sources
        old = recorded(campaign, previous_turn, previous)
        for name in sorted(set(entries) | set(sources)):
            if name in sources and name in entries and sha256(sources[name]) == entries[name]["sha256"]:
                continue
            was = old.file(campaign, name) if name in entries else b""
            found += _file_changes(name, was, sources.get(name, b""))
    return found


def _lines(text: str) -> yamlio.Lines:
    try:
        return yamlio.load_untrusted(text, "")[1]
    except InputError:
        return yamlio.Lines()


def _file_changes(name: str, was: bytes, now: bytes) -> list[Change]:
    """The values of a YAML rules file that changed; a file that does not read
    as YAML, its lines that changed."""
    try:
        old_value, _ = yamlio.load_untrusted(was, name)
        new_value, lines = yamlio.load_untrusted(now, name)
    except InputError:
        return _line_changes(name, was, now)
    return _differences(name, old_value, new_value, lines, ())


def _line_changes(name: str, was: bytes, now: bytes) -> list[Change]:
    import difflib

    old = was.decode("utf-8", "replace").splitlines()
    new = now.decode("utf-8", "replace").splitlines()
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            found.append(Change(name, j1 + 1, "", "\n".join(old[i1:i2]), "\n".join(new[j1:j2])))
    return found


def _differences(name: str, old, new, lines: yamlio.Lines, path: tuple) -> list[Change]:
    """Every leaf value of `new` that is not `old`'s at the same path (added:
    was MISSING; removed: now MISSING), in the order of `new`."""
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in list(new) + [k for k in old if k not in new]:
            found += _differences(name, old.get(key, MISSING), new.get(key, MISSING), lines, path + (key,))
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):  # a row changed, not the table
        return [change for i, (was, now) in enumerate(zip(old, new))
                for change in _differences(name, was, now, lines, path + (i,))]
    if old == new:
        return []
    line = lines.line(path) if new is not MISSING else None
    shown = "".join(f"[{step + 1}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")
    return [Change(name, line, shown, old, new)]


def said(changes_found: list[Change], lang: str) -> list[str]:
    """The changes as lines for the MJ (at most SHOWN_CHANGES, then how many more)."""
    from pbp.base import i18n

    out = []
    for change in changes_found[:SHOWN_CHANGES]:
        where = f"{change.file}:{change.line}" if change.line else change.file
        if change.was is MISSING:
            key = "rules_change_added"
        elif change.now is MISSING:
            key = "rules_change_removed"
        else:
            key = "rules_change_value"
        out.append(i18n.t(lang, key, where=where, path=change.path or "-", was=_value(change.was),
                          now=_value(change.now)))
    if len(changes_found) > SHOWN_CHANGES:
        out.append(i18n.t(lang, "rules_change_more", count=len(changes_found) - SHOWN_CHANGES))
    return out


def _value(value) -> str:
    from pbp.base.i18n import shown

    if value is MISSING:
        return ""
    text = value if isinstance(value, str) else yamlio.dumps(value).strip() if isinstance(value, (dict, list)) \
        else str(value).lower() if isinstance(value, bool) else str(value)
    return shown(text.replace("\n", " / "), 120)


def notice(campaign, last: int, record: dict) -> list[str]:
    """For `pbp run` and `pbp status`: the lines that tell the MJ how the rules
    changed since turn `last` was played (its `record`; [] when they did not)."""
    from pbp.base import i18n

    found = changes(campaign, record, last)
    if not found:
        return []
    return [i18n.t(campaign.lang, "rules_changed_since", turn=last, next=last + 1)] + said(found, campaign.lang)
