"""`pbp` commands. Playing a turn and its posts: run, post, preview."""

from __future__ import annotations

import click

from pbp import help as local_help
from pbp.cli.common import FILE_PATH, FORMAT, PbpCommand, campaign_of, commit, say


@click.command(cls=PbpCommand)
@click.option("--turn", "n", type=int, default=None)
@FORMAT
@click.option("--no-commit", is_flag=True)
@click.option("--dry-run", is_flag=True)
@click.pass_context
def run(ctx, n, fmt, no_commit, dry_run):
    """Resolve the next turn, write its outputs, commit."""
    from pbp import seal, turn

    campaign = campaign_of(ctx)
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
        commit(campaign, "commit_turn", no_commit, turn=n)


@click.command(cls=PbpCommand)
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
    campaign = campaign_of(ctx)
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


@click.command(cls=PbpCommand)
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
