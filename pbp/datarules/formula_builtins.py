"""The formula language's built-ins: its functions (either language's spelling,
how many arguments, how each is written), exact rounding, and what a dice term
can give (`dice_bounds`, `notation_bounds`) or most likely meant (`1d20>=15`).
"""

from __future__ import annotations

import math
from fractions import Fraction

# -- functions ---------------------------------------------------------------------------

class _Function:
    __slots__ = ("id", "fr", "en", "least", "most", "signature")

    def __init__(self, id_, fr, en, least, most, signature):
        self.id, self.fr, self.en, self.least, self.most = id_, fr, en, least, most
        self.signature = signature  # {lang: how it is written}


FUNCTIONS = {f.id: f for f in (
    _Function("if", "si", "if", 3, 3, {"fr": "si(condition, alors, sinon)", "en": "if(condition, then, else)"}),
    _Function("min", "min", "min", 1, 32, {"fr": "min(a, b, …)", "en": "min(a, b, …)"}),
    _Function("max", "max", "max", 1, 32, {"fr": "max(a, b, …)", "en": "max(a, b, …)"}),
    _Function("clamp", "borne", "clamp", 3, 3, {"fr": "borne(valeur, min, max)", "en": "clamp(value, low, high)"}),
    _Function("abs", "abs", "abs", 1, 1, {"fr": "abs(valeur)", "en": "abs(value)"}),
    _Function("round", "arrondi", "round", 1, 1, {"fr": "arrondi(valeur)", "en": "round(value)"}),
    _Function("floor", "plancher", "floor", 1, 1, {"fr": "plancher(valeur)", "en": "floor(value)"}),
    _Function("ceil", "plafond", "ceil", 1, 1, {"fr": "plafond(valeur)", "en": "ceil(value)"}),
    _Function("count", "compte", "count", 1, 1, {"fr": "compte(liste)", "en": "count(list)"}),
)}
#: a function by either spelling, any case
_FUNCTION_NAMES = {spelling: f for f in FUNCTIONS.values() for spelling in (f.fr, f.en)}


def round_half_away(value):
    """The nearest whole number, a half going away from zero (2.5 -> 3, -2.5 -> -3), as by hand."""
    if type(value) is int:
        return value
    whole = math.floor(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


_ROUNDING = {"round": round_half_away, "floor": math.floor, "ceil": math.ceil, "abs": abs}


# -- dice ----------------------------------------------------------------------------------

def dice_bounds(term: str) -> tuple:
    """The least and the most a dice term can give, as pbp.model.dice reads it (refusing,
    with its own PbpError, what it cannot roll); when pbp.model.dice knows no bounds
    for a notation, `notation_bounds`."""
    from pbp.model import dice

    parsed = dice.parse(term)
    low, high = getattr(parsed, "minimum", None), getattr(parsed, "maximum", None)
    if isinstance(low, int) and isinstance(high, (int, float)):
        return low, high
    try:
        return notation_bounds(term)
    except ValueError:  # a notation pbp.model.dice rolls and this reading does not know: no bounds
        return -math.inf, math.inf


def notation_bounds(term: str) -> tuple:
    """The least and the most of a dice term in forum notation, worked out from the
    notation alone: `NdM`, `d%`, `NdF`, keep/drop (`kh`, `kl`, `k`, `dh`, `dl`, `d`),
    explosions (no most), rerolls, success counts (`>=4`: 0 to N). Raises
    ValueError for what is no dice term."""
    text = term.strip()
    lower = text.lower()
    d = lower.index("d")
    count = int(text[:d]) if text[:d] else 1
    rest = text[d + 1:]
    if rest.startswith(("%", "F", "f")):
        faces, rest = ((1, 100) if rest[0] == "%" else (-1, 1)), rest[1:]
    else:
        digits = _leading_digits(rest)
        if not digits:
            raise ValueError(term)
        faces, rest = (1, int(digits)), rest[len(digits):]
    if count < 1 or faces[1] < 1:
        raise ValueError(term)
    kept, explodes, successes = count, False, False
    while rest:
        rest, kept, explodes, successes = _modifier(rest, count, kept, explodes, successes, term)
    if successes:
        return 0, (math.inf if explodes else count)
    return kept * faces[0], (math.inf if explodes else kept * faces[1])


def _leading_digits(text: str) -> str:
    end = 0
    while end < len(text) and text[end].isdigit():
        end += 1
    return text[:end]


def _modifier(rest: str, count: int, kept: int, explodes: bool, successes: bool, term: str):
    """One modifier of `notation_bounds`: what is left of the term and what changed."""
    head = rest[0]
    if head in "kd":
        body = rest[1:].lstrip("hl")
        digits = _leading_digits(body)
        if not digits:
            raise ValueError(term)
        n = min(int(digits), count)
        kept = n if head == "k" else count - n
        return body[len(digits):], kept, explodes, successes
    if head == "!":
        body = rest[1:].lstrip("!p").lstrip("<>=")
        return body[len(_leading_digits(body)):], kept, True, successes
    if head == "r":
        body = rest[1:].lstrip("or").lstrip("<>=")
        return body[len(_leading_digits(body)):], kept, explodes, successes
    if head in "<>":
        body = rest[1:].lstrip("=")
        digits = _leading_digits(body)
        if not digits:
            raise ValueError(term)
        return body[len(digits):], kept, explodes, True
    raise ValueError(term)


def _spaced_comparison(term: str) -> str | None:
    """`1d20>=15` written as the comparison `1d20 >= 15`, when the term ends with a success count."""
    for op in (">=", "<=", ">", "<"):
        head, found, tail = term.rpartition(op)
        if found and tail.isdigit() and head and head[-1] not in "!r<>=":
            return f"{head} {op} {tail}"
    return None
