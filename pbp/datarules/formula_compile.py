"""The formula compiler: each node's kind checked (every name known, every operand
of the right kind, every function called as it is written) and turned into a
closure `run(env, roll)`; constants worked out once; every arithmetic result,
every name's value and every roll checked to stay within LIMIT at evaluation.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from fractions import Fraction
from typing import Callable

from pbp.base.errors import ByLang, PbpError
from pbp.datarules.formula_base import (BOOL, KINDS, LIMIT, LIMIT_TEXT, LIST, NUMBER, TEXT, FormulaError, _kind_phrase,
                                        _Place, _plain)
from pbp.datarules.formula_builtins import _FUNCTION_NAMES, _ROUNDING, FUNCTIONS, _spaced_comparison
from pbp.datarules.formula_syntax import _NOT_CONSTANT, Node

#: the operations worked out at compile time when their operands are constants
_FOLDABLE = frozenset(("neg", "arith", "compare", "and", "or", "not", "call"))
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}


# -- compiling -----------------------------------------------------------------------------

class _Compiler:
    """Checks each node's kind and builds its closure `run(env, roll)`."""

    def __init__(self, place: _Place, names, lang: str, dice: Callable[[str], tuple]):
        self.place, self.names, self.lang, self.dice = place, names, lang, dice
        self.used: set[str] = set()
        self.dice_terms: list[Node] = []
        self.name_nodes: list[Node] = []

    def build(self, node: Node):
        run = getattr(self, "_" + node.op)(node)
        if node.op in _FOLDABLE and all(arg.constant is not _NOT_CONSTANT for arg in node.args):
            # depends on no name and no dice: worked out once, now (so 1/0 is refused here)
            value = node.constant = run({}, None)
            return lambda env, roll: value
        return run

    def expect(self, node: Node, kind: str):
        """The closure of `node`, which must be of `kind`."""
        run = self.build(node)
        if node.kind != kind:
            raise self.wrong_kind(node, kind)
        return run

    def wrong_kind(self, node: Node, wanted: str) -> FormulaError:
        text = self.place.text_of(node)
        if node.op == "dice" and wanted == BOOL and _spaced_comparison(node.value[0]):
            return self.place.error("formula_pool_not_condition", node.start, text=text,
                                    fixed=_spaced_comparison(node.value[0]))
        if node.kind == LIST:
            return self.place.error("formula_list_here", node.start, text=text)
        return self.place.error("formula_wrong_kind", node.start, text=text, expected=_kind_phrase(wanted),
                                actual=_kind_phrase(node.kind))

    def bad_dice(self, node: Node, exc: Exception) -> FormulaError:
        """A dice term pbp.model.dice refuses, in its words; `1d20>=15` (a success count
        to pbp.model.dice) most likely meant a comparison: the spaces it needs are shown."""
        term = node.value[0]
        if _spaced_comparison(term):
            return self.place.error("formula_dice_comparison", node.start, text=term,
                                    fixed=_spaced_comparison(term))
        if isinstance(exc, PbpError):  # pbp.model.dice's own refusal: what is wrong and what is valid
            return self.place.error(exc.key, node.start, **exc.params)
        return self.place.error("bad_dice", node.start, expr=term)

    # leaves
    def _num(self, node: Node):
        node.kind, node.constant, value = NUMBER, node.value, node.value
        return lambda env, roll: value

    def _text(self, node: Node):
        node.kind, node.constant, value = TEXT, node.value, node.value
        return lambda env, roll: value

    def _bool(self, node: Node):
        node.kind, node.constant, value = BOOL, node.value, node.value
        return lambda env, roll: value

    def _name(self, node: Node):
        name = node.value
        kind = self.names.get(name) if isinstance(self.names, Mapping) else self.names(name)
        if kind is None:
            raise self.unknown_name(node)
        if kind not in KINDS:
            raise ValueError(f"the kind of {name!r} is {kind!r}, not one of {KINDS}")
        node.kind = kind
        self.used.add(name)
        self.name_nodes.append(node)
        return _LOADERS[kind](name, node, self.place)

    def unknown_name(self, node: Node) -> FormulaError:
        from pbp.base import i18n

        name = node.value
        if name.lower() in _FUNCTION_NAMES:
            return self.place.error("formula_function_needs_parentheses", node.start, name=name)
        if isinstance(self.names, Mapping):
            known = [str(n) for n in self.names]
        else:  # a lookup may spell its names as the writer did (`cible.force` for `target.force`)
            spelled = getattr(self.names, "spelled", None)
            known = [str(n) for n in (spelled(name) if spelled else getattr(self.names, "known", ()))]
        family = name.rsplit(".", 1)[0] + "." if "." in name else None
        near = [n for n in known if family and n.startswith(family)] or known
        return self.place.error("formula_unknown_name", node.start, name=name,
                                suggestion=i18n.closest(name, near) or i18n.closest(name, known),
                                valid=sorted(near))

    def _dice(self, node: Node):
        term, label = node.value
        try:
            low, high = self.dice(term)
        except (ValueError, PbpError) as exc:
            raise self.bad_dice(node, exc) from None
        if label is None:
            label = f"d{len(self.dice_terms) + 1}"
        if any(other.value[1] == label for other in self.dice_terms):
            raise self.place.error("formula_duplicate_label", node.start, label=label)
        node.value = (term, label, low, high)
        node.kind = NUMBER
        self.dice_terms.append(node)
        place = self.place

        def run(env, roll):
            if roll is None:
                raise place.error("formula_no_roller", node.start, text=term)
            total = roll(term, label)
            if type(total) is int and -LIMIT < total < LIMIT:
                return total
            raise place.error("formula_bad_roll", node.start, text=term, value=repr(total)[:40])
        return run

    # operators
    def _neg(self, node: Node):
        operand = self.expect(node.args[0], NUMBER)
        node.kind = NUMBER
        return lambda env, roll: -operand(env, roll)

    def _arith(self, node: Node):
        left, right = (self.expect(a, NUMBER) for a in node.args)
        node.kind = NUMBER
        return _ARITH[node.value](left, right, node, self.place)

    def _compare(self, node: Node):
        ops, operands = node.value, node.args
        runs = [self.build(o) for o in operands]
        for op, a, b in zip(ops, operands, operands[1:]):
            self.comparable(op, a, b)
        node.kind = BOOL
        if len(ops) == 1:
            test, left, right = _COMPARE[ops[0]], runs[0], runs[1]
            return lambda env, roll: test(left(env, roll), right(env, roll))
        tests = tuple(_COMPARE[op] for op in ops)
        first, rest = runs[0], tuple(zip(tests, runs[1:]))

        def chain(env, roll):
            left = first(env, roll)
            for test, operand in rest:
                right = operand(env, roll)
                if not test(left, right):
                    return False
                left = right
            return True
        return chain

    def comparable(self, op: str, a: Node, b: Node) -> None:
        for side in (a, b):
            if side.kind == LIST:
                raise self.wrong_kind(side, TEXT)
        if op in ("==", "!="):
            if a.kind != b.kind:
                raise self.place.error("formula_compare_kinds", b.start, left=_kind_phrase(a.kind),
                                       right=_kind_phrase(b.kind), text=self.place.text_of(b))
            return
        for side in (a, b):
            if side.kind != NUMBER:
                raise self.place.error("formula_order_numbers", side.start, text=self.place.text_of(side),
                                       actual=_kind_phrase(side.kind))

    def _in(self, node: Node):
        operand_node, container_node = node.args
        operand = self.build(operand_node)
        if operand_node.kind not in (TEXT, NUMBER):
            raise self.wrong_kind(operand_node, TEXT)
        if container_node.op == "list":
            container = self.list_literal(container_node, operand_node.kind)
        else:
            container = self.build(container_node)
            if container_node.kind != LIST:
                raise self.place.error("formula_not_a_list", container_node.start,
                                       text=self.place.text_of(container_node))
            if operand_node.kind != TEXT:
                raise self.wrong_kind(operand_node, TEXT)
        node.kind = BOOL
        if node.value:
            return lambda env, roll: operand(env, roll) not in container(env, roll)
        return lambda env, roll: operand(env, roll) in container(env, roll)

    def list_literal(self, node: Node, kind: str):
        items = [self.expect(item, kind) for item in node.args]
        node.kind = LIST
        if all(item.constant is not _NOT_CONSTANT for item in node.args):
            values = frozenset(item.constant for item in node.args)
            return lambda env, roll: values
        return lambda env, roll: [item(env, roll) for item in items]

    def _list(self, node: Node):
        raise self.place.error("formula_list_here", node.start, text=self.place.text_of(node))

    def _and(self, node: Node):
        left, right = (self.expect(a, BOOL) for a in node.args)
        node.kind = BOOL
        return lambda env, roll: left(env, roll) and right(env, roll)

    def _or(self, node: Node):
        left, right = (self.expect(a, BOOL) for a in node.args)
        node.kind = BOOL
        return lambda env, roll: left(env, roll) or right(env, roll)

    def _not(self, node: Node):
        operand = self.expect(node.args[0], BOOL)
        node.kind = BOOL
        return lambda env, roll: not operand(env, roll)

    def _call(self, node: Node):
        from pbp.base import i18n

        function = _FUNCTION_NAMES.get(node.value.lower())
        if function is None:
            spellings = {lang: [getattr(f, lang) for f in FUNCTIONS.values()] for lang in ("fr", "en")}
            raise self.place.error("formula_unknown_function", node.start, name=node.value,
                                   suggestion=ByLang(**{lang: i18n.closest(node.value, names)
                                                        for lang, names in spellings.items()}),
                                   valid=ByLang(**spellings))
        if not function.least <= len(node.args) <= function.most:
            raise self.place.error("formula_arg_count", node.start, function=node.value,
                                   signature=ByLang(**function.signature), count=len(node.args))
        node.value = function.id
        return getattr(self, "_call_" + function.id, self._call_rounding)(node)

    def _call_if(self, node: Node):
        condition = self.expect(node.args[0], BOOL)
        then = self.build(node.args[1])
        if node.args[1].kind == LIST:
            raise self.wrong_kind(node.args[1], NUMBER)
        otherwise = self.expect(node.args[2], node.args[1].kind)
        node.kind = node.args[1].kind
        return lambda env, roll: then(env, roll) if condition(env, roll) else otherwise(env, roll)

    def _call_min(self, node: Node):
        return self._extremum(node, min)

    def _call_max(self, node: Node):
        return self._extremum(node, max)

    def _extremum(self, node: Node, pick):
        runs = tuple(self.expect(a, NUMBER) for a in node.args)
        node.kind = NUMBER
        if len(runs) == 2:
            a, b = runs
            return lambda env, roll: pick(a(env, roll), b(env, roll))
        return lambda env, roll: pick([run(env, roll) for run in runs])

    def _call_clamp(self, node: Node):
        value, low, high = (self.expect(a, NUMBER) for a in node.args)
        node.kind = NUMBER
        lo, hi = node.args[1].constant, node.args[2].constant
        if lo is not _NOT_CONSTANT and hi is not _NOT_CONSTANT and lo <= hi:
            def clamp_between(env, roll):  # the usual case (`borne(..., 1, 95)`), one call fewer
                x = value(env, roll)
                return lo if x < lo else hi if x > hi else x
            return clamp_between

        def clamp(env, roll):
            x, lo, hi = value(env, roll), low(env, roll), high(env, roll)
            if x < lo:
                x = lo
            return hi if x > hi else x
        return clamp

    def _call_rounding(self, node: Node):
        operand, rounding = self.expect(node.args[0], NUMBER), _ROUNDING[node.value]
        node.kind = NUMBER
        return lambda env, roll: rounding(operand(env, roll))

    def _call_count(self, node: Node):
        arg = node.args[0]
        run = self.list_literal(arg, TEXT) if arg.op == "list" else self.build(arg)
        if arg.kind != LIST:
            raise self.place.error("formula_not_a_list", arg.start, text=self.place.text_of(arg))
        node.kind = NUMBER
        return lambda env, roll: len(run(env, roll))


# the closures of the four operations, each checking its result stays within LIMIT
def _checked(value, node: Node, place: _Place):
    if type(value) is Fraction:
        if value.denominator == 1:
            value = value.numerator
        elif value.denominator >= LIMIT:
            raise place.error("formula_fraction_too_fine", node.at, limit=LIMIT_TEXT)
    if not -LIMIT < value < LIMIT:
        raise place.error("formula_number_too_large", node.at, limit=LIMIT_TEXT)
    return value


def _ring(combine):
    """The closure of +, - or *: one operand a constant is read once, not called
    (`5 * competence.x`); the result checked to stay within LIMIT."""
    def build(left, right, node, place):
        a, b = node.args
        if b.constant is not _NOT_CONSTANT:
            constant = b.constant

            def run(env, roll):
                value = combine(left(env, roll), constant)
                if type(value) is int and -LIMIT < value < LIMIT:
                    return value
                return _checked(value, node, place)
        elif a.constant is not _NOT_CONSTANT:
            constant = a.constant

            def run(env, roll):
                value = combine(constant, right(env, roll))
                if type(value) is int and -LIMIT < value < LIMIT:
                    return value
                return _checked(value, node, place)
        else:
            def run(env, roll):
                value = combine(left(env, roll), right(env, roll))
                if type(value) is int and -LIMIT < value < LIMIT:
                    return value
                return _checked(value, node, place)
        return run
    return build


def _division(divide):
    def build(left, right, node, place):
        divisor = node.args[1]

        def run(env, roll):
            a, b = left(env, roll), right(env, roll)
            if b == 0:
                if divisor.constant is not _NOT_CONSTANT:
                    raise place.error("formula_division_by_zero_constant", node.at)
                raise place.error("formula_division_by_zero", node.at, divisor=place.text_of(divisor))
            return _checked(divide(a, b), node, place)
        return run
    return build


_ARITH = {"+": _ring(operator.add), "-": _ring(operator.sub), "*": _ring(operator.mul), "/": _division(Fraction),
          "//": _division(operator.floordiv),
          "%": _division(operator.mod)}


# the closures that read a name's value from env, checking it is of the name's kind
def _load_number(name, node, place):
    def run(env, roll):
        try:
            value = env[name]
        except KeyError:
            raise _missing(name, node, place) from None
        if type(value) is int and -LIMIT < value < LIMIT:
            return value
        if type(value) is Fraction and -LIMIT < value < LIMIT and value.denominator < LIMIT:
            return _plain(value)
        raise _bad_value(name, NUMBER, value, node, place)
    return run


def _load_of_type(kind, types):
    def loader(name, node, place):
        def run(env, roll):
            try:
                value = env[name]
            except KeyError:
                raise _missing(name, node, place) from None
            if isinstance(value, types):
                return value
            raise _bad_value(name, kind, value, node, place)
        return run
    return loader


def _missing(name, node, place) -> FormulaError:
    return place.error("formula_missing_value", node.start, name=name)


def _bad_value(name, kind, value, node, place) -> FormulaError:
    return place.error("formula_bad_value", node.start, name=name, expected=_kind_phrase(kind),
                       value=repr(value)[:60])


_LOADERS = {NUMBER: _load_number, BOOL: _load_of_type(BOOL, bool), TEXT: _load_of_type(TEXT, str),
            LIST: _load_of_type(LIST, (list, tuple, set, frozenset))}
