"""The formula language's shared ground (pbp/datarules/formula.py is its front):
its limits (a rules file is a stranger's input), the kinds of its values, its
words, the `Interval` of the values a number can take, and `FormulaError`, each
refusal placed at file:line:column by `_Place` with the formula's line and a caret.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path

from pbp.base.errors import InputError, Phrase

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

    def text_of(self, node) -> str:
        """The source text of a node (pbp.datarules.formula_syntax.Node)."""
        return self.source[node.start:node.end]
