"""Plain records: classes that are their named fields, compared and shown by them.

Why not dataclasses: `@dataclass` writes each class's methods (`__init__`,
`__eq__`, `__repr__`, and for a frozen one `__setattr__`, `__hash__`...) as
source text and compiles it every time its module is imported: 1.5 to 4 M
instructions a class, some 50 M for the classes every command imports, which is
a third of what starting `pbp status` costs beyond its libraries. A Record
writes its `__init__` by hand (compiled once, into the module's .pyc) and gets
the rest from here:

    class Term(Record):
        __slots__ = ("sign", "count", "sides")

        def __init__(self, sign: int, count: int, sides: int):
            self.sign, self.count, self.sides = sign, count, sides

- `__slots__` names the fields, in order: equality, hash, repr and `replace`
  follow it. A class that needs an instance `__dict__` (`functools.cached_property`)
  names its fields in `FIELDS` instead and has no `__slots__`.
- equality: same class and equal fields, as a dataclass's.
- hash: none (a record is mutable), unless the class is a `FrozenRecord`:
  fields hashed, and nothing assigns to them after `__init__` (by convention:
  it is not enforced, which would cost every construction).
- `replace(**changes)`: a copy through `__init__`, as `dataclasses.replace`.
"""

from __future__ import annotations


class Record:
    __slots__ = ()

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        return getattr(cls, "FIELDS", None) or cls.__slots__

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.fields())

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # mutable: no hash (as a dataclass with eq)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.fields())
        return f"{type(self).__name__}({shown})"

    def replace(self, **changes):
        """A copy with some fields changed, made through `__init__`."""
        values = {name: getattr(self, name) for name in self.fields() if not name.startswith("_")}
        values.update(changes)
        return type(self)(**values)


class FrozenRecord(Record):
    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values())
