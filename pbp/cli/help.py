"""The command line's help, and click's usage errors, in the MJ's language.

Every text is a message of pbp/messages.yaml, in fr and en: `help_pbp` for
`pbp --help`, `help_<command>` for a command, `help_<command>_<option>` for an
option (else `help_option_<option>`, the text several commands share; `<option>`
is the long flag without dashes, `-` as `_`), `click_*` for click's own words.
A ruleset's commands carry their own keys (`help_key`). The language: PBP_LANG,
else the campaign's `lang:` (campaign.yaml of -C or the current folder, read as
text: a broken file gives no language, never an error), else the locale, else
English.

click says its own words through gettext, whose language comes from the
environment only; the commands here write their help themselves (usage line,
headings, option table) so the language is the campaign's.
"""

from __future__ import annotations

import os
import re
import stat

import click
from click.utils import make_default_short_help

from pbp.base.patterns import Lazy

#: `lang: en` at the start of a line of campaign.yaml (quotes and a comment allowed)
_LANG_LINE = Lazy(rb"""^lang[ \t]*:[ \t]*["']?(fr|en)["']?[ \t]*(?:#[^\n]*)?\r?$""", re.M)
#: how much of campaign.yaml is read for its `lang:` (the key sits near the top)
CAMPAIGN_PEEK = 65536
FOLDER = "pbp.help_dir"
_META_LANG = "pbp.help_lang"


def env_lang() -> str | None:
    value = os.environ.get("PBP_LANG", "").lower()
    return value[:2] if value[:2] in ("fr", "en") else None


def campaign_lang(folder: str | None) -> str | None:
    """campaign.yaml's `lang:` as text, without a YAML load: --help must work,
    fast, in a folder whose campaign.yaml is broken, huge, or not a file."""
    path = _campaign_file(folder or ".")
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would hang the read
            return None
        with open(path, "rb") as file:
            head = file.read(CAMPAIGN_PEEK)
    except (OSError, ValueError):  # ValueError: a NUL in -C's path
        return None
    found = _LANG_LINE.search(head)
    return found.group(1).decode() if found else None


def _campaign_file(folder: str) -> str:
    """folder's campaign.yaml; where it has none, the one of the campaign it is in
    (an MJ in turns/006/ is answered in the campaign's language)."""
    path = os.path.join(folder, "campaign.yaml")
    if os.path.lexists(path):
        return path
    try:
        here = os.path.abspath(folder)
    except ValueError:  # a NUL in -C's path
        return path
    while os.path.dirname(here) != here:
        here = os.path.dirname(here)
        if os.path.isfile(os.path.join(here, "campaign.yaml")):
            return os.path.join(here, "campaign.yaml")
    return path


def locale_lang() -> str:
    # the first one set wins, as for any POSIX program
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def help_lang(folder: str | None) -> str:
    return env_lang() or campaign_lang(folder) or locale_lang()


def folder_in(args: list[str]) -> str | None:
    """-C's value in `pbp`'s own arguments (before the command name): read
    before click parses them, since `--help` answers during the parsing."""
    for i, arg in enumerate(args):
        if arg == "-C":
            return args[i + 1] if i + 1 < len(args) else None
        if arg.startswith("-C"):
            return arg[2:]
        if arg == "--" or not arg.startswith("-"):
            return None
    return None


def lang_of(ctx: click.Context) -> str:
    meta = ctx.meta
    if _META_LANG not in meta:
        meta[_META_LANG] = help_lang(meta.get(FOLDER))
    return meta[_META_LANG]


def say(ctx: click.Context, key: str, **params) -> str:
    from pbp.base import i18n

    return i18n.t(lang_of(ctx), key, **params)


def option_id(param: click.Parameter) -> str:
    """`--no-commit` -> no_commit, `-C` -> C: the option's part of its key."""
    longest = max(param.opts, key=len)
    return longest.lstrip("-").replace("-", "_")


def command_key(command: click.Command, root: bool = False) -> str:
    return getattr(command, "help_key", None) or ("help_pbp" if root else f"help_{command.name}")


def option_keys(command: click.Command, param: click.Parameter, root: bool = False) -> list[str]:
    """The keys an option's help is looked up by, the first found wins."""
    own = getattr(param, "help_key", None)
    if own:
        return [own]
    name = "pbp" if root else command.name
    return [f"help_{name}_{option_id(param)}", f"help_option_{option_id(param)}"]


def _text(ctx: click.Context, keys: list[str], default: str | None, **params) -> str:
    from pbp.base import i18n

    for key in keys:
        if i18n.has(key):
            return i18n.t(lang_of(ctx), key, **params)
    return default or ""


def command_help(ctx: click.Context, command: click.Command, root: bool = False) -> str:
    return _text(ctx, [command_key(command, root)], command.help, **getattr(command, "help_params", {}))


class Formatter(click.HelpFormatter):
    """Headings as the catalogue writes them: French puts a space before the
    colon ("Options :")."""

    def write_heading(self, heading: str) -> None:
        self.write(f"{'':>{self.current_indent}}{heading}\n")


class Context(click.Context):
    formatter_class = Formatter


#: a metavar's words, apart from the brackets and dots around them (`[BUNDLE]`, `EXPR...`, `KEY=VALUE`)
_METAVAR_WORD = Lazy(r"[A-Z][A-Z0-9_ ]*[A-Z0-9]|[A-Z]")


def _metavar(ctx: click.Context, metavar: str) -> str:
    """click's name of a value (TEXT, INTEGER, PATH...) and pbp's own (BUNDLE,
    KEY=VALUE, [NAME]) in words of the language, the brackets and dots kept."""
    from pbp.base import i18n

    def word(m) -> str:
        key = "click_metavar_" + m.group(0).lower().replace(" ", "_")
        return say(ctx, key) if i18n.has(key) else m.group(0)

    return _METAVAR_WORD.sub(word, metavar)


def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


class LocalHelp:
    """What a pbp command or group writes in its help: its texts looked up in
    the catalogue at the moment the help is shown, in the language of the
    command line being run."""

    context_class = Context

    def _is_root(self, ctx: click.Context) -> bool:
        return ctx.parent is None

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        # click's own asks gettext for its text, which searches the disk for
        # translations and imports locale, at every command; the text shown is
        # the catalogue's (`help_option_help`, see option_record)
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        if self._help_option is None:  # one option, kept: click orders the eager callbacks by identity
            self._help_option = click.Option(names, is_flag=True, expose_value=False, is_eager=True,
                                             callback=_show_help)
        return self._help_option

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        pieces = [_metavar(ctx, piece) for piece in self.collect_usage_pieces(ctx)]
        if pieces and pieces[0] == self.options_metavar:
            pieces[0] = say(ctx, "click_options_metavar")
        if isinstance(self, click.Group) and pieces and pieces[-1] == self.subcommand_metavar:
            pieces[-1] = say(ctx, "click_command_metavar")
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=say(ctx, "click_usage") + " ")

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        text = command_help(ctx, self, self._is_root(ctx)).partition("\f")[0]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def option_record(self, ctx: click.Context, param: click.Parameter) -> tuple[str, str] | None:
        record = param.get_help_record(ctx)
        if record is None or not isinstance(param, click.Option):
            return record
        names = record[0]
        if not param.is_flag and not param.count:
            metavar = param.make_metavar(ctx)
            if names.endswith(" " + metavar):
                names = names[: -len(metavar)] + _metavar(ctx, metavar)
        text = _text(ctx, option_keys(self, param, self._is_root(ctx)), param.help,
                     **getattr(param, "help_params", {}))
        extra = param.get_help_extra(ctx)
        items = []
        if "default" in extra:
            items.append(say(ctx, "click_default", default=extra["default"]))
        if "range" in extra:
            items.append(extra["range"])
        if "required" in extra:
            items.append(say(ctx, "click_required"))
        if items:
            joined = say(ctx, "click_separator").join(items)
            text = f"{text}  [{joined}]" if text else f"[{joined}]"
        return names, text

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records = [r for r in (self.option_record(ctx, p) for p in self.get_params(ctx)) if r is not None]
        if records:
            with formatter.section(say(ctx, "click_options")):
                formatter.write_dl(records)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        commands = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        commands = [(name, cmd) for name, cmd in commands if cmd is not None and not cmd.hidden]
        if not commands:
            return
        # The whole first sentence, wrapped by the formatter: a summary cut with "..." says less than it should.
        rows = [(name, make_default_short_help(command_help(ctx, cmd), 300)) for name, cmd in commands]
        with formatter.section(say(ctx, "click_commands")):
            formatter.write_dl(rows)


class PbpCommand(LocalHelp, click.Command):
    """A pbp command: help in the MJ's language."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # click refuses extra arguments in its own words: let them through, then refuse them in ours
        allowed = ctx.allow_extra_args
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        finally:
            ctx.allow_extra_args = allowed
        if rest and not allowed and not ctx.resilient_parsing:
            raise click.UsageError(say(ctx, "click_extra_arguments", arguments=rest, count=len(rest)), ctx)
        return rest


class LocalUsageError(click.UsageError):
    """A usage error (exit 2) told in the MJ's language: click's frame (usage,
    "Try ... for help.", "Error:") and the errors whose parts click gives
    (an unknown option or command, a missing option, a bad value); any other
    keeps click's text inside the translated frame."""

    def __init__(self, original: click.UsageError):
        super().__init__(original.message, original.ctx)
        self.original = original
        self.exit_code = original.exit_code
        self.lang = lang_of(original.ctx) if original.ctx is not None else help_lang(None)

    def _t(self, key: str, **params) -> str:
        from pbp.base import i18n

        return i18n.t(self.lang, key, **params)

    def format_message(self) -> str:
        exc = self.original
        if isinstance(exc, click.exceptions.NoSuchCommand):
            possible = exc.possibilities or []
            group = exc.ctx.command if exc.ctx is not None else None
            if not possible and isinstance(group, click.Group):  # its commands are loaded lazily: ask for their names
                from pbp.base import i18n

                found = i18n.closest(exc.command_name, group.list_commands(exc.ctx))
                possible = [found] if found else []
            return self._t("click_no_such_command", command=exc.command_name,
                           suggestion=possible[0] if possible else None)
        if isinstance(exc, click.NoSuchOption):
            possible = exc.possibilities or []
            return self._t("click_no_such_option", option=exc.option_name,
                           suggestion=possible[0] if possible else None)
        if isinstance(exc, click.MissingParameter) and exc.param is not None:
            if isinstance(exc.param, click.Option):
                return self._t("click_missing_option", option=" / ".join(exc.param.opts))
            return self._t("click_missing_argument", argument=exc.param.human_readable_name)
        if isinstance(exc, click.BadParameter) and exc.param is not None:
            param = exc.param
            hint = " / ".join(param.opts) if isinstance(param, click.Option) else param.human_readable_name
            if isinstance(param.type, click.Choice):
                return self._t("click_bad_choice", param=hint, valid=list(param.type.choices))
            if isinstance(param.type, click.IntRange) and isinstance(param, click.Option) and exc.ctx is not None:
                # not a whole number, or out of range: both are said by the range
                return self._t("click_bad_int_range", param=hint, range=param.get_help_extra(exc.ctx).get("range", ""))
            if isinstance(param.type, click.types.IntParamType) and not isinstance(param.type, click.IntRange):
                return self._t("click_bad_int", param=hint)
            return self._t("click_bad_value", param=hint, problem=exc.message)
        return exc.format_message()

    def show(self, file=None) -> None:
        file = file or click.get_text_stream("stderr")
        ctx = self.ctx
        color = None
        if ctx is not None:
            color = ctx.color
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                option = max(ctx.command.get_help_option_names(ctx), key=len)
                hint = self._t("click_try_help", command=f"{ctx.command_path} {option}") + "\n"
            click.echo(f"{ctx.get_usage()}\n{hint}", file=file, color=color)
        click.echo(self._t("click_error") + " " + self.format_message(), file=file, color=color)


def localized(exc: click.UsageError) -> click.UsageError:
    """exc as it is shown in the MJ's language (a request for help stays one)."""
    if isinstance(exc, (LocalUsageError, click.exceptions.NoArgsIsHelpError)):
        return exc
    return LocalUsageError(exc)
