"""The exact odds of a data ruleset's opposed rolls and dice pools
(`pbp odds --rule data.<opposed>` and `data.<pool check>`), by going through
every combination of their dice terms' totals (pbp/rulesets/data/opposed.py
plays them)."""

from __future__ import annotations

from fractions import Fraction

from pbp.datarules.opposed import MOST_REROLLS, pool_expression, ties

from . import rules as R

#: the most combinations of dice totals an exact computation goes through
MOST_COMBINATIONS = 200_000


def side_distribution(formula, values: dict) -> dict:
    """P(total) of a side's formula with the names' values given: every combination of its dice terms' totals."""
    from itertools import product

    from pbp.base.errors import PbpError
    from pbp.balance.odds import distribution

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
    from pbp.balance.odds import Table, pct

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
    from pbp.balance.odds import Table, distribution

    spec = rs.program.data["checks"][check_id]
    expression = pool_expression(spec, dice)
    sign = spec.get("success", "<=")
    return Table(f"{R.name_of(spec, check_id)['fr']}: {expression} {sign} {target}", ["", ""],
                 outcome_rows(spec, distribution(expression), target))


def calculators(rs) -> dict:
    """`pbp odds --rule data.<opposed>` (--set <name>=N for each value its formulas read) and
    `data.<pool check>` (--set dice=N target=N)."""
    from pbp.balance.odds import Calculator, Param

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


def outcome_rows(spec: dict, faces: dict, target: int) -> list[list[str]]:
    """[label, exact chance] of a check's outcomes over `faces` (total -> probability):
    success, failure, critical success and failure, each band (by its text)."""
    from pbp.balance.odds import exact

    from .verdict import judge

    results = [(judge(spec, face, target), q) for face, q in faces.items()]

    def chance(test) -> Fraction:
        return sum((q for result, q in results if test(result)), Fraction(0))

    success = chance(lambda r: r["success"])
    rows = [["success", exact(success)], ["failure", exact(1 - success)]]
    for kind in ("success", "failure"):
        if (spec.get("critical") or {}).get(kind) is not None:
            rows.append([f"critical {kind}", exact(chance(lambda r, k=kind: r["critical"] == k))])
    for band in spec.get("bands") or []:
        text = R.words(band.get("text"), str(band["roll"]))
        rows.append([f"{band['roll']}: {text['fr']}", exact(chance(lambda r, t=text: r["band"] == t))])
    return rows
