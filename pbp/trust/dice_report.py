"""The dice report: the dice an archive rolled against their exact distributions.

For each dice expression rolled often enough (`min_rolls`), the observed totals
are compared with the expression's exact distribution (dyce) by Pearson's
chi-square goodness-of-fit test; so are the faces of each die size when several
expressions share them (a loaded d6 shows in its faces even when it is only
rolled inside 2d6+1). Forced rolls (gm.yaml) are not dice: they are counted
apart and left out of every test.

The test. Possible values are taken in order and merged with their neighbours
until each bin expects at least 5 rolls (the usual condition for the
chi-square approximation; what is left at the top joins the last bin); a value
the expression cannot give is a bin of its own, expecting 0: any roll there is
impossible (p = 0). With k bins, X² = Σ (observed − expected)² / expected has
k − 1 degrees of freedom, and the p-value is the upper tail of the chi-square
distribution, Q(df/2, X²/2), the regularised upper incomplete gamma function,
computed here by its series (X²/2 < df/2 + 1) or its continued fraction
(otherwise), as in Numerical Recipes (2nd ed., §6.2), to about 1e-12 — scipy
is not needed. Below the level (1 %) the verdict is "worth a look": among a
hundred fair tests, about one says so by chance.

No I/O here but reading the archive's roll logs; rendering is a template
(templates/common/<lang>/dice_report.j2) and the chart pbp.render.chart's.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from pbp.base.errors import PbpError
from pbp.model.dice import Roll, parse

MIN_ROLLS = 30
MIN_EXPECTED = 5.0
LEVEL = 0.01


# -- the chi-square tail ---------------------------------------------------------------

def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X chi-square with `df` degrees of freedom."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if math.isinf(x):
        return 0.0
    return _upper_gamma(df / 2.0, x / 2.0)


def _upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), regularised upper incomplete gamma."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series of P(a, x) converges fast here
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # modified Lentz's method for the continued fraction of Q(a, x)
    b = x + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


# -- one test ----------------------------------------------------------------------------

@dataclass
class Bin:
    low: int
    high: int
    observed: int
    expected: float


@dataclass
class Fit:
    """One expression (or one die size's faces) against its exact distribution."""

    name: str
    rolls: int
    exact: dict[int, float]  # value -> probability
    observed: dict[int, int]  # value -> count
    forced: int = 0
    bins: list[Bin] = field(default_factory=list)
    chi2: float | None = None
    df: int | None = None
    p: float | None = None
    impossible: list[int] = field(default_factory=list)  # values rolled that the dice cannot give

    @property
    def tested(self) -> bool:
        return self.p is not None

    @property
    def flagged(self) -> bool:
        return self.tested and self.p < LEVEL


def bins_of(exact: dict[int, float], observed: dict[int, int], rolls: int) -> list[Bin]:
    """Neighbouring values merged until each bin expects MIN_EXPECTED rolls."""
    bins: list[Bin] = []
    current: Bin | None = None
    for value in sorted(exact):
        if current is None:
            current = Bin(value, value, 0, 0.0)
        current.high = value
        current.observed += observed.get(value, 0)
        current.expected += exact[value] * rolls
        if current.expected >= MIN_EXPECTED:
            bins.append(current)
            current = None
    if current is not None:
        if bins:
            last = bins[-1]
            bins[-1] = Bin(last.low, current.high, last.observed + current.observed, last.expected + current.expected)
        else:
            bins.append(current)
    return bins


def fit(name: str, exact: dict[int, float], observed: Counter, forced: int = 0) -> Fit:
    rolls = sum(observed.values())
    result = Fit(name, rolls, exact, dict(sorted(observed.items())), forced)
    result.impossible = sorted(v for v in observed if v not in exact)
    result.bins = bins_of(exact, observed, rolls)
    if result.impossible:
        result.chi2, result.df, result.p = math.inf, max(1, len(result.bins) - 1), 0.0
    elif len(result.bins) >= 2:
        result.chi2 = sum((b.observed - b.expected) ** 2 / b.expected for b in result.bins)
        result.df = len(result.bins) - 1
        result.p = chi2_sf(result.chi2, result.df)
    return result


def exact_distribution(expr: str) -> dict[int, float]:
    """The exact probability of each total of a dice expression (pbp.model.dice:
    dyce for sums, icepool for the notation's keep, explode, reroll, count)."""
    return {value: float(p) for value, p in sorted(parse(expr).exact().items())}


def read_dice(expr: str, faces) -> list[tuple[int, int]] | None:
    """Each face of a roll with the size of the die it was read from, in
    order (rerolled, exploded and dropped dice included: each is a die thrown);
    None when the log's faces are not what the expression reads."""
    given = iter(faces)
    read: list[tuple[int, int]] = []

    def reading(sides: int) -> int:
        face = next(given)
        read.append((sides, face))
        return face

    try:
        parse(expr).throw(reading)
    except (StopIteration, TypeError):
        return None
    return read if len(read) == len(faces) else None


# -- the report --------------------------------------------------------------------------

@dataclass
class DiceReport:
    turns: int
    rolls: int  # every roll logged
    forced: int  # of them, forced (counted apart)
    expressions: list[Fit]
    faces: list[Fit]
    too_few: list[tuple[str, int]]  # expressions rolled fewer than min_rolls times
    min_rolls: int

    @property
    def tests(self) -> list[Fit]:
        return [f for f in self.expressions + self.faces if f.tested]

    @property
    def flagged(self) -> list[Fit]:
        return [f for f in self.tests if f.flagged]


def report(rolls: list[Roll], turns: int = 0, min_rolls: int = MIN_ROLLS) -> DiceReport:
    by_expr: dict[str, Counter] = {}
    forced: Counter = Counter()
    faces: dict[int, Counter] = {}
    face_sources: dict[int, set] = {}
    for roll in rolls:
        expr = str(parse(roll.expr))
        if roll.forced:
            forced[expr] += 1
            continue
        by_expr.setdefault(expr, Counter())[roll.total] += 1
        for side, face in read_dice(expr, roll.faces) or ():
            faces.setdefault(side, Counter())[face] += 1
            face_sources.setdefault(side, set()).add(expr)
    fits, too_few = [], []
    for expr, counts in sorted(by_expr.items(), key=lambda item: (-sum(item[1].values()), item[0])):
        n = sum(counts.values())
        if n < min_rolls:
            too_few.append((expr, n))
            continue
        fits.append(fit(expr, exact_distribution(expr), counts, forced.get(expr, 0)))
    face_fits = []
    for side in sorted(faces):
        counts = faces[side]
        # a die rolled only as `1dN` is that expression's test already
        if face_sources[side] == {f"1d{side}"} or sum(counts.values()) < min_rolls:
            continue
        face_fits.append(fit(f"d{side}", {v: 1 / side for v in range(1, side + 1)}, counts))
    return DiceReport(turns, len(rolls), sum(forced.values()), fits, face_fits, too_few, min_rolls)


def archive_rolls(campaign) -> tuple[list[Roll], int]:
    """Every roll of the archive's resolved turns (their rolls.yaml), and how many turns."""
    from pbp.base import yamlio
    from pbp.base.errors import InputError

    rolls: list[Roll] = []
    turns = campaign.resolved_turns()
    for n in turns:
        path = campaign.turn_dir(n) / "rolls.yaml"
        if not path.exists():
            continue
        raw = yamlio.load_file(path) or []
        try:
            rolls += [Roll.from_dict(r) for r in raw]
        except (TypeError, KeyError, AttributeError, ValueError):
            raise InputError("rolls_bad", file=campaign.rel(path)) from None
    return rolls, len(turns)


# -- rendering ---------------------------------------------------------------------------

def number(value: float, lang: str, digits: int = 1) -> str:
    text = f"{value:,.{digits}f}".replace(",", " ")
    return text.replace(".", ",") if lang == "fr" else text.replace(" ", ",")


def p_text(p: float, lang: str) -> str:
    if p < 0.0001:
        return "< 0,0001" if lang == "fr" else "< 0.0001"
    return number(p, lang, 4)


def context(rep: DiceReport, lang: str, title: str) -> dict:
    """What the template shows, numbers already written the language's way."""
    def one(f: Fit) -> dict:
        return {"name": f.name, "rolls": f.rolls, "forced": f.forced, "tested": f.tested, "flagged": f.flagged,
                "chi2": number(f.chi2, lang, 2) if f.chi2 is not None and math.isfinite(f.chi2) else "∞",
                "df": f.df, "p": p_text(f.p, lang) if f.p is not None else None, "impossible": f.impossible,
                "rows": [[str(b.low) if b.low == b.high else f"{b.low}–{b.high}", b.observed,
                          number(b.expected, lang, 1)] for b in f.bins]}

    return {"title": title, "turns": rep.turns, "rolls": rep.rolls, "forced": rep.forced,
            "expressions": [one(f) for f in rep.expressions], "faces": [one(f) for f in rep.faces],
            "too_few": rep.too_few, "min_rolls": rep.min_rolls, "tests": len(rep.tests),
            "flagged": [f.name for f in rep.flagged], "level": "1 %" if lang == "fr" else "1%"}


def render(rep: DiceReport, fmt: str, lang: str, title: str) -> str:
    from pbp.render.render import Renderer, package_dir

    renderer = Renderer([package_dir("templates") / "common" / lang], fmt, lang=lang)
    return renderer.render("dice_report", **context(rep, lang, title))


def chart(rep: DiceReport, name: str | None, lang: str, title: str) -> tuple[str, str] | None:
    """The SVG chart of one tested expression (default: the most rolled), and its name."""
    from pbp.base import i18n
    from pbp.render.chart import histogram_svg

    fits = rep.expressions + rep.faces
    if name:
        wanted = {name.strip()}
        try:
            wanted.add(str(parse(name)))  # `d20` names the faces of d20s, or else the expression 1d20
        except PbpError:
            pass
        chosen = next((f for f in fits if f.name == name.strip()), None) or next((f for f in fits if f.name in wanted), None)
    else:
        chosen = fits[0] if fits else None
    if chosen is None:
        return None
    expected = {str(v): p * chosen.rolls for v, p in chosen.exact.items()}
    observed = {str(v): c for v, c in chosen.observed.items()}
    series = [(i18n.t(lang, "dice_report_observed"), observed), (i18n.t(lang, "dice_report_expected"), expected)]
    return histogram_svg(f"{title} — {chosen.name} ({chosen.rolls})", chosen.name, series), chosen.name
