"""The formulas' interval analysis (what the lint asks through `Formula.bounds`):
the least and the most each node can be from the names' bounds and the dice's,
narrowed inside a branch by the conditions that lead to it, and the divisions
whose divisor can be 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from pbp.datarules.formula_base import BOOL, CONDITION, EVERYTHING, LIST, NUMBER, TEXT, Interval
from pbp.datarules.formula_builtins import _ROUNDING
from pbp.datarules.formula_syntax import _NOT_CONSTANT, Node

# -- bounds ----------------------------------------------------------------------------------

class _Bounds:
    """Interval analysis: the least and the most each node can be, from the
    names' bounds and the dice's; divisions whose divisor can be 0 are noted."""

    def __init__(self, name_bounds: Mapping, nonzero: frozenset = frozenset(), risky: list | None = None):
        self.name_bounds = name_bounds
        self.nonzero = nonzero  # names known not to be 0 here (`si(x != 0, 10 / x, 0)`)
        self.risky: list[Node] = [] if risky is None else risky

    def assuming(self, condition: Node, truth: bool) -> "_Bounds | None":
        """The analysis of what runs only when `condition` is `truth` (a branch of
        si, the right side of et/ou): each name the condition compares with a
        constant narrowed. None when that can never happen."""
        bounds, nonzero = dict(self.name_bounds), set(self.nonzero)
        for name, op, limit in _facts(condition, truth):
            known = self._named(name)
            lo, hi = _narrowed(known, op, limit)
            if lo > hi or (op in ("<", ">", "!=") and lo == hi == limit):
                return None
            bounds[name] = Interval(lo, hi, known.whole)
            if _EXCLUDES_ZERO[op](limit) or lo > 0 or hi < 0:
                nonzero.add(name)
        return _Bounds(bounds, frozenset(nonzero), self.risky)

    def of(self, node: Node) -> Interval:
        if node.constant is not _NOT_CONSTANT and node.kind in (NUMBER, BOOL):
            return Interval(node.constant, node.constant, type(node.constant) is not Fraction)
        if node.kind in (TEXT, LIST):
            for arg in node.args:  # a text's own bounds mean nothing, but its divisions count
                self.of(arg)
            return EVERYTHING
        found = getattr(self, "_" + node.op)(node)
        if found.whole or not self.whole(node):
            return found
        return Interval(_finite_or(math.ceil, found.lo), _finite_or(math.floor, found.hi), True)

    def whole(self, node: Node) -> bool:
        """Whether every value of `node` is a whole number, whatever the names' values."""
        op = node.op
        if node.kind == BOOL or op == "dice" or (op == "call" and node.value in _WHOLE_FUNCTIONS) or (
                op == "arith" and node.value == "//"):
            return True
        if op == "name":
            return self._named(node.value).whole
        if op == "num":
            return type(node.value) is int
        if op == "arith" and node.value == "/":
            return False
        if op == "call" and node.value == "if":
            return self.whole(node.args[1]) and self.whole(node.args[2])
        return op in ("neg", "arith", "call") and all(self.whole(arg) for arg in node.args)

    def _name(self, node: Node) -> Interval:
        return CONDITION if node.kind == BOOL and node.value not in self.name_bounds else self._named(node.value)

    def _named(self, name: str) -> Interval:
        given = self.name_bounds.get(name)
        if given is None:
            return EVERYTHING
        return given if isinstance(given, Interval) else Interval(*given)

    def _dice(self, node: Node) -> Interval:
        return Interval(node.value[2], node.value[3])

    def _neg(self, node: Node) -> Interval:
        lo, hi = self.of(node.args[0])
        return Interval(-hi, -lo)

    def _arith(self, node: Node) -> Interval:
        a, b = (self.of(arg) for arg in node.args)
        op = node.value
        if op == "+":
            return Interval(a.lo + b.lo, a.hi + b.hi)
        if op == "-":
            return Interval(a.lo - b.hi, a.hi - b.lo)
        if op == "*":
            return _span(_times(x, y) for x in a for y in b)
        if b.lo <= 0 <= b.hi:
            divisor = node.args[1]
            if not (divisor.op == "name" and divisor.value in self.nonzero):
                self.risky.append(node)
            if op != "%":
                return EVERYTHING
        if op == "%":
            step = 1 if a.whole and b.whole else 0  # a whole remainder is at most the divisor less 1
            if a.lo >= 0 and b.lo > 0:
                return Interval(0, min(a.hi, b.hi - step))
            return Interval(min(0, b.lo + step), max(0, b.hi - step))
        quotient = _span(_over(x, y) for x in a for y in b)
        return quotient if op == "/" else Interval(_floor(quotient.lo), _floor(quotient.hi))

    def _compare(self, node: Node) -> Interval:
        bounds = [self.of(arg) for arg in node.args]
        if any(arg.kind not in (NUMBER, BOOL) for arg in node.args):
            return CONDITION
        results = [_compare_bounds(op, a, b) for op, a, b in zip(node.value, bounds, bounds[1:])]
        return Interval(min(r.lo for r in results), min(r.hi for r in results))

    def _in(self, node: Node) -> Interval:
        for arg in node.args:
            self.of(arg)
        return CONDITION

    def _and(self, node: Node) -> Interval:
        a = self.of(node.args[0])
        inside = self.assuming(node.args[0], True)  # the right side runs only when the left is true
        if inside is None or a.hi == 0:
            return Interval(0, 0)
        b = inside.of(node.args[1])
        return Interval(min(a.lo, b.lo), min(a.hi, b.hi))

    def _or(self, node: Node) -> Interval:
        a = self.of(node.args[0])
        inside = self.assuming(node.args[0], False)  # the right side runs only when the left is false
        if inside is None or a.lo == 1:
            return Interval(1, 1)
        b = inside.of(node.args[1])
        return Interval(max(a.lo, b.lo), max(a.hi, b.hi))

    def _not(self, node: Node) -> Interval:
        lo, hi = self.of(node.args[0])
        return Interval(1 - hi, 1 - lo)

    def _call(self, node: Node) -> Interval:
        if node.value == "if":
            return self._if(node)
        if node.value == "count":
            return Interval(0, math.inf)
        bounds = [self.of(arg) for arg in node.args]
        if node.value in ("min", "max"):
            pick = min if node.value == "min" else max
            return Interval(pick(b.lo for b in bounds), pick(b.hi for b in bounds))
        if node.value == "clamp":
            x, low, high = bounds
            at_least = Interval(max(x.lo, low.lo), max(x.hi, low.hi))
            return Interval(min(at_least.lo, high.lo), min(at_least.hi, high.hi))
        if node.value == "abs":
            (x,) = bounds
            if x.lo >= 0:
                return x
            if x.hi <= 0:
                return Interval(-x.hi, -x.lo)
            return Interval(0, max(-x.lo, x.hi))
        rounding = _ROUNDING[node.value]
        (x,) = bounds
        return Interval(_finite_or(rounding, x.lo), _finite_or(rounding, x.hi))


    def _if(self, node: Node) -> Interval:
        condition, then, otherwise = node.args
        known = self.of(condition)
        taken = []
        for branch, truth in ((then, True), (otherwise, False)):
            inside = self.assuming(condition, truth)
            if inside is not None and known.lo <= truth <= known.hi:
                taken.append(inside.of(branch))
        if not taken:  # neither branch can run: the names' bounds contradict each other
            return EVERYTHING
        return taken[0] if len(taken) == 1 else taken[0].hull(taken[1])


#: the functions whose value is always a whole number
_WHOLE_FUNCTIONS = frozenset(("round", "floor", "ceil", "count"))


def _narrowed(known: Interval, op: str, limit) -> tuple:
    """The bounds of a name within `known` that `name op limit` leaves."""
    lo, hi = known.lo, known.hi
    if known.whole:  # x > 2.5 is x >= 3 for a whole x; x != 3 at an end moves that end
        if op in ("<", "<=", ">", ">=") or (op == "==" and type(limit) is int):
            floor, ceil = math.floor(limit), math.ceil(limit)
            limit = {"<": ceil - 1, "<=": floor, ">": floor + 1, ">=": ceil, "==": limit}[op]
            op = {"<": "<=", ">": ">="}.get(op, op)
        elif op == "!=" and limit in (lo, hi) and lo != hi:
            return (lo + 1, hi) if limit == lo else (lo, hi - 1)
    if op in ("<", "<=", "=="):
        hi = min(hi, limit)
    if op in (">", ">=", "=="):
        lo = max(lo, limit)
    return lo, hi


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
#: whether `x op limit` tells x is not 0
_EXCLUDES_ZERO = {"<": lambda c: c <= 0, "<=": lambda c: c < 0, ">": lambda c: c >= 0, ">=": lambda c: c > 0,
                  "==": lambda c: c != 0, "!=": lambda c: c == 0}


def _facts(node: Node, truth: bool) -> list[tuple]:
    """What `node` being `truth` tells about names: (name, op, constant) for each
    comparison of a number's name with a constant it implies."""
    if node.op == "not":
        return _facts(node.args[0], not truth)
    if (node.op == "and" and truth) or (node.op == "or" and not truth):
        return _facts(node.args[0], truth) + _facts(node.args[1], truth)
    if node.op != "compare" or not (truth or len(node.value) == 1):
        return []
    out = []
    for op, a, b in zip(node.value, node.args, node.args[1:]):
        op = op if truth else _NEGATED[op]
        if a.op == "name" and a.kind == NUMBER and b.kind == NUMBER and b.constant is not _NOT_CONSTANT:
            out.append((a.value, op, b.constant))
        elif b.op == "name" and b.kind == NUMBER and a.kind == NUMBER and a.constant is not _NOT_CONSTANT:
            out.append((b.value, _MIRRORED[op], a.constant))
    return out


def _finite_or(function, value):
    return value if isinstance(value, float) else function(value)


def _floor(value):
    return _finite_or(math.floor, value)


def _span(values) -> Interval:
    values = list(values)
    return Interval(min(values), max(values))


def _times(x, y):
    """x * y for interval ends, where 0 times an unbounded end is 0."""
    return 0 if x == 0 or y == 0 else x * y


def _over(x, y):
    """x / y for interval ends (y never 0): a bounded x over an unbounded y is 0."""
    if isinstance(y, float):
        return (math.copysign(math.inf, y) * (1 if x > 0 else -1)) if isinstance(x, float) else 0
    if isinstance(x, float):
        return x if y > 0 else -x
    return Fraction(x) / y


def _compare_bounds(op: str, a: Interval, b: Interval) -> Interval:
    """Whether `a op b` is always true (1, 1), never (0, 0), or either (0, 1)."""
    always, never = {
        "<": (a.hi < b.lo, a.lo >= b.hi),
        "<=": (a.hi <= b.lo, a.lo > b.hi),
        ">": (a.lo > b.hi, a.hi <= b.lo),
        ">=": (a.lo >= b.hi, a.hi < b.lo),
        "==": (a.exact and b.exact and a.lo == b.lo, a.hi < b.lo or b.hi < a.lo),
        "!=": (a.hi < b.lo or b.hi < a.lo, a.exact and b.exact and a.lo == b.lo),
    }[op]
    return Interval(1, 1) if always else Interval(0, 0) if never else CONDITION
