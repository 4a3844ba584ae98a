"""A ruleset's own commands, `pbp <id> <command>` (capability COMMANDS, e.g.
`pbp d100 generate`): what a ruleset declares (`Command` and its `Option`s),
what the core hands its `run` (`CommandRequest`) and what `run` hands back
(`CommandResult`, with `SetKey` updates the core writes). Only the rulesets
that declare commands import this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Option:
    """One option of a ruleset command, `--<name> VALUE` (or a flag).
    `help` is a message key of the ruleset's messages.yaml."""

    name: str
    help: str
    kind: str = "text"  # text | int | flag
    required: bool = False
    multiple: bool = False
    default: object = None
    metavar: str | None = None


@dataclass(frozen=True)
class Command:
    """A ruleset's own command, `pbp <id> <name>`. The core parses the options,
    opens the campaign, hands `run` a CommandRequest and carries out the
    CommandResult (prints its lines, writes its updates atomically, unless
    `--dry-run`): the ruleset's part stays pure."""

    name: str
    help: str  # message key
    options: tuple[Option, ...]
    run: Callable[["CommandRequest"], "CommandResult"]
    #: campaign files `run` reads, loaded as they are (not validated: the
    #: command may be what fills them)
    reads: tuple[str, ...] = ()


@dataclass
class CommandRequest:
    ruleset: object  # the campaign's pbp.ruleset.Ruleset (this module imports nothing of pbp)
    roster: dict[str, dict]
    secret: str
    lang: str
    files: dict[str, object]  # each of Command.reads: its YAML data ({} when absent)
    options: dict[str, object]


@dataclass(frozen=True)
class SetKey:
    """Set one top-level key of a campaign YAML mapping file (e.g. a sheet in
    characters.yaml); a new key is appended, keeping the MJ's comments."""

    file: str
    key: str
    value: object
    #: what to say once written (None: the core's "written <file>")
    done: str | None = None


@dataclass
class CommandResult:
    lines: list[str]
    warnings: list[str] = field(default_factory=list)
    updates: list[SetKey] = field(default_factory=list)
