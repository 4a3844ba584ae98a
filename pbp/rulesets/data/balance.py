"""What the balance tools and the order form need from a data ruleset: the legal
orders bots pick from, the player's view for the form, and the exact odds of
every table and check the rules declare (`pbp odds --rule data.<name>`)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from pbp.model.orders import Action, PlayerOrders

from . import checks, rules as R

#: the most actions a bot orders in one turn, and the most orders it chooses among
MOST_ACTIONS = 3
MOST_OPTIONS = 60


def legal_orders(rs, state: dict, scenario, handle: str) -> list[list[Action]]:
    """Every single action the rules allow now (each with each argument a bot may
    give: a free text is checks.BOT_TEXT), each passing check_orders; then two,
    three of them as the budget allows (at most MOST_OPTIONS orders); doing
    nothing when none is allowed (an empty order file reads as no orders at all)."""
    singles, options = _options(rs, state, scenario, handle)
    return [_order(singles, held) for held in options] or [[]]


def bot_orders(rs, state: dict, scenario, handle: str, rng) -> list[Action]:
    """The bot's pick among legal_orders (the same draw of `rng`), only that order built."""
    singles, options = _options(rs, state, scenario, handle)
    if not options:
        return rng.choice([[]])
    return _order(singles, rng.choice(options))


def _options(rs, state: dict, scenario, handle: str) -> tuple[list[Action], list[tuple[int, ...]]]:
    """(the single actions allowed now, each legal order as a tuple of their indexes),
    each layer one action longer, in the order legal_orders lists them (the bots'
    draws depend on it)."""
    if checks.judged_alone(rs):
        singles, grow = _added_up(rs, state, handle)
    else:
        singles, grow = _checked(rs, state, scenario, handle)
    longest = min((rs.program.data.get("budget") or {}).get("count") or MOST_ACTIONS, MOST_ACTIONS)
    layer = [(i,) for i in range(len(singles))]
    options = list(layer)
    for _ in range(2, longest + 1):  # several actions a turn, as the budget allows
        layer = list(itertools.islice((held + (j,) for held in layer for j in range(len(singles))
                                       if grow(held, j)), MOST_OPTIONS))
        options += layer
    return singles, options[:MOST_OPTIONS]


def _checked(rs, state: dict, scenario, handle: str):
    """(the single actions check_orders accepts, whether an order extended by one
    more passes check_orders asked whole): a move changes what the next action may name."""
    singles = [action for action_id in rs.program.data["actions"]
               for action in checks.allowed(rs, state, scenario, handle, action_id, free_text=checks.BOT_TEXT)]

    def grow(held: tuple[int, ...], j: int) -> bool:
        order = _order(singles, held + (j,))
        return not checks.check_orders(rs, state, scenario, PlayerOrders(handle, state["turn"] + 1, order))
    return singles, grow


def _added_up(rs, state: dict, handle: str):
    """The same as _checked, for rules whose actions check_orders judges on the state
    alone (checks.judged_alone): each action judged once (checks.judge), an order
    passing when it holds no more actions than the budget's, no action twice that
    may not come twice, and its costs add up to no more than the points."""
    limit, alone, points = checks.together(rs, state, handle)
    singles, costs = [], []
    if handle in state["characters"] and (limit is None or limit >= 1):
        for action_id, spec in rs.program.data["actions"].items():
            for value in checks.arg_values(rs, state, handle, spec, checks.BOT_TEXT):
                action = Action(action_id, value, 0)
                verdict, cost = checks.judge(rs, state, handle, action, spec)
                if verdict == "ok" and (points is None or cost <= points):
                    singles.append(action)
                    costs.append(cost)
    ids = [action.id for action in singles]
    spent = {(i,): cost for i, cost in enumerate(costs)}  # what each order accepted so far costs

    def grow(held: tuple[int, ...], j: int) -> bool:
        if limit is not None and len(held) >= limit:
            return False
        if ids[j] in alone and ids[j] in (ids[i] for i in held):
            return False
        total = spent[held] + costs[j]
        if points is not None and total > points:
            return False
        spent[held + (j,)] = total
        return True
    return singles, grow


def _order(singles: list[Action], held: tuple[int, ...]) -> list[Action]:
    """The singles at these indexes as one order, each at its place; an action after
    the first with its own copy of its fields (a dict: fields.py), so an order file
    written from it repeats the values, never a YAML alias."""
    return [singles[i] if k == 0 else _again(singles[i], k) for k, i in enumerate(held)]


def _again(action: Action, index: int) -> Action:
    return Action(action.id, dict(action.arg) if isinstance(action.arg, dict) else action.arg, index)


def game_summary(rs, state: dict, scenario) -> dict:
    """What a simulated game says: who won (each winner's character, or a draw),
    in how many turns, how many went out, and each gauge's last values."""
    winners = state.get("winners") or []
    outcomes = [scenario.name(h) for h in winners] if state.get("over") else ["-"]
    figures = {gauge: [me["gauges"][gauge] for me in state["characters"].values()] for gauge in rs.program.gauges}
    out = sum(1 for me in state["characters"].values() if me["out"])
    draw, gone = SUMMARY_WORDS.get(rs.file.lang, SUMMARY_WORDS["en"])
    return {"turns": state["turn"], "outcomes": outcomes if outcomes else [draw],
            "deaths": {gone: out} if out else {}, "figures": figures, "main": None}


#: a game without winners, and a character out of play, in the rules' language
SUMMARY_WORDS = {"fr": ("match nul", "hors jeu"), "en": ("draw", "out of play")}


def order_context(rs, state: dict, scenario, handle: str) -> dict:
    """The form's view: the actions possible now with their cost, and the player's sheet."""
    from .resolve import sheet_values

    data = rs.program.data
    actions = []
    for action_id in data["actions"]:
        if not checks.allowed(rs, state, scenario, handle, action_id, first=True):
            continue
        spec = data["actions"][action_id]
        actions.append({"id": action_id, "en": spec.get("en") or action_id, "name": R.name_of(spec, action_id),
                        "cost": _cost_now(rs, action_id, state, handle)})
    sheet = sheet_values(rs.program, state, handle, owner=True) if handle in state["characters"] else []
    from . import places

    return {"possible": actions, "sheet": sheet, "budget": data.get("budget") or {},
            **places.form_hints(rs, state, handle)}


def _cost_now(rs, action_id: str, state: dict, handle: str) -> int | None:
    """What an action costs `handle` now (None: free, or a price that depends on its argument)."""
    from pbp.base.errors import PbpError

    if action_id not in rs.program.costs:
        return None
    try:
        return checks.cost_of(rs, Action(action_id, None, 0), state, handle)
    except (PbpError, TypeError, ValueError):
        return None


def calculators(rs) -> dict:
    """One calculator per table (the chance of each row) and per check (the
    chance of success against a target given with --set target=N)."""
    from pbp.balance.odds import Calculator, Param

    out = {}
    for table_id in rs.program.tables:
        out[table_id] = Calculator(_title(rs.program.tables[table_id], table_id), {},
                                   lambda params, t=table_id: table_odds(rs, t))
    from .odds import calculators as opposed_calculators
    from .odds_sheet import check_reader

    for check_id, spec in (rs.program.data.get("checks") or {}).items():
        if check_id in rs.program.pools:
            continue  # a pool's odds: with its number of dice (pbp/rulesets/data/odds.py)
        default = spec["target"] if isinstance(spec["target"], int) else 10
        out[check_id] = Calculator(_title(spec, check_id), {"target": Param(default, "target")},
                                   lambda params, c=check_id: check_odds(rs, c, params["target"]),
                                   check_reader(rs, check_id))
    out.update(move_calculators(rs))
    return {**out, **opposed_calculators(rs)}


def _title(spec: dict, ident: str) -> str:
    return R.name_of(spec, ident)["fr"]


def table_distribution(rs, table_id: str) -> list[tuple[dict, Fraction]]:
    """(row, exact probability) of each row of a table (sub-tables folded in)."""
    from pbp.balance.odds import distribution
    from pbp.datarules.lint import rows_by_face, table_dice

    spec = rs.program.tables[table_id]
    faces = distribution(table_dice(spec))
    out = []
    for low, high, i in rows_by_face(spec):
        p = sum((q for face, q in faces.items() if low <= face <= high), Fraction(0))
        out.append((spec["rows"][i], p))
    return out


def table_odds(rs, table_id: str):
    from pbp.balance.odds import Table, pct
    from pbp.datarules.lint import table_dice

    spec = rs.program.tables[table_id]
    rows = []
    for row, p in table_distribution(rs, table_id):
        faces = row.get("roll", row.get("weight", ""))
        columns = ", ".join(f"{k} {_cell(row[k])}" for k in _columns(spec) if k in row)
        rows.append([str(faces), R.words(row.get("text"))["fr"] or columns, columns, f"{p} ({pct(p)})"])
    notes = []
    distribution = table_distribution(rs, table_id)
    for column in _yes_no_columns(spec):
        p = sum((q for row, q in distribution if row.get(column) is True), Fraction(0))
        notes.append(f"{column}: {p} ({pct(p)})")
    return Table(f"{_title(spec, table_id)} ({table_dice(spec)})", ["", "", "", ""], rows, notes)


def _columns(spec: dict) -> list[str]:
    """A table's columns in the order its rows first name them."""
    out = []
    for row in spec["rows"]:
        out += [k for k in row if k not in ("roll", "weight", "text", "table") and k not in out]
    return out


def _cell(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _yes_no_columns(spec: dict) -> list[str]:
    """The columns of a table whose values are true/false: each gets its chance."""
    columns = []
    for row in spec["rows"]:
        for column, value in row.items():
            if isinstance(value, bool) and column not in columns:
                columns.append(column)
    return columns


def check_odds(rs, check_id: str, target: int):
    """A check's exact chance against `target`: success and failure (criticals counted as the
    turn counts them), then each kind of critical and each band the rules declare."""
    from pbp.balance.odds import Table, distribution

    from .odds import outcome_rows

    spec = rs.program.data["checks"][check_id]
    faces = distribution(str(spec["dice"]))
    sign = spec.get("success", "<=")
    return Table(f"{_title(spec, check_id)}: {spec['dice']} {sign} {target}", ["", ""],
                 outcome_rows(spec, faces, target))


# -- places: `pbp odds --rule data.<action>.move` ------------------------------------------

def move_calculators(rs) -> dict:
    """A calculator per action that moves by a roll (`move: 1d3`): the exact chance
    of each number of steps, bounded as the turn bounds it (0 to MOST_STEPS)."""
    from pbp.balance.odds import Calculator

    from .places import MOST_STEPS  # noqa: F401 (the bound _steps_odds applies)

    out = {}
    for action_id, effects in rs.program.actions.items():
        for effect in _moves(effects):
            formula = effect.formulas["move"]
            if formula.dice_terms and not formula.names_used:
                name = R.name_of(rs.program.data["actions"][action_id], action_id)["fr"]
                out[f"{action_id}.move"] = Calculator(name, {}, lambda params, f=formula, a=name: _steps_odds(f, a))
                break
    return out


def _moves(effects):
    for effect in effects:
        if effect.verb == "move":
            yield effect
        yield from _moves(effect.then)
        yield from _moves(effect.otherwise)


def _steps_odds(formula, name: str):
    from fractions import Fraction

    from pbp.balance.odds import Table, distribution, pct

    from .places import MOST_STEPS

    steps: dict[int, Fraction] = {}
    for total, p in distribution(formula.source).items():
        n = max(0, min(total, MOST_STEPS))
        steps[n] = steps.get(n, Fraction(0)) + p
    return Table(f"{name} ({formula.source})", ["", ""], [[str(n), f"{p} ({pct(p)})"] for n, p in sorted(steps.items())])

