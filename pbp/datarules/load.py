"""A data campaign's rules, from its file to the Program the engine plays:
read (a regular file of the campaign, bounded), held to its shape
(pbp.datarules.format), compiled and checked (pbp.datarules.lint). Every
problem of the file at once, each at its file:line, or the RulesFile with its
`program`."""

from __future__ import annotations

from pathlib import Path

from pbp.base.errors import ErrorList, InputError
from pbp.datarules import format as rules_format, lint
from pbp.datarules.format import RULES_FILE, RulesFile

#: the starter rules `pbp init --ruleset data` copies (the data ruleset's skeleton)
STARTER = Path(__file__).parent.parent / "rulesets" / "data" / "skeleton" / RULES_FILE


def read(root: Path, overrides: dict | None = None, lang: str = "fr") -> RulesFile:
    """rules.yaml of the campaign at `root`, read (`sources`) and checked."""
    return parse(sources(root)[RULES_FILE], RULES_FILE, overrides, lang)


def sources(root: Path) -> dict[str, bytes]:
    """The files a data campaign's rules are read from (name -> bytes): its
    rules.yaml, a regular file inside it, at most format.LIMITS["rules_file_bytes"]."""
    path = Path(root) / RULES_FILE
    if not path.exists():
        raise missing(RULES_FILE)
    return {RULES_FILE: read_file(path, RULES_FILE)}


def read_file(path: Path, name: str) -> bytes:
    """A rules file's bytes, refused (its size named) beyond format.LIMITS["rules_file_bytes"]
    before it is read: a stranger's rules file of a gigabyte is never held in memory."""
    from pbp.base.files import read_bytes

    limit = rules_format.LIMITS["rules_file_bytes"]
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0  # read_bytes says what is wrong with it
    if size > limit:
        rules_format.rules_schema()  # registers the messages
        raise InputError("rules_too_large", file=name, size=size, limit=limit)
    return read_bytes(path, name, limit)


def missing(name: str) -> InputError:
    rules_format.rules_schema()  # registers the messages
    return InputError("rules_missing", file=name)


def starter(overrides: dict | None = None) -> RulesFile:
    return parse(STARTER.read_bytes(), RULES_FILE, overrides)


def parse(data: bytes | str, source: str = RULES_FILE, overrides: dict | None = None,
          lang: str = "fr") -> RulesFile:
    """A rules file's bytes or text -> its checked RulesFile (with `program`), or
    an ErrorList of every problem."""
    rules = rules_format.parse(data, source, overrides)
    errors = lint.problems(rules, lang)
    if errors:
        raise ErrorList(sorted(errors, key=lambda e: e.line or 0))
    return rules
