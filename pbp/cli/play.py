"""`pbp` commands. Playing a turn and its posts: run, post, preview."""

from __future__ import annotations

import click

from pbp.cli import help as local_help
from pbp.cli.common import (FILE_PATH, FORMAT, PbpCommand, campaign_of, commit, output_target, say,
                            warn_secret_in_config, write_output)


@click.command(cls=PbpCommand)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@FORMAT
@click.option("--no-commit", is_flag=True)
@click.option("--dry-run", is_flag=True)
@click.option("--no-orders", is_flag=True)
@click.option("--accept-changes", is_flag=True)
@click.option("--at-deadline", is_flag=True)
@click.pass_context
def run(ctx, n, fmt, no_commit, dry_run, no_orders, accept_changes, at_deadline):
    """Resolve the next turn, write its outputs, commit."""
    from pbp.base import i18n
    from pbp.base.errors import PbpError
    from pbp.engine import rules_record, seal, seal_log, turn, turn_inputs, turn_posts, turn_record

    campaign = campaign_of(ctx)
    warn_secret_in_config(campaign)
    with campaign.lock():
        n = turn_inputs.check_turn_number(campaign, n)
        # what `pbp status` says of the archive, said before a new turn is sealed on top of it
        codes = seal.archive_codes(campaign, upto=n - 1, remembered=True)
        problems = seal_log.problems(campaign, codes)
        for problem in problems:
            click.echo(i18n.t(campaign.lang, problem.key, **problem.params), err=True)
        refusals = []  # what a run refuses; a dry run shows the turn all the same, and says them
        # git is asked which files changed only when a code did (that look goes through the whole archive)
        edited = _edited_archive(campaign, n) if any(p.serious for p in problems) else []
        if edited and not accept_changes:
            first = min(int(rel.split("/")[1]) for rel in edited)
            refusals.append(PbpError("run_archive_edited", turn=n, files=edited, first=first, before=first - 1))
            if not dry_run:
                raise refusals[0]
        elif edited:
            click.echo(i18n.t(campaign.lang, "run_archive_edited_kept", turn=n, files=edited), err=True)
        # an edited rules file applies from this turn: the MJ is told what changed
        for line in rules_record.notice(campaign, n - 1, turn_record.record_of(campaign, n - 1)):
            click.echo(line)
        out = _resolve(ctx, campaign, n, at_deadline)
        # nobody sent anything: most often a second `pbp run` (the turn just played is
        # the last one), which would play a whole turn on default orders without a word
        if not (no_orders or at_deadline) and out.inputs.defaulted and not out.inputs.valid:
            refusals.append(PbpError("run_no_orders", turn=n, folder=campaign.rel(campaign.turn_dir(n) / "orders"),
                                     players=out.inputs.missing or out.inputs.defaulted))
            if not dry_run:
                raise refusals[-1]
        for refusal in refusals:
            click.echo(refusal.text(campaign.lang), err=True)
        if dry_run:
            _say_played(campaign, out.inputs, err=True)
        turn_posts.render_all(campaign, out, fmt)
        code = seal.seal_output(campaign, out, seal.previous_of(campaign, n, codes))
        for warning in out.warnings:
            click.echo(warning.text(campaign.lang), err=True)
        for rel, length in _long_posts(out, campaign.post_limit):
            click.echo(i18n.t(campaign.lang, "post_too_long", file=campaign.rel(campaign.turn_dir(n) / rel),
                              length=length, limit=campaign.post_limit), err=True)
        if dry_run:
            _show_dry_run(n, out)
            return
        written = turn.write(campaign, out)
        seal_log.record_printed(campaign, n, code)
        say("run_done", turn=n, count=len(written), folder=campaign.rel(campaign.turn_dir(n)))
        _say_played(campaign, out.inputs)
        if campaign.ruleset.is_over(out.state):
            say("game_finished")
        commit(campaign, "commit_turn", no_commit, also=tuple(edited), turn=n)


@click.command(cls=PbpCommand)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@click.option("--player", "handle", default=None)
@click.option("--gm", "for_gm", is_flag=True)
@FORMAT
@click.option("--split", "split", is_flag=True)
@click.pass_context
def post(ctx, n, handle, for_gm, fmt, split):
    """Print a post as the turn wrote and sealed it (public by default); in another --format, it is rendered again."""
    campaign, n, audience, _ = _which_post(ctx, n, handle, for_gm)
    text = _post_text(campaign, n, audience, fmt)
    if not split:
        click.echo(text, nl=False)
        return
    from pbp.base import i18n
    from pbp.render import postsplit

    limit = campaign.post_limit
    parts = postsplit.split(text, limit, fmt or campaign.format)
    for i, part in enumerate(parts, 1):
        say("post_part", n=i, count=len(parts), length=len(part), limit=limit)
        click.echo(part, nl=False)
        if len(part) > limit:
            click.echo(i18n.t(campaign.lang, "post_part_too_long", n=i, length=len(part), limit=limit), err=True)


def _resolve(ctx, campaign, n: int, at_deadline: bool):
    """Turn n resolved in memory. Before the deadline, a refused player file stops
    the run (`_refuse_refused_files`); at the deadline its player plays as the
    policy says (pbp.engine.at_deadline)."""
    from pbp.base.errors import PbpError
    from pbp.engine import turn, turn_inputs

    state = campaign.state(n - 1)
    if campaign.ruleset.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    inputs = turn_inputs.gather(campaign, n, state)
    if inputs.refused and not at_deadline and not inputs.mj_errors:
        _refuse_refused_files(ctx, campaign, n, inputs)
    return turn.compute(campaign, n, inputs, state=state, at_deadline=at_deadline)


def _show_dry_run(n: int, out) -> None:
    """A dry run's output: the public post, then every label the turn rolls (so
    the MJ can force any of them in gm.yaml)."""
    public = next(v for k, v in out.files.items() if k.startswith("public."))
    click.echo(public.decode(), nl=False)
    say("dry_run_rolls", count=len(out.rolls))
    for roll in out.rolls:
        say("dry_run_roll_forced" if roll.forced else "dry_run_roll", label=roll.label, expr=roll.expr,
            total=roll.total)
    say("dry_run", turn=n)


def _refuse_refused_files(ctx, campaign, n: int, inputs) -> None:
    """A refused player file stops `pbp run` before the deadline (the player may
    still fix it): every problem, then what `--at-deadline` would play for whom."""
    from pbp.base import i18n
    from pbp.engine import loop

    lang = campaign.lang
    for error in inputs.errors:
        click.echo(error.text(lang), err=True)
    files = [p.file for p in inputs.played.values() if p.why == "refused"] or \
        sorted({e.file for h in inputs.refused for e in inputs.by_player[h] if e.file})
    click.echo(i18n.t(lang, "run_refused_file" if len(files) == 1 else "run_refused_files", turn=n, files=files),
               err=True)
    for line in loop.deadline_lines(campaign, inputs):
        click.echo("  " + line, err=True)
    ctx.exit(1)


def _say_played(campaign, inputs, err: bool = False) -> None:
    """What each player without valid orders played (pbp.engine.at_deadline), one line each."""
    from pbp.base import i18n
    from pbp.engine import loop

    lines = loop.deadline_lines(campaign, inputs)
    if lines:
        click.echo(i18n.t(campaign.lang, "deadline_run_header"), err=err)
        for line in lines:
            click.echo("  " + line, err=err)


def _long_posts(out, limit: int) -> list[tuple[str, int]]:
    """The turn's posts longer than `limit` characters, with their length: what the
    players write is escaped for the forum (`&` is `&amp;` in Markdown), so a post
    may be much longer than the roleplay limits let the texts be."""
    posts = ((rel, len(data.decode("utf-8"))) for rel, data in sorted(out.files.items())
             if rel.startswith(("public.", "gm.", "private/")))
    return [(rel, length) for rel, length in posts if length > limit]


def _edited_archive(campaign, n: int) -> list[str]:
    """The files of the turns played before `n` that differ from the campaign's
    last commit (edited or removed by hand since): the next commit would sweep
    them into turn n's, under a code sealed on top of them. Empty when the
    campaign is not in git (nothing to compare with: `seal_log.problems` still
    says a turn changed). Not pbp's preview pages (never archived), nor hidden
    and *.tmp files (no code covers them)."""
    from pbp.engine import archive

    edited = []
    for rel in archive.changed_since_commit(campaign.root, "turns") or []:
        parts = rel.split("/")
        if len(parts) < 3 or not (parts[1].isascii() and parts[1].isdigit()) or int(parts[1]) >= n:
            continue  # the turn being played (its orders are new), or a later one's
        if _is_preview_page(rel) or parts[-1].startswith(".") or rel.endswith(".tmp"):
            continue
        edited.append(rel)
    return edited


def _which_post(ctx, n: int | None, handle: str | None, for_gm: bool):
    """The campaign, the turn (default: the last resolved) and the reader of the
    post `--turn`, `--player` and `--gm` name, and the player's handle as the
    roster spells it."""
    from pbp.base.errors import PbpError
    from pbp.model import events

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
    from pbp.engine import seal, turn_posts, turn_record

    text = turn_posts.archived_post(campaign, n, audience, fmt)
    if text is None:
        stored = turn_record.stored_events(campaign, n)
        # the rules and roster the turn was played with (a rule renamed since keeps its old name there)
        played = turn_record.as_recorded(campaign, turn_record.record_of(campaign, n), n, rendering=False)
        text = turn_posts.render_post(played, n, stored, audience, turn_posts.renderer(played, fmt)).encode()
        _say_rendered_again(campaign, n, fmt)  # once it rendered: a refusal says only what is wrong
    if not seal.has_placeholders(text):  # as the turn wrote it: its codes are in it already
        return text.decode()
    code = seal.archive_codes(campaign, upto=n, remembered=True).get(n)
    return (seal.fill(text, code, seal.commitment(campaign.secret)) if code else seal.unfilled(text)).decode()


def _say_rendered_again(campaign, n: int, fmt: str | None) -> None:
    """The MJ is told when the text printed is not the one the turn sealed: the
    campaign's language, format or dialect changed since (a format asked with
    --format is rendered again on purpose)."""
    from pbp.base import i18n
    from pbp.engine import turn_record

    was = turn_record.record_of(campaign, n).get("render")
    now = {"lang": campaign.lang, "format": fmt or campaign.format, "dialect": campaign.dialect}
    changed = [k for k in ("lang", "format", "dialect") if was and was.get(k) != now[k]
               and not (k == "format" and fmt) and not (k == "dialect" and now["format"] == "markdown")]
    if changed:
        click.echo(i18n.t(campaign.lang, "post_rendered_again", turn=n,
                          was=", ".join(str(was.get(k)) for k in changed), now=", ".join(now[k] for k in changed)),
                   err=True)


@click.command(cls=PbpCommand)
@click.option("--turn", "n", type=click.IntRange(0), default=None)
@click.option("--player", "handle", default=None)
@click.option("--gm", "for_gm", is_flag=True)
@click.option("--output", "output", type=FILE_PATH, default=None)
@click.option("--open", "open_page", is_flag=True)
@click.pass_context
def preview(ctx, n, handle, for_gm, output, open_page):
    """An HTML page showing a post as the campaign's forum will (public by default)."""
    import webbrowser

    from pbp.base import i18n
    from pbp.render import preview as pv

    campaign, n, audience, handle = _which_post(ctx, n, handle, for_gm)
    template, player = ("gm", None) if for_gm else ("private", handle) if handle is not None else ("public", None)
    if output is not None:  # refused before anything is rendered: the page never lands on a campaign file
        target = output_target(ctx, output, "preview", "--output", own_in_archive=_is_preview_page)
    else:
        target = campaign.turn_dir(n) / pv.file_name(template, player)
    text = _post_text(campaign, n, audience)  # the very text `pbp post` prints
    label = i18n.t(campaign.lang, f"preview_{template}", turn=n, player=player,
                   character=campaign.names.get(player) if player else None)
    page = pv.page(text, campaign.format, campaign.dialect, campaign.lang, campaign.title, label)
    write_output(target, page, "--output", shown=campaign.rel(target.resolve()))
    say("preview_written", path=campaign.rel(target.resolve()))
    if open_page:
        opened = webbrowser.open(target.resolve().as_uri())
        say("preview_opened" if opened else "preview_no_browser", path=campaign.rel(target.resolve()))


def _is_preview_page(rel: str) -> bool:
    """turns/NNN/preview*.html: where `pbp preview` writes by default (never
    archived nor sealed: `pbp.engine.seal.is_preview_page`)."""
    from pbp.engine import seal

    parts = rel.split("/")
    return len(parts) == 3 and parts[0] == "turns" and seal.is_preview_page(parts[2])
