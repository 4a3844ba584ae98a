"""`pbp` commands. Trust: the codes posted, the reveal, the audit, the dice report."""

from __future__ import annotations

import click

from pbp.render import formats
from pbp.cli.common import (CONTEXT, FILE_PATH, PbpCommand, PbpSubgroup, campaign_of, commit, output_target, say,
                            write_output)


@click.command(cls=PbpCommand)
@click.argument("code", required=False)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@click.option("--no-commit", is_flag=True)
@click.pass_context
def posted(ctx, code, n, no_commit):
    """Record the code the thread shows for a turn (default: the turn's code now)."""
    from pbp.base.errors import InputError, PbpError
    from pbp.engine import seal, seal_log

    campaign = campaign_of(ctx)
    with campaign.lock():
        n = campaign.last_turn() if n is None else n
        if n is None:
            raise PbpError("not_set_up")
        codes = seal.archive_codes(campaign, upto=n)
        if n not in codes:
            raise PbpError("turn_not_resolved", turn=n)
        printed = seal_log.load_seals(campaign)["turns"].get(n, {}).get("printed") or []
        candidates = list(dict.fromkeys(printed + [codes[n]]))
        if code is None:
            chosen = codes[n]
        else:
            typed = code.strip().lower().split("/")[-1]
            chosen = next((c for c in reversed(candidates) if seal.matches(typed, c)), None)
            if chosen is None:
                raise InputError("posted_unknown", turn=n, code=code, valid=[seal.short(c) for c in candidates])
        seal_log.record_posted(campaign, n, chosen)
        say("posted_done", turn=n, code=seal.short(chosen))
        if chosen != codes[n]:
            say("seal_posted_changed", turn=n, posted=seal.short(chosen), now=seal.short(codes[n]))
        commit(campaign, "commit_posted", no_commit, turn=n)


@click.command(cls=PbpCommand)
@click.option("--output", "-o", "output", type=FILE_PATH, default=None)
@click.option("--before-end", is_flag=True)
@click.pass_context
def reveal(ctx, output, before_end):
    """Write the end-of-game bundle: the archive with its secret, for anyone to audit."""
    from pbp.base.errors import PbpError
    from pbp.engine import seal, seal_log
    from pbp.trust import audit

    campaign = campaign_of(ctx)
    n = campaign.last_turn()
    if n is None:
        raise PbpError("not_set_up")
    if not before_end and not campaign.ruleset.is_over(campaign.state(n)):
        raise PbpError("reveal_not_over", turn=n)
    output = output_target(ctx, output or campaign.root.parent / f"{campaign.root.name}.reveal.tar.gz", "bundle",
                           "--output")
    codes = seal.archive_codes(campaign)
    for problem in seal_log.problems(campaign, codes):
        say(problem.key, **problem.params)
    data, count = audit.bundle_bytes(campaign)
    write_output(output, data, "--output")
    size = len(data)
    say("reveal_done", path=output, count=count, size=size, commitment=seal.commitment(campaign.secret),
        turn=n, code=seal.short(codes[n]))


@click.command("audit", cls=PbpCommand)
@click.argument("bundle", type=FILE_PATH)
@click.option("--posts", "posts_file", type=FILE_PATH, default=None)
@click.pass_context
def audit_command(ctx, bundle, posts_file):
    """Check a revealed game: the secret, every turn replayed, every code (anyone can run it)."""
    from pbp.trust import audit

    posts_text = audit.read_posts(posts_file) if posts_file is not None else None
    report = audit.audit_bundle(bundle, posts_text)
    ctx.obj["lang"] = report.lang
    for line in audit.lines(report, report.lang):
        click.echo(line)
    if report.problems:
        ctx.exit(1)


@click.command("dice-report", cls=PbpCommand)
@click.argument("bundle", type=FILE_PATH, required=False)
@click.option("--format", "fmt", type=click.Choice((formats.TEXT.name, *formats.NAMES)), default="text")
@click.option("--min-rolls", type=click.IntRange(2), default=30)
@click.option("--svg", "svg_path", type=FILE_PATH, default=None)
@click.option("--expr", "chart_expr", default=None)
@click.pass_context
def dice_report(ctx, bundle, fmt, min_rolls, svg_path, chart_expr):
    """The dice of the archive (or of a revealed BUNDLE) against their exact distributions."""
    from pbp.base.errors import PbpError
    from pbp.engine.campaign import open_campaign
    from pbp.trust import audit, dice_report as dr

    campaign = open_campaign(audit.read_bundle(bundle)[0]) if bundle else campaign_of(ctx)
    ctx.obj["lang"] = lang = campaign.lang
    if svg_path is not None:  # refused before the archive's dice are read
        svg_path = output_target(ctx, svg_path, "chart", "--svg")
    rolls, turns = dr.archive_rolls(campaign)
    title = campaign.title
    report = dr.report(rolls, turns, min_rolls)
    click.echo(dr.render(report, fmt, lang, title), nl=False)
    if svg_path is not None:
        drawn = dr.chart(report, chart_expr, lang, title)
        if drawn is None:
            raise PbpError("dice_report_no_chart", expr=chart_expr or "",
                           valid=[f.name for f in report.expressions + report.faces])
        write_output(svg_path, drawn[0], "--svg")
        say("dice_report_svg", path=svg_path, expr=drawn[1])


@click.group("secret", cls=PbpSubgroup, context_settings=CONTEXT)
def secret_group():
    """The secret dice seed."""


@secret_group.command("move", cls=PbpCommand)
@click.option("--no-commit", is_flag=True)
@click.pass_context
def secret_move(ctx, no_commit):
    """Move the dice secret from campaign.yaml to secret.yaml (git ignores it)."""
    from pbp.engine import secret

    campaign = campaign_of(ctx)
    with campaign.lock():
        if not secret.move(campaign.root, campaign.lang):
            campaign.secret  # noqa: B018 - a campaign without any secret is told so
            say("secret_already_moved")
            return
        say("secret_moved")
        commit(campaign, "commit_secret_move", no_commit)


secret_move.help_key = "help_secret_move"
