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
    """rules.yaml of the campaign at `root`: a regular file inside it, at most
    format.LIMITS["rules_file_bytes"], read and checked."""
    from pbp.base.files import read_bytes

    path = Path(root) / RULES_FILE
    if not path.exists():
        rules_format.rules_schema()  # registers the messages
        raise InputError("rules_missing", file=RULES_FILE)
    return parse(read_bytes(path, RULES_FILE), RULES_FILE, overrides, lang)


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
