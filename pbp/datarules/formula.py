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
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Callable

from pbp.base.errors import ByLang, InputError, PbpError, Phrase

#: a formula's most characters, nesting depth and nodes (a rules file is a stranger's input)
MAX_SOURCE = 2000
MAX_DEPTH = 64
MAX_NODES = 1000
#: every number a formula handles, and every fraction's denominator, stays below this in magnitude
LIMIT = 10**18
LIMIT_TEXT = "10^18"

NUMBER, BOOL, TEXT, LIST = "number", "bool", "text", "list"
KINDS = (NUMBER, BOOL, TEXT, LIST)

#: the language's words (either language's spelling, any case): no name can be spelled so
KEYWORDS = {
    "et": "AND", "and": "AND", "ou": "OR", "or": "OR", "non": "NOT", "not": "NOT",
    "dans": "IN", "in": "IN", "vrai": "TRUE", "true": "TRUE", "faux": "FALSE", "false": "FALSE",
}
RESERVED = frozenset(KEYWORDS)


# -- intervals -------------------------------------------------------------------------

class Interval:
    """The values a number can take, lo and hi included; `math.inf` for no bound.
    A condition's interval is within [0, 1] (false, true). `whole`: every value is
    a whole number (a gauge, a stat, a die), which tightens `x > 0` to `x >= 1`
    and `x % 7` to 0..6; it is extra knowledge, not part of equality."""

    __slots__ = ("lo", "hi", "whole")

    def __init__(self, lo=-math.inf, hi=math.inf, whole: bool = False):
        self.lo, self.hi, self.whole = _plain(lo), _plain(hi), whole

    def __iter__(self):
        return iter((self.lo, self.hi))

    def __eq__(self, other):
        return isinstance(other, Interval) and (self.lo, self.hi) == (other.lo, other.hi)

    def __hash__(self):
        return hash((self.lo, self.hi))

    def __contains__(self, value) -> bool:
        return self.lo <= value <= self.hi

    def __repr__(self) -> str:
        return f"Interval({self.lo!r}, {self.hi!r}{', whole=True' if self.whole else ''})"

    def hull(self, other: "Interval") -> "Interval":
        return Interval(min(self.lo, other.lo), max(self.hi, other.hi))

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


def _plain(value):
    """An interval bound as the formulas' own numbers: bools as 0/1, whole fractions as ints."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


EVERYTHING = Interval()
CONDITION = Interval(0, 1)


# -- errors ----------------------------------------------------------------------------

class FormulaError(InputError):
    """A formula that cannot be compiled or evaluated: where (file, line), the
    column in that line, and the formula's line with a caret under the place."""

    def __init__(self, key: str, /, *, file=None, line=None, column: int | None = None, lang: str = "fr",
                 excerpt: tuple[str, int] | None = None, **params):
        super().__init__(key, file=file, line=line, **params)
        self.column = column
        self.lang = lang
        self.excerpt = excerpt

    @property
    def where(self) -> tuple:
        return (self.file, self.line)

    def text(self, lang: str | None = None) -> str:
        from pbp.base import i18n

        _register_messages()
        lang = lang or self.lang
        params = {k: v.text(lang) if isinstance(v, Phrase) else v for k, v in self.params.items()}
        place = ""
        if self.file:
            place = i18n.shown(self.file, 300)
            if self.line:
                place += f":{self.line}:{self.column}" if self.column else f":{self.line}"
            place += ": "
        out = place + i18n.t(lang, self.key, **params)
        if self.excerpt:
            shown_line, caret = self.excerpt
            out += f"\n    {shown_line}\n    {' ' * caret}^"
        return out

    def __str__(self) -> str:
        return self.text(self.lang)


class _Join(Phrase):
    """Several catalogue phrases as one message parameter, joined with commas."""

    __slots__ = ("items",)

    def __init__(self, items):
        super().__init__("")
        self.items = tuple(items)

    def text(self, lang: str = "fr") -> str:
        return ", ".join(item.text(lang) if isinstance(item, Phrase) else str(item) for item in self.items)


@functools.cache
def _register_messages() -> None:
    """The `formula_` keys of pbp/datarules/messages.yaml (the file's other keys are the engine's)."""
    from pbp.base import i18n

    path = Path(__file__).with_name("messages.yaml")
    text = path.read_text(encoding="utf-8")
    messages = i18n.read_plain(text)
    if messages is None:
        import yaml

        messages = yaml.safe_load(text) or {}
    i18n.register({k: v for k, v in messages.items() if k.startswith("formula_")})


def _kind_phrase(kind: str) -> Phrase:
    return Phrase(f"formula_kind_{kind}")


class _Place:
    """Where a formula is (file, line of its first line, column it starts at) and
    the language of its errors: makes each error from an offset in the source."""

    __slots__ = ("source", "file", "line", "column", "lang")

    def __init__(self, source: str, where: tuple, lang: str):
        self.source, self.lang = source, lang
        self.file = where[0] if where else None
        self.line = where[1] if len(where) > 1 and where[1] else None
        self.column = where[2] if len(where) > 2 and where[2] else 1

    def error(self, key: str, offset: int, /, **params) -> FormulaError:
        from pbp.base import i18n

        source = self.source
        offset = max(0, min(offset, len(source)))
        line_start = source.rfind("\n", 0, offset) + 1
        line_end = source.find("\n", offset)
        line_end = len(source) if line_end < 0 else line_end
        line_in = source.count("\n", 0, offset) + 1
        column = offset - line_start + 1 + (self.column - 1 if line_in == 1 else 0)
        line = self.line + line_in - 1 if self.line else None
        # the formula's line around the place, at most 60 characters before it
        first = max(line_start, offset - 60)
        before = i18n.shown(source[first:offset], 200)
        after = i18n.shown(source[offset:min(line_end, offset + 60)], 200)
        prefix = "…" if first > line_start else ""
        excerpt = (prefix + before + after, len(prefix) + len(before))
        return FormulaError(key, file=self.file, line=line, column=column, lang=self.lang, excerpt=excerpt, **params)

    def text_of(self, node: "Node") -> str:
        return self.source[node.start:node.end]


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


#: the operations worked out at compile time when their operands are constants
_FOLDABLE = frozenset(("neg", "arith", "compare", "and", "or", "not", "call"))

_CANONICAL_CMP = {"<=": "<=", ">=": ">=", "==": "==", "=": "==", "!=": "!=", "<>": "!=", "<": "<", ">": ">",
                  "≤": "<=", "≥": ">=", "≠": "!="}
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}


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
