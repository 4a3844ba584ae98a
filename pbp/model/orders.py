"""Order files: reading them, validating them against the ruleset's declared
actions, and saying precisely what is wrong.

An order file, as a player writes it:

    player: lucy
    turn: 3
    actions:
      - deplacement_normal: nord
      - recherche_pieges
    roleplay: |
      Lucy avance à pas feutrés.

The ruleset declares its actions in its data file (`actions:`), each with an
optional argument type (pbp.model.argtypes). This module checks the shape and the
vocabulary; the ruleset then checks legality against the state. Every problem
becomes a PbpError naming the file, the line, and what would be valid.

An order file is a stranger's input: it is read with `yamlio.load_untrusted`
(no aliases, no tags, bounded depth and numbers), its texts are bounded by the
campaign's `limits`, and every problem is a `Refusal` at a path, placed on its
line through the file's `Lines` (no re-reading).
"""

from __future__ import annotations


from pbp.base import i18n, yamlio
from pbp.base.errors import ByLang, InputError, PbpError
from pbp.base.record import FrozenRecord, Record
from pbp.base.yamlio import Lines
from pbp.model.argcontext import ArgContext, match_names, normalize_id  # noqa: F401 (the rulesets' names)
from pbp.model.argtypes import compile_types
from pbp.model.ruleset import Refusal, Refusals, Ruleset, Scenario

TOP_KEYS = {"player": "player", "joueur": "player", "turn": "turn", "tour": "turn",
            "actions": "actions", "roleplay": "roleplay", "rp": "roleplay"}
GM_KEYS = {"turn", "tour", "narration", "rolls", "jets", "orders", "ordres"}


class Action(FrozenRecord):
    __slots__ = ("id", "arg", "index")

    def __init__(self, id: str, arg: object = None, index: int = 0):
        self.id = id
        self.arg = arg
        self.index = index

    @property
    def at(self) -> tuple:
        return ("actions", self.index)


class PlayerOrders(Record):
    __slots__ = ("player", "turn", "actions", "roleplay", "source", "lines", "default", "assumed", "notes")

    def __init__(self, player: str, turn: int, actions: list[Action] | None = None, roleplay: str = "",
                 source: str | None = None, lines: Lines | None = None, default: bool = False,
                 assumed: list[Action] | None = None, notes: list | None = None):
        self.player = player
        self.turn = turn
        self.actions = [] if actions is None else actions
        self.roleplay = roleplay
        self.source = source  # file path; None for default orders
        self.lines = Lines() if lines is None else lines  # where each value was, to place a refusal
        self.default = default
        #: refused actions read as their closest spelling (`fouile` as `fouille`), so
        #: that the rules checks see every action the player wrote, in one pass
        self.assumed = [] if assumed is None else assumed
        #: what the MJ is told of the file and that refuses nothing (read as Windows-1252)
        self.notes = [] if notes is None else notes

    @property
    def blank(self) -> bool:
        """Nothing ordered and nothing said: an unfilled form counts as nothing sent."""
        return not self.actions and not self.assumed and not self.roleplay

    def has(self, action_id: str) -> bool:
        return any(a.id == action_id for a in self.actions)


class GmOrders(Record):
    __slots__ = ("turn", "narration", "rolls", "orders", "source", "lines", "quiet")

    def __init__(self, turn: int, narration: object = None, rolls: dict | None = None, orders: dict | None = None,
                 source: str | None = None, lines: Lines | None = None, quiet: bool = False):
        self.turn = turn
        self.narration = narration  # Markdown str, or {public: str, <handle>: str, gm: str}
        self.rolls = {} if rolls is None else rolls  # forced rolls by label
        self.orders = {} if orders is None else orders  # ruleset-specific MJ orders
        self.source = source
        self.lines = Lines() if lines is None else lines
        #: a simulated turn: nobody reads the private reports, a ruleset may skip them
        self.quiet = quiet


def action_index(actions: dict) -> dict[str, str]:
    """Every accepted spelling (id, English id, aliases) -> the action id."""
    cached = _index_cache.get(id(actions))
    if cached is not None and cached[0] is actions:
        return cached[1]
    index = {}
    for action_id, spec in actions.items():
        spec = spec or {}
        for name in [action_id, spec.get("en"), *(spec.get("aliases") or [])]:
            if name:
                index[normalize_id(name)] = action_id
    _index_cache[id(actions)] = (actions, index)
    return index


_index_cache: dict[int, tuple[dict, dict]] = {}


def place(refusals: list[Refusal], source: str, lines: Lines, ruleset: Ruleset | None = None,
          base: tuple = ()) -> list[PbpError]:
    """Refusals as errors on their lines (an O(1) lookup each). A ruleset's own
    message key `<id>.<key>` wins over the core's `<key>`."""
    errors = []
    for r in refusals:
        key = r.key
        if ruleset is not None and i18n.has(f"{ruleset.id}.{r.key}"):
            key = f"{ruleset.id}.{r.key}"
        at = base + tuple(r.at)
        errors.append(InputError(key, file=source, line=lines.line(at) if at else None, **r.params))
    return errors


def parse_actions(raw, ruleset: Ruleset, scenario: Scenario, problems: Refusals,
                  at: tuple = ("actions",), limits: dict | None = None,
                  assumed: list[Action] | None = None, context: ArgContext | None = None) -> list[Action]:
    """The actions of a list as written (`at`: where the list is in its file).
    An unknown action with a close spelling is refused, and also added to
    `assumed` as that spelling (when its argument fits), for the rules checks.
    `context`: what the argument types know (default: the roster alone)."""
    if limits is None:
        limits = _limits(None)
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add("actions_not_list", at)
        return []
    index = action_index(ruleset.actions)
    types = compile_types(ruleset.rules)
    context = ArgContext(scenario, limits) if context is None else context
    out = []
    base = at
    for i, item in enumerate(raw):
        at = base + (i,)
        if isinstance(item, dict) and len(item) == 1:
            name, arg = next(iter(item.items()))
        elif isinstance(item, (str, int)) and not isinstance(item, bool):
            name, arg = item, None
        else:
            problems.add("action_shape", at)
            continue
        if isinstance(name, str) and len(name) > limits["text_chars"]:
            problems.add("text_too_long", at, length=len(name), limit=limits["text_chars"])
            continue
        action_id = index.get(normalize_id(name))
        if action_id is None:
            suggestion = i18n.closest(normalize_id(name), index)
            # said in the campaign's language: an English player is shown the English ids
            english = [(spec or {}).get("en") or a for a, spec in ruleset.actions.items()]
            problems.add("unknown_action", at, action=name, valid=ByLang(fr=list(ruleset.actions), en=english),
                         suggestion=ByLang(fr=suggestion,
                                           en=i18n.closest(normalize_id(name), english) or suggestion))
            if assumed is not None and suggestion:
                meant = index[suggestion]
                scratch = Refusals()
                value = types.action(ruleset.actions, meant).check(arg, context, at, scratch)
                if not scratch:
                    assumed.append(Action(meant, value, i))
            continue
        before = len(problems)
        value = types.action(ruleset.actions, action_id).check(arg, context, at, problems)
        if len(problems) == before:
            out.append(Action(action_id, value, i))
    return out


def _limits(limits: dict | None) -> dict:
    from pbp.model.defaults import limits as with_defaults

    return with_defaults(limits)


def _too_long(raw: dict, limits: dict) -> Refusals:
    """Every text longer than the file allows, in one pass with no recursion:
    a key or a top-level value at most `text_chars`, the roleplay at most
    `roleplay_chars`, and so is anything in `actions` (an argument may be the
    player's prose: its type applies the argument's own limit)."""
    problems = Refusals()
    text_limit, prose_limit = limits["text_chars"], limits["roleplay_chars"]
    todo = [((), raw)]
    while todo:
        at, value = todo.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and len(key) > text_limit:
                    problems.add("text_too_long", at + (key,), length=len(key), limit=text_limit)
                    continue  # its value would only be refused for the same reason
                todo.append((at + (key,), item))
        elif isinstance(value, list):
            todo.extend((at + (i,), item) for i, item in enumerate(value))
        elif isinstance(value, str):
            field = TOP_KEYS.get(normalize_id(at[0])) if at else None
            if field == "roleplay" and len(at) == 1:
                if len(value) > prose_limit:
                    problems.add("roleplay_too_long", at, length=len(value), limit=prose_limit)
            elif field == "actions":
                if len(value) > prose_limit:
                    problems.add("prose_too_long", at, length=len(value), limit=prose_limit)
            elif len(value) > text_limit:
                problems.add("text_too_long", at, length=len(value), limit=text_limit)
    return problems


def _load(data: bytes | str, source: str, limits: dict, size_key: str,
          alias_key: str = "yaml_alias", size: int | None = None) -> tuple[object, Lines]:
    size = len(data.encode("utf-8") if isinstance(data, str) else data) if size is None else size
    if size > limits[size_key]:  # the reader refused it already; a caller may hand bytes directly
        raise InputError("file_too_large", file=source, size=size, limit=limits[size_key], limit_key=size_key)
    return yamlio.load_untrusted(data, source, max_depth=limits["depth"], max_int_digits=limits["integer_digits"],
                                 normalize=normalize_id, alias_key=alias_key)


def parse_player_orders(data: bytes | str, source: str, *, ruleset: Ruleset, scenario: Scenario, turn: int,
                        expected_player: str, limits: dict | None = None, facts: dict | None = None
                        ) -> tuple[PlayerOrders | None, list[PbpError]]:
    """Shape and vocabulary checks of one order file (its bytes, as read); `facts`:
    what the ruleset lets this player name now (`Ruleset.arg_context`), checked by
    the argument types (a place out of reach is refused here, with its line)."""
    limits = _limits(limits)
    notes: list[PbpError] = []
    try:
        size = len(data.encode("utf-8") if isinstance(data, str) else data)
        if size > limits["order_file_bytes"]:
            raise InputError("file_too_large", file=source, size=size, limit=limits["order_file_bytes"],
                             limit_key="order_file_bytes")
        raw, lines = _load(yamlio.decode(data, source, notes), source, limits, "order_file_bytes", size=size)
    except PbpError as exc:
        return None, [exc]
    if not lines:
        return None, [InputError("empty_orders", file=source)]
    if isinstance(raw, list):  # a bare list of actions: nothing is ambiguous
        raw, lines = {"actions": raw}, lines.under("actions")
    if not isinstance(raw, dict):
        return None, [InputError("orders_not_mapping", file=source)]
    too_long = _too_long(raw, limits)
    if too_long:
        return None, sorted(place(too_long, source, lines), key=lambda e: e.line or 0)
    problems = Refusals()
    fields = {}
    for key, value in raw.items():
        canonical = TOP_KEYS.get(normalize_id(key))
        if canonical is None:
            problems.add("unknown_key", (key,), key=key, valid=["player", "turn", "actions", "roleplay"],
                         suggestion=i18n.closest(normalize_id(key), TOP_KEYS))
        else:
            fields[canonical] = (key, value)
    # `player:` and `turn:` may be left out: the file's name and folder say them
    player = fields.get("player", (None, None))[1]
    if player is not None and str(player).casefold() != expected_player.casefold():
        problems.add("player_mismatch", (fields["player"][0],), player=player, expected=expected_player)
    file_turn = fields.get("turn", (None, None))[1]
    if file_turn is not None:
        _check_turn(problems, (fields["turn"][0],), file_turn, turn)
    actions_key, raw_actions = fields.get("actions", ("actions", None))
    assumed: list[Action] = []
    context = ArgContext(scenario, limits, expected_player, facts)
    actions = parse_actions(raw_actions, ruleset, scenario, problems, (actions_key,), limits, assumed, context)
    roleplay = fields.get("roleplay", (None, ""))[1] or ""
    if not isinstance(roleplay, str):
        problems.add("roleplay_not_text", (fields["roleplay"][0],))
        roleplay = ""
    orders = PlayerOrders(expected_player, turn, actions, roleplay.strip(), source, lines, assumed=assumed,
                          notes=notes)
    return orders, place(problems, source, lines)


def default_orders(ruleset: Ruleset, scenario: Scenario, player: str, turn: int, raw=None) -> PlayerOrders:
    """What a player who sent nothing does: the campaign's `default_orders`,
    else the ruleset's."""
    raw = ruleset.rules.get("default_orders", []) if raw is None else raw
    problems = Refusals()
    actions = parse_actions(raw, ruleset, scenario, problems)
    if problems:
        raise place(problems[:1], "campaign.yaml", Lines())[0]
    return PlayerOrders(player, turn, actions, "", None, default=True)


def _arg_text(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} : {_arg_text(v)}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, list):
        return ", ".join(_arg_text(v) for v in value)
    return "" if value is None else str(value)


def action_lines(ruleset: Ruleset, lang: str, actions: list[Action]) -> list[str]:
    """Each action as the player wrote it, in the campaign's language: its name
    where the rules give one (`names`, a data ruleset's: « Fouiller une salle »),
    else its id (or its English id), then its argument."""
    out = []
    for action in actions:
        spec = ruleset.actions.get(action.id) or {}
        # French: the action's label where its id is no French (recherche_pieges), else the id
        name = (spec.get("names") or {}).get(lang) or (spec.get("en", action.id) if lang == "en"
                                                       else spec.get("label", action.id))
        arg = _arg_text(action.arg)
        out.append(f"{name.replace('_', ' ')}{' : ' + arg if arg and lang == 'fr' else ''}"
                   f"{': ' + arg if arg and lang == 'en' else ''}")
    return out


def check_rules(orders: PlayerOrders, state: dict, ruleset: Ruleset, scenario: Scenario) -> list[PbpError]:
    """The ruleset's legality checks, placed on the file's lines. The actions
    refused for a typo take part as their closest spelling, so a file's every
    problem is said in one pass (a typo and a third action too many)."""
    if orders.assumed:
        every = sorted(orders.actions + orders.assumed, key=lambda a: a.index)
        orders = orders.replace(actions=every, assumed=[])
    return place(ruleset.check_orders(state, scenario, orders), orders.source or "campaign.yaml", orders.lines,
                 ruleset)


def _check_turn(problems: Refusals, at: tuple, value, turn: int) -> None:
    """`turn:` as written: the number, quoted or not (`'4'` is turn 4, as the
    player meant); `true` or `4.5` is no turn number at all (`true == 1` in Python)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit():
        written = ("true" if value else "false") if isinstance(value, bool) else str(value)
        problems.add("turn_not_number", at, value=written, expected=turn)
    elif int(str(value).strip()) != turn:
        problems.add("turn_mismatch", at, value=int(str(value).strip()), expected=turn)


def _written(raw: dict, *spellings: str) -> str:
    """The key a file used among a field's accepted spellings (the first if none)."""
    return next((k for k in spellings if k in raw), spellings[0])


def parse_gm(data: bytes | str, source: str, *, ruleset: Ruleset, state: dict, scenario: Scenario,
             turn: int, limits: dict | None = None) -> tuple[GmOrders | None, list[PbpError]]:
    """The MJ's gm.yaml, read as carefully as an order file (its text is often
    pasted from forum messages), with a larger size limit and no limit on texts."""
    limits = _limits(limits)
    try:
        raw, lines = _load(data, source, limits, "gm_file_bytes", alias_key="yaml_alias_mj")
    except PbpError as exc:
        return None, [exc]
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return None, [InputError("gm_not_mapping", file=source)]
    problems = Refusals()
    for key in raw:
        if key not in GM_KEYS:
            problems.add("unknown_key", (key,), key=key, valid=["turn", "narration", "rolls", "orders"],
                         suggestion=i18n.closest(str(key), GM_KEYS))
    turn_key = _written(raw, "turn", "tour")
    rolls_key = _written(raw, "rolls", "jets")
    orders_key = _written(raw, "orders", "ordres")
    _check_turn(problems, (turn_key,), raw.get(turn_key, turn), turn)
    rolls = raw.get(rolls_key) or {}
    if not isinstance(rolls, dict):
        problems.add("rolls_not_mapping", (rolls_key,))
        rolls = {}
    orders = raw.get(orders_key) or {}
    if not isinstance(orders, dict):
        problems.add("gm_orders_not_mapping", (orders_key,))
        orders = {}
    narration = raw.get("narration")
    if narration is not None and not isinstance(narration, (str, dict)):
        problems.add("narration_shape", ("narration",))
        narration = None
    if isinstance(narration, dict):
        for key, value in narration.items():
            if key not in ("public", "gm") and key not in scenario.roster:
                problems.add("narration_audience", ("narration", key), key=key,
                             valid=["public", "gm", *scenario.roster])
            elif not isinstance(value, str):
                problems.add("narration_shape", ("narration", key))
    gm_orders = GmOrders(turn, narration, {str(k): v for k, v in rolls.items()}, orders, source, lines)
    # every problem at once: the orders are checked even when a key is misspelt
    # or the turn is wrong (what they hold was made a mapping above)
    errors = place(problems, source, lines)
    errors += place(ruleset.check_gm(state, scenario, gm_orders), source, lines, ruleset, (orders_key,))
    return gm_orders, errors
