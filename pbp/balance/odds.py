"""Exact odds with dyce: a roll against a target, one roll against another, and
the rulesets' own calculators (a manhunt fight, a murder trap...).

Everything is computed exactly (fractions), then shown as percentages in a
table, in text for the terminal or in BBCode/Markdown for the forum.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from pbp.model.dice import parse

COMPARISONS = {"ge": ("≥", lambda v, n: v >= n), "gt": (">", lambda v, n: v > n),
               "le": ("≤", lambda v, n: v <= n), "lt": ("<", lambda v, n: v < n), "eq": ("=", lambda v, n: v == n)}


@dataclass
class Table:
    title: str
    header: list[str]
    rows: list[list]
    notes: list[str] = field(default_factory=list)


@dataclass
class Param:
    default: object
    help: str = ""
    kind: str = "int"  # int | dice


@dataclass
class Calculator:
    """A ruleset's named odds: its parameters (with defaults) and the function
    that turns them into a table."""

    title: str
    params: dict[str, Param]
    compute: Callable[[dict], Table]
    #: `pbp odds --character X --target Y` in a campaign: the parameters read from X's
    #: sheet, X acting against Y (state, X, Y or None) -> {param: value}; None: nothing to read
    sheet: Callable[[dict, str, str | None], dict] | None = None


def distribution(expr: str) -> dict[int, Fraction]:
    """P(total) for every total of a dice expression, exactly (any notation
    pbp.model.dice reads; refused, saying the limit, when too large to compute)."""
    return dict(parse(expr).exact())


def table(expr: str, lang: str = "fr") -> Table:
    """Every total of `expr` with P(= total) and P(≥ total), its mean, and the
    bounds the odds assume (explosions, rerolls): `pbp odds 10d10kh3`."""
    from pbp.base import i18n
    from pbp.model.dice_notation import EXPLODE_DEPTH, REROLL_DEPTH

    parsed = parse(expr)
    dist = distribution(expr)
    rows, above = [], Fraction(1)
    for value, p in sorted(dist.items()):
        rows.append([value, pct(p), pct(above)])
        above -= p
    mods = [t.mods for t in parsed.dice if t.mods is not None]
    notes = [i18n.t(lang, "odds_mean", mean=f"{float(mean(expr)):.2f}")]
    if any(m.explode for m in mods):
        notes.append(i18n.t(lang, "odds_explode_depth", depth=EXPLODE_DEPTH))
    if any(m.reroll and not m.once for m in mods):
        notes.append(i18n.t(lang, "odds_reroll_depth", depth=REROLL_DEPTH))
    return Table(str(parsed), ["", "=", "≥"], rows, notes)


def pct(p: Fraction | float) -> str:
    return f"{float(p) * 100:.1f} %"


def exact(p: Fraction) -> str:
    """A probability as `pbp odds` shows one: the exact fraction, then its percentage, `5/8 (62.5 %)`."""
    return f"{p} ({pct(p)})"


def check(expr: str, comparison: str, target: int) -> Table:
    """P(expr <op> target), e.g. `1d10 ≥ 7`."""
    sign, test = COMPARISONS[comparison]
    p = sum((q for v, q in distribution(expr).items() if test(v, target)), Fraction(0))
    return Table(f"{expr} {sign} {target}", ["", ""], [[f"{expr} {sign} {target}", exact(p)],
                                                       [f"{expr} {COMPARISONS[_negate(comparison)][0]} {target}",
                                                        exact(1 - p)]])


def _negate(comparison: str) -> str:
    return {"ge": "lt", "gt": "le", "le": "gt", "lt": "ge", "eq": "eq"}[comparison] if comparison != "eq" else "eq"


def versus(a: str, b: str) -> tuple[Fraction, Fraction, Fraction]:
    """P(a > b), P(a = b), P(a < b)."""
    da, db = distribution(a), distribution(b)
    win = tie = Fraction(0)
    for va, pa in da.items():
        for vb, pb in db.items():
            if va > vb:
                win += pa * pb
            elif va == vb:
                tie += pa * pb
    return win, tie, 1 - win - tie


def versus_table(a: str, b: str, lang: str = "fr") -> Table:
    win, tie, lose = versus(a, b)
    against, tied = ("contre", "égalité") if lang == "fr" else ("against", "tie")
    return Table(f"{a} {against} {b}", ["", ""], [[f"{a} > {b}", exact(win)], [tied, exact(tie)],
                                                  [f"{a} < {b}", exact(lose)]])


def mean(expr: str) -> Fraction:
    return sum((v * p for v, p in distribution(expr).items()), Fraction(0))


def render(table: Table, fmt: str = "text", dialect: str = "phpbb") -> str:
    """The table for the terminal (`text`), or ready to paste on the forum."""
    if fmt == "text":
        rows = [[str(c) for c in r] for r in table.rows]
        header = table.header if any(table.header) else None
        widths = [max(len(str(x)) for x in col) for col in zip(*(([header] if header else []) + rows))]
        line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
        out = [table.title, ""] + ([line(header)] if header else []) + [line(r) for r in rows]
        return "\n".join(out + [""] + table.notes).rstrip() + "\n"
    from pbp.render.formatters import formatter

    m = formatter(fmt, dialect)
    parts = [m.b(table.title), "", m.table(table.rows, table.header if any(table.header) else None)]
    if table.notes:
        parts += ["", m.i(" ".join(table.notes))]
    return "\n".join(parts) + "\n"
