"""Dice pools and opposed rolls as a turn plays them, and their exact odds.

An opposed roll (`oppose: <id>`): the actor's `roll` formula against the
`versus` formula (the target's view), exchange after exchange until one side
has won more than half of `rounds` (1 by default). An exchange the totals tie
goes by `ties`: the defender (by default), the attacker, or rolled again (at
most MOST_REROLLS times, then the defender). The actor wins the opposition when
they won more exchanges. Rolls are labelled `<handle>.<action>.<id>[.<n>].roll.d1`
and `...versus.d1` (n: the exchange, when there are several; `.r2`... a reroll).
"""

from __future__ import annotations

from fractions import Fraction

from pbp.datarules.opposed import MOST_REROLLS, pool_expression, ties

from . import rules as R


def pool_roll(turn, check_id: str, spec: dict, scope):
    """A pool check's roll, its size from its formula (1 to MOST_POOL_DICE dice)."""
    from .resolve import _whole

    count = _whole(turn.evaluate(turn.program.pools[check_id], scope))
    return turn.dice.roll(f"{scope.label}.{check_id}", pool_expression(spec, count))


def _side(turn, formula, scope, label: str) -> tuple[int, list]:
    """A side's total and its rolls, labelled `<label>.<d1...>`."""
    values = R.env(formula.names_used, turn.state, turn.data, scope.actor, scope.target, scope.arg, scope.bound)
    rolls = []

    def roll(expression, suffix):
        rolls.append(turn.dice.roll(f"{label}.{suffix}", expression))
        return rolls[-1].total

    return R.as_number(formula.evaluate(values, roll=roll)), rolls


def exchange(turn, compiled: dict, spec: dict, scope, label: str) -> dict:
    """One exchange: both sides rolled (again on a tie, by the rule), who took it."""
    rule = ties(spec)
    for attempt in range(1, MOST_REROLLS + 2):
        at = label if attempt == 1 else f"{label}.r{attempt}"
        mine, my_rolls = _side(turn, compiled["roll"], scope, f"{at}.roll")
        theirs, their_rolls = _side(turn, compiled["versus"], scope, f"{at}.versus")
        if mine != theirs or rule != "reroll" or attempt > MOST_REROLLS:
            break
    won = mine > theirs or (mine == theirs and rule == "attacker")
    return {"roll": mine, "rolls": my_rolls, "versus": theirs, "versus_rolls": their_rolls, "won": won,
            "margin": mine - theirs}


def oppose(turn, effect, scope) -> None:
    """`oppose: <id>`: the exchanges, the event, the results bound, then `then` or `else`."""
    opposed_id = effect.value
    spec = turn.data["opposed"][opposed_id]
    compiled = turn.program.opposed[opposed_id]
    rounds = spec.get("rounds", 1)
    needed = rounds // 2 + 1
    exchanges, won, lost = [], 0, 0
    for n in range(1, rounds + 1):
        label = f"{scope.label}.{opposed_id}" + (f".{n}" if rounds > 1 else "")
        result = exchange(turn, compiled, spec, scope, label)
        exchanges.append(result)
        won, lost = won + result["won"], lost + (not result["won"])
        if won >= needed or lost >= needed:
            break
    success = won > lost
    last = exchanges[-1]
    name = effect.as_name or opposed_id
    scope.bound.update({name: success, f"{name}.margin": last["margin"], f"{name}.roll": last["roll"],
                        f"{name}.versus": last["versus"], f"{name}.won": won, f"{name}.lost": lost})
    audience = R.audience(effect.to or R.visibility(spec.get("visibility")), scope.actor, scope.target)
    turn.emit(audience, "opposed", who=scope.actor, target=scope.target, opposed=opposed_id,
              name=R.name_of(spec, opposed_id), exchanges=exchanges, won=won, lost=lost, success=success,
              roll_formula=str(spec["roll"]), versus_formula=str(spec["versus"]), rounds=rounds)
    turn.run(effect.then if success else effect.otherwise, scope)


# -- exact odds -------------------------------------------------------------------------

#: the most combinations of dice totals an exact computation goes through
MOST_COMBINATIONS = 200_000


def side_distribution(formula, values: dict) -> dict:
    """P(total) of a side's formula with the names' values given: every combination of its dice terms' totals."""
    from itertools import product

    from pbp.errors import PbpError
    from pbp.odds import distribution

    terms = [distribution(expr) for _, expr in formula.dice_terms]
    size = 1
    for term in terms:
        size *= len(term)
    if size > MOST_COMBINATIONS:
        raise PbpError("data.opposed_too_large", size=size, limit=MOST_COMBINATIONS)
    out: dict = {}
    for combination in product(*(list(t.items()) for t in terms)):
        totals = iter([face for face, _ in combination])
        p = Fraction(1)
        for _, q in combination:
            p *= q
        total = R.as_number(formula.evaluate(values, roll=lambda expression, suffix: next(totals)))
        out[total] = out.get(total, Fraction(0)) + p
    return out


def exchange_odds(rs, opposed_id: str, values: dict) -> tuple[Fraction, Fraction]:
    """(P(the actor takes an exchange), P(a tie before the rule settles it))."""
    spec = rs.program.data["opposed"][opposed_id]
    compiled = rs.program.opposed[opposed_id]
    mine = side_distribution(compiled["roll"], values)
    theirs = side_distribution(compiled["versus"], values)
    win = sum((p * q for a, p in mine.items() for b, q in theirs.items() if a > b), Fraction(0))
    tie = sum((p * q for a, p in mine.items() for b, q in theirs.items() if a == b), Fraction(0))
    rule = ties(spec)
    if rule == "attacker":
        return win + tie, tie
    if rule == "reroll":  # rolled again up to MOST_REROLLS times, then the defender's
        again = sum((tie ** k for k in range(MOST_REROLLS + 1)), Fraction(0))
        return win * again, tie
    return win, tie


def best_of(p: Fraction, rounds: int) -> Fraction:
    """P(more than half of `rounds` exchanges won), each won with probability p."""
    from math import comb

    needed = rounds // 2 + 1
    # the series stops once a side has `needed`: the same as playing all of them out
    return sum((comb(rounds, k) * p ** k * (1 - p) ** (rounds - k) for k in range(needed, rounds + 1)), Fraction(0))


def names_of(rs, opposed_id: str) -> list[str]:
    """The names the two formulas read (each a --set parameter of `pbp odds`)."""
    compiled = rs.program.opposed[opposed_id]
    return sorted(set(compiled["roll"].names_used) | set(compiled["versus"].names_used))


def opposed_odds(rs, opposed_id: str, params: dict):
    from pbp.odds import Table, pct

    spec = rs.program.data["opposed"][opposed_id]
    values = {name: params[name] for name in names_of(rs, opposed_id)}
    win, tie = exchange_odds(rs, opposed_id, values)
    rounds = spec.get("rounds", 1)
    total = best_of(win, rounds)
    rows = [["exchange won", f"{win} ({pct(win)})"], ["exchange tied", f"{tie} ({pct(tie)})"]]
    if rounds > 1:
        rows.append([f"best of {rounds} won", f"{total} ({pct(total)})"])
    rows.append(["actor wins", f"{total} ({pct(total)})"])
    shown = ", ".join(f"{k}={v}" for k, v in values.items())
    return Table(f"{R.name_of(spec, opposed_id)['fr']}: {spec['roll']} vs {spec['versus']}"
                 + (f" ({shown})" if shown else ""), ["", ""], rows)


def pool_odds(rs, check_id: str, dice: int, target: int):
    """A pool check's chance of success with `dice` dice against `target` successes."""
    from pbp.odds import Table, distribution, pct

    from .resolve import judge

    spec = rs.program.data["checks"][check_id]
    expression = pool_expression(spec, dice)
    faces = distribution(expression)
    success = sum((q for face, q in faces.items() if judge(spec, face, target)["success"]), Fraction(0))
    sign = spec.get("success", "<=")
    return Table(f"{R.name_of(spec, check_id)['fr']}: {expression} {sign} {target}", ["", ""],
                 [["success", f"{success} ({pct(success)})"], ["failure", f"{1 - success} ({pct(1 - success)})"]])


def calculators(rs) -> dict:
    """`pbp odds --rule data.<opposed>` (--set <name>=N for each value its formulas read) and
    `data.<pool check>` (--set dice=N target=N)."""
    from pbp.odds import Calculator, Param

    out = {}
    for opposed_id, spec in (rs.program.data.get("opposed") or {}).items():
        params = {name: Param(0, name) for name in names_of(rs, opposed_id)}
        out[opposed_id] = Calculator(R.name_of(spec, opposed_id)["fr"], params,
                                     lambda params, o=opposed_id: opposed_odds(rs, o, params))
    for check_id in rs.program.pools:
        spec = rs.program.data["checks"][check_id]
        default = spec["target"] if isinstance(spec["target"], int) else 1
        out[check_id] = Calculator(R.name_of(spec, check_id)["fr"],
                                   {"dice": Param(4, "dice"), "target": Param(default, "target")},
                                   lambda params, c=check_id: pool_odds(rs, c, params["dice"], params["target"]))
    return out
