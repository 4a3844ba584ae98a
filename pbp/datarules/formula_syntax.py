"""The formula language's syntax: lark's LALR grammar (linear time, no
backtracking; its tables kept in the user's cache), the size limits checked
before any walk, the parse errors in the MJ's words (what was expected), and
lark's tree turned into our `Node`s.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from pbp.base.errors import Phrase
from pbp.datarules.formula_base import (KEYWORDS, LIMIT, LIMIT_TEXT, MAX_DEPTH, MAX_NODES, FormulaError, _Join,
                                        _Place, _plain)

# -- syntax ----------------------------------------------------------------------------

#: what may follow a dice term's `NdM` without a space: keep/drop (`kh1`, `dl1`, `k3`),
#: explode (`!`, `!!`, `!p`, `!>5`; never the `!=` of "different"), reroll (`r1`, `ro<2`),
#: count successes (`>=4`, `<2`). pbp.model.dice says which combinations are valid.
_DICE_MODIFIER = r"(?:[kd][hl]?\d+|!!?p?(?!=)(?:[<>]=?)?\d*|r[or]?(?:[<>]=?)?\d+|[<>]=?\d+)"

_GRAMMAR = r"""
?start: disj
?disj: conj | disj OR conj -> or_
?conj: neg | conj AND neg -> and_
?neg: comparison | NOT neg -> not_
?comparison: sum
    | sum (CMP sum)+ -> compare
    | sum IN container -> member
    | sum NOT IN container -> member
?sum: product | sum ADDOP product -> arith
?product: unary | product MULOP unary -> arith
?unary: atom | ADDOP unary -> unary
?atom: NUMBER -> number
    | STRING -> text
    | TRUE -> true
    | FALSE -> false
    | NAME -> name
    | DICE -> dice
    | DICE "[" NAME "]" -> dice
    | NAME "(" [args] ")" -> call
    | "(" disj ")"
?container: NAME -> name
    | "[" [args] "]" -> list
args: disj (_SEP disj)*
_SEP: "," | ";"
ADDOP: "+" | "-"
MULOP: "//" | "*" | "/" | "%"
CMP: "<=" | ">=" | "==" | "!=" | "<>" | "<" | ">" | "=" | "≤" | "≥" | "≠"
DICE.3: /\d*[dD](?:\d+|%|[fF])""" + _DICE_MODIFIER + r"""*+(?![\w.])/
NUMBER.2: /\d+(?:\.\d+)?/
NAME: /[^\W\d]\w*(?:\.\w+)*/
STRING: /"[^"]*"|'[^']*'|«[^»]*»/
%declare AND OR NOT IN TRUE FALSE
%ignore /\s+/
"""


def _keyword(token):
    """A name that is one of the language's words becomes that word (any case)."""
    kind = KEYWORDS.get(token.value.lower())
    if kind is not None:
        token.type = kind
    return token


@functools.cache
def _parser():
    """The LALR parser, built once per process; lark is imported here, so that a
    command that compiles no formula never loads it. Building the tables costs
    about as much as importing lark: they are kept in the user's cache as plain
    data (lark's own serialisation, by the grammar's checksum), read back in a
    few milliseconds."""
    import sys
    import zlib

    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from pbp.base import usercache

    callbacks = {"NAME": _keyword}
    tag = f"{lark.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}"
    name = f"formula-{zlib.crc32(_GRAMMAR.encode('utf-8')):08x}"
    kept = usercache.read_entry("lark", tag, name)
    if isinstance(kept, tuple) and len(kept) == 2:
        try:
            return lark.Lark._load_from_dict(*kept, lexer_callbacks=callbacks)
        except (LookupError, TypeError, ValueError, AttributeError, AssertionError):
            pass  # not tables this lark reads: built again and kept anew
    parser = lark.Lark(_GRAMMAR, parser="lalr", lexer="basic", lexer_callbacks=callbacks)
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data = {**data, "options": {**data["options"], "lexer_callbacks": {}}}  # a function: given again at load
    usercache.write_entry("lark", tag, name, (data, memo))
    return parser


# -- nodes -------------------------------------------------------------------------------

_NOT_CONSTANT = object()


class Node:
    """One node of a parsed formula: `op` (num, text, bool, name, dice, call, neg,
    arith, compare, and, or, not, in, list), its `value` (the number, the name,
    the operator...), its operands `args`, its span in the source (`start`, `end`)
    and `at`, the offset its errors point to (its operator, its name)."""

    __slots__ = ("op", "value", "args", "start", "end", "at", "kind", "constant")

    def __init__(self, op: str, value, args: tuple, start: int, end: int, at: int | None = None):
        self.op, self.value, self.args = op, value, args
        self.start, self.end = start, end
        self.at = start if at is None else at
        self.kind = None
        self.constant = _NOT_CONSTANT  # its value, when it depends on no name and no dice

    def __repr__(self) -> str:
        return f"Node({self.op!r}, {self.value!r}, {self.args!r})"


def _parse(source: str, place: _Place) -> Node:
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        tree = _tree(source)
    except UnexpectedToken as exc:
        raise _unexpected_token(exc, source, place) from None
    except UnexpectedCharacters as exc:
        raise _unexpected_character(exc.pos_in_stream, source, place) from None
    except UnexpectedInput as exc:  # lark's other syntax errors: the place it stopped at
        raise place.error("formula_syntax", getattr(exc, "pos_in_stream", None) or 0) from None
    _check_size(tree, place)
    return _Builder(source, place).node(tree)


@functools.lru_cache(maxsize=1024)
def _tree(source: str):
    """lark's parse tree of a source (only read afterwards): a rules file compiles
    the same formula for each character, action or gauge it applies to."""
    return _parser().parse(source)


def _check_size(tree, place: _Place) -> None:
    """At most MAX_DEPTH levels and MAX_NODES nodes, counted without recursion
    (a deep tree is what must not reach a recursive walk)."""
    from lark import Tree

    stack, count = [(tree, 1)], 0
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise place.error("formula_too_deep", _first_offset(node), limit=MAX_DEPTH)
        if count > MAX_NODES:
            raise place.error("formula_too_big", _first_offset(node), limit=MAX_NODES)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _first_offset(tree) -> int:
    from lark import Token

    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        return token.start_pos
    return 0


#: what a parse error says was expected, by lark's terminal names
_EXPECTED = {
    "NUMBER": "value", "NAME": "value", "DICE": "value", "STRING": "value", "LPAR": "value",
    "TRUE": "value", "FALSE": "value", "ADDOP": "operator", "MULOP": "operator", "CMP": "operator",
    "AND": "operator", "OR": "operator", "IN": "operator", "RPAR": "close", "RSQB": "close_list",
    "_SEP": "comma", "LSQB": "list", "$END": "end",
}


def _expected(names) -> _Join:
    found = {_EXPECTED[n] for n in names if n in _EXPECTED and n != "ADDOP"}
    if "ADDOP" in names and "value" not in found:  # else it is a value's sign
        found.add("operator")
    order = ("value", "operator", "close", "close_list", "comma", "list", "end")
    return _Join(Phrase(f"formula_expect_{what}") for what in order if what in found)


def _unexpected_token(exc, source: str, place: _Place) -> FormulaError:
    token = exc.token
    expected = _expected(exc.expected)
    before = source[:token.start_pos if token.type != "$END" else len(source)].rstrip()
    if before.endswith("%") and token.type in ("$END", "RPAR", "_SEP", "RSQB"):
        return place.error("formula_percent", len(before) - 1)
    if token.type == "$END":
        return place.error("formula_unexpected_end", len(source.rstrip()), expected=expected)
    at = token.start_pos
    if token.value == "*" and source[:at].rstrip().endswith("*"):
        return place.error("formula_no_power", at)
    if token.type == "_SEP" and source[:at].rstrip()[-1:].isdigit() and source[at + 1:at + 2].isdigit():
        return place.error("formula_decimal_comma", at)
    return place.error("formula_unexpected", at, token=token.value, expected=expected)


_CHARACTER_HINTS = {
    '"': "formula_unclosed_text", "'": "formula_unclosed_text", "«": "formula_unclosed_text",
    "&": "formula_use_and", "|": "formula_use_or", "!": "formula_use_not", "^": "formula_no_power",
}


def _unexpected_character(at: int, source: str, place: _Place) -> FormulaError:
    char = source[at] if at < len(source) else ""
    return place.error(_CHARACTER_HINTS.get(char, "formula_bad_character"), at, char=char)


class _Builder:
    """lark's parse tree -> our nodes (the tree is at most MAX_DEPTH deep)."""

    def __init__(self, source: str, place: _Place):
        self.source, self.place = source, place

    def node(self, tree) -> Node:
        return getattr(self, "_" + tree.data)(tree.children)

    def _span(self, op, value, args, at=None) -> Node:
        return Node(op, value, tuple(args), args[0].start, args[-1].end, at)

    def _number(self, children) -> Node:
        token = children[0]
        value = Fraction(token.value) if "." in token.value else int(token.value)
        if not -LIMIT < value < LIMIT:
            raise self.place.error("formula_number_too_large", token.start_pos, limit=LIMIT_TEXT)
        return Node("num", _plain(value), (), token.start_pos, token.end_pos)

    def _text(self, children) -> Node:
        token = children[0]
        return Node("text", token.value[1:-1], (), token.start_pos, token.end_pos)

    def _true(self, children) -> Node:
        return Node("bool", True, (), children[0].start_pos, children[0].end_pos)

    def _false(self, children) -> Node:
        return Node("bool", False, (), children[0].start_pos, children[0].end_pos)

    def _name(self, children) -> Node:
        token = children[0]
        return Node("name", token.value, (), token.start_pos, token.end_pos)

    def _dice(self, children) -> Node:
        term = children[0]
        label = children[1].value if len(children) > 1 else None
        end = children[-1].end_pos + (1 if label else 0)
        return Node("dice", (term.value, label), (), term.start_pos, end)

    def _call(self, children) -> Node:
        name, args = children[0], children[1]
        nodes = tuple(self.node(a) for a in args.children) if args is not None else ()
        # the span ends at the closing parenthesis
        close = self.source.find(")", nodes[-1].end if nodes else name.end_pos)
        return Node("call", name.value, nodes, name.start_pos, close + 1, name.start_pos)

    def _list(self, children) -> Node:
        args = children[0]
        nodes = tuple(self.node(a) for a in args.children) if args is not None else ()
        start = self.source.rfind("[", 0, nodes[0].start if nodes else len(self.source))
        end = self.source.find("]", nodes[-1].end if nodes else start) + 1
        return Node("list", None, nodes, start, end)

    def _unary(self, children) -> Node:
        sign, operand = children[0], self.node(children[1])
        if sign.value == "+":
            return operand
        return Node("neg", None, (operand,), sign.start_pos, operand.end, sign.start_pos)

    def _arith(self, children) -> Node:
        left, op, right = children
        return self._span("arith", op.value, (self.node(left), self.node(right)), op.start_pos)

    def _compare(self, children) -> Node:
        operands = tuple(self.node(c) for c in children[::2])
        ops = tuple(_CANONICAL_CMP[t.value] for t in children[1::2])
        return self._span("compare", ops, operands, children[1].start_pos)

    def _member(self, children) -> Node:
        negated = len(children) == 4
        operand, container = self.node(children[0]), self.node(children[-1])
        return self._span("in", negated, (operand, container), children[1].start_pos)

    def _and_(self, children) -> Node:
        return self._span("and", None, (self.node(children[0]), self.node(children[2])), children[1].start_pos)

    def _or_(self, children) -> Node:
        return self._span("or", None, (self.node(children[0]), self.node(children[2])), children[1].start_pos)

    def _not_(self, children) -> Node:
        operand = self.node(children[1])
        return Node("not", None, (operand,), children[0].start_pos, operand.end, children[0].start_pos)


_CANONICAL_CMP = {"<=": "<=", ">=": ">=", "==": "==", "=": "==", "!=": "!=", "<>": "!=", "<": "<", ">": ">",
                  "≤": "<=", "≥": ">=", "≠": "!="}
