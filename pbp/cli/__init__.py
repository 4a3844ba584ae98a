"""The `pbp` command line: options, messages, exit codes. No rules here.

Exit codes: 0 success, 1 invalid input (orders, campaign files), 2 usage error.
Each command lives in a module of this package by what it is about (setup,
orders, play, archive, balance, trust), imported only when that command runs:
making a command's click objects costs, and `pbp status` makes only its own.
Heavy modules are imported inside the commands, for the same reason.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import click

from pbp.cli import help as local_help
from pbp.cli.common import CONTEXT, FOLDER_PATH, PbpCommand, campaign_of, lang_of, say
from pbp.cli.help import LocalHelp

#: command name -> (module of pbp.cli, its function): see the module's docstring
COMMANDS = {
    "init": ("setup", "init"), "setup": ("setup", "setup"),
    "orders": ("orders", "orders"), "check": ("orders", "check"), "receipt": ("orders", "receipt"),
    "remind": ("orders", "remind"),
    "run": ("play", "run"), "post": ("play", "post"), "preview": ("play", "preview"),
    "status": ("archive", "status"), "verify": ("archive", "verify"), "undo": ("archive", "undo"),
    "roll": ("archive", "roll"),
    "odds": ("balance", "odds"), "simulate": ("balance", "simulate"),
    "posted": ("trust", "posted"), "reveal": ("trust", "reveal"), "audit": ("trust", "audit_command"),
    "dice-report": ("trust", "dice_report"), "secret": ("trust", "secret_group"),
    "rules": ("rules", "rules"),
}


class RulesetCommands(LocalHelp, click.Group):
    """`pbp <ruleset> ...`: the commands a ruleset declares (pbp.model.commands.Command),
    built into click commands only when used. The ruleset's `run` is pure: this
    opens the campaign, prints what it returns and writes its updates."""

    help_key = "help_ruleset_commands"

    def __init__(self, cls):
        super().__init__(cls.id)
        self.help_params = {"ruleset": cls.id}
        self.cls = cls
        cls.shared_data()  # registers the ruleset's messages, which hold the help texts
        for command in cls.commands:
            self.add_command(_ruleset_command(cls, command))


def _ruleset_command(cls, command) -> click.Command:
    """The click command of a ruleset's Command; its help texts are the
    ruleset's message keys, shown in the help's language (pbp.cli.help)."""

    def callback(**options):
        _run_ruleset_command(click.get_current_context(), cls, command, options)

    params = []
    for option in command.options:
        flag = "--" + option.name.replace("_", "-")
        if option.kind == "flag":
            param = click.Option([flag, option.name], is_flag=True)
        else:
            param = click.Option([flag, option.name], type=int if option.kind == "int" else str,
                                 required=option.required, multiple=option.multiple,
                                 default=option.default, metavar=option.metavar)
        param.help_key = f"{cls.id}.{option.help}"
        params.append(param)
    if command.reads:
        dry_run = click.Option(["--dry-run", "dry_run"], is_flag=True)
        dry_run.help_key = "option_dry_run"
        params.append(dry_run)
    result = PbpCommand(command.name, callback=callback, params=params)
    result.help_key = f"{cls.id}.{command.help}"
    return result


def _run_ruleset_command(ctx, cls, command, options) -> None:
    from pbp.base import i18n, yamlio
    from pbp.base.errors import PbpError
    from pbp.engine.campaign import set_yaml_key
    from pbp.model.commands import CommandRequest

    campaign = campaign_of(ctx)
    if campaign.ruleset.id != cls.id:
        raise PbpError("command_wrong_ruleset", command=f"{cls.id} {command.name}", ruleset=campaign.ruleset.id)
    dry_run = options.pop("dry_run", False)
    files = {}
    for name in command.reads:
        path = campaign.root / name
        data = yamlio.load_file(path) if path.exists() else None
        if data is not None and not isinstance(data, dict):
            raise PbpError("file_not_mapping", file=name)
        files[name] = data or {}
    request = CommandRequest(campaign.ruleset, campaign.roster, campaign.secret, campaign.lang, files, options)
    result = command.run(request)
    for line in result.lines:
        click.echo(line)
    for line in result.warnings:
        click.echo(line, err=True)
    if dry_run:
        say("dry_run_nothing_written")
        return
    for update in result.updates:
        set_yaml_key(campaign.root / update.file, update.key, update.value)
        click.echo(update.done or i18n.t(campaign.lang, "written", path=update.file))


class PbpGroup(LocalHelp, click.Group):
    """Turns every PbpError into a message and exit code 1, never a traceback.
    Rulesets' own commands appear as `pbp <ruleset-id> ...`. Help and usage
    errors speak the MJ's language (pbp.cli.help)."""

    command_class = PbpCommand

    def parse_args(self, ctx, args):
        if ctx.parent is None:
            ctx.meta[local_help.FOLDER] = local_help.folder_in(args)
        return super().parse_args(ctx, args)

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise local_help.localized(exc) from None

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx, name):
        if name in COMMANDS and name not in self.commands:
            module, function = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(f"pbp.cli.{module}"), function), name)
        command = super().get_command(ctx, name)
        if command is None:
            # `pbp d100 generate`: imported only when asked for, so `pbp --help` stays fast
            from pbp.model import ruleset

            cls = ruleset.with_commands(name)
            if cls is not None:
                return RulesetCommands(cls)
        return command

    def invoke(self, ctx):
        if "pbp.engine.campaign" in sys.modules:  # in-process callers (tests) run many commands
            sys.modules["pbp.engine.campaign"].WRITTEN.clear()
        if "pbp.render.render" in sys.modules:  # each command builds its own Renderers
            sys.modules["pbp.render.render"].forget_renderers()
        try:
            return self._invoke(ctx)
        finally:
            _say_damaged_cache(ctx)

    def _invoke(self, ctx):
        from pbp.base.errors import PbpError

        try:
            return super().invoke(ctx)
        except PbpError as exc:
            click.echo(exc.text(lang_of(ctx)), err=True)
            ctx.exit(1)
        except click.UsageError as exc:
            raise local_help.localized(exc) from None
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except BrokenPipeError:
            raise  # the reader of our output went away: click ends quietly (exit 1)
        except Exception as exc:  # a bug in pbp, not bad input: say so, briefly
            if os.environ.get("PBP_DEBUG"):
                raise
            click.echo(_internal_error_text(ctx, exc), err=True)
            ctx.exit(1)


def _say_damaged_cache(ctx) -> None:
    """Once per damaged entry of the user's cache this command met (it was
    ignored, and written again): on stderr, after the command's own output."""
    usercache = sys.modules.get("pbp.base.usercache")
    if usercache is None or not usercache.DAMAGED:
        return
    from pbp.base import i18n

    for path in usercache.DAMAGED:
        click.echo(i18n.t(lang_of(ctx), "cache_entry_damaged", path=f"{path.parent.name}/{path.name}"), err=True)
    usercache.DAMAGED.clear()


def _internal_error_text(ctx, exc: Exception) -> str:
    """A bug's message, with what this command had already written (the MJ must
    know whether the campaign folder changed)."""
    from pbp.base import i18n
    from pbp.engine.campaign import WRITTEN

    lang = lang_of(ctx)
    error = f"{type(exc).__name__}: {exc}"[:300]
    if not WRITTEN:
        return i18n.t(lang, "internal_error", error=error)
    shown = [str(p) for p in WRITTEN[:10]] + (["…"] if len(WRITTEN) > 10 else [])
    return i18n.t(lang, "internal_error_written", error=error, count=len(WRITTEN), files=shown)


def _print_version(ctx, param, value):
    # Not click.version_option: it asks gettext for its messages while the
    # module is imported, which searches the disk for translation files and
    # imports locale, on every command (a few percent of a short one).
    if value and not ctx.resilient_parsing:
        from pbp import __version__

        click.echo(f"pbp, version {__version__}")
        ctx.exit()


@click.group(cls=PbpGroup, context_settings=CONTEXT)
@click.option("-C", "campaign_dir", default=".", metavar="PATH", type=FOLDER_PATH)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version)
@click.pass_context
def main(ctx, campaign_dir):
    """pbp: play-by-post turn processor for forum RPG events.

    A ruleset's own commands: pbp RULESET COMMAND (e.g. pbp d100 generate --help)."""
    ctx.obj = {"dir": Path(campaign_dir)}


if __name__ == "__main__":
    sys.exit(main())
