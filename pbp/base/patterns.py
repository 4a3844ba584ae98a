r"""Regular expressions compiled when first used.

A module's patterns are compiled when it is imported, whether the command uses
them or not: some 0.2 ms each, a few milliseconds for pbp.render.render alone, which
every short command pays at start. A `Lazy` pattern is written like
`re.compile(...)` and compiled by its first `sub`, `match`...; after that it
costs one attribute read.

Python's engine backtracks: a pattern with two ways to read the same text
(`(\d+(?:,\d+)?,)+`, `\s*\s*`) costs exponential or polynomial time on text
built to fail it. A `Linear` pattern runs in RE2 (google-re2), whose time is
linear in the text whatever the pattern: the patterns applied in one pass to
text a stranger wrote (the MJ's narration, a shared campaign, an audited
bundle) are `Linear`; the others are written so no text has two readings
(tests/test_linear_patterns.py feeds each its worst case).
"""

from __future__ import annotations

import re


class Lazy:
    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: str, flags: int = 0):
        self._source, self._flags, self._compiled = source, flags, None

    @property
    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def sub(self, repl, string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def match(self, string: str, *span):
        return self.compiled.match(string, *span)

    def fullmatch(self, string: str, *span):
        return self.compiled.fullmatch(string, *span)

    def search(self, string: str, *span):
        return self.compiled.search(string, *span)

    def finditer(self, string: str, *span):
        return self.compiled.finditer(string, *span)


#: Python's `\s` on str (the characters `str.isspace()` accepts), for RE2 whose `\s` is ASCII
SPACE = r"[\t-\r\x1c-\x20\x85\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]"
#: Python's `\d` on str (any decimal digit, Unicode category Nd), for RE2 whose `\d` is ASCII
DIGIT = r"\p{Nd}"


class Linear(Lazy):
    r"""A pattern run by RE2: linear time on any text. RE2 knows no look-around
    nor back-reference; its `\s` and `\d` are ASCII (write SPACE, DIGIT for
    Python's). Only for whole-text calls (`sub`, `search`, `fullmatch`): the
    wrapper encodes the text again on each call, so a loop of `match(text, pos)`
    would be quadratic."""

    __slots__ = ()

    @property
    def compiled(self):
        if self._compiled is None:
            import re2  # google-re2: loaded by the commands that render or audit text

            options = re2.Options()
            options.case_sensitive = not self._flags & re.IGNORECASE
            options.never_nl = False
            self._compiled = re2.compile(self._source, options)
        return self._compiled
