"""Order legality for a data ruleset: a player's actions against the state (the
turn's budget, `once`, each action's cost and prerequisites, its argument: a
character in play), and the MJ's inputs in gm.yaml against `inputs:`. Every
refusal names what would be valid."""

from __future__ import annotations

from pbp.base.errors import ByLang, PbpError
from pbp.model.ruleset import Refusals

from . import places, rules as R


def cost_of(rs, action, state, handle, fields: dict | None = None) -> int:
    """What an action costs `handle` now (`fields`: its `arg.<field>` values, when already bound)."""
    formula = rs.program.costs.get(action.id)
    if formula is None:
        return 0
    if fields is None:
        fields = _fields(rs, action.id, action.arg, state, handle)
    value = R.env(formula.names_used, state, rs.program.data, handle, _target(rs, action), action.arg, fields)
    return int(formula.evaluate(value, roll=_no_dice))


def _fields(rs, action_id: str, arg, state: dict, handle: str) -> dict:
    """`arg.<field>` of an action whose argument is made of fields (fields.py), else nothing."""
    from .fields import bound

    spec = rs.program.data["actions"][action_id]
    return bound(spec["arg"], arg, state, handle) if R.arg_kind(spec) == "fields" else {}


def _no_dice(expression, suffix):
    raise PbpError("data.dice_in_condition", expr=expression)


def _target(rs, action):
    return action.arg if R.arg_kind(rs.program.data["actions"][action.id]) == "character" else None


def unmet(rs, action_id: str, state: dict, handle: str, arg=None, target=None,
          fields: dict | None = None) -> tuple | None:
    """The first prerequisite of an action not met ((formula, message, path)), else None:
    a state of the character that forbids it first (pbp/rulesets/data/states.py).
    `fields`: the action's `arg.<field>` values, when already bound."""
    if rs.program.data.get("states") and handle in state["characters"]:
        from .states import forbidding

        found = forbidding(rs.program, state, handle, action_id)
        if found is not None:
            return found
    if rs.program.votes:
        from .votes import may_vote

        found = may_vote(rs, state, handle, action_id)
        if found is not None:
            return found
    for formula, message, path in rs.program.requires.get(action_id, ()):
        if fields is None:
            fields = _fields(rs, action_id, arg, state, handle)
        values = R.env(formula.names_used, state, rs.program.data, handle, target, arg, fields)
        if not formula.evaluate(values, roll=_no_dice):
            return formula, message, path
    return None


def possible(rs, state: dict, handle: str) -> list[str]:
    """The actions `handle` may take now (their prerequisites met with no argument
    that matters), French ids: what a refusal lists as valid."""
    out = []
    for action_id, spec in rs.program.data["actions"].items():
        if places.arg_kind(spec) is not None:
            values = places.open_options(rs, places.arg_kind(spec), state, handle, state["characters"][handle]["place"])
            if any(unmet(rs, action_id, state, handle, v) is None for v in values):
                out.append(action_id)
        elif _arg_kind(spec) == "character":
            targets = targets_of(rs, state, handle, spec)
            if any(unmet(rs, action_id, state, handle, t, t) is None for t in targets):
                out.append(action_id)
        elif unmet(rs, action_id, state, handle) is None:
            out.append(action_id)
    return out


def _arg_kind(spec: dict):
    arg = spec.get("arg")
    return R.word(arg if isinstance(arg, str) or arg is None else arg.get("type"))


def targets_of(rs, state: dict, handle: str, spec: dict) -> list[str]:
    """The characters an action's argument may name: in play (`alive: false`:
    anyone), not the actor unless the rules allow it (`others: false`)."""
    arg = spec.get("arg") if isinstance(spec.get("arg"), dict) else {}
    found = []
    for other in state["characters"]:
        if arg.get("alive", True) and not R.in_play(state, other):
            continue
        if arg.get("others", True) and other == handle:
            continue
        if arg.get("in_sight") and not places.in_sight(state, rs.program.data, handle, other):
            continue
        found.append(other)
    return found


def arg_facts(rs, state: dict, scenario, handle: str) -> dict:
    """What the argument types need to know (pbp.model.argcontext.ArgContext): the
    characters of the game, those still in play and, where the rules have places,
    those `handle` sees (a character argument with `in_sight: true`). Places and
    items are checked by places.py, where the actor stands after each move."""
    facts = {"characters": {h: scenario.name(h) for h in state["characters"]},
             "alive": [h for h in state["characters"] if R.in_play(state, h)]}
    if rs.program.data.get("places") and handle in state["characters"]:
        facts["in_sight"] = [h for h in state["characters"] if places.in_sight(state, rs.program.data, handle, h)]
    return facts


#: the most values of a number argument a bot tries (a range 1-100 is sampled at its ends and middle)
NUMBER_SAMPLES = 3


#: the free text an action's argument is tried with (`possible`), and the one a bot writes
SAMPLE_TEXT = "Mercier"
BOT_TEXT = "simulation"


def arg_values(rs, state: dict, handle: str, spec: dict, free_text: str = SAMPLE_TEXT) -> list:
    """The values an action's argument may take to try it ([None]: it takes none).
    A free text is tried with `free_text` (a bot's: BOT_TEXT, so that the
    actions whose argument is a player's own words are played in simulations too)."""
    arg = spec.get("arg")
    if arg is None:
        return [None]
    arg = {"type": arg} if isinstance(arg, str) else arg
    kind = R.word(arg["type"])
    if kind == "character":
        return targets_of(rs, state, handle, spec)
    if kind == "fields":  # named fields (fields.py): the short field's values, the others at their defaults
        from .fields import sample_values, state_free

        def one(field: dict) -> list:
            return arg_values(rs, state, handle, field, free_text=None)
        if state_free(arg):  # the same values whatever the state: worked out once per rules file, each a copy
            return [dict(v) for v in R.derived(arg, "bot values", lambda a: sample_values(a, state, handle, one))]
        return sample_values(arg, state, handle, one)
    if places.arg_kind(spec) is not None:
        return places.open_options(rs, kind, state, handle, state["characters"][handle]["place"])
    if kind == "choice":
        return [str(v) for v in arg.get("values") or []]
    if kind == "number":
        low, high = arg.get("min", 0), arg.get("max", arg.get("min", 0) + 10)
        return sorted({low, (low + high) // 2, high})[:NUMBER_SAMPLES]
    return [free_text]


def allowed(rs, state: dict, scenario, handle: str, action_id: str, first: bool = False,
            free_text: str = SAMPLE_TEXT) -> list:
    """The orders of this one action `handle` may give now (each with an argument to
    try it with), each passing check_orders; `first`: stop at the first."""
    from pbp.model.orders import Action, PlayerOrders

    found = []
    for value in arg_values(rs, state, handle, rs.program.data["actions"][action_id], free_text):
        option = Action(action_id, value, 0)
        if not check_orders(rs, state, scenario, PlayerOrders(handle, state["turn"] + 1, [option])):
            found.append(option)
            if first:
                break
    return found


def can_act(rs, state: dict, scenario, handle: str) -> bool:
    return any(allowed(rs, state, scenario, handle, a, first=True) for a in rs.program.data["actions"])


def check_orders(rs, state: dict, scenario, orders) -> Refusals:
    problems = Refusals()
    handle = orders.player
    if handle not in state["characters"]:
        return problems
    budget = rs.program.data.get("budget") or {}
    count, seen = 0, []
    spent = 0
    limit, points = _budget_now(rs, state, handle)
    where = state["characters"][handle].get("place")  # as the orders before each action leave it
    for action in orders.actions:
        spec = rs.program.data["actions"][action.id]
        count += 1
        if limit is not None and count > limit:
            problems.add("too_many_actions", action.at, count=len(orders.actions), limit=limit)
            continue
        if action.id in seen and (spec.get("once") or budget.get("distinct")):
            problems.add("twice", action.at, action=_shown(rs, action.id), valid=_english(rs, [a for a in possible(rs, state, handle)
                                                                            if a not in seen]))
            continue
        seen.append(action.id)
        kind = places.arg_kind(spec)  # after a move by a roll (where None): checked when the turn is played
        if kind is not None and action.arg is not None and where is not None:
            named = places.check_arg(rs, kind, action.arg, state, handle, where, action.at, problems)
            if named is None:
                continue
            action = action.replace(arg=named)  # the id it names, as the turn plays it
            where = places.project(rs, action.id, named, state, handle, where)
        verdict, detail = judge(rs, state, handle, action, spec)
        if verdict == "bad_target":
            problems.add("bad_target", action.at, target=scenario.name(_target(rs, action)), valid=detail)
            continue
        if verdict == "requires":
            _refuse_unmet(rs, problems, detail, action, state, scenario, handle, _target(rs, action))
            continue
        cost = detail
        spent += cost
        if points is not None and spent > points:
            _refuse_over(rs, problems, action, cost, points - spent + cost, points)
            spent -= cost  # a refused action spends nothing: the next one is told the points really left
    return problems


def _refuse_unmet(rs, problems: Refusals, failed: tuple, action, state: dict, scenario, handle: str, target) -> None:
    """An action whose condition fails: what would be valid is the other targets
    that meet it when the condition is on this target, else the other actions."""
    formula, message, _ = failed
    reason = ByLang(**R.words(message, str(getattr(formula, "source", ""))))
    spec = rs.program.data["actions"][action.id]
    others = [] if target is None else [t for t in targets_of(rs, state, handle, spec)
                                        if t != target and unmet(rs, action.id, state, handle, t, t) is None]
    if others:
        problems.add("requires_target", action.at, action=_shown(rs, action.id), target=scenario.name(target),
                     reason=reason, valid=others)
    else:
        problems.add("requires", action.at, action=_shown(rs, action.id), reason=reason,
                     valid=_english(rs, [a for a in possible(rs, state, handle) if a != action.id]))


def _refuse_over(rs, problems: Refusals, action, cost: int, left: int, points: int) -> None:
    """An action that costs more than the points left this turn (or in the budget's gauge)."""
    gauge = (rs.program.data.get("budget") or {}).get("gauge")
    if gauge is not None:
        problems.add("over_gauge", action.at, action=_shown(rs, action.id), cost=cost, left=left,
                     gauge=ByLang(**R.name_of(rs.program.gauges[gauge], gauge)))
    else:
        problems.add("over_budget", action.at, action=_shown(rs, action.id), cost=cost, left=left, points=points)


def judge(rs, state: dict, handle: str, action, spec: dict) -> tuple:
    """One action on the state, the rest of the order aside: ("bad_target", the valid
    targets), ("requires", the unmet prerequisite) or ("ok", its cost)."""
    target = _target(rs, action)
    if target is not None:
        valid = targets_of(rs, state, handle, spec)
        if target not in valid:
            return "bad_target", valid
    fields = None  # bound when a prerequisite or the cost reads them, once for both
    if action.id in rs.program.requires or action.id in rs.program.costs:
        fields = _fields(rs, action.id, action.arg, state, handle)
    failed = unmet(rs, action.id, state, handle, action.arg, target, fields)
    if failed is not None:
        return "requires", failed
    return "ok", cost_of(rs, action, state, handle, fields)


def short_blind(rs, action_id: str) -> bool:
    """Whether an action's prerequisites and cost read nothing of its argument's short
    field (fields.py: `arg.<short>`, `arg.<short>.id`, nor `arg` whole): the bots then
    judge one of its values for all (the same verdict, the same cost). Once per action."""
    spec = rs.program.data["actions"][action_id]
    if R.arg_kind(spec) != "fields" or not spec["arg"].get("short"):
        return False

    def blind(spec: dict) -> bool:
        from pbp.datarules.program import canonical_name

        short = f"arg.{spec['arg']['short']}"
        formulas = [f for f, _, _ in rs.program.requires.get(action_id, ())] + \
            [f for f in (rs.program.costs.get(action_id),) if f is not None]
        names = {canonical_name(n) for f in formulas for n in f.names_used}
        return not names & {"arg", short, f"{short}.id"}
    return R.derived(spec, "short blind", blind)


def judged_alone(rs) -> bool:
    """Whether check_orders judges each action of an order on the state alone, the
    order adding only its count, its repeats and its costs: no action's argument
    names a place, an exit or an item (a move changes what the next may name).
    The bots then judge their orders of several actions by adding up (balance.py)."""
    return R.derived(rs.program.data["actions"], "judged alone",
                     lambda actions: all(places.arg_kind(spec) is None for spec in actions.values()))


def together(rs, state: dict, handle: str) -> tuple:
    """What check_orders refuses in actions it accepts one by one, when judged_alone:
    (the most actions `handle` may order or None, the actions that may not come
    twice, the points `handle` may spend or None)."""
    data = rs.program.data
    alone = R.derived(data, "alone", lambda d: frozenset(a for a, spec in d["actions"].items()
                                                         if spec.get("once") or (d.get("budget") or {}).get("distinct")))
    limit, points = _budget_now(rs, state, handle)
    return limit, alone, points


def _budget_now(rs, state: dict, handle: str) -> tuple[int | None, int | None]:
    """(actions, points) `handle` may order this turn: the budget's, and what a
    player back after missed turns is owed (pbp/rulesets/data/absence.py)."""
    limit, points = (rs.program.data.get("budget") or {}).get("count"), budget_points(rs, state, handle)
    if rs.program.track_missed:
        from .absence import owed

        more_actions, more_points = owed(rs.program.data, state, handle)
        limit = None if limit is None else limit + more_actions
        points = None if points is None else points + more_points
    return limit, points


def budget_points(rs, state: dict, handle: str) -> int | None:
    """The points `handle` may spend this turn: the budget's `points` (every turn
    anew), or what is left in its `gauge` (points that do not come back), or None."""
    budget = rs.program.data.get("budget") or {}
    if budget.get("gauge") is not None:
        return state["characters"][handle]["gauges"][budget["gauge"]]
    return budget.get("points")


def _shown(rs, action_id: str) -> ByLang:
    """An action as a refusal names it: the name the MJ wrote (« Fouiller une salle »,
    the receipt's words), else its id (its English id in English)."""
    spec = rs.actions[action_id]
    names = spec.get("names") or {}
    return ByLang(fr=names.get("fr") or action_id, en=names.get("en") or spec.get("en") or action_id)


def _english(rs, ids: list[str]) -> ByLang:
    """Action ids as a refusal lists them: the French ids, or their English ones."""
    actions = rs.program.data["actions"]
    return ByLang(fr=ids, en=[actions[a].get("en") or a for a in ids])


def gm_inputs(rs, scenario, raw: dict) -> tuple[dict, Refusals]:
    """gm.yaml's `orders:`: each an input of the rules' `inputs:` with a value of its
    type (`per: character`: a value per character, by handle or name), judged by the
    order arguments' types (pbp.model.argtypes): the same refusals, naming what
    would be valid. (values, refusals)."""
    from pbp.model.argcontext import ArgContext

    problems = Refusals()
    types = R.derived(rs.program.data, "input types", input_types)  # the types only read: once per rules file
    context = ArgContext(scenario)  # the MJ's own file: read within the campaign's limits already
    values = {}
    for name, value in (raw or {}).items():
        spec = (rs.program.data.get("inputs") or {}).get(name)
        if spec is None:
            from pbp.base import i18n

            known = list(rs.program.data.get("inputs") or {})
            problems.add("unknown_input", (name,), name=name, valid=known, suggestion=i18n.closest(str(name), known))
            continue
        if R.word(spec.get("per", "game")) != "character":
            values[name] = _input_value(types[name], value, context, (name,), problems)
        elif not isinstance(value, dict):
            problems.add("input_per_character", (name,), name=name, valid=list(scenario.roster))
        else:
            checked = {}
            for who, given in value.items():
                handle = types[PER_CHARACTER].check(who, context, (name, who), problems)
                if handle is not None:
                    checked[handle] = _input_value(types[name], given, context, (name, who), problems)
            values[name] = checked
    return values, problems


def simulated_inputs(rs, scenario) -> dict:
    """What the simulated MJ decides in a simulated turn: each input's `simulated:` value."""
    values = {}
    for name, spec in (rs.program.data.get("inputs") or {}).items():
        if "simulated" in spec:
            per_character = R.word(spec.get("per", "game")) == "character"
            values[name] = {h: spec["simulated"] for h in scenario.roster} if per_character else spec["simulated"]
    return values


def input_value(spec: dict, value, at: tuple, problems: Refusals):
    """One value of the MJ input `spec` (of the rules' `inputs:`) read by its type,
    as gm.yaml gives it or as a state.yaml keeps it (None: refused, in `problems`)."""
    from pbp.model.argcontext import ArgContext
    from pbp.model.argtypes import ArgTypes

    return _input_value(ArgTypes({}).of(_input_arg(spec), "inputs"), value, ArgContext(None), at, problems)


def _input_value(kind, value, context, at: tuple, problems: Refusals):
    """A value the MJ gave, as its type reads it (None: refused, in `problems`)."""
    if value is None:  # `combat:` left empty
        kind.refuse_type(at, problems)
        return None
    return kind.check(value, context, at, problems)


def input_types(data: dict) -> dict:
    """Each MJ input of the rules (`inputs:`) as a type of the order arguments'
    language (pbp.model.argtypes): a yes/no, a whole number in its bounds, one of
    its values, or a text; and under PER_CHARACTER, the character a value is
    given for (by handle or name, in play or not)."""
    from pbp.model.argtypes import ArgTypes

    types = ArgTypes({})
    found = {name: types.of(_input_arg(spec), f"inputs.{name}") for name, spec in (data.get("inputs") or {}).items()}
    found[PER_CHARACTER] = types.of({"type": "character", "alive": False, "others": False}, "inputs")
    return found


#: input_types' key of the type of a character an input `per: character` names (no input's name: not a word)
PER_CHARACTER = "-"


def _input_arg(spec: dict) -> dict:
    kind = R.word(spec["type"])
    if kind == "bool":
        return {"type": "yes_no"}
    if kind == "number":
        return {"type": "int", "min": spec.get("min"), "max": spec.get("max")}
    if kind == "choice":
        return {"type": "choice", "values": [str(v) for v in spec.get("values") or []]}
    return {"type": "text"}


#: what a stat or gauge of each kind holds, as a state.yaml or a sheet must give it
VALUE_KINDS = {"number": ((int,), ByLang(fr="un nombre entier", en="a whole number")),
               "text": ((str,), ByLang(fr="un texte", en="a text")),
               "bool": ((bool,), ByLang(fr="oui/non (true/false)", en="true/false")),
               "list": ((list,), ByLang(fr="une liste", en="a list"))}


def value_kind_problem(program, section: str, name: str, value) -> ByLang | None:
    """What a stat or gauge of the rules should hold, if `value` is not of its
    kind (a gauge: a whole number; a stat: its `type`); None if it is."""
    from pbp.datarules.program import KIND

    kind = "number" if section == "gauges" else KIND.get(R.word((program.stats.get(name) or {}).get("type", "number")),
                                                          "number")
    types, expected = VALUE_KINDS[kind]
    if isinstance(value, types) and (kind == "bool" or not isinstance(value, bool)):
        return None
    return expected


def scenario_problems(rs, scenario) -> list[PbpError]:
    """characters.yaml: a sheet per player at most, its keys stats or gauges of the
    rules (or `name`/`nom`), each value of its type."""
    from pbp.base import i18n

    program = rs.program
    known = list(program.stats) + list(program.gauges)
    errors = []
    characters = scenario.characters or {}
    if not isinstance(characters, dict):
        return [PbpError("file_not_mapping", file="characters.yaml", at=())]
    known += [k for k in places.SHEET_KEYS if places.P.used(program.data)]
    for handle, sheet in characters.items():
        if handle not in scenario.roster:
            errors.append(PbpError("data.sheet_not_player", file="characters.yaml", at=(handle,), handle=handle,
                                   valid=list(scenario.roster)))
            continue
        if not isinstance(sheet, dict):
            if sheet is not None:
                errors.append(PbpError("data.sheet_not_mapping", file="characters.yaml", at=(handle,), handle=handle))
            continue
        for key, value in sheet.items():
            if key in ("name", "nom"):
                continue
            if key in places.SHEET_KEYS and key in known:
                problem = places.sheet_problems(program.data, handle, key, value)
                if problem:
                    errors.append(PbpError(problem, file="characters.yaml", at=(handle, key), key=key, value=value,
                                           valid=list(program.data.get("places" if key in ("lieu", "place")
                                                                       else "items") or {})))
                continue
            if key not in known:
                errors.append(PbpError("data.sheet_unknown", file="characters.yaml", at=(handle, key), key=key,
                                       valid=known, suggestion=i18n.closest(str(key), known)))
            elif key in program.gauges and (isinstance(value, bool) or not isinstance(value, int)):
                errors.append(PbpError("data.sheet_not_number", file="characters.yaml", at=(handle, key), key=key))
            elif key in program.stats and (expected := value_kind_problem(program, "stats", key, value)) is not None:
                errors.append(PbpError("data.sheet_value_kind", file="characters.yaml", at=(handle, key), key=key,
                                       expected=expected, value=value))
    return errors
