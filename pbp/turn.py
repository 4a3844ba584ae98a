"""One turn, from its input files to its output bytes.

    gather (orders + gm.yaml, validated) -> ruleset.resolve (with dice)
    -> events -> render per audience -> files

Nothing is written here: `write` puts a computed turn on disk (state.yaml last,
as the mark that the turn is resolved), and `pbp verify` compares a recomputed
turn with the archive byte for byte.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

from pbp import events as ev, orders as od, yamlio
from pbp.campaign import FORMATS, Campaign, atomic_write
from pbp.dice import Dice
from pbp.i18n import closest
from pbp.errors import ErrorList, ForcedRollError, InputError, PbpError
from pbp.render import Renderer, template_paths

OUTPUT_FILES = ("state.yaml", "rolls.yaml", "events.yaml")


@dataclass
class TurnInputs:
    orders: dict[str, od.PlayerOrders]
    gm: od.GmOrders
    defaulted: list[str]  # players who sent nothing and got the default orders


@dataclass
class TurnOutput:
    turn: int
    state: dict
    events: list[ev.Event]
    files: dict[str, bytes] = field(default_factory=dict)  # path relative to the turn folder
    warnings: list[PbpError] = field(default_factory=list)


def next_turn(campaign: Campaign) -> int:
    last = campaign.last_turn()
    if last is None:
        raise PbpError("not_set_up")
    return last + 1


def check_turn_number(campaign: Campaign, n: int | None) -> int:
    expected = next_turn(campaign)
    if n is None:
        return expected
    if n < expected:
        raise PbpError("turn_already_resolved", turn=n, expected=expected)
    if n > expected:
        raise PbpError("turn_not_reachable", turn=n, expected=expected)
    return n


def gather(campaign: Campaign, n: int, state: dict) -> TurnInputs:
    """Every order of turn `n`, validated; all problems at once as an ErrorList.

    Order files are a stranger's input: each must be a regular file inside the
    campaign, named `<handle>.yaml`, and is read without blocking and within
    the campaign's limits (`Campaign.read_input`); gm.yaml the same way."""
    ruleset, scenario = campaign.ruleset, campaign.scenario
    limits = campaign.limits
    expected = ruleset.players_to_play(state, scenario)
    errors: list[PbpError] = []
    orders: dict[str, od.PlayerOrders] = {}
    refused: set[str] = set()  # handles whose file was refused: no default orders for them
    for handle, path in campaign.order_files(n).items():
        source = campaign.rel(path)
        try:
            campaign.check_input(path)  # a FIFO, a folder, a link outside: said by name, never opened
            if path.suffix not in (".yaml", ".yml"):
                raise InputError("orders_not_yaml", file=source)
            if handle not in scenario.roster:
                raise InputError("unknown_player_file", file=source, player=handle, valid=list(scenario.roster),
                                 suggestion=od.i18n.closest(handle, scenario.roster))
            if handle not in expected:
                raise InputError("player_not_playing", file=source, player=handle)
            data = campaign.read_input(path, limits["order_file_bytes"], "order_file_bytes")
        except PbpError as exc:
            errors.append(exc)
            refused.add(handle)
            continue
        parsed, problems = od.parse_player_orders(data, source, ruleset=ruleset, scenario=scenario, turn=n,
                                                  expected_player=handle, limits=limits)
        if not problems:
            problems = od.check_rules(parsed, state, ruleset, scenario)
        errors += problems
        if problems:
            refused.add(handle)
        if parsed is not None:
            orders[handle] = parsed
    defaulted = []
    raw_default = campaign.config.get("default_orders")
    for handle in expected:
        if handle not in orders and handle not in refused:
            defaulted.append(handle)
            orders[handle] = od.default_orders(ruleset, scenario, handle, n, raw_default)
            errors += od.check_rules(orders[handle], state, ruleset, scenario)
    gm_path = campaign.gm_file(n)
    gm = od.GmOrders(n)
    if campaign.has_input(gm_path):
        source = campaign.rel(gm_path)
        try:
            data = campaign.read_input(gm_path, limits["gm_file_bytes"], "gm_file_bytes")
        except PbpError as exc:
            errors.append(exc)
        else:
            parsed_gm, problems = od.parse_gm(data, source, ruleset=ruleset, state=state, scenario=scenario,
                                              turn=n, limits=limits)
            errors += problems
            gm = parsed_gm or gm
    if errors:
        raise ErrorList(errors)
    ordered = {h: orders[h] for h in scenario.roster if h in orders}
    return TurnInputs(ordered, gm, defaulted)


def _plain(value):
    """Event data as YAML-safe plain values (rolls become dicts, tuples lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict())
    return value


def extra_events(campaign: Campaign, inputs: TurnInputs, state: dict) -> list[ev.Event]:
    """What the core adds to the ruleset's events: the MJ's narration and the
    players' roleplay. Whose roleplay is quoted where is the ruleset's decision
    (`Ruleset.roleplay_audience`, from the state the turn is played from)."""
    out = []
    narration = inputs.gm.narration
    if isinstance(narration, str):
        narration = {"public": narration}
    for key, text in (narration or {}).items():
        # gm.yaml's keys: `public`, `gm`, or a roster handle (`gm` and `public` are reserved handles)
        if key == "public":
            out.append(ev.public("narration", markdown=text))
        elif key == "gm":
            out.append(ev.gm("narration", markdown=text))
        else:
            out.append(ev.private(key, "narration", markdown=text))
    ruleset, scenario = campaign.ruleset, campaign.scenario
    for handle, orders in inputs.orders.items():
        if orders.roleplay:
            audience = ruleset.roleplay_audience(state, scenario, handle)
            out.append(ev.Event("roleplay", {"player": handle, "character": scenario.name(handle),
                                             "text": orders.roleplay}, audience))
    if inputs.defaulted:
        out.append(ev.gm("defaulted", players=inputs.defaulted))
    return out


def compute(campaign: Campaign, n: int) -> TurnOutput:
    """Resolve turn `n` from the archive's files, without writing anything."""
    if n == 0:
        return compute_setup(campaign)
    state = campaign.state(n - 1)
    if campaign.ruleset.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    inputs = gather(campaign, n, state)
    dice = Dice(campaign.secret, n, dict(inputs.gm.rolls))
    try:
        result = campaign.ruleset.resolve(pickle.loads(pickle.dumps(state)), campaign.scenario, inputs.orders,
                                          inputs.gm, dice)
    except ForcedRollError as exc:
        raise exc.located(campaign.rel(campaign.gm_file(n)), _forced_line(inputs.gm, exc.params.get("label")))
    events = list(result.events) + extra_events(campaign, inputs, state)
    rolled = [r.label for r in dice.log]
    warnings = [PbpError("forced_unused", file=campaign.rel(campaign.gm_file(n)),
                         line=_forced_line(inputs.gm, label), label=label, suggestion=closest(label, rolled))
                for label in dice.unused_forced()]
    events += [ev.gm("forced_unused", label=w.params["label"]) for w in warnings]
    return _finish(campaign, n, result.state, events, dice, warnings)


def _forced_line(gm: od.GmOrders, label) -> int | None:
    """The line of a forced roll in gm.yaml (`rolls:` or its French `jets:`)."""
    english, french = gm.lines.line(("rolls", label)), gm.lines.line(("jets", label))
    return french if english == gm.lines.line(()) else english


def compute_setup(campaign: Campaign) -> TurnOutput:
    gm_path = campaign.gm_file(0)
    forced = {}
    if campaign.has_input(gm_path):  # set-up reads only gm.yaml's forced rolls
        source = campaign.rel(gm_path)
        data = campaign.read_input(gm_path, campaign.limits["gm_file_bytes"], "gm_file_bytes")
        raw, lines = yamlio.load_untrusted(data, source)
        raw = raw or {}
        if not isinstance(raw, dict):
            raise InputError("gm_not_mapping", file=source)
        rolls = raw.get("rolls", raw.get("jets")) or {}
        if not isinstance(rolls, dict):
            raise InputError("rolls_not_mapping", file=source, line=lines.line(("rolls",)))
        forced = {str(k): v for k, v in rolls.items()}
    dice = Dice(campaign.secret, 0, forced)
    try:
        result = campaign.ruleset.setup(campaign.scenario, dice)
    except ForcedRollError as exc:
        raise exc.located(campaign.rel(gm_path))
    return _finish(campaign, 0, result.state, list(result.events), dice, [])


def _finish(campaign, n, state, events, dice, warnings) -> TurnOutput:
    plain_events = [ev.Event.from_dict(_plain(e.to_dict())) for e in events]
    out = TurnOutput(n, state, plain_events, warnings=warnings)
    out.files["state.yaml"] = yamlio.dumps(_plain(state)).encode()
    out.files["rolls.yaml"] = yamlio.dumps([r.to_dict() for r in dice.log]).encode()
    out.files["events.yaml"] = yamlio.dumps([e.to_dict() for e in plain_events]).encode()
    return out


def renderer(campaign: Campaign, fmt: str | None = None) -> Renderer:
    paths = template_paths(campaign.ruleset.id, campaign.lang, campaign.root, campaign.ruleset.folder())
    return Renderer(paths, fmt or campaign.format, campaign.dialect, campaign.lang, root=campaign.root)


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
                   if audience is ev.GM else {})
    if n == 0:
        template = "setup_" + template
    return rend.render(template, **context)


def post_path(audience: ev.Audience, ext: str) -> str:
    template, player = _reader(audience)
    return f"private/{player}.{ext}" if player else f"{template}.{ext}"


def render_all(campaign: Campaign, out: TurnOutput, fmt: str | None = None) -> None:
    rend = renderer(campaign, fmt)
    grouped = ev.by_audience(out.events)
    for audience in audiences(campaign, out.events):
        text = render_post(campaign, out.turn, out.events, audience, rend, grouped)
        out.files[post_path(audience, rend.fmt.ext)] = text.encode()


def write(campaign: Campaign, out: TurnOutput) -> list[str]:
    """Put a computed turn on disk, state.yaml last. Outputs left by an earlier,
    interrupted run of this turn are removed first. Returns the written paths."""
    for old in undo_paths(campaign, out.turn):
        old.unlink()
    folder = campaign.turn_dir(out.turn)
    written = []
    for rel, data in sorted(out.files.items(), key=lambda item: item[0] == "state.yaml"):
        atomic_write(folder / rel, data)
        written.append(campaign.rel(folder / rel))
    return written


def stored_events(campaign: Campaign, n: int) -> list[ev.Event]:
    path = campaign.turn_dir(n) / "events.yaml"
    if not (campaign.turn_dir(n) / "state.yaml").exists() or not path.exists():
        raise PbpError("turn_not_resolved", turn=n)
    raw = yamlio.load_file(path) or []
    try:
        return [ev.Event.from_dict(e) for e in raw]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise PbpError("bad_events_file", file=campaign.rel(path), problem=str(exc)) from None


def outputs_on_disk(campaign: Campaign, n: int) -> dict[str, bytes]:
    folder = campaign.turn_dir(n)
    found = {}
    for name in OUTPUT_FILES:
        if (folder / name).exists():
            found[name] = (folder / name).read_bytes()
    exts = {v for v in FORMATS.values()}
    for path in list(folder.glob("*.*")) + list((folder / "private").glob("*.*")):
        if path.suffix.lstrip(".") in exts:
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def undo_paths(campaign: Campaign, n: int) -> list:
    """The outputs of turn `n` (its orders and gm.yaml stay)."""
    folder = campaign.turn_dir(n)
    return [folder / rel for rel in outputs_on_disk(campaign, n)]
