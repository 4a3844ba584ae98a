"""One turn, from its input files to its output bytes.

    gather (orders + gm.yaml, validated) -> ruleset.resolve (with dice)
    -> events -> render per audience -> files

Nothing is written here: `write` puts a computed turn on disk (state.yaml last,
as the mark that the turn is resolved), and `pbp verify` compares a recomputed
turn with the archive byte for byte.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbp.base import i18n, yamlio
from pbp.base.errors import ErrorList, ForcedRollError, InputError, PbpError
from pbp.base.i18n import closest
from pbp.base.record import Record
from pbp.engine.campaign import FORMATS, Campaign, atomic_write, check_overrides, handle_file, read_bytes, read_text
from pbp.engine.deadline import deadline_of, describe
from pbp.model import events as ev

if TYPE_CHECKING:
    # Imported where used: rendering by the commands that render (pbp check
    # does not), reading orders and rolling dice by those that resolve a turn
    # (pbp status and pbp post read the archive only).
    from pbp.engine.at_deadline import Played
    from pbp.model import orders as od
    from pbp.render.render import Renderer

#: the core's record of a turn: the roster and the rendering it was played with
#: (so `pbp verify` replays it as it was), and the missed-orders counts
RECORD_FILE = "turn.yaml"
OUTPUT_FILES = ("state.yaml", "rolls.yaml", "events.yaml", RECORD_FILE)


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


class TurnOutput(Record):
    __slots__ = ("turn", "state", "events", "files", "warnings", "record", "rolls", "inputs")

    def __init__(self, turn: int, state: dict, events: list[ev.Event], files: dict[str, bytes] | None = None,
                 warnings: list[PbpError] | None = None, record: dict | None = None, rolls: list | None = None,
                 inputs: TurnInputs | None = None):
        self.turn = turn
        self.state = state
        self.events = events
        self.files = {} if files is None else files  # path relative to the turn folder
        self.warnings = [] if warnings is None else warnings
        self.record = {} if record is None else record  # what turn.yaml holds
        self.rolls = [] if rolls is None else rolls  # the roll log (pbp.model.dice.Roll), as rolls.yaml has it
        self.inputs = inputs  # the orders it was played from (None: the set-up)


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
    limits = campaign.limits
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
        source = campaign.rel(paths[0])
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
                continue
            data = campaign.read_input(path, limits["order_file_bytes"], "order_file_bytes")
        except PbpError as exc:
            inputs.refuse(handle, [exc])
            continue
        parsed, problems = od.parse_player_orders(data, source, ruleset=ruleset, scenario=scenario, turn=n,
                                                  expected_player=handle, limits=limits,
                                                  facts=ruleset.arg_context(state, scenario, handle))
        if parsed is not None and handle in lost:
            # a lost turn: the file is accepted, its actions ignored, its roleplay kept
            problems = [p for p in problems if not _about_actions(p, parsed)]
            parsed = parsed.replace(actions=[], assumed=[])
        elif parsed is not None:
            problems = problems + od.check_rules(parsed, state, ruleset, scenario)
        if problems:
            inputs.refuse(handle, problems)
            continue
        if parsed.blank and handle not in lost:
            # an unfilled form: as if nothing was sent; one still as `pbp orders --write`
            # wrote it was not sent back at all (not yet): `pbp check` says so
            if data != order_form(campaign, handle, n, state).encode():
                inputs.blank.append(handle)
            continue
        orders[handle] = parsed
        inputs.valid.append(handle)
    for handle in playing:
        if handle in lost and handle not in orders:
            orders[handle] = od.PlayerOrders(handle, n, [], default=True)
    _without_orders(campaign, state, n, inputs, [h for h in playing if h not in orders],
                    {h: campaign.rel(paths[0]) for h, paths in claimed.items()}, orders)
    gm_path = campaign.gm_file(n)
    if campaign.has_input(gm_path):
        source = campaign.rel(gm_path)
        try:
            data = campaign.read_input(gm_path, limits["gm_file_bytes"], "gm_file_bytes")
        except PbpError as exc:
            inputs.errors.append(exc)
        else:
            parsed_gm, problems = od.parse_gm(data, source, ruleset=ruleset, state=state, scenario=scenario,
                                              turn=n, limits=limits)
            inputs.errors += problems
            inputs.gm = parsed_gm or inputs.gm
    inputs.orders = {h: orders[h] for h in scenario.roster if h in orders}
    return inputs


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


# -- the core's record of a turn ---------------------------------------------------

def record_of(campaign: Campaign, n: int, remember: bool = True) -> dict:
    """The record of turn n (turns/NNN/turn.yaml), {} when there is none (an
    archive from before records, or a turn not played). `remember`: as
    `Campaign.state`'s."""
    if n < 0:
        return {}
    path = campaign.turn_dir(n) / RECORD_FILE
    if not path.exists():
        return {}
    text = read_text(path, campaign.rel(path))
    data = yamlio.loads(text, campaign.rel(path), remember=remember)
    fmt = (data.get("render") or {}).get("format") if isinstance(data, dict) and isinstance(data.get("render"), dict) else None
    if fmt is not None and fmt not in FORMATS:  # a turn is replayed in a format pbp has, or refused
        raise PbpError("bad_choice", file=campaign.rel(path), line=yamlio.line_of(text, ("render", "format")),
                       value=fmt, valid=list(FORMATS))
    rules = data.get("rules") if isinstance(data, dict) else None
    if rules != (campaign.config.get("rules") or {}):  # the campaign's own were checked when it was opened
        check_overrides(campaign, rules, campaign.rel(path), text)
    return data if isinstance(data, dict) else {}


def new_record(campaign: Campaign, inputs: TurnInputs | None, previous: dict,
               playing: list[str] | None = None, dice: int = 0) -> dict:
    """What turn n records: the roster, rendering and dice version (`dice`,
    written when not 0, see `dice_version`) it was played with, and the
    missed-orders counts (consecutive turns without orders, by player).
    `playing`: who is still in play after the turn; the others (dead, escaped,
    eliminated) have nothing to order any more, so no count is kept for them:
    they are never flagged to chase nor waited for."""
    missed = dict(previous.get("missed") or {})
    inactive = set(previous.get("inactive") or [])
    if inputs is not None:
        # a blank form's sender is among the defaulted, counted once; a refused file played at
        # the deadline is a turn without orders too
        for handle in inputs.defaulted + [h for h in inputs.played if h in inputs.refused]:
            missed[handle] = missed.get(handle, 0) + 1
        for handle in inputs.valid:
            missed.pop(handle, None)
            inactive.discard(handle)  # back in the game
        after = campaign.nmr.get("inactive_after")
        if after:
            inactive |= {h for h, count in missed.items() if count >= after}
    if playing is not None:
        missed = {h: count for h, count in missed.items() if h in playing}
        inactive &= set(playing)
    roster = campaign.roster
    record = {"roster": roster, "render": {"lang": campaign.lang, "format": campaign.format,
                                           "dialect": campaign.dialect}}
    if dice:  # absent means 0: a turn of an archive from before versions replays byte for byte
        record["dice"] = dice
    # the campaign's rules overrides in force for this turn: a number changed mid-game
    # applies from the next turn, and a replay plays each turn with its own (as_recorded)
    record["rules"] = campaign.config.get("rules") or {}
    record["missed"] = {h: missed[h] for h in roster if missed.get(h)}
    record["inactive"] = [h for h in roster if h in inactive]
    return record


def dice_version(campaign: Campaign, n: int, previous: dict) -> int:
    """The dice version turn n is played with: the one the campaign was set up
    with, for its whole life (docs/dice.md, "Which version a turn uses").
    Turn n > 0 takes turn n-1's (`previous`, its record); the set-up takes
    the newest version, or, replayed, the one its record says (absent: 0).
    No MJ chooses it once the secret is known: a turn whose record says
    another version than its previous turn's replays DIFFERENT."""
    from pbp.model import dice_versions

    if n > 0:
        return dice_versions.recorded(previous)
    if campaign.last_turn() is not None:  # turn 0 is archived: this is its replay
        return dice_versions.recorded(record_of(campaign, 0, remember=False))
    return dice_versions.VERSION


#: what campaign.yaml means when it does not say (Campaign.lang, .format, .dialect)
DEFAULT_RENDER = {"lang": "fr", "format": "bbcode", "dialect": "phpbb"}


def as_recorded(campaign: Campaign, record: dict) -> Campaign:
    """The campaign as turn n was played: its recorded roster, rules overrides
    and rendering (a player who joined later, a rules number or a format changed
    since, leave it as it was)."""
    if not record:
        return campaign
    roster = record.get("roster")
    render = {k: v for k, v in (record.get("render") or {}).items() if v is not None}
    same_roster = roster is None or roster == campaign.roster
    # a record without `rules` is from before pbp recorded them: the campaign's rules
    same_rules = "rules" not in record or (record["rules"] or {}) == (campaign.config.get("rules") or {})
    if same_roster and same_rules and \
            all(campaign.config.get(k, DEFAULT_RENDER.get(k)) == v for k, v in render.items()):
        return campaign  # as it is now: its world, sheets and rules already read and checked
    config = dict(campaign.config)
    if roster is not None:
        config["players"] = roster
    if not same_rules:
        config["rules"] = record["rules"]
    config.update(render)
    replayed = campaign.replace(config=config)
    # what does not depend on the roster, the rules or the rendering is not read again
    # (the ruleset, when the rules are the same; the scenario, when the roster is too)
    kept = ("ruleset",) if same_rules else ()
    kept += ("scenario",) if same_roster and same_rules else ()
    for name in kept:
        if name in campaign.__dict__:
            replayed.__dict__[name] = campaign.__dict__[name]
    return replayed


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
    if inputs.played:
        out.append(deadline_event(campaign, inputs))
    for handle, why in inputs.lost.items():
        if handle in inputs.valid:  # they sent orders for a turn they lose: both are told
            out.append(ev.private(handle, "actions_ignored", player=handle, reason=f"{ruleset.id}.{why}"))
    for note in inputs.ignored:
        out.append(ev.gm("file_ignored", file=note.file, player=note.params.get("player")))
    return out


def deadline_event(campaign: Campaign, inputs: TurnInputs) -> ev.Event:
    """For the MJ's report: what each player without valid orders played, and
    why (nothing sent, a blank form, a refused file; the default orders, or the
    ruleset's fallback orders where the default ones are not allowed to them).
    The actions and the rules' reasons are words: given in each language, so
    the report renders in either (`pbp post --format`, a language changed since)."""
    from pbp.engine.at_deadline import refusal_texts
    from pbp.model.orders import action_lines

    rs = campaign.ruleset
    players = []
    for handle, played in inputs.played.items():
        entry = {"player": handle, "why": played.why, "how": played.how,
                 "actions": {lang: action_lines(rs, lang, played.orders.actions) for lang in i18n.LANGS}}
        if played.file:
            entry["file"] = played.file
        if played.how == "fallback":
            entry.update(default={lang: action_lines(rs, lang, played.default) for lang in i18n.LANGS},
                         source=played.source,
                         refusals={lang: refusal_texts(played.refusals, lang) for lang in i18n.LANGS})
        players.append(entry)
    return ev.gm("deadline_played", players=players)


def standing_event(campaign: Campaign, state: dict) -> ev.Event | None:
    """Where each character stands after the turn (Ruleset.standing), for the
    public post's last lines; each status becomes a full message key: the
    ruleset's `<id>.<key>` when it has one, else the core's."""
    rs = campaign.ruleset
    players = []
    for entry in rs.standing(state, campaign.scenario) or []:
        key = str(entry["status"])
        if i18n.has(f"{rs.id}.{key}"):
            key = f"{rs.id}.{key}"
        item = {"name": entry.get("name") or campaign.names.get(entry.get("handle"), entry.get("handle")),
                "handle": entry.get("handle"), "status": key}
        if entry.get("params"):
            item["params"] = dict(entry["params"])
        players.append(item)
    return ev.public("standing", players=players) if players else None


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


def core_events(campaign: Campaign, n: int, record: dict, state: dict) -> list[ev.Event]:
    """The core's own news of a turn: who the MJ should chase (missed orders),
    where the characters stand and when the next orders are due (both shown at
    the end of the public post)."""
    out = []
    flag_after = campaign.nmr.get("flag_after")
    rs, scenario = campaign.ruleset, campaign.scenario
    # only who has orders to send for the next turn is chased: not once the game
    # is over, nor a player whose next turn is lost (panic, exhaustion...)
    flagged = [h for h, count in (record.get("missed") or {}).items()
               if flag_after and count >= flag_after and not rs.is_over(state)
               and not rs.lost_turn(state, scenario, h)]
    if record.get("missed"):
        out.append(ev.gm("missed_orders", missed=record["missed"], flagged=flagged,
                         inactive=record.get("inactive") or []))
    standing = standing_event(campaign, state)
    if standing is not None:
        out.append(standing)
    if not campaign.ruleset.is_over(state):
        when = deadline_of(campaign.config.get("deadline"), n + 1)
        if when is not None:
            out.append(ev.public("deadline", turn=n + 1, when=describe(when, campaign.lang,
                                                                        (campaign.config.get("deadline") or {})
                                                                        .get("zone"))))
    return out


def compute(campaign: Campaign, n: int, inputs: TurnInputs | None = None, files: bool = True,
            state: dict | None = None, at_deadline: bool = False) -> TurnOutput:
    """Resolve turn `n` from the archive's files, without writing anything.
    `inputs`: the turn's orders, already gathered from `state`, the state of
    turn n-1 (`pbp check` has both: neither is read again); `files=False`: no
    output bytes (the turn is only resolved, to see what it rolls);
    `at_deadline`: a refused player file does not stop the turn, its player
    plays as the deadline policy says (pbp.engine.at_deadline); an archived turn is
    replayed so (a refused file in it was played so)."""
    if n == 0:
        return compute_setup(campaign)
    if state is None:
        state = campaign.state(n - 1, remember=False)  # not kept: `pbp verify` computes every turn
    if campaign.ruleset.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    previous = record_of(campaign, n - 1, remember=False)
    if inputs is None:
        inputs = gather(campaign, n, state, previous)
    inputs.raise_errors(at_deadline)
    from pbp.model.dice import Dice

    version = dice_version(campaign, n, previous)
    dice = Dice(campaign.secret, n, dict(inputs.gm.rolls), version)
    try:
        import pickle  # a deep copy of the state, quicker than copy.deepcopy

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
    record = new_record(campaign, inputs, previous,
                        campaign.ruleset.players_to_play(result.state, campaign.scenario), version)
    events += core_events(campaign, n, record, result.state)
    out = _finish(campaign, n, result.state, events, dice, warnings, record, files)
    out.inputs = inputs
    return out


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
    from pbp.model.dice import Dice

    version = dice_version(campaign, 0, {})
    dice = Dice(campaign.secret, 0, forced, version)
    try:
        result = campaign.ruleset.setup(campaign.scenario, dice)
    except ForcedRollError as exc:
        raise exc.located(campaign.rel(gm_path))
    record = new_record(campaign, None, {}, dice=version)
    events = list(result.events) + core_events(campaign, 0, record, result.state)
    return _finish(campaign, 0, result.state, events, dice, [], record)


def _finish(campaign, n, state, events, dice, warnings, record, files: bool = True) -> TurnOutput:
    forced = [r for r in dice.log if r.forced]
    if forced:  # the MJ report lists the dice set by hand (seal.j2); the audit shows them to the players
        events = list(events) + [ev.gm("forced_rolls", rolls=forced)]
    plain_events = [ev.Event.from_dict(_plain(e.to_dict())) for e in events]
    log = [r.to_dict() for r in dice.log]
    out = TurnOutput(n, state, plain_events, warnings=warnings, record=record, rolls=list(dice.log))
    if not files:
        return out
    from pbp.base import yamldump  # PyYAML, loaded when a turn is written, not by every command

    out.files[RECORD_FILE] = yamldump.dumps(record).encode()
    out.files["state.yaml"] = yamldump.dumps(_plain(state)).encode()
    out.files["rolls.yaml"] = yamldump.dumps(log).encode()
    out.files["events.yaml"] = yamldump.dumps(stored_form(plain_events, log)).encode()
    return out


# -- events.yaml: rolls by label -----------------------------------------------------
#
# The roll log (rolls.yaml) holds every roll of a turn, whole. events.yaml names
# a roll of that log by its label, `{roll: <label>}`, where an event's data held
# it whole: the same record, once. Reading events.yaml back puts each roll in
# its place again (`resolve_rolls`), so a template gets the very data it got
# when the turn was run. A roll that is not the log's, as the log has it, stays
# whole. An archive written before (rolls whole in events.yaml) is read as it is,
# and `pbp verify` compares it with its own form (`as_archived`).

ROLL_REF = "roll"


def stored_form(events: list[ev.Event], log: list[dict]) -> list[dict]:
    """events.yaml's content: each event's readable form, the rolls of the log
    given by label."""
    by_label = {r["label"]: r for r in log}
    return [_refer(e.to_dict(), by_label) for e in events]


def _refer(value, by_label: dict):
    if isinstance(value, dict):
        label = value.get("label")
        if type(label) is str and "total" in value and by_label.get(label) == value:
            return {ROLL_REF: label}
        if len(value) == 1 and ROLL_REF in value:
            # it would read back as a reference: a ruleset's bug, said before anything is written
            raise ValueError(f"event data holds {value!r}: a mapping of the one key {ROLL_REF!r} is events.yaml's "
                             "reference to a roll of the log")
        return {k: _refer(v, by_label) for k, v in value.items()}
    if isinstance(value, list):
        return [_refer(v, by_label) for v in value]
    return value


def resolve_rolls(value, by_label: dict):
    """events.yaml's data with each `{roll: <label>}` of the log replaced by a
    copy of that roll's record."""
    if isinstance(value, dict):
        if len(value) == 1 and type(value.get(ROLL_REF)) is str and value[ROLL_REF] in by_label:
            # a copy of its own, faces included: nothing shared between two places of the data
            return {k: list(v) if isinstance(v, list) else v for k, v in by_label[value[ROLL_REF]].items()}
        return {k: resolve_rolls(v, by_label) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_rolls(v, by_label) for v in value]
    return value


def record_as_archived(out: TurnOutput, archived: dict) -> None:
    """A turn archived before pbp recorded the rules it was played with (its
    turn.yaml has no `rules`) was played with the campaign's: its replay's
    record says none either, so an older archive still verifies."""
    if RECORD_FILE not in out.files or "rules" in archived or "rules" not in out.record:
        return
    from pbp.base import yamldump

    del out.record["rules"]
    out.files[RECORD_FILE] = yamldump.dumps(out.record).encode()


def as_archived(out: TurnOutput, archived: bytes | None) -> None:
    """An archive written before rolls were given by label holds them whole in
    events.yaml: replayed, such a turn is compared with that form (the same
    events, written the old way), so an older archive still verifies."""
    current = out.files.get("events.yaml")
    if archived is None or current is None or archived == current:
        return
    from pbp.base import yamldump

    whole = yamldump.dumps([e.to_dict() for e in out.events]).encode()
    if archived == whole:
        out.files["events.yaml"] = whole


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
    """Turn n's events as events.yaml records them, each roll given by label
    put back from the roll log (rolls.yaml): the data the turn's templates got."""
    folder = campaign.turn_dir(n)
    path = folder / "events.yaml"
    if not (folder / "state.yaml").exists() or not path.exists():
        raise PbpError("turn_not_resolved", turn=n)
    raw = yamlio.load_file(path) or []
    rolls_path = folder / "rolls.yaml"
    log = yamlio.load_file(rolls_path) if rolls_path.exists() else None
    by_label = {r["label"]: r for r in log if isinstance(r, dict) and isinstance(r.get("label"), str)} \
        if isinstance(log, list) else {}
    try:
        return [ev.Event.from_dict(resolve_rolls(e, by_label) if by_label else e) for e in raw]
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
