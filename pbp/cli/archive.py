"""`pbp` commands. The archive: the MJ's overview, the replay, undo, and a roll on demand."""

from __future__ import annotations

import click

from pbp.cli.common import PbpCommand, campaign_of, commit, say, warn_secret_in_config


@click.command(cls=PbpCommand)
@click.pass_context
def status(ctx):
    """The MJ's overview of the current state (secret)."""
    from pbp.base.errors import PbpError
    from pbp.engine import loop, rules_record, seal_log, turn, turn_posts, turn_record
    from pbp.engine.deadline import turn_deadline

    campaign = campaign_of(ctx)
    warn_secret_in_config(campaign)
    n = campaign.last_turn()
    if n is None:
        raise PbpError("not_set_up")
    state = campaign.state(n)
    rend = turn_posts.renderer(campaign, "text")
    rs, scenario = campaign.ruleset, campaign.scenario
    entries = rs.status(state, scenario)
    record = turn_record.record_of(campaign, n)
    flag_after = campaign.nmr.get("flag_after")
    over = rs.is_over(state)
    states = {h: "out" for h in campaign.roster}
    refused, deadline_play = [], []
    if not over:
        try:  # the next turn's orders judged as `pbp check` and `pbp run` judge them
            overview = loop.order_overview(campaign, n + 1, state)
            states, refused = overview["states"], overview["refused"]
            deadline_play = overview.get("deadline", [])
        except PbpError as exc:  # the overview still prints, without the orders' judgement
            click.echo(exc.text(campaign.lang), err=True)
            states = {h: "unknown" for h in campaign.roster}
    # counted and chased: only who has orders to send (an archive played before
    # turn.yaml dropped the players out of the game may still count them)
    missed = {h: c for h, c in (record.get("missed") or {}).items() if states.get(h) != "out"}
    deadline = turn_deadline(campaign.config.get("deadline"), n + 1, campaign.lang)

    def having(*kinds):
        return [h for h in campaign.roster if states[h] in kinds]

    click.echo(rend.render("status", turn=n, title=campaign.title, events=entries, over=over, states=states,
                           names={h: scenario.name(h) for h in campaign.roster}, missed=missed,
                           flagged=[h for h in having("missing", "blank", "refused")
                                    if flag_after and missed.get(h, 0) >= flag_after],
                           refused=refused, blank=having("blank"), waiting=having("missing", "blank"),
                           # as before, for a campaign's own status.j2: received means valid
                           received=having("valid"), expected=having("valid", "missing", "blank", "refused"),
                           inactive=having("inactive"), deadline=deadline, at_deadline=deadline_play),
               nl=False)
    for line in rules_record.notice(campaign, n, record):  # edited since the last turn: the next one plays them
        click.echo(line)
    try:  # where the archive no longer matches the codes printed or posted (pbp/engine/seal_log.py)
        for problem in seal_log.problems(campaign):
            say(problem.key, **problem.params)
    except PbpError as exc:
        click.echo(exc.text(campaign.lang), err=True)


@click.command(cls=PbpCommand)
@click.pass_context
def verify(ctx):
    """Replay every archived turn and report any difference."""
    import difflib

    from pbp.base.i18n import shown
    from pbp.engine import seal, seal_log
    from pbp.engine.replay import replay_turn

    campaign = campaign_of(ctx)
    failures = 0
    codes = seal.archive_codes(campaign)  # each turn's posts show the code chained on the archive's
    current = {"lang": campaign.lang, "format": campaign.format, "dialect": campaign.dialect}
    for n in campaign.resolved_turns():
        # replayed as it was played (its recorded roster, rules and rendering), as `pbp audit` replays it
        replay = replay_turn(campaign, n, seal.previous_of(campaign, n, codes))
        for key, was in (replay.record.get("render") or {}).items():
            if current.get(key) != was:
                say("verify_config_changed", turn=n, key=key, was=was, now=current.get(key))
        if replay.as_played is not None and replay.as_played.recorded is not None:
            say("verify_rules_kept", turn=n, file=", ".join(replay.as_played.recorded.shown(campaign).values()))
        late = [h for h in campaign.roster if replay.record and h not in (replay.record.get("roster") or {})]
        if late:
            say("verify_roster_changed", turn=n, players=late)
        if replay.error is not None:  # this turn differs, saying why; the next turns are replayed all the same
            failures += 1
            say("verify_not_replayed", turn=n)
            click.echo("    " + replay.error.text(campaign.lang))
            continue
        if not replay.diffs:
            say("verify_ok", turn=n)
            continue
        failures += 1
        say("verify_diff", turn=n, files=replay.diffs)
        for name in replay.diffs[:3]:
            old = replay.archived.get(name, b"").decode(errors="replace").splitlines()
            new = replay.replayed.get(name, b"").decode(errors="replace").splitlines()
            for line in list(difflib.unified_diff(old, new, f"archive/{name}", f"replay/{name}", lineterm=""))[:20]:
                click.echo("    " + shown(line, 300))  # archived text may hold a player's control characters
    for problem in seal_log.problems(campaign, codes):
        say(problem.key, **problem.params)
        failures += problem.serious
    if failures:
        ctx.exit(1)
    say("verify_done", count=len(campaign.resolved_turns()))


@click.command(cls=PbpCommand)
@click.option("--to", "to_turn", type=click.IntRange(0), default=None)
@click.option("--no-commit", is_flag=True)
@click.pass_context
def undo(ctx, to_turn, no_commit):
    """Remove the last resolved turn's outputs (its orders stay)."""
    from pbp.base.errors import PbpError
    from pbp.engine import archive

    campaign = campaign_of(ctx)
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
            commit(campaign, "commit_undo", no_commit, turn=n)


@click.command(cls=PbpCommand)
@click.argument("expr", nargs=-1, required=True)
@click.option("--seed", type=int, default=None)
@click.pass_context
def roll(ctx, expr, seed):
    """Roll dice, forum style: pbp roll 2d6+1."""
    from pbp.model.dice import FreeDice

    dice = FreeDice(seed, keep_log=True)
    result = dice.roll("roll", " ".join(expr))  # `pbp roll 2d6 + 1`: spaces are allowed between terms
    click.echo(str(result))
