"""A ruleset's own commands, `pbp <id> <command>` (capability COMMANDS, e.g.
`pbp d100 generate`): what a ruleset declares (`Command` and its `Option`s),
what the core hands its `run` (`CommandRequest`) and what `run` hands back
(`CommandResult`, with `SetKey` updates the core writes). Only the rulesets
that declare commands import this module.
"""

from __future__ import annotations

from typing import Callable

from pbp.base.record import FrozenRecord, Record


class Option(FrozenRecord):
    """One option of a ruleset command, `--<name> VALUE` (or a flag).
    `help` is a message key of the ruleset's messages.yaml."""

    __slots__ = ("name", "help", "kind", "required", "multiple", "default", "metavar")

    def __init__(self, name: str, help: str, kind: str = "text", required: bool = False, multiple: bool = False,
                 default: object = None, metavar: str | None = None):
        self.name = name
        self.help = help
        self.kind = kind  # text | int | flag
        self.required = required
        self.multiple = multiple
        self.default = default
        self.metavar = metavar


class Command(FrozenRecord):
    """A ruleset's own command, `pbp <id> <name>`. The core parses the options,
    opens the campaign, hands `run` a CommandRequest and carries out the
    CommandResult (prints its lines, writes its updates atomically, unless
    `--dry-run`): the ruleset's part stays pure."""

    __slots__ = ("name", "help", "options", "run", "reads")

    def __init__(self, name: str, help: str, options: tuple[Option, ...],
                 run: Callable[[CommandRequest], CommandResult], reads: tuple[str, ...] = ()):
        self.name = name
        self.help = help  # message key
        self.options = options
        self.run = run
        #: campaign files `run` reads, loaded as they are (not validated: the
        #: command may be what fills them)
        self.reads = reads


class CommandRequest(Record):
    __slots__ = ("ruleset", "roster", "secret", "lang", "files", "options")

    def __init__(self, ruleset: object, roster: dict[str, dict], secret: str, lang: str, files: dict[str, object],
                 options: dict[str, object]):
        self.ruleset = ruleset  # the campaign's pbp.model.ruleset.Ruleset (typed object: this module imports only pbp.base.record)
        self.roster = roster
        self.secret = secret
        self.lang = lang
        self.files = files  # each of Command.reads: its YAML data ({} when absent)
        self.options = options


class SetKey(FrozenRecord):
    """Set one top-level key of a campaign YAML mapping file (e.g. a sheet in
    characters.yaml); a new key is appended, keeping the MJ's comments."""

    __slots__ = ("file", "key", "value", "done")

    def __init__(self, file: str, key: str, value: object, done: str | None = None):
        self.file = file
        self.key = key
        self.value = value
        #: what to say once written (None: the core's "written <file>")
        self.done = done


class CommandResult(Record):
    __slots__ = ("lines", "warnings", "updates")

    def __init__(self, lines: list[str], warnings: list[str] | None = None, updates: list[SetKey] | None = None):
        self.lines = lines
        self.warnings = [] if warnings is None else warnings
        self.updates = [] if updates is None else updates
