"""A compiled schema node (pbp/model/schema.py is the schema language's front):
the kinds of the language and what each may say, what a node accepts, and what
a message says it expects.
"""

from __future__ import annotations

from pbp.base.errors import Phrase

SCALARS = ("str", "text", "int", "number", "bool", "dice", "any")
KINDS = SCALARS + ("choice", "ref", "list", "map", "mapping", "one_of")
COMMON = {"type", "nullable", "optional", "default", "description"}
EXTRA = {
    "str": {"pattern"}, "int": {"min", "max"}, "number": {"min", "max"},
    "choice": {"values"}, "ref": {"to", "text"}, "list": {"of", "min", "max"},
    "map": {"keys", "values", "min", "max", "covers"}, "mapping": {"fields", "open", "when"},
    "one_of": {"options"},
}
#: how many values a message lists as valid (a 2,000-cell labyrinth is not listed)
MAX_LISTED = 12
#: how many problems of one file get a "did you mean": each compares with every valid
#: value, so a file wrong from top to bottom would take quadratic time
MAX_SUGGESTED = 50
#: files the first part of a reference's target lives in, as the MJ knows them
TARGET_FILES = {"world": "world.yaml", "characters": "characters.yaml", "state": "state.yaml",
                "campaign": "campaign.yaml", "rules": "rules"}
_MISSING = object()
#: kind -> (Python types of its values, whether true/false count): never a bool for a number
SCALAR_TYPES = {"str": ((str,), False), "text": ((str, int, float), False), "int": ((int,), False),
                "number": ((int, float), False), "bool": ((bool,), True), "dice": ((str, int), False),
                "ref": ((str, int), False)}


class SchemaDefinitionError(ValueError):
    """A schema file itself is wrong: a bug of the ruleset that ships it, not the MJ's."""


class Node:
    """One compiled schema node."""

    __slots__ = ("kind", "nullable", "optional", "default", "low", "high", "pattern", "values", "value_set",
                 "to", "text", "of", "keys", "items", "covers", "fields", "open", "when", "known", "options",
                 "types", "bools", "required", "defaults", "simple")

    def __init__(self, kind: str):
        self.kind = kind
        self.nullable = self.optional = self.open = self.text = False
        self.default = _MISSING
        self.low = self.high = self.pattern = self.to = self.of = self.keys = self.items = self.covers = None
        self.values: tuple = ()
        self.value_set: frozenset = frozenset()
        self.fields: dict[str, Node] = {}
        self.when: list[tuple[dict, dict[str, Node]]] = []
        self.known: frozenset = frozenset()
        self.options: list[Node] = []
        #: the Python types a scalar kind accepts, and whether true/false are among them
        self.types, self.bools = SCALAR_TYPES.get(kind, (None, False))
        #: a mapping's fields that must be there, and those filled in when absent
        self.required: tuple = ()
        self.defaults: tuple = ()
        self.settle()

    def settle(self) -> None:
        """`simple`: a scalar whose type says it all (no bounds, no pattern), checked inline."""
        self.simple = self.kind in ("str", "text", "int", "number", "bool") and self.low is None \
            and self.high is None and self.pattern is None

    def copy(self) -> "Node":
        other = Node(self.kind)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    # -- what the messages say it expects
    def expected(self) -> Phrase:
        phrase = self._expected()
        return Phrase("schema_or_null", what=phrase) if self.nullable and self.kind != "any" else phrase

    def _expected(self) -> Phrase:
        if self.kind == "choice":
            return Phrase("schema_expect_choice", values=_listed(self.values))
        if self.kind == "ref":
            return Phrase("schema_expect_ref", target=describe_target(self.to))
        if self.kind == "one_of":
            phrase = self.options[-1]._expected()
            for option in reversed(self.options[:-1]):
                phrase = Phrase("schema_or", a=option._expected(), b=phrase)
            return phrase
        return Phrase(f"schema_expect_{self.kind}")

    def accepts_kind(self, value) -> bool:
        """Whether the value is of this node's kind (for `one_of`: which option applies)."""
        kind = self.kind
        if kind in ("mapping", "map"):
            return isinstance(value, dict)
        if kind == "list":
            return isinstance(value, list)
        if kind == "one_of":
            return any(o.accepts_kind(value) for o in self.options)
        if kind == "any":
            return True
        if kind == "choice":
            return _hashable(value) and value in self.value_set
        return isinstance(value, self.types) and (self.bools or value.__class__ is not bool)


def _needs(fields: dict[str, Node]) -> tuple[tuple, tuple]:
    """(required field names, (name, default) pairs) of a mapping's fields."""
    required = tuple(n for n, f in fields.items() if not f.optional and f.default is _MISSING)
    return required, tuple((n, f.default) for n, f in fields.items() if f.default is not _MISSING)



def describe_target(to: str) -> str:
    """Where a reference's values are, as the MJ finds them: `world.yaml (cells)`."""
    head, _, rest = to.partition(".")
    if head == "roster":
        return "campaign.yaml (players)"
    return f"{TARGET_FILES.get(head, head)} ({rest})" if rest else TARGET_FILES.get(head, head)


def _hashable(value) -> bool:
    return isinstance(value, (str, int, float, bool))


def _listed(values) -> list:
    values = list(values)
    return values if len(values) <= MAX_LISTED else values[:MAX_LISTED] + ["…"]
