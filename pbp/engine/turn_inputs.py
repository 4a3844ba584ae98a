"""A turn's inputs: every order file and gm.yaml of turn n, read and judged in
one pass (`gather`), and which turn comes next.

Order files are a stranger's input: each is refused on its own, naming the file
and the line, and the turn's other files are still read, so that `pbp check`
says every problem at once; `TurnInputs.raise_errors` stops a turn on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbp.base.errors import ErrorList, InputError, PbpError
from pbp.base.i18n import closest
from pbp.base.record import Record
from pbp.engine.campaign import Campaign
from pbp.engine.turn_record import record_of

if TYPE_CHECKING:
    # reading orders is imported by the commands that read them (pbp status and pbp post read the archive only)
    from pbp.engine.at_deadline import Played
    from pbp.model import orders as od


class TurnInputs(Record):
    """A turn's orders as read and judged, every file in one pass."""

    __slots__ = ("orders", "gm", "defaulted", "blank", "valid", "refused", "lost", "ignored", "errors",
                 "by_player", "inactive", "played")

    def __init__(self, orders: dict[str, od.PlayerOrders], gm: od.GmOrders, defaulted: list[str],
                 blank: list[str] | None = None, valid: list[str] | None = None, refused: list[str] | None = None,
                 lost: dict[str, str] | None = None, ignored: list[PbpError] | None = None,
                 errors: list[PbpError] | None = None, by_player: dict[str, list[PbpError]] | None = None,
                 inactive: list[str] | None = None, played: dict[str, Played] | None = None):
        self.orders = orders  # what the rules get, in roster order (a refused file's player: see `played`)
        self.gm = gm
        self.defaulted = defaulted  # in play, and sent nothing (or an unfilled form): the default orders
        self.blank = [] if blank is None else blank  # of them, who sent an unfilled form
        self.valid = [] if valid is None else valid  # whose file was accepted
        self.refused = [] if refused is None else refused  # whose file was refused (see errors)
        self.lost = {} if lost is None else lost  # handle -> why their actions are ignored
        self.ignored = [] if ignored is None else ignored  # files read and set aside, with why
        self.errors = [] if errors is None else errors
        self.by_player = {} if by_player is None else by_player  # each refused file's problems
        self.inactive = [] if inactive is None else inactive  # in play, but no longer expected (missed orders)
        #: what each player in play without valid orders plays at the deadline, and why (pbp.engine.at_deadline):
        #: who sent nothing or a blank form, and whose file is refused
        self.played = {} if played is None else played

    def refuse(self, handle: str, problems: list[PbpError]) -> None:
        self.errors += problems
        self.by_player.setdefault(handle, []).extend(problems)
        if handle not in self.refused:
            self.refused.append(handle)

    @property
    def missing(self) -> list[str]:
        """Who is still expected to send orders: in play, not set inactive."""
        return [h for h in self.defaulted if h not in self.inactive]

    @property
    def mj_errors(self) -> list[PbpError]:
        """The problems no deadline plays past: the MJ's own files (gm.yaml,
        campaign.yaml's orders). A refused player file is not one of them."""
        refusals = {id(p) for problems in self.by_player.values() for p in problems}
        return [e for e in self.errors if id(e) not in refusals]

    def raise_errors(self, at_deadline: bool = False) -> None:
        """Every problem, refused player files included; `at_deadline`: only
        the MJ's (each refused file's player plays as `played` says)."""
        errors = self.mj_errors if at_deadline else self.errors
        if errors:
            raise ErrorList(errors)


def next_turn(campaign: Campaign) -> int:
    last = campaign.last_turn()
    if last is None:
        raise PbpError("not_set_up")
    return last + 1


def next_turn_of(campaign: Campaign, handle: str, out_key: str) -> tuple[int, dict]:
    """The next turn and the state it starts from, for a player who is to order
    in it: refused when the game is over, or with `out_key` when the player is
    no longer in play (`pbp orders` and `pbp orders import` each say it their way)."""
    n = next_turn(campaign)
    state = campaign.state(n - 1)
    rs, scenario = campaign.ruleset, campaign.scenario
    if rs.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    if handle not in rs.players_to_play(state, scenario):
        raise PbpError(out_key, player=handle, character=scenario.name(handle))
    return n, state


def check_turn_number(campaign: Campaign, n: int | None) -> int:
    expected = next_turn(campaign)
    if n is None:
        return expected
    if n < expected:
        raise PbpError("turn_already_resolved", turn=n, expected=expected)
    if n > expected:
        raise PbpError("turn_not_reachable", turn=n, expected=expected)
    return n


def gather(campaign: Campaign, n: int, state: dict, previous: dict | None = None) -> TurnInputs:
    """Every order of turn `n`, read and judged in one pass: every problem of
    every file (`errors`), who is valid, refused, missing, and why. Nothing is
    raised for bad orders: `raise_errors` does, for the commands that need
    them all valid (`previous`: the record of turn n-1, see `record_of`).

    Order files are a stranger's input: each must be a regular file inside the
    campaign, named `<handle>.yaml`, and is read without blocking and within
    the campaign's limits (`Campaign.read_input`); gm.yaml the same way."""
    from pbp.model import orders as od

    ruleset, scenario = campaign.ruleset, campaign.scenario
    previous = previous if previous is not None else record_of(campaign, n - 1)
    playing = ruleset.players_to_play(state, scenario)
    lost = {h: why for h in playing if (why := ruleset.lost_turn(state, scenario, h))}
    inputs = TurnInputs({}, od.GmOrders(n), [], lost=lost,
                        inactive=[h for h in previous.get("inactive", []) if h in playing])
    orders: dict[str, od.PlayerOrders] = {}
    claimed: dict[str, list] = {}
    for handle, path in campaign.order_files(n):
        claimed.setdefault(handle, []).append(path)
    for handle, paths in claimed.items():
        parsed = _judged(campaign, n, state, handle, paths, inputs, playing)
        if parsed is not None:
            orders[handle] = parsed
            inputs.valid.append(handle)
    for handle in playing:
        if handle in lost and handle not in orders:
            orders[handle] = od.PlayerOrders(handle, n, [], default=True)
    _without_orders(campaign, state, n, inputs, [h for h in playing if h not in orders],
                    {h: campaign.rel(paths[0]) for h, paths in claimed.items()}, orders)
    _read_gm(campaign, n, state, inputs)
    inputs.orders = {h: orders[h] for h in scenario.roster if h in orders}
    return inputs


def _order_file_bytes(campaign: Campaign, handle: str, paths: list, inputs: TurnInputs,
                      playing: list[str]) -> bytes | None:
    """The bytes of `handle`'s order file; None when it is refused or set aside
    (`inputs` says which and why)."""
    source = campaign.rel(paths[0])
    scenario = campaign.scenario
    try:
        if len(paths) > 1:  # lucy.yaml and Lucy.yml: which one would the player mean?
            raise InputError("orders_duplicate", file=source, player=handle,
                             files=[campaign.rel(p) for p in paths])
        path = paths[0]
        campaign.check_input(path)  # a FIFO, a folder, a link outside: said by name, never opened
        if path.suffix not in (".yaml", ".yml"):
            backup = path.name.endswith("~") or path.suffix in (".bak", ".orig", ".swp")
            raise InputError("orders_backup_copy" if backup else "orders_not_yaml", file=source)
        if handle not in scenario.roster:
            raise InputError("unknown_player_file", file=source, player=handle, valid=list(scenario.roster),
                             suggestion=closest(handle, scenario.roster))
        if handle not in playing:  # out of the game: set aside, not an error of the turn
            inputs.ignored.append(InputError("player_not_playing", file=source, player=handle))
            return None
        return campaign.read_input(path, campaign.limits["order_file_bytes"], "order_file_bytes")
    except PbpError as exc:
        inputs.refuse(handle, [exc])
        return None


def _judged(campaign: Campaign, n: int, state: dict, handle: str, paths: list, inputs: TurnInputs,
            playing: list[str]) -> od.PlayerOrders | None:
    """`handle`'s orders for turn n when their file is valid and not an unfilled
    form; None otherwise (`inputs` says why)."""
    from pbp.model import orders as od

    data = _order_file_bytes(campaign, handle, paths, inputs, playing)
    if data is None:
        return None
    ruleset, scenario, lost = campaign.ruleset, campaign.scenario, inputs.lost
    parsed, problems = od.parse_player_orders(data, campaign.rel(paths[0]), ruleset=ruleset, scenario=scenario,
                                              turn=n, expected_player=handle, limits=campaign.limits,
                                              facts=ruleset.arg_context(state, scenario, handle))
    if parsed is not None and handle in lost:
        # a lost turn: the file is accepted, its actions ignored, its roleplay kept
        problems = [p for p in problems if not _about_actions(p, parsed)]
        parsed = parsed.replace(actions=[], assumed=[])
    elif parsed is not None:
        problems = problems + od.check_rules(parsed, state, ruleset, scenario)
    if problems:
        inputs.refuse(handle, problems)
        return None
    if parsed.blank and handle not in lost:
        # an unfilled form: as if nothing was sent; one still as `pbp orders --write`
        # wrote it was not sent back at all (not yet): `pbp check` says so
        if data != order_form(campaign, handle, n, state).encode():
            inputs.blank.append(handle)
        return None
    return parsed


def _read_gm(campaign: Campaign, n: int, state: dict, inputs: TurnInputs) -> None:
    """gm.yaml of turn n, when there is one, into `inputs.gm`; its problems into `inputs.errors`."""
    from pbp.model import orders as od

    gm_path = campaign.gm_file(n)
    if not campaign.has_input(gm_path):
        return
    limits = campaign.limits
    try:
        data = campaign.read_input(gm_path, limits["gm_file_bytes"], "gm_file_bytes")
    except PbpError as exc:
        inputs.errors.append(exc)
        return
    parsed_gm, problems = od.parse_gm(data, campaign.rel(gm_path), ruleset=campaign.ruleset, state=state,
                                      scenario=campaign.scenario, turn=n, limits=limits)
    inputs.errors += problems
    inputs.gm = parsed_gm or inputs.gm


def _without_orders(campaign: Campaign, state: dict, n: int, inputs: TurnInputs, handles: list[str],
                    files: dict[str, str], orders: dict) -> None:
    """What each player in play without valid orders plays (pbp.engine.at_deadline):
    who sent nothing or a blank form is among the defaulted; a refused file's
    player plays so only when the turn is played at the deadline (`compute`)."""
    if not handles:
        return
    from pbp.engine.at_deadline import Policy

    policy = Policy(campaign, state, n)
    for handle in handles:
        refused = handle in inputs.refused
        if not refused:
            inputs.defaulted.append(handle)
        why = "refused" if refused else "blank" if handle in inputs.blank else "missing"
        try:
            played = policy.play(handle, why, files[handle] if refused else None)
        except PbpError as exc:
            inputs.errors.append(exc)
            continue
        inputs.played[handle] = played
        orders[handle] = played.orders


def _about_actions(problem: PbpError, orders: od.PlayerOrders) -> bool:
    """Whether a refusal is about the action list (ignored on a lost turn)."""
    actions_line = orders.lines.line(("actions",))
    return problem.line is not None and actions_line is not None and problem.line >= actions_line and \
        problem.key not in ("roleplay_not_text", "text_too_long", "player_mismatch", "turn_mismatch")


def order_form(campaign: Campaign, handle: str, n: int, state: dict) -> str:
    """The blank order form of `handle` for turn n, as `pbp orders` prints and writes it."""
    from pbp.model.argcontext import ArgContext
    from pbp.model.argtypes import compile_types
    from pbp.render.render import Renderer, template_paths

    rs, scenario = campaign.ruleset, campaign.scenario
    types = compile_types(rs.rules)
    context = ArgContext(scenario, campaign.limits, handle, rs.arg_context(state, scenario, handle))
    actions = [dict(id=a, en=(spec or {}).get("en"), arg=types.action(rs.actions, a).describe(campaign.lang),
                    spec=spec or {}, choices=_choices(types.action(rs.actions, a), context))
               for a, spec in rs.actions.items()]
    paths = template_paths(rs.id, campaign.lang, campaign.root, rs.folder())
    return Renderer(paths, "text", lang=campaign.lang).render(
        "orders_form", player=handle, character=scenario.name(handle), turn=n, actions=actions,
        playing=handle in rs.players_to_play(state, scenario), hints=rs.order_context(state, scenario, handle),
        # a lost turn, said at the top of the form (the reason: a message key of the ruleset)
        lost=(lambda why: f"{rs.id}.{why}" if why else None)(rs.lost_turn(state, scenario, handle)))


def _choices(arg, context) -> list[str]:
    """The names a form lists for an argument: the characters, places or items the
    ruleset's facts (`Ruleset.arg_context`) let this player name; none without facts
    (a choice's values are in its description already)."""
    from pbp.model.argtypes import Character, List, Named

    item = arg.of if isinstance(arg, List) else arg
    if not context.facts or not isinstance(item, (Character, Named)):
        return []
    return list((item.offers(context) or {}).values())
