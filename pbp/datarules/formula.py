"""The formula language of data rulesets: conditions and numbers an MJ writes in rules.yaml.

    borne(stat.force + 5 * competence.x - malus, 1, 95)
    si(jauge.energie <= 0 ou blessé, 1d6 + 2, 0)

A rules file is a stranger's input, so the language is total and closed: no
loops, recursion, user functions, I/O, attribute access or Python objects;
numbers are integers and exact fractions within ±10**18, with explicit rounding.
The source is parsed by lark (an LALR grammar: linear time, no backtracking),
checked (every name known, every operand of the right kind) and turned into a
tree of closures built from our own nodes: evaluating a formula calls a few
small Python functions and nothing else (there is no eval or exec). The same
nodes give the interval analysis the lint uses (`Formula.bounds`).

Every refusal is a `FormulaError` placed at file:line:column, in the MJ's
language, saying what would be valid. docs/formulas.md is the MJ's reference.

The language's parts, one module each: formula_base (limits, kinds, Interval,
errors), formula_syntax (grammar, parser, nodes), formula_builtins (functions,
dice terms), formula_compile (kinds checked, closures built), formula_bounds
(interval analysis). This module is the front the rest of pbp uses.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Callable

from pbp.datarules.formula_base import (BOOL, CONDITION, EVERYTHING, KEYWORDS, KINDS, LIMIT, LIMIT_TEXT, LIST,
                                        MAX_DEPTH, MAX_NODES, MAX_SOURCE, NUMBER, RESERVED, TEXT, FormulaError,
                                        Interval, _kind_phrase, _Place)
from pbp.datarules.formula_bounds import _Bounds
from pbp.datarules.formula_builtins import FUNCTIONS, dice_bounds, notation_bounds, round_half_away
from pbp.datarules.formula_compile import _Compiler
from pbp.datarules.formula_syntax import Node, _parse

__all__ = ["BOOL", "CONDITION", "EVERYTHING", "FUNCTIONS", "KEYWORDS", "KINDS", "LIMIT", "LIMIT_TEXT", "LIST",
           "MAX_DEPTH", "MAX_NODES", "MAX_SOURCE", "NUMBER", "RESERVED", "TEXT", "Formula", "FormulaError",
           "Interval", "Node", "compile_formula", "dice_bounds", "notation_bounds", "round_half_away"]


# -- the formula -------------------------------------------------------------------------------

class Formula:
    """A compiled formula: `evaluate(env, roll)`, and what the lint asks of it."""

    __slots__ = ("source", "kind", "names_used", "dice_terms", "where", "_root", "_run", "_parts")

    def __init__(self, source: str, root: Node, run, compiler: _Compiler, where: tuple):
        self.source = source
        self.kind = root.kind
        self.names_used = frozenset(compiler.used)
        ordered = sorted(compiler.dice_terms, key=lambda n: n.start)
        self.dice_terms = tuple((n.value[1], n.value[0]) for n in ordered)
        self.where = where
        self._root, self._run = root, run
        # where each name and each dice term is written, for `explain`
        parts = [(n.start, n.end, "name", n.value) for n in compiler.name_nodes]
        parts += [(n.start, n.end, "dice", n.value[1]) for n in ordered]
        self._parts = tuple(sorted(parts))

    def evaluate(self, env: Mapping[str, object], roll: Callable[[str, str], int] | None = None):
        """The formula's value with the names' values in `env`; `roll(term, label)`
        gives each dice term's total (only the terms evaluation reaches: the
        branch of `si` not taken rolls nothing)."""
        return self._run(env, roll)

    def bounds(self, name_bounds: Mapping[str, Interval] | None = None) -> Interval:
        """The least and the most the formula can give, when each name is within its
        bounds (a name not given: any number; a condition: false or true)."""
        return _Bounds(name_bounds or {}).of(self._root)

    def may_divide_by_zero(self, name_bounds: Mapping[str, Interval] | None = None) -> bool:
        return bool(self.zero_divisors(name_bounds))

    def zero_divisors(self, name_bounds: Mapping[str, Interval] | None = None) -> tuple[str, ...]:
        """The divisors (their text) that can be 0 given the names' bounds."""
        analysis = _Bounds(name_bounds or {})
        analysis.of(self._root)
        return tuple(self.source[n.args[1].start:n.args[1].end] for n in analysis.risky)

    def explain(self, env: Mapping[str, object], rolls: Mapping[str, int] | None = None, lang: str = "fr") -> str:
        """The formula as the MJ wrote it, each name's value in its place and each
        dice term's total beside it (`rolls`: label -> total): the parts of a
        number for a post or a report, `borne(7 + 5 * 3 - 2, 1, 95)`, `1d6 (4) + 2`."""
        out, at = [], 0
        for start, end, what, key in self._parts:
            written = self.source[start:end]
            out.append(self.source[at:start])
            if what == "name":
                out.append(_shown_value(env[key], lang) if key in env else written)
            else:
                total = (rolls or {}).get(key)
                out.append(written if total is None else f"{written} ({total})")
            at = end
        out.append(self.source[at:])
        return "".join(out)

    def pieces(self, env: Mapping[str, object]) -> list[dict]:
        """The formula as the MJ wrote it, cut for a post that shows every number with
        its parts: `{"text": " + "}` as written, `{"name": "cible.force", "key":
        "target.force", "value": 3}` for each name (as written, as `env` knows it, its value), `{"dice": "d1", "written": "1d20"}` for
        each dice term (its label: the roll it gave is the caller's to show)."""
        out, at = [], 0
        for start, end, what, key in self._parts:
            if start > at:
                out.append({"text": self.source[at:start]})
            if what == "name":
                out.append({"name": self.source[start:end], "key": key, "value": env.get(key)})
            else:
                out.append({"dice": key, "written": self.source[start:end]})
            at = end
        if at < len(self.source):
            out.append({"text": self.source[at:]})
        return out

    def __repr__(self) -> str:
        return f"Formula({self.source!r}, kind={self.kind!r})"


def _shown_value(value, lang: str) -> str:
    """A value as a formula would write it."""
    if isinstance(value, bool):
        return ("vrai" if value else "faux") if lang == "fr" else ("true" if value else "false")
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(_shown_value(v, lang) for v in value) + "]"
    return str(value)


def compile_formula(source, *, names: Mapping[str, str] | Callable[[str], str | None],
                    where: tuple = ("rules.yaml", 0), lang: str = "fr", expect: str | None = None,
                    dice: Callable[[str], tuple] | None = None) -> Formula:
    """Compile `source` (refusing it with a FormulaError at where's file:line).

    `names` gives the kind ("number", "bool", "text", "list") of each name the
    formula may use: a mapping, or a function answering for families of names
    (None: unknown; its `known` attribute, if any, lists names to suggest, or its
    `spelled(name)` method the names to suggest for that name as it is written).
    `where` is (file, line of the formula's first line[, column it starts at]).
    `expect`: the kind the formula must give. `dice(term) -> (least, most)`
    checks each dice term (refusing with a PbpError or ValueError); pbp.model.dice by
    default (`dice_bounds`).
    """
    text = _source_text(source)
    place = _Place("" if text is None else text, tuple(where) if where else (None, None), lang)
    if text is None:
        raise place.error("formula_not_text", 0, value=repr(source)[:60])
    if len(text) > MAX_SOURCE:
        raise place.error("formula_too_long", 0, length=len(text), limit=MAX_SOURCE)
    if not text.strip():
        raise place.error("formula_empty", 0)
    root = _parse(text, place)
    compiler = _Compiler(place, names, lang, dice or dice_bounds)
    run = compiler.build(root)
    if root.kind == LIST:
        raise compiler.wrong_kind(root, NUMBER)
    if expect is not None and root.kind != expect:
        if root.op == "dice" and expect == BOOL:
            raise compiler.wrong_kind(root, BOOL)
        raise place.error("formula_result_kind", root.start, expected=_kind_phrase(expect),
                          actual=_kind_phrase(root.kind))
    return Formula(text, root, run, compiler, (place.file, place.line))


def _source_text(source) -> str | None:
    """A formula's text; YAML gives a number or a yes/no where the MJ wrote one."""
    if isinstance(source, str):
        return source
    if isinstance(source, bool):
        return "vrai" if source else "faux"
    if isinstance(source, (int, Fraction)):
        return str(source)
    if isinstance(source, float) and math.isfinite(source):
        return repr(source)
    return None
