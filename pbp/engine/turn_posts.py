"""A turn's posts: one per audience (the public post, the MJ's report, each
player's private report), rendered from its events by the campaign's templates
in the campaign's format, or read back as the turn wrote them (`archived_post`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbp.base.files import handle_file, read_bytes
from pbp.engine.campaign import FORMATS, Campaign
from pbp.engine.turn_record import record_of
from pbp.model import events as ev

if TYPE_CHECKING:
    # jinja2 and the formatters: imported by the commands that render (pbp check does not)
    from pbp.engine.turn import TurnOutput
    from pbp.render.render import Renderer


def renderer(campaign: Campaign, fmt: str | None = None) -> Renderer:
    """The campaign's Renderer for `fmt` (default: its format), the same one
    for every turn and post of a command (see pbp.render.render.renderer_for)."""
    from pbp.render.render import renderer_for, template_paths

    paths = template_paths(campaign.ruleset.id, campaign.lang, campaign.root, campaign.ruleset.folder())
    return renderer_for(paths, fmt or campaign.format, campaign.dialect, campaign.lang, root=campaign.root)


def audiences(campaign: Campaign, events: list[ev.Event]) -> list[ev.Audience]:
    """The readers of a turn's posts: `PUBLIC`, `GM`, then `Players(h)` for
    every player some event is addressed to (roster order)."""
    players = {p for e in events if isinstance(e.audience, ev.Players) for p in e.audience.handles}
    return [ev.PUBLIC, ev.GM] + [ev.Players(h) for h in campaign.roster if h in players]


def _reader(audience: ev.Audience) -> tuple[str, str | None]:
    """The template of a post and, for a private report, its player's handle."""
    if audience is ev.PUBLIC:
        return "public", None
    if audience is ev.GM:
        return "gm", None
    if isinstance(audience, ev.Players) and len(audience.handles) == 1:
        return "private", audience.handles[0]
    raise TypeError(f"a post is read by PUBLIC, GM or one player, not {audience!r}")


def render_post(campaign: Campaign, n: int, events: list[ev.Event], audience: ev.Audience, rend: Renderer,
                grouped: dict | None = None) -> str:
    """One post, for `audience` (PUBLIC, GM or Players(handle)). `grouped`
    (from events.by_audience) saves re-filtering when rendering every post of a
    turn."""
    template, player = _reader(audience)
    grouped = grouped if grouped is not None else ev.by_audience(events)
    names = campaign.names
    context = dict(turn=n, title=campaign.title, events=grouped.get(audience, []), names=names,
                   audience=audience, player=player, character=names.get(player) if player else None,
                   # the MJ's report may go through each player's events
                   by_player={h: grouped[ev.Players(h)] for h in campaign.roster if ev.Players(h) in grouped}
                   if audience is ev.GM else {},
                   # when the next orders are due (a public event), for the private reports too
                   next_deadline=next((e.data for e in grouped.get(ev.PUBLIC, []) if e.kind == "deadline"), None))
    body = rend.render(("setup_" if n == 0 else "") + template, **context)
    # what the core says in every post, whatever the ruleset's templates:
    # ignored actions, the next deadline, the MJ's missed-orders list...
    footer = f"footer_{template}"
    if rend.has(footer):
        tail = rend.render(footer, **context)
        if tail.strip():
            body = body.rstrip("\n") + "\n\n" + tail
    return body


def post_path(audience: ev.Audience, ext: str) -> str:
    template, player = _reader(audience)
    return f"private/{handle_file(player)}.{ext}" if player else f"{template}.{ext}"


def archived_post(campaign: Campaign, n: int, audience: ev.Audience, fmt: str | None = None) -> bytes | None:
    """Turn n's post for `audience` as the turn wrote it, when the turn was
    rendered as it is asked now (format, dialect, language, per its turn.yaml):
    those are the bytes its seal covers, so they are what the MJ pastes, even
    after a template changed (`pbp verify` says so). None: it must be rendered
    again (another format, a player with no report, an archive from before
    turn records)."""
    fmt = fmt or campaign.format
    rendered = record_of(campaign, n).get("render")
    if rendered != {"lang": campaign.lang, "format": fmt, "dialect": campaign.dialect}:
        return None
    path = campaign.turn_dir(n) / post_path(audience, FORMATS[fmt])
    if not (campaign.turn_dir(n) / "state.yaml").is_file() or not path.is_file():
        return None
    return read_bytes(path, campaign.rel(path))


def render_all(campaign: Campaign, out: TurnOutput, fmt: str | None = None) -> None:
    rend = renderer(campaign, fmt)
    grouped = ev.by_audience(out.events)
    for audience in audiences(campaign, out.events):
        text = render_post(campaign, out.turn, out.events, audience, rend, grouped)
        out.files[post_path(audience, rend.fmt.ext)] = text.encode()
