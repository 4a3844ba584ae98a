"""`pbp` commands. A turn's orders: the blank form, a player's message imported, the check, the receipt, the reminder."""

from __future__ import annotations

import os

import click

from pbp.cli.common import CONTEXT, FORMAT, PbpCommand, PbpSubgroup, campaign_of, say


@click.group(cls=PbpSubgroup, invoke_without_command=True, context_settings=CONTEXT)
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
    from pbp.base.errors import PbpError
    from pbp.engine import turn_inputs
    from pbp.engine.campaign import atomic_write

    campaign = campaign_of(ctx)
    handle = campaign.handle(handle)
    n, state = turn_inputs.next_turn_of(campaign, handle, "player_out_no_form")
    text = turn_inputs.order_form(campaign, handle, n, state)
    if write_file:
        from pbp.engine.campaign import handle_file

        target = campaign.turn_dir(n) / "orders" / f"{handle_file(handle)}.yaml"
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
    from pbp.base import i18n
    from pbp.base.errors import InputError
    from pbp.engine import turn_inputs, turn_posts
    from pbp.engine.campaign import atomic_write
    from pbp.plaintext import import_orders

    handle = handle or ctx.obj.get("orders_player")
    if handle is None:
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "handle"))
    campaign = campaign_of(ctx)
    lang = campaign.lang
    handle = campaign.handle(handle)
    limit = campaign.limits["order_file_bytes"]
    source = "<stdin>" if message == "-" else message
    data = import_orders.read_source(message, click.get_binary_stream("stdin"), limit)
    notes: list = []
    text = import_orders.read_message(data, source, limit, notes)
    for note in notes:
        click.echo(note.text(lang), err=True)
    if write_file and not force:
        existing = [p for h, p in campaign.order_files(turn_inputs.next_turn(campaign)) if h == handle]
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
        say("import_check_ok", actions=_n_actions(lang, len(result.receipt["actions"])))
    click.echo("")
    say("import_receipt")
    click.echo(turn_posts.renderer(campaign, fmt).render("receipt", title=campaign.title, **result.receipt), nl=False)
    if result.problems:
        ctx.exit(1)


@click.command(cls=PbpCommand)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@click.pass_context
def check(ctx, n):
    """Validate the submitted orders; list who has not sent any."""
    from pbp.engine import loop, turn_inputs

    campaign = campaign_of(ctx)
    n = turn_inputs.check_turn_number(campaign, n)
    report = loop.check_turn(campaign, n)
    inputs = report.inputs
    _say_refusals(campaign.lang, inputs, report)
    _say_standing(campaign, inputs)
    _say_deadline(loop.deadline_lines(campaign, inputs, ahead=True))
    if report.ok and inputs.gm.rolls and not report.unused:
        say("check_forced_ok", count=len(inputs.gm.rolls))
    if report.ok and not inputs.missing:
        say("check_all_done", turn=n)
    else:
        say("check_summary", turn=n, accepted=len(inputs.valid), refused=len(inputs.refused),
            missing=len(inputs.missing))
    if not report.ok:
        ctx.exit(1)


def _say_refusals(lang: str, inputs, report) -> None:
    """Every refusal and every note of the turn's files, on stderr."""
    for error in inputs.errors + report.forced:
        click.echo(error.text(lang), err=True)
    for note in inputs.ignored + report.unused + [n for o in inputs.orders.values() for n in o.notes]:
        click.echo(note.text(lang), err=True)


def _say_standing(campaign, inputs) -> None:
    """Where each player stands: valid, refused, missing (and what their default
    orders play), blank, inactive, out of the game; and the MJ's gm.yaml."""
    from pbp.base import i18n
    from pbp.engine import loop

    lang, names = campaign.lang, campaign.names

    def who(handles):
        return [f"{h} ({names.get(h, h)})" if names.get(h, h) != h else h for h in handles]

    if inputs.valid:
        counts = [f"{h} ({_n_actions(lang, len(inputs.orders[h].actions))})" for h in inputs.valid]
        say("check_valid", count=len(inputs.valid), players=counts)
    if inputs.refused:
        say("check_refused", count=len(inputs.refused), players=who(inputs.refused))
    gm_problems = [e for e in inputs.errors if e.file and os.path.basename(e.file) == "gm.yaml"]
    if gm_problems:  # the players' counts below say nothing of the MJ's own file
        say("check_gm_refused", count=len(gm_problems), file=gm_problems[0].file)
    silent = [h for h in inputs.missing if h not in inputs.blank]  # expected: nothing sent, or a blank form
    fallback = [h for h in silent if h in inputs.played and inputs.played[h].how == "fallback"]
    if len(fallback) < len(silent):
        say("check_missing", count=len(silent) - len(fallback), players=who(h for h in silent if h not in fallback))
    if fallback:  # their default orders are not allowed to them now: the lines below say why
        actions = loop.action_lines(campaign, inputs.played[fallback[0]].orders.actions)
        say("check_missing_fallback", count=len(fallback), players=who(fallback),
            actions="; ".join(actions) or i18n.t(lang, "deadline_no_action"))
    if inputs.blank:
        say("check_blank", players=who(inputs.blank))
    if inputs.inactive:
        say("check_inactive", players=who(inputs.inactive))
    for h, why in inputs.lost.items():  # one line each: a reason is a sentence
        say("check_lost", player=who([h])[0], reason=i18n.t(lang, f"{campaign.ruleset.id}.{why}"))


def _say_deadline(lines: list[str]) -> None:
    """What `pbp run` will play for each player without valid orders, one line each."""
    if lines:
        say("deadline_check_header")
        for line in lines:
            click.echo("  " + line)


def _n_actions(lang: str, count: int) -> str:
    from pbp.base import i18n

    return i18n.t(lang, "n_actions", count=count)


@click.command(cls=PbpCommand)
@click.option("--player", "handle", required=True)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@FORMAT
@click.pass_context
def receipt(ctx, handle, n, fmt):
    """What pbp understood of a player's orders, ready to paste into a private message."""
    from pbp.engine import loop, turn_inputs, turn_posts

    campaign = campaign_of(ctx)
    handle = campaign.handle(handle)
    n = turn_inputs.check_turn_number(campaign, n)
    context = loop.receipt(campaign, handle, n)
    click.echo(turn_posts.renderer(campaign, fmt).render("receipt", title=campaign.title, **context), nl=False)


@click.command(cls=PbpCommand)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@FORMAT
@click.pass_context
def remind(ctx, n, fmt):
    """A reminder post: who has not sent valid orders yet, and the deadline."""
    from pbp.engine import loop, turn_inputs, turn_posts

    campaign = campaign_of(ctx)
    n = turn_inputs.check_turn_number(campaign, n)
    context = loop.reminder(campaign, n)
    click.echo(turn_posts.renderer(campaign, fmt).render("remind", title=campaign.title, names=campaign.names,
                                                   **context), nl=False)
