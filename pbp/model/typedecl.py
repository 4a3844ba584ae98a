"""What pbp's two declaration languages share (file schemas, compiled by
pbp/model/schema_compile.py; order arguments, by pbp/model/argtypes.py): named
types built once, on first use, a type that refers to itself refused, and a
node's keys held to its kind. A declaration is a ruleset's: what is wrong in it
is the ruleset's bug, refused with the `error` class each language gives.
"""

from __future__ import annotations

from typing import Callable


class NamedTypes:
    """The named types of a declaration (`types:`, `arg_types:` in `section`), each
    made once by `make(name, where)`; `noun` is what a message calls one."""

    def __init__(self, specs: dict, make: Callable, error: type, section: str, noun: str):
        self.specs, self.make, self.error, self.section, self.noun = specs, make, error, section, noun
        self.done: dict = {}
        self.building: set = set()

    def __contains__(self, name) -> bool:
        return name in self.specs

    def get(self, name: str, where: str):
        if name not in self.done:
            if name in self.building:
                raise self.error(f"{where}: the {self.noun} `{name}` refers to itself")
            self.building.add(name)
            self.done[name] = self.make(name, f"{self.section}.{name}")
            self.building.discard(name)
        return self.done[name]

    def check_derived(self, name: str, spec: dict, common: set, where: str) -> None:
        """A named type used with keys of its own: only the `common` ones may be added."""
        if set(spec) - common:
            raise self.error(f"{where}: `{name}` is a named type; only {sorted(common)} may be added")

    def check_keys(self, kind, spec: dict, kinds: tuple, common: set, extra: dict, where: str) -> None:
        """A node's `type` among `kinds` (or a named type, checked before) and each of
        its keys one that applies to that type."""
        if kind not in kinds:
            raise self.error(f"{where}: unknown {self.noun} {kind!r} (known: {', '.join(kinds)}, "
                             f"or a name of `{self.section}`)")
        unknown = set(spec) - common - extra.get(kind, set())
        if unknown:
            raise self.error(f"{where}: {sorted(unknown)} do not apply to `{kind}`")
