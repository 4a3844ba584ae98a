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


def exchange_margins(rs, opposed_id: str, values: dict) -> tuple[dict, Fraction]:
    """(P(margin) of an exchange as the turn settles it, P(a tie before the rule settles it)):
    the margin is the actor's total minus the target's; a rerolled tie has the margin of
    the roll that settled it (0 after MOST_REROLLS ties in a row, the defender's)."""
    compiled = rs.program.opposed[opposed_id]
    mine = side_distribution(compiled["roll"], values)
    theirs = side_distribution(compiled["versus"], values)
    margins: dict = {}
    for a, p in mine.items():
        for b, q in theirs.items():
            margins[a - b] = margins.get(a - b, Fraction(0)) + p * q
    tie = margins.get(0, Fraction(0))
    if ties(rs.program.data["opposed"][opposed_id]) == "reroll" and tie:
        again = sum((tie ** k for k in range(MOST_REROLLS + 1)), Fraction(0))
        margins = {k: (p * again if k else tie ** (MOST_REROLLS + 1)) for k, p in margins.items()}
    return margins, tie


def exchange_won(spec: dict, margins: dict) -> Fraction:
    """P(the actor takes an exchange) from its margins: above 0, or a tie the attacker keeps."""
    win = sum((p for k, p in margins.items() if k > 0), Fraction(0))
    return win + margins.get(0, Fraction(0)) if ties(spec) == "attacker" else win


def best_of(p: Fraction, rounds: int) -> Fraction:
    """P(more than half of `rounds` exchanges won), each won with probability p."""
    return sum((q for (won, lost), q in scores(p, rounds).items() if won > lost), Fraction(0))


def scores(p: Fraction, rounds: int) -> dict[tuple[int, int], Fraction]:
    """P(exchanges won, lost) at the end of a best of `rounds`, each exchange won with
    probability p: played until a side has won more than half of them, or all are played."""
    needed = rounds // 2 + 1
    ended: dict = {}
    playing = {(0, 0): Fraction(1)}
    while playing:
        going: dict = {}
        for (won, lost), q in playing.items():
            if won >= needed or lost >= needed or won + lost == rounds:
                ended[won, lost] = ended.get((won, lost), Fraction(0)) + q
                continue
            for after, r in (((won + 1, lost), p), ((won, lost + 1), 1 - p)):
                going[after] = going.get(after, Fraction(0)) + q * r
        playing = going
    return ended


def names_of(rs, opposed_id: str) -> list[str]:
    """The names the two formulas read (each a --set parameter of `pbp odds`)."""
    compiled = rs.program.opposed[opposed_id]
    return sorted(set(compiled["roll"].names_used) | set(compiled["versus"].names_used))


def opposed_odds(rs, opposed_id: str, params: dict):
    """An opposed roll's exact odds: an exchange won, tied (before the tie rule), lost; with
    rounds, each final score; the opposition won and lost; then each margin of an exchange
    (the actor's total minus the target's), = and ≥."""
    from pbp.balance.odds import Table

    spec = rs.program.data["opposed"][opposed_id]
    values = {name: params[name] for name in names_of(rs, opposed_id)}
    margins, tie = exchange_margins(rs, opposed_id, values)
    win = exchange_won(spec, margins)
    rounds = spec.get("rounds", 1)
    total = best_of(win, rounds)
    rows = [["exchange won", shown(win), ""], ["exchange tied", shown(tie), ""], ["exchange lost", shown(1 - win), ""]]
    if rounds > 1:
        for (won, lost), q in sorted(scores(win, rounds).items(), key=lambda item: item[0][1] - item[0][0]):
            rows.append([f"{'won' if won > lost else 'lost'} {won} to {lost}", shown(q), ""])
        rows.append([f"best of {rounds} won", shown(total), ""])
    rows += [["actor wins", shown(total), ""], ["actor loses", shown(1 - total), ""]]
    rows += at_least("margin", margins)
    shown_values = ", ".join(f"{k}={v}" for k, v in values.items())
    return Table(f"{R.name_of(spec, opposed_id)['fr']}: {spec['roll']} vs {spec['versus']}"
                 + (f" ({shown_values})" if shown_values else ""), ["", "=", "≥"], rows, long_note(rows))


#: the most values of a margin or a count shown one by one: beyond, the two tails
#: each as one row (`margin -21 or less`, `margin 21 or more`), around the median
MOST_VALUES = 41


def at_least(label: str, chances: dict) -> list[list[str]]:
    """[f"{label} {k}", P(= k), P(≥ k)] for each k, lowest first; past MOST_VALUES values
    (dice that explode), the values below and above the MOST_VALUES around the median
    each summed in one row."""
    values = sorted(chances)
    if len(values) > MOST_VALUES:
        above, middle = Fraction(1), 0
        while above - chances[values[middle]] >= Fraction(1, 2):  # the median: P(≥ it) ≥ 1/2 > P(> it)
            above -= chances[values[middle]]
            middle += 1
        start = max(0, min(middle - MOST_VALUES // 2, len(values) - MOST_VALUES))
        values = values[start:start + MOST_VALUES]
    below = sum((p for k, p in chances.items() if k < values[0]), Fraction(0))
    rows, above = [], 1 - below
    if below:
        rows.append([f"{label} {values[0] - 1} or less", shown(below), "1 (100.0 %)"])
    for k in values:
        rows.append([f"{label} {k}", shown(chances[k]), shown(above)])
        above -= chances[k]
    if above:
        rows.append([f"{label} {values[-1] + 1} or more", shown(above), shown(above)])
    return rows


#: the longest exact fraction shown as such; a longer one (dice that explode ten
#: times, rerolled ties) is shown as a decimal, with a note
LONGEST_FRACTION = 40


def shown(p: Fraction) -> str:
    """A probability: its exact fraction and percentage, `5/8 (62.5 %)`; a fraction
    longer than LONGEST_FRACTION characters as `≈ 0.123457 (12.3 %)`."""
    from pbp.balance.odds import exact, pct

    return exact(p) if len(str(p)) <= LONGEST_FRACTION else f"≈ {float(p):.6f} ({pct(p)})"


def long_note(rows: list[list[str]]) -> list[str]:
    if any(str(cell).startswith("≈") for row in rows for cell in row):
        return [f"≈: an exact fraction of more than {LONGEST_FRACTION} characters, "
                "shown as a decimal rounded to 6 places."]
    return []


def pool_odds(rs, check_id: str, dice: int, target: int):
    """A pool check's chance of success with `dice` dice against `target` successes."""
    from pbp.balance.odds import Table, distribution

    spec = rs.program.data["checks"][check_id]
    expression = pool_expression(spec, dice)
    sign = spec.get("success", "<=")
    faces = distribution(expression)
    rows = [row + [""] for row in outcome_rows(spec, faces, target)] + at_least("successes", faces)
    return Table(f"{R.name_of(spec, check_id)['fr']}: {expression} {sign} {target}", ["", "=", "≥"], rows,
                 long_note(rows))


def calculators(rs) -> dict:
    """`pbp odds --rule data.<opposed>` (--set <name>=N for each value its formulas read) and
    `data.<pool check>` (--set dice=N target=N)."""
    from pbp.balance.odds import Calculator, Param

    from .odds_sheet import check_reader, opposed_reader

    out = {}
    for opposed_id, spec in (rs.program.data.get("opposed") or {}).items():
        params = {name: Param(0, name) for name in names_of(rs, opposed_id)}
        out[opposed_id] = Calculator(R.name_of(spec, opposed_id)["fr"], params,
                                     lambda params, o=opposed_id: opposed_odds(rs, o, params),
                                     opposed_reader(rs, opposed_id))
    for check_id in rs.program.pools:
        spec = rs.program.data["checks"][check_id]
        default = spec["target"] if isinstance(spec["target"], int) else 1
        out[check_id] = Calculator(R.name_of(spec, check_id)["fr"],
                                   {"dice": Param(4, "dice"), "target": Param(default, "target")},
                                   lambda params, c=check_id: pool_odds(rs, c, params["dice"], params["target"]),
                                   check_reader(rs, check_id))
    return out


def outcome_rows(spec: dict, faces: dict, target: int) -> list[list[str]]:
    """[label, exact chance] of a check's outcomes over `faces` (total -> probability):
    success, failure, critical success and failure, each band (by its text)."""
    from .verdict import judge

    results = [(judge(spec, face, target), q) for face, q in faces.items()]

    def chance(test) -> Fraction:
        return sum((q for result, q in results if test(result)), Fraction(0))

    success = chance(lambda r: r["success"])
    rows = [["success", shown(success)], ["failure", shown(1 - success)]]
    for kind in ("success", "failure"):
        if (spec.get("critical") or {}).get(kind) is not None:
            rows.append([f"critical {kind}", shown(chance(lambda r, k=kind: r["critical"] == k))])
    for band in spec.get("bands") or []:
        text = R.words(band.get("text"), str(band["roll"]))
        rows.append([f"{band['roll']}: {text['fr']}", shown(chance(lambda r, t=text: r["band"] == t))])
    return rows
