"""The `pbp` command line: options, messages, exit codes. No rules here.

Exit codes: 0 success, 1 invalid input (orders, campaign files), 2 usage error.
Heavy modules are imported inside the commands so `pbp --help` starts fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from pbp import help as local_help
from pbp.help import LocalHelp, PbpCommand

CONTEXT = {"help_option_names": ["-h", "--help"]}
# Help texts are messages (pbp/messages.yaml, fr and en), not `help=` strings:
# `help_<command>` for a command, `help_<command>_<option>` or the shared
# `help_option_<option>` for an option (pbp/help.py; tests/test_help.py checks
# that every command and option has both).


def _lang(ctx: click.Context | None) -> str:
    if ctx is not None and ctx.obj and ctx.obj.get("lang"):
        return ctx.obj["lang"]
    env = os.environ.get("PBP_LANG") or ""
    return "en" if env.startswith("en") else "fr"


def say(key: str, /, **params) -> None:
    from pbp import i18n

    click.echo(i18n.t(_lang(click.get_current_context(silent=True)), key, **params))


class RulesetCommands(LocalHelp, click.Group):
    """`pbp <ruleset> ...`: the commands a ruleset declares (pbp.commands.Command),
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
    ruleset's message keys, shown in the help's language (pbp.help)."""

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
    from pbp import i18n, yamlio
    from pbp.campaign import set_yaml_key
    from pbp.commands import CommandRequest
    from pbp.errors import PbpError

    campaign = _campaign(ctx)
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


class PbpSubgroup(LocalHelp, click.Group):
    """A group under pbp (`pbp orders` and its `import`): help in the MJ's language."""

    command_class = PbpCommand


class PbpGroup(LocalHelp, click.Group):
    """Turns every PbpError into a message and exit code 1, never a traceback.
    Rulesets' own commands appear as `pbp <ruleset-id> ...`. Help and usage
    errors speak the MJ's language (pbp.help)."""

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

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        if command is None:
            # `pbp d100 generate`: imported only when asked for, so `pbp --help` stays fast
            from pbp import ruleset

            cls = ruleset.with_commands(name)
            if cls is not None:
                return RulesetCommands(cls)
        return command

    def invoke(self, ctx):
        from pbp.errors import PbpError

        if "pbp.campaign" in sys.modules:  # in-process callers (tests) run many commands
            sys.modules["pbp.campaign"].WRITTEN.clear()
        if "pbp.render" in sys.modules:  # each command builds its own Renderers
            sys.modules["pbp.render"].forget_renderers()
        try:
            return super().invoke(ctx)
        except PbpError as exc:
            click.echo(exc.text(_lang(ctx)), err=True)
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


def _internal_error_text(ctx, exc: Exception) -> str:
    """A bug's message, with what this command had already written (the MJ must
    know whether the campaign folder changed)."""
    from pbp import i18n
    from pbp.campaign import WRITTEN

    lang = _lang(ctx)
    error = f"{type(exc).__name__}: {exc}"[:300]
    if not WRITTEN:
        return i18n.t(lang, "internal_error", error=error)
    shown = [str(p) for p in WRITTEN[:10]] + (["…"] if len(WRITTEN) > 10 else [])
    return i18n.t(lang, "internal_error_written", error=error, count=len(WRITTEN), files=shown)


# The path types of the options, made once: each click.Path asks gettext for its
# name when made, and gettext searches the disk for translations each time.
FILE_PATH = click.Path(dir_okay=False, path_type=Path)
FOLDER_PATH = click.Path(file_okay=False, path_type=Path)


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


def _campaign(ctx):
    from pbp.campaign import open_campaign

    campaign = open_campaign(ctx.obj["dir"])
    ctx.obj["lang"] = campaign.lang
    return campaign


FORMAT = click.option("--format", "fmt", type=click.Choice(["bbcode", "markdown"]), default=None)


# -- init -----------------------------------------------------------------------

@main.command()
@click.argument("path", type=FOLDER_PATH)
@click.option("--ruleset", "ruleset_id", required=True)
@click.option("--example", is_flag=True)
@click.option("--lang", type=click.Choice(["fr", "en"]), default=None)
@click.option("--no-git", is_flag=True)
@click.pass_context
def init(ctx, path, ruleset_id, example, lang, no_git):
    """Create a new campaign folder."""
    import secrets
    import shutil

    from pbp import archive, ruleset
    from pbp.campaign import atomic_write
    from pbp.errors import PbpError
    from pbp.render import package_dir

    if lang:
        ctx.obj["lang"] = lang
    cls = type(ruleset.get(ruleset_id))
    if path.exists() and any(path.iterdir()):
        raise PbpError("init_not_empty", file=path)
    if example:
        if not cls.example or not (package_dir("campaigns") / cls.example).is_dir():
            raise PbpError("no_example", ruleset=ruleset_id)
        shutil.copytree(package_dir("campaigns") / cls.example, path, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".pbp.lock", "*.tmp", "__pycache__"))
    else:
        skeleton = cls.folder() / "skeleton"
        if skeleton.is_dir():
            shutil.copytree(skeleton, path, dirs_exist_ok=True)
        else:
            path.mkdir(parents=True, exist_ok=True)
        config = path / "campaign.yaml"
        text = config.read_text(encoding="utf-8") if config.exists() else (
            f"ruleset: {ruleset_id}\ntitle: {path.name}\nlang: fr\nformat: bbcode\nplayers: {{}}\n")
        text = text.replace("{secret}", secrets.token_hex(16)).replace("{title}", path.name)
        if "secret:" not in text:
            text += f"secret: {secrets.token_hex(16)}\n"
        if lang:
            text = "\n".join(f"lang: {lang}" if line.startswith("lang:") else line for line in text.split("\n"))
        atomic_write(config, text)
    say("init_done", path=path, ruleset=ruleset_id)
    if not no_git:
        if archive.repository(path) is None:
            archive.init(path, f"pbp init ({ruleset_id})")
            say("git_initialised")
        else:
            archive.commit(path.resolve(), f"pbp init ({ruleset_id})")
    say("init_example_next" if example else "init_next", path=path)


# -- setup ----------------------------------------------------------------------

@main.command()
@FORMAT
@click.option("--no-commit", is_flag=True)
@click.pass_context
def setup(ctx, fmt, no_commit):
    """Ruleset set-up (sheet draw, placement): writes turns/000/."""
    from pbp import seal, turn
    from pbp.errors import PbpError

    campaign = _campaign(ctx)
    with campaign.lock():
        if campaign.last_turn() is not None:
            raise PbpError("already_set_up")
        out = turn.compute_setup(campaign)
        turn.render_all(campaign, out, fmt)
        code = seal.seal_output(campaign, out)
        written = turn.write(campaign, out)
        seal.record_printed(campaign, 0, code)
        say("setup_done", count=len(written), folder=campaign.rel(campaign.turn_dir(0)))
        _commit(campaign, "commit_setup", no_commit)


def _commit(campaign, key: str, no_commit: bool, **params) -> None:
    from pbp import archive, i18n

    if no_commit:
        return
    if archive.repository(campaign.root) is None:
        say("not_git")
        return
    sha = archive.commit(campaign.root, i18n.t(campaign.lang, key, **params))
    if sha:
        say("committed", sha=sha)


# -- orders / check ---------------------------------------------------------------

@main.group(cls=PbpSubgroup, invoke_without_command=True, context_settings=CONTEXT)
@click.option("--player", "handle", default=None)
@click.option("--write", "write_file", is_flag=True)
@click.pass_context
def orders(ctx, handle, write_file):
    """A blank order file for the next turn, legal actions in comments.

    `pbp orders import --player H [FILE|-]` reads a player's message instead."""
    if ctx.invoked_subcommand is not None:
        ctx.obj["orders_player"] = handle  # `pbp orders --player H import` names the player too
        if write_file:
            raise click.UsageError("--write goes after `import`: pbp orders import --player H --write", ctx)
        return
    if handle is None:
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "handle"))
    from pbp import orders as od, turn
    from pbp.campaign import atomic_write
    from pbp.errors import PbpError
    from pbp.render import Renderer, template_paths

    campaign = _campaign(ctx)
    handle = campaign.handle(handle)
    n = turn.next_turn(campaign)
    state = campaign.state(n - 1)
    rs, scenario = campaign.ruleset, campaign.scenario
    if rs.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    if handle not in rs.players_to_play(state, scenario):
        raise PbpError("player_out_no_form", player=handle, character=scenario.name(handle))
    actions = [dict(id=a, en=(spec or {}).get("en"), arg=od.describe((spec or {}).get("arg"), rs, campaign.lang),
                    spec=spec or {})
               for a, spec in rs.actions.items()]
    paths = template_paths(rs.id, campaign.lang, campaign.root, rs.folder())
    text = Renderer(paths, "text", lang=campaign.lang).render(
        "orders_form", player=handle, character=scenario.name(handle), turn=n, actions=actions,
        playing=handle in rs.players_to_play(state, scenario),
        hints=rs.order_context(state, scenario, handle))
    if write_file:
        target = campaign.turn_dir(n) / "orders" / f"{handle}.yaml"
        if target.exists():
            raise PbpError("orders_exist", file=campaign.rel(target))
        atomic_write(target, text)
        say("written", path=campaign.rel(target))
    else:
        click.echo(text, nl=False)


@orders.command("import")
@click.argument("message", required=False, default="-", metavar="[FILE|-]")
@click.option("--player", "handle", default=None)
@click.option("--write", "write_file", is_flag=True)
@click.option("--force", is_flag=True)
@FORMAT
@click.pass_context
def orders_import(ctx, message, handle, write_file, force, fmt):
    """A player's message (pasted into FILE, or on standard input) made their order
    file for the next turn: prints what was understood, what `pbp check` says of it
    and the receipt to send back. Anything ambiguous or unknown is asked (exit 1,
    nothing written)."""
    from pbp import i18n, import_orders, turn
    from pbp.campaign import atomic_write
    from pbp.errors import InputError

    handle = handle or ctx.obj.get("orders_player")
    if handle is None:
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "handle"))
    campaign = _campaign(ctx)
    lang = campaign.lang
    handle = campaign.handle(handle)
    limit = campaign.limits["order_file_bytes"]
    source = "<stdin>" if message == "-" else message
    data = import_orders.read_source(message, click.get_binary_stream("stdin"), limit)
    text = import_orders.read_message(data, source, limit)
    if write_file and not force:
        existing = [p for h, p in campaign.order_files(turn.next_turn(campaign)) if h == handle]
        if existing:
            raise InputError("import_exists", file=campaign.rel(existing[0]))
    result = import_orders.import_message(campaign, handle, text)
    if result.reading.questions:
        for question in result.reading.questions:
            click.echo(question.text(lang), err=True)
        click.echo(i18n.t(lang, "import_questions", count=len(result.reading.questions)), err=True)
        ctx.exit(1)
    if write_file:
        with campaign.lock():
            for old in result.existing:
                if old != result.target:
                    old.unlink()  # --force: the imported file replaces the player's (Lucy.yml too)
            atomic_write(result.target, result.text)
        say("written", path=campaign.rel(result.target))
    else:
        click.echo(result.text, nl=False)
        if result.existing:
            say("import_exists_note", files=[campaign.rel(p) for p in result.existing])
    click.echo("")
    if result.problems:
        say("import_check_refused", count=len(result.problems))
        for problem in result.problems:
            click.echo("  " + problem.text(lang))
    else:
        say("import_check_ok", count=len(result.receipt["actions"]))
    click.echo("")
    say("import_receipt")
    click.echo(turn.renderer(campaign, fmt).render("receipt", title=campaign.title, **result.receipt), nl=False)
    if result.problems:
        ctx.exit(1)


@main.command()
@click.option("--turn", "n", type=int, default=None)
@click.pass_context
def check(ctx, n):
    """Validate the submitted orders; list who has not sent any."""
    from pbp import i18n, loop, turn

    campaign = _campaign(ctx)
    lang = campaign.lang
    n = turn.check_turn_number(campaign, n)
    report = loop.check_turn(campaign, n)
    inputs = report.inputs
    for error in inputs.errors + report.forced:
        click.echo(error.text(lang), err=True)
    for note in inputs.ignored + report.unused:
        click.echo(note.text(lang), err=True)
    names = campaign.names

    def who(handles):
        return [f"{h} ({names.get(h, h)})" if names.get(h, h) != h else h for h in handles]

    if inputs.valid:
        counts = [f"{h} ({i18n.t(lang, 'n_actions', count=len(inputs.orders[h].actions))})" for h in inputs.valid]
        say("check_valid", count=len(inputs.valid), players=counts)
    if inputs.refused:
        say("check_refused", count=len(inputs.refused), players=who(inputs.refused))
    missing = inputs.missing  # expected, and no orders: nothing sent, or a blank form
    silent = [h for h in missing if h not in inputs.blank]
    if silent:
        say("check_missing", count=len(silent), players=who(silent))
    if inputs.blank:
        say("check_blank", players=who(inputs.blank))
    if inputs.inactive:
        say("check_inactive", players=who(inputs.inactive))
    for h, why in inputs.lost.items():  # one line each: a reason is a sentence
        say("check_lost", player=who([h])[0], reason=i18n.t(lang, f"{campaign.ruleset.id}.{why}"))
    if report.ok and inputs.gm.rolls and not report.unused:
        say("check_forced_ok", count=len(inputs.gm.rolls))
    if report.ok and not missing:
        say("check_all_done", turn=n)
    else:
        say("check_summary", turn=n, accepted=len(inputs.valid), refused=len(inputs.refused),
            missing=len(missing))
    if not report.ok:
        ctx.exit(1)


@main.command()
@click.option("--player", "handle", required=True)
@click.option("--turn", "n", type=int, default=None)
@FORMAT
@click.pass_context
def receipt(ctx, handle, n, fmt):
    """What pbp understood of a player's orders, ready to paste into a private message."""
    from pbp import loop, turn

    campaign = _campaign(ctx)
    handle = campaign.handle(handle)
    n = turn.check_turn_number(campaign, n)
    context = loop.receipt(campaign, handle, n)
    click.echo(turn.renderer(campaign, fmt).render("receipt", title=campaign.title, **context), nl=False)


@main.command()
@click.option("--turn", "n", type=int, default=None)
@FORMAT
@click.pass_context
def remind(ctx, n, fmt):
    """A reminder post: who has not sent valid orders yet, and the deadline."""
    from pbp import loop, turn

    campaign = _campaign(ctx)
    n = turn.check_turn_number(campaign, n)
    context = loop.reminder(campaign, n)
    click.echo(turn.renderer(campaign, fmt).render("remind", title=campaign.title, names=campaign.names,
                                                   **context), nl=False)


# -- run / post -------------------------------------------------------------------

@main.command()
@click.option("--turn", "n", type=int, default=None)
@FORMAT
@click.option("--no-commit", is_flag=True)
@click.option("--dry-run", is_flag=True)
@click.pass_context
def run(ctx, n, fmt, no_commit, dry_run):
    """Resolve the next turn, write its outputs, commit."""
    from pbp import seal, turn

    campaign = _campaign(ctx)
    with campaign.lock():
        n = turn.check_turn_number(campaign, n)
        out = turn.compute(campaign, n)
        turn.render_all(campaign, out, fmt)
        code = seal.seal_output(campaign, out)
        for warning in out.warnings:
            click.echo(warning.text(campaign.lang), err=True)
        if dry_run:
            public = next(v for k, v in out.files.items() if k.startswith("public."))
            click.echo(public.decode(), nl=False)
            # every label this turn rolls, so the MJ can force any of them in gm.yaml
            say("dry_run_rolls", count=len(out.rolls))
            for roll in out.rolls:
                say("dry_run_roll_forced" if roll.forced else "dry_run_roll", label=roll.label, expr=roll.expr,
                    total=roll.total)
            say("dry_run", turn=n)
            return
        written = turn.write(campaign, out)
        seal.record_printed(campaign, n, code)
        say("run_done", turn=n, count=len(written), folder=campaign.rel(campaign.turn_dir(n)))
        if out.inputs.missing:
            say("run_defaulted", players=out.inputs.defaulted)  # a blank form is among them
        if campaign.ruleset.is_over(out.state):
            say("game_finished")
        _commit(campaign, "commit_turn", no_commit, turn=n)


@main.command()
@click.option("--turn", "n", type=int, default=None)
@click.option("--player", "handle", default=None)
@click.option("--gm", "for_gm", is_flag=True)
@FORMAT
@click.pass_context
def post(ctx, n, handle, for_gm, fmt):
    """Print a post as the turn wrote and sealed it (public by default); in another --format, it is rendered again."""
    campaign, n, audience, _ = _which_post(ctx, n, handle, for_gm)
    click.echo(_post_text(campaign, n, audience, fmt), nl=False)


def _which_post(ctx, n: int | None, handle: str | None, for_gm: bool):
    """The campaign, the turn (default: the last resolved) and the reader of the
    post `--turn`, `--player` and `--gm` name, and the player's handle as the
    roster spells it."""
    from pbp import events
    from pbp.errors import PbpError

    if handle and for_gm:
        raise click.UsageError(local_help.say(ctx, "usage_player_or_gm"), ctx)
    campaign = _campaign(ctx)
    if n is None:
        n = campaign.last_turn()
        if n is None:
            raise PbpError("not_set_up")
    if handle is not None:
        handle = campaign.handle(handle)
    # --player names a player, always: `--player gm` is the player whose handle is gm (a roster
    # refuses that handle anyway), never the MJ's report
    if for_gm:
        return campaign, n, events.GM, None
    if handle is not None:
        return campaign, n, events.Players(handle), handle
    return campaign, n, events.PUBLIC, None


def _post_text(campaign, n: int, audience, fmt: str | None = None) -> str:
    """A post as the MJ pastes it: the one the turn wrote (what its seal covers), or
    rendered again from the turn's events in another format; its seal codes filled in."""
    from pbp import seal, turn

    text = turn.archived_post(campaign, n, audience, fmt)
    if text is None:
        stored = turn.stored_events(campaign, n)
        text = turn.render_post(campaign, n, stored, audience, turn.renderer(campaign, fmt)).encode()
    code = seal.archive_codes(campaign, upto=n, remembered=True).get(n)
    return (seal.fill(text, code, seal.commitment(campaign.secret)) if code else seal.unfilled(text)).decode()


@main.command()
@click.option("--turn", "n", type=int, default=None)
@click.option("--player", "handle", default=None)
@click.option("--gm", "for_gm", is_flag=True)
@click.option("--output", "output", type=FILE_PATH, default=None)
@click.option("--open", "open_page", is_flag=True)
@click.pass_context
def preview(ctx, n, handle, for_gm, output, open_page):
    """An HTML page showing a post as the campaign's forum will (public by default)."""
    import webbrowser

    from pbp import i18n, preview as pv
    from pbp.campaign import atomic_write

    campaign, n, audience, handle = _which_post(ctx, n, handle, for_gm)
    text = _post_text(campaign, n, audience)  # the very text `pbp post` prints
    template, player = ("gm", None) if for_gm else ("private", handle) if handle is not None else ("public", None)
    label = i18n.t(campaign.lang, f"preview_{template}", turn=n, player=player,
                   character=campaign.names.get(player) if player else None)
    page = pv.page(text, campaign.format, campaign.dialect, campaign.lang, campaign.title, label)
    target = output if output is not None else campaign.turn_dir(n) / pv.file_name(template, player)
    atomic_write(target, page)
    say("preview_written", path=campaign.rel(target.resolve()))
    if open_page:
        opened = webbrowser.open(target.resolve().as_uri())
        say("preview_opened" if opened else "preview_no_browser", path=campaign.rel(target.resolve()))


# -- status / verify / undo / roll -------------------------------------------------

@main.command()
@click.pass_context
def status(ctx):
    """The MJ's overview of the current state (secret)."""
    from pbp import seal, turn
    from pbp.deadline import turn_deadline
    from pbp.errors import PbpError

    campaign = _campaign(ctx)
    n = campaign.last_turn()
    if n is None:
        raise PbpError("not_set_up")
    state = campaign.state(n)
    rend = turn.renderer(campaign, "text")
    rs, scenario = campaign.ruleset, campaign.scenario
    entries = rs.status(state, scenario)
    record = turn.record_of(campaign, n)
    flag_after = campaign.nmr.get("flag_after")
    missed = record.get("missed") or {}
    received = sorted({handle for handle, _ in campaign.order_files(n + 1)})
    playing = rs.players_to_play(state, scenario)
    deadline = turn_deadline(campaign.config.get("deadline"), n + 1, campaign.lang)
    click.echo(rend.render("status", turn=n, title=campaign.title, events=entries, over=rs.is_over(state),
                           received=received, expected=[h for h in playing if not rs.lost_turn(state, scenario, h)
                                                         and h not in (record.get("inactive") or [])],
                           names={h: scenario.name(h) for h in campaign.roster}, missed=missed,
                           flagged=[h for h, c in missed.items() if flag_after and c >= flag_after],
                           inactive=record.get("inactive") or [], deadline=deadline),
               nl=False)
    try:  # where the archive no longer matches the codes printed or posted (pbp/seal.py)
        for problem in seal.problems(campaign):
            say(problem.key, **problem.params)
    except PbpError as exc:
        click.echo(exc.text(campaign.lang), err=True)


@main.command()
@click.pass_context
def verify(ctx):
    """Replay every archived turn and report any difference."""
    import difflib

    from pbp import seal, turn
    from pbp.campaign import FORMATS
    from pbp.i18n import shown

    campaign = _campaign(ctx)
    failures = 0
    codes = seal.archive_codes(campaign)  # each turn's posts show the code chained on the archive's
    current = {"lang": campaign.lang, "format": campaign.format, "dialect": campaign.dialect}
    for n in campaign.resolved_turns():
        on_disk = turn.outputs_on_disk(campaign, n)
        record = turn.record_of(campaign, n, remember=False)
        # replayed as it was played: its recorded roster and rendering
        replay = turn.as_recorded(campaign, record)
        for key, was in (record.get("render") or {}).items():
            if current.get(key) != was:
                say("verify_config_changed", turn=n, key=key, was=was, now=current.get(key))
        late = [h for h in campaign.roster if record and h not in (record.get("roster") or {})]
        if late:
            say("verify_roster_changed", turn=n, players=late)
        out = turn.compute(replay, n)
        if turn.RECORD_FILE not in on_disk:  # archived before pbp recorded its turns
            out.files.pop(turn.RECORD_FILE, None)
        turn.as_archived(out, on_disk.get("events.yaml"))  # rolls whole, as archives had them before
        for fmt, ext in FORMATS.items():
            if any(name.endswith("." + ext) for name in on_disk):
                turn.render_all(replay, out, fmt)
        seal.seal_output(replay, out, seal.previous_of(campaign, n, codes))
        diffs = sorted(set(on_disk) ^ set(out.files) | {k for k in on_disk if out.files.get(k) != on_disk[k]})
        if not diffs:
            say("verify_ok", turn=n)
            continue
        failures += 1
        say("verify_diff", turn=n, files=diffs)
        for name in diffs[:3]:
            old = on_disk.get(name, b"").decode(errors="replace").splitlines()
            new = out.files.get(name, b"").decode(errors="replace").splitlines()
            for line in list(difflib.unified_diff(old, new, f"archive/{name}", f"replay/{name}", lineterm=""))[:20]:
                click.echo("    " + shown(line, 300))  # archived text may hold a player's control characters
    for problem in seal.problems(campaign, codes):
        say(problem.key, **problem.params)
        failures += problem.serious
    if failures:
        ctx.exit(1)
    say("verify_done", count=len(campaign.resolved_turns()))


@main.command()
@click.option("--to", "to_turn", type=click.IntRange(0), default=None)
@click.option("--no-commit", is_flag=True)
@click.pass_context
def undo(ctx, to_turn, no_commit):
    """Remove the last resolved turn's outputs (its orders stay)."""
    from pbp import archive
    from pbp.errors import PbpError

    campaign = _campaign(ctx)
    with campaign.lock():
        last = campaign.last_turn()
        if last is None:
            raise PbpError("nothing_to_undo")
        if to_turn is not None and to_turn > last:
            raise PbpError("undo_to_ahead", turn=to_turn, last=last)
        target = last - 1 if to_turn is None else to_turn
        for n in range(last, target, -1):
            count = archive.remove_turn(campaign, n)
            say("undo_done", turn=n, count=count)
            _commit(campaign, "commit_undo", no_commit, turn=n)


@main.command()
@click.argument("expr", nargs=-1, required=True)
@click.option("--seed", type=int, default=None)
@click.pass_context
def roll(ctx, expr, seed):
    """Roll dice, forum style: pbp roll 2d6+1."""
    from pbp.dice import FreeDice

    dice = FreeDice(seed, keep_log=True)
    result = dice.roll("roll", "".join(expr))
    click.echo(str(result))


# -- balance tools ------------------------------------------------------------------

@main.command()
@click.argument("expr", required=False)
@click.option("--ge", type=int)
@click.option("--gt", type=int)
@click.option("--le", type=int)
@click.option("--lt", type=int)
@click.option("--eq", type=int)
@click.option("--vs", "versus", metavar="EXPR2")
@click.option("--rule", metavar="RULESET.NAME")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE")
@click.option("--list", "list_rules", is_flag=True)
@click.option("--format", "fmt", type=click.Choice(["text", "bbcode", "markdown"]), default="text")
def odds(expr, ge, gt, le, lt, eq, versus, rule, settings, list_rules, fmt):
    """Exact probabilities: pbp odds 1d10 --ge 7 ; pbp odds 2d6+1 --vs 1d6+3 ;
    pbp odds --rule manhunt.combat --set peji=1d6+2."""
    from pbp import odds as od, ruleset

    if list_rules:
        for rid in ruleset.ids():
            rs = ruleset.get(rid)
            if ruleset.ODDS not in rs.capabilities:
                continue
            for name, calc in rs.odds().items():
                click.echo(f"{rid}.{name}: {calc.title}")
                for key, param in calc.params.items():
                    click.echo(f"    --set {key}={param.default}    {param.help}")
        return
    comparisons = {k: v for k, v in dict(ge=ge, gt=gt, le=le, lt=lt, eq=eq).items() if v is not None}
    if rule:
        table = _rule_odds(rule, settings)
    elif expr and versus and not comparisons:
        table = od.versus_table(expr, versus)
    elif expr and len(comparisons) == 1 and not versus:
        (comparison, target), = comparisons.items()
        table = od.check(expr, comparison, target)
    else:
        ctx = click.get_current_context()
        raise click.UsageError(local_help.say(ctx, "usage_odds"), ctx)
    click.echo(od.render(table, fmt), nl=False)


def _rule_odds(rule: str, settings):
    from pbp import dice, i18n, ruleset
    from pbp.errors import PbpError

    rid, _, name = rule.partition(".")
    calculators = ruleset.get(rid).odds()
    if name not in calculators:
        raise PbpError("unknown_calculator", rule=rule, valid=[f"{rid}.{n}" for n in calculators],
                       suggestion=i18n.closest(name, calculators))
    calc = calculators[name]
    params = {k: p.default for k, p in calc.params.items()}
    for item in settings:
        key, _, value = item.partition("=")
        if key not in calc.params:
            raise PbpError("unknown_param", param=key, valid=list(calc.params), suggestion=i18n.closest(key, calc.params))
        if calc.params[key].kind == "dice":
            params[key] = str(dice.parse(value))
        else:
            try:
                params[key] = int(value)
            except ValueError:
                raise PbpError("param_not_int", param=key, value=value) from None
    return calc.compute(params)


@main.command()
@click.argument("ruleset_id", required=False)
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--players", type=click.IntRange(1), default=6, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None)
@click.option("--max-turns", type=click.IntRange(1), default=100, show_default=True)
@click.option("--override", "overrides", multiple=True, metavar="KEY=VALUE")
@click.option("--json", "as_json", is_flag=True)
@click.option("--svg", "svg_path", type=FILE_PATH, default=None)
@click.pass_context
def simulate(ctx, ruleset_id, games, players, seed, jobs, max_turns, overrides, as_json, svg_path):
    """Play many games with bots and print the balance figures.

    With RULESET, on a synthetic world; without, on the campaign's world and
    sheets (-C PATH). Both runs of an --override play the same world (built once
    from the current rules), so only the rules change is compared."""
    import json
    import random

    from pbp import i18n, ruleset, simulate as sim
    from pbp.campaign import atomic_write
    from pbp.chart import histogram_svg
    from pbp.errors import PbpError
    from pbp.render import Renderer, package_dir

    base_rules: dict = {}
    if ruleset_id:
        rs = ruleset.get(ruleset_id)
        if ruleset.SIMULATE not in rs.capabilities:
            raise PbpError("no_simulation", ruleset=ruleset_id)
        scenario = rs.sample_scenario(players, random.Random(seed))
        source = ruleset_id
    else:
        campaign = _campaign(ctx)
        rs, scenario, ruleset_id = campaign.ruleset, campaign.scenario, campaign.ruleset.id
        if ruleset.SIMULATE not in rs.capabilities:
            raise PbpError("no_simulation", ruleset=ruleset_id)
        base_rules = campaign.config.get("rules") or {}
        players = len(scenario.roster)
        source = str(campaign.root.name)
    lang = _lang(ctx)
    variant_rules = base_rules
    for item in overrides:
        variant_rules = sim.merge(variant_rules, sim.parse_override(item))
    ruleset.get(ruleset_id, variant_rules)  # a typo in --override is refused before playing
    jobs = jobs or os.cpu_count() or 1
    runs = [("base", base_rules)] + ([("variant", variant_rules)] if overrides else [])
    results = {}
    with click.progressbar(length=games * len(runs), label=i18n.t(lang, "simulating", games=games),
                           file=sys.stderr) as bar:
        for name, rules in runs:
            simulation = sim.Simulation(ruleset_id, scenario, games, seed, jobs, rules, max_turns)
            results[name] = sim.aggregate(simulation.run(bar.update))
    report = {"ruleset": ruleset_id, "source": source, "games": games, "players": players, "seed": seed,
              "overrides": list(overrides), **results}
    main_figure = results["base"]["main"]
    if main_figure and svg_path is not None:
        series = [(i18n.t(lang, f"simulation_{name}"), results[name]["figures"][main_figure].get("histogram", {}))
                  for name, _ in runs]
        atomic_write(svg_path, histogram_svg(f"{ruleset_id} — {main_figure} ({games})", main_figure, series))
        report["svg"] = str(svg_path)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    renderer = Renderer([package_dir("templates") / "common" / lang], "text", lang=lang)
    click.echo(renderer.render("simulation", **report), nl=False)


# -- trust: the codes posted, the reveal, the audit, the dice report -----------------

@main.command()
@click.argument("code", required=False)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@click.option("--no-commit", is_flag=True)
@click.pass_context
def posted(ctx, code, n, no_commit):
    """Record the code the thread shows for a turn (default: the turn's code now)."""
    from pbp import seal
    from pbp.errors import InputError, PbpError

    campaign = _campaign(ctx)
    with campaign.lock():
        n = campaign.last_turn() if n is None else n
        if n is None:
            raise PbpError("not_set_up")
        codes = seal.archive_codes(campaign, upto=n)
        if n not in codes:
            raise PbpError("turn_not_resolved", turn=n)
        printed = seal.load_seals(campaign)["turns"].get(n, {}).get("printed") or []
        candidates = list(dict.fromkeys(printed + [codes[n]]))
        if code is None:
            chosen = codes[n]
        else:
            typed = code.strip().lower().split("/")[-1]
            chosen = next((c for c in reversed(candidates) if seal.matches(typed, c)), None)
            if chosen is None:
                raise InputError("posted_unknown", turn=n, code=code, valid=[seal.short(c) for c in candidates])
        seal.record_posted(campaign, n, chosen)
        say("posted_done", turn=n, code=seal.short(chosen))
        if chosen != codes[n]:
            say("seal_posted_changed", turn=n, posted=seal.short(chosen), now=seal.short(codes[n]))
        _commit(campaign, "commit_posted", no_commit, turn=n)


@main.command()
@click.option("--output", "-o", "output", type=FILE_PATH, default=None)
@click.option("--before-end", is_flag=True)
@click.pass_context
def reveal(ctx, output, before_end):
    """Write the end-of-game bundle: the archive with its secret, for anyone to audit."""
    from pbp import audit, seal
    from pbp.errors import PbpError

    campaign = _campaign(ctx)
    n = campaign.last_turn()
    if n is None:
        raise PbpError("not_set_up")
    if not before_end and not campaign.ruleset.is_over(campaign.state(n)):
        raise PbpError("reveal_not_over", turn=n)
    output = output or campaign.root.parent / f"{campaign.root.name}.reveal.tar.gz"
    if output.exists():
        raise PbpError("reveal_exists", file=output)
    codes = seal.archive_codes(campaign)
    for problem in seal.problems(campaign, codes):
        say(problem.key, **problem.params)
    count, size = audit.write_bundle(campaign, output)
    say("reveal_done", path=output, count=count, size=size, commitment=seal.commitment(campaign.secret),
        turn=n, code=seal.short(codes[n]))


@main.command(name="audit")
@click.argument("bundle", type=FILE_PATH)
@click.option("--posts", "posts_file", type=FILE_PATH, default=None)
@click.option("--trust-templates", is_flag=True)
@click.pass_context
def audit_command(ctx, bundle, posts_file, trust_templates):
    """Check a revealed game: the secret, every turn replayed, every code (anyone can run it)."""
    from pbp import audit

    posts_text = audit.read_posts(posts_file) if posts_file is not None else None
    report = audit.audit_bundle(bundle, posts_text, trust_templates)
    ctx.obj["lang"] = report.lang
    for line in audit.lines(report, report.lang):
        click.echo(line)
    if report.problems:
        ctx.exit(1)


@main.command(name="dice-report")
@click.argument("bundle", type=FILE_PATH, required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "bbcode", "markdown"]), default="text")
@click.option("--min-rolls", type=click.IntRange(2), default=30)
@click.option("--svg", "svg_path", type=FILE_PATH, default=None)
@click.option("--expr", "chart_expr", default=None)
@click.pass_context
def dice_report(ctx, bundle, fmt, min_rolls, svg_path, chart_expr):
    """The dice of the archive (or of a revealed BUNDLE) against their exact distributions."""
    import tempfile

    from pbp import audit, dice_report as dr
    from pbp.campaign import atomic_write, open_campaign
    from pbp.errors import PbpError

    with tempfile.TemporaryDirectory(prefix="pbp-dice-") as tmp:
        campaign = open_campaign(audit.open_bundle(bundle, Path(tmp))[0]) if bundle else _campaign(ctx)
        ctx.obj["lang"] = lang = campaign.lang
        rolls, turns = dr.archive_rolls(campaign)
        title = campaign.title
    report = dr.report(rolls, turns, min_rolls)
    click.echo(dr.render(report, fmt, lang, title), nl=False)
    if svg_path is not None:
        drawn = dr.chart(report, chart_expr, lang, title)
        if drawn is None:
            raise PbpError("dice_report_no_chart", expr=chart_expr or "",
                           valid=[f.name for f in report.expressions + report.faces])
        atomic_write(svg_path, drawn[0])
        say("dice_report_svg", path=svg_path, expr=drawn[1])


if __name__ == "__main__":
    sys.exit(main())
