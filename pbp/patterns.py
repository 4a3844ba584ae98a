"""Regular expressions compiled when first used.

A module's patterns are compiled when it is imported, whether the command uses
them or not: some 0.2 ms each, a few milliseconds for pbp.render alone, which
every short command pays at start. A `Lazy` pattern is written like
`re.compile(...)` and compiled by its first `sub`, `match`...; after that it
costs one attribute read.
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
