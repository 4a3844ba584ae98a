"""Dice pools and opposed rolls as a turn plays them.

An opposed roll (`oppose: <id>`): the actor's `roll` formula against the
`versus` formula (the target's view), exchange after exchange until one side
has won more than half of `rounds` (1 by default). An exchange the totals tie
goes by `ties`: the defender (by default), the attacker, or rolled again (at
most MOST_REROLLS times, then the defender). The actor wins the opposition when
they won more exchanges. Rolls are labelled `<handle>.<action>.<id>[.<n>].roll.d1`
and `...versus.d1` (n: the exchange, when there are several; `.r2`... a reroll).
Their exact odds: odds.py.
"""

from __future__ import annotations

from pbp.datarules.opposed import MOST_REROLLS, pool_expression, ties

from . import parts, rules as R
from .values import whole


def pool_roll(turn, check_id: str, spec: dict, scope):
    """A pool check's roll, its size from its formula (1 to MOST_POOL_DICE dice)."""
    count = whole(turn.evaluate(turn.program.pools[check_id], scope))
    return turn.dice.roll(f"{scope.label}.{check_id}", pool_expression(spec, count))


def _side(turn, formula, scope, label: str, audience) -> tuple[int, list, list]:
    """A side's total, its rolls, labelled `<label>.<d1...>`, and its parts as the
    post shows them (`Formula.pieces`, each dice term with the roll it gave)."""
    values = R.env(formula.names_used, turn.state, turn.data, scope.actor, scope.target, scope.arg, scope.bound)
    rolls, by_term = [], {}

    def roll(expression, suffix):
        rolls.append(turn.dice.roll(f"{label}.{suffix}", expression))
        by_term[suffix] = rolls[-1]
        return rolls[-1].total

    total = R.as_number(formula.evaluate(values, roll=roll))
    return total, rolls, parts.shown(turn, formula, values, by_term, audience, scope)




def exchange(turn, compiled: dict, spec: dict, scope, label: str, audience) -> dict:
    """One exchange: both sides rolled (again on a tie, by the rule), who took it."""
    rule = ties(spec)
    tied = []  # the attempts a tie made roll again, in order: the post shows each one
    for attempt in range(1, MOST_REROLLS + 2):
        at = label if attempt == 1 else f"{label}.r{attempt}"
        mine, my_rolls, my_parts = _side(turn, compiled["roll"], scope, f"{at}.roll", audience)
        theirs, their_rolls, their_parts = _side(turn, compiled["versus"], scope, f"{at}.versus", audience)
        if mine != theirs or rule != "reroll" or attempt > MOST_REROLLS:
            break
        tied.append({"roll": mine, "rolls": my_rolls, "versus": theirs, "versus_rolls": their_rolls,
                     "roll_parts": my_parts, "versus_parts": their_parts})
    won = mine > theirs or (mine == theirs and rule == "attacker")
    out = {"roll": mine, "rolls": my_rolls, "versus": theirs, "versus_rolls": their_rolls, "won": won,
           "margin": mine - theirs, "roll_parts": my_parts, "versus_parts": their_parts, "attempts": attempt}
    if tied:
        out["tied"] = tied
    return out


def oppose(turn, effect, scope) -> None:
    """`oppose: <id>`: the exchanges, the event, the results bound, then `then` or `else`."""
    opposed_id = effect.value
    spec = turn.data["opposed"][opposed_id]
    compiled = turn.program.opposed[opposed_id]
    rounds = spec.get("rounds", 1)
    needed = rounds // 2 + 1
    exchanges, won, lost = [], 0, 0
    audience = R.audience(effect.to or R.visibility(spec.get("visibility")), scope.actor, scope.target)
    for n in range(1, rounds + 1):
        label = f"{scope.label}.{opposed_id}" + (f".{n}" if rounds > 1 else "")
        result = exchange(turn, compiled, spec, scope, label, audience)
        exchanges.append(result)
        won, lost = won + result["won"], lost + (not result["won"])
        if won >= needed or lost >= needed:
            break
    success = won > lost
    last = exchanges[-1]
    name = effect.as_name or opposed_id
    scope.bound.update({name: success, f"{name}.margin": last["margin"], f"{name}.roll": last["roll"],
                        f"{name}.versus": last["versus"], f"{name}.won": won, f"{name}.lost": lost})
    turn.emit(audience, "opposed", who=scope.actor, target=scope.target, opposed=opposed_id,
              name=R.name_of(spec, opposed_id), exchanges=exchanges, won=won, lost=lost, success=success,
              roll_formula=str(spec["roll"]), versus_formula=str(spec["versus"]), rounds=rounds, ties=ties(spec))
    turn.run(effect.then if success else effect.otherwise, scope)
