"""Schemas of the MJ's own files, and the checker that holds a loaded file to one.

The MJ edits campaign.yaml, world.yaml, characters.yaml and the turns' state.yaml
by hand; the code that reads them must get the shapes it expects, or a clear
message. A schema says those shapes as data (YAML: each ruleset's `schema.yaml`,
see pbp/rulesets/README.md, "Schemas"); `check` walks a loaded value once, in
linear time, and returns every problem (not only the first), each an InputError
naming the file, the line, the field's path (`pejis.lucy.cell`, `traps[2].cell`),
what was expected and what was found, in French and in English.

A node of the language is a type name (`str`) or a mapping with a `type`:

    str text int number bool dice any            scalars (int/number: min, max; str: pattern)
    choice (values)                              one of the given values
    ref (to, text)                               a key (or item) of another part of the files
    list (of, min, max)                          a list, each item an `of`
    map (keys, values, min, max, covers)         any keys -> one value schema
    mapping (fields, open, when)                 named fields
    one_of (options)                             the first option of the value's kind

and any node may say `nullable: true`, `optional: true` or `default: <value>`
(as a field of a mapping: it may be absent; a default is filled in, so the
code that relies on one finds it). `types:` at the top of a schema file names
nodes that other nodes use by name.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.base import i18n, yamlio
from pbp.base.errors import InputError, PbpError, Phrase

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


# -- compiling a schema file --------------------------------------------------------------

def compile_node(spec, types: dict | None = None, where: str = "schema") -> Node:
    """A node from its YAML form; `types` names reusable nodes."""
    return _Compiler(types or {}).build(spec, where)


class _Compiler:
    def __init__(self, types: dict):
        self.types, self.done, self.building = types, {}, set()

    def named(self, name: str, where: str) -> Node:
        if name not in self.done:
            if name in self.building:
                raise SchemaDefinitionError(f"{where}: the type `{name}` refers to itself")
            self.building.add(name)
            self.done[name] = self.build(self.types[name], f"types.{name}")
            self.building.discard(name)
        return self.done[name]

    def build(self, spec, where: str) -> Node:
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, dict):
            raise SchemaDefinitionError(f"{where}: a schema node is a type name or a mapping, not {spec!r}")
        kind = spec.get("type", "mapping" if "fields" in spec else None)
        if kind in self.types:
            unknown = set(spec) - COMMON
            if unknown:
                raise SchemaDefinitionError(f"{where}: `{kind}` is a named type; only {sorted(COMMON)} may be added")
            node = self.named(kind, where).copy()
            self._flags(node, spec, where, keep=True)
            return node
        if kind not in KINDS:
            raise SchemaDefinitionError(f"{where}: unknown type {kind!r} (known: {', '.join(KINDS)}, "
                                        f"or a name of `types`)")
        unknown = set(spec) - COMMON - EXTRA.get(kind, set())
        if unknown:
            raise SchemaDefinitionError(f"{where}: {sorted(unknown)} do not apply to `{kind}`")
        node = Node(kind)
        self._flags(node, spec, where)
        node.low, node.high = spec.get("min"), spec.get("max")
        shape = self.SHAPES.get(kind)
        if shape is not None:
            shape(self, node, spec, where)
        node.settle()
        return node

    def _pattern(self, node: Node, spec: dict, where: str) -> None:
        if spec.get("pattern") is not None:
            node.pattern = re.compile(spec["pattern"])

    def _choice(self, node: Node, spec: dict, where: str) -> None:
        values = spec.get("values")
        if not isinstance(values, list) or not values:
            raise SchemaDefinitionError(f"{where}: a choice needs `values`, a list")
        node.values, node.value_set = tuple(values), frozenset(values)

    def _ref(self, node: Node, spec: dict, where: str) -> None:
        if not isinstance(spec.get("to"), str):
            raise SchemaDefinitionError(f"{where}: a ref needs `to`, e.g. world.cells")
        node.to, node.text = spec["to"], bool(spec.get("text"))

    def _list(self, node: Node, spec: dict, where: str) -> None:
        node.of = self.build(spec.get("of", "any"), f"{where}.of")

    def _map(self, node: Node, spec: dict, where: str) -> None:
        node.keys = self.build(spec["keys"], f"{where}.keys") if "keys" in spec else None
        node.items = self.build(spec.get("values", "any"), f"{where}.values")
        node.covers = spec.get("covers")

    def _mapping(self, node: Node, spec: dict, where: str) -> None:
        fields = spec.get("fields") or {}
        node.fields = {str(k): self.build(v, f"{where}.{k}") for k, v in fields.items()}
        node.open = bool(spec.get("open"))
        known = set(node.fields)
        for i, case in enumerate(spec.get("when") or []):
            if not isinstance(case, dict) or set(case) != {"if", "then"} or not isinstance(case["if"], dict):
                raise SchemaDefinitionError(f"{where}.when[{i + 1}]: a case is {{if: {{field: value}}, then: "
                                            f"{{field: node}}}}")
            condition = {str(k): tuple(v) if isinstance(v, list) else (v,) for k, v in case["if"].items()}
            then = {str(k): self.build(v, f"{where}.when[{i + 1}].{k}") for k, v in case["then"].items()}
            node.when.append((condition, then))
            known |= set(then)
        node.known = frozenset(known)
        node.required, node.defaults = _needs(node.fields)

    def _one_of(self, node: Node, spec: dict, where: str) -> None:
        options = spec.get("options")
        if not isinstance(options, list) or len(options) < 2:
            raise SchemaDefinitionError(f"{where}: one_of needs `options`, a list of at least two nodes")
        node.options = [self.build(o, f"{where}.options[{i + 1}]") for i, o in enumerate(options)]

    #: what each kind reads of its spec beyond the common flags and bounds
    SHAPES = {"str": _pattern, "choice": _choice, "ref": _ref, "list": _list, "map": _map, "mapping": _mapping,
              "one_of": _one_of}

    @staticmethod
    def _flags(node: Node, spec: dict, where: str, keep: bool = False) -> None:
        for flag in ("nullable", "optional"):
            if flag in spec or not keep:
                setattr(node, flag, bool(spec.get(flag, False)))
        if "default" in spec:
            node.default = spec["default"]


def load(path: Path) -> dict[str, Node]:
    """A schema file of pbp or of a ruleset: `types:` (named nodes) and one node
    per file it describes."""
    raw = yamlio.load_data_file(path) or {}
    if not isinstance(raw, dict):
        raise SchemaDefinitionError(f"{path}: a schema file is a mapping")
    compiler = _Compiler(raw.get("types") or {})
    return {str(name): compiler.build(spec, f"{path.name}:{name}") for name, spec in raw.items() if name != "types"}


def from_example(value) -> Node:
    """A node that accepts values of the same shape as `value` (a rules number of
    data.yaml): what a campaign's override of it may be."""
    if value is None:
        return Node("any")
    if isinstance(value, bool):
        return Node("bool")
    if isinstance(value, int):
        return Node("int")  # rules code counts with it (range, indexes): no 2.5
    if isinstance(value, float):
        return Node("number")
    if isinstance(value, str):
        try:
            from pbp.model.dice import parse

            parse(value)
            return Node("dice")  # a dice expression may be overridden by a number of points too
        except PbpError:
            return Node("str")
    if isinstance(value, list):
        node = Node("list")
        kinds = {_kind_of(v) for v in value}
        # a table of rows alike: a row of the override has the shape of the first row
        node.of = from_example(value[0]) if len(kinds) == 1 else Node("any")
        return node
    if isinstance(value, dict):
        node = Node("mapping")
        node.fields = {str(k): from_example(v) for k, v in value.items()}
        for sub in node.fields.values():
            sub.optional = True
        node.open = True  # unknown keys are refused by ruleset.merge_overrides, with its own message
        return node
    return Node("any")


def _kind_of(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


# -- checking a value -------------------------------------------------------------------

class Index(int):
    """A list position in a path (a plain int is a mapping key)."""


def show_path(steps) -> str:
    """`pejis.lucy.cell`, `traps[2].cell` (list positions count from 1, as the MJ does)."""
    out = ""
    for step in steps:
        if isinstance(step, Index):
            out += f"[{step + 1}]"
        else:
            out += ("." if out else "") + str(step)
    return out


def describe_target(to: str) -> str:
    """Where a reference's values are, as the MJ finds them: `world.yaml (cells)`."""
    head, _, rest = to.partition(".")
    if head == "roster":
        return "campaign.yaml (players)"
    return f"{TARGET_FILES.get(head, head)} ({rest})" if rest else TARGET_FILES.get(head, head)


def check(node: Node | None, value, *, file: str, text: str | None = None, context: dict | None = None,
          path: tuple = (), lines: yamlio.Lines | None = None) -> list[PbpError]:
    """Every problem of `value` against `node`, each an InputError placed in `file`
    (its line found in `text`, or in `lines`: the index of a file read as untrusted
    input, whose keys the caller may have respelt). `context` holds what references
    point into: world, characters, state, campaign, rules, roster."""
    if node is None:
        return []
    run = _Run(file, text, context or {})
    run.lines = lines
    parent = None
    for step in path:
        parent = (parent, step)
    run.visit(node, value, parent)
    return run.errors


def _steps(path) -> tuple:
    out = []
    while path is not None:
        path, step = path
        out.append(step)
    return tuple(reversed(out))


def _hashable(value) -> bool:
    return isinstance(value, (str, int, float, bool))


def _listed(values) -> list:
    values = list(values)
    return values if len(values) <= MAX_LISTED else values[:MAX_LISTED] + ["…"]


def found(value) -> Phrase:
    """What a message says was found instead."""
    if value is None:
        return Phrase("schema_found_null")
    if isinstance(value, bool):
        return Phrase("schema_found_bool", value="true" if value else "false")
    if isinstance(value, (int, float)):
        return Phrase("schema_found_number", value=value)
    if isinstance(value, str):
        return Phrase("schema_found_text", value=value if len(value) <= 40 else value[:39] + "…")
    if isinstance(value, list):
        return Phrase("schema_found_list")
    if isinstance(value, dict):
        return Phrase("schema_found_mapping")
    return Phrase("schema_found_other", value=type(value).__name__)


def _closest(word, candidates) -> str | None:
    """The candidate a typo most likely meant, case aside (cell ids are often in capitals).
    Called through _Run.closest, which stops suggesting after MAX_SUGGESTED problems."""
    by_lower = {}
    for c in candidates:
        by_lower.setdefault(str(c).lower(), str(c))
    found = i18n.closest(str(word).lower(), by_lower)
    return by_lower[found] if found else None


def _short(value) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


class _Run:
    def __init__(self, file: str, text: str | None, context: dict):
        self.file, self.text, self.context = file, text, context
        self.lines: yamlio.Lines | None = None
        self.errors: list[PbpError] = []
        self.targets: dict[str, tuple | None] = {}
        self.checks = {"mapping": self.mapping, "map": self.map, "list": self.sequence, "one_of": self.one_of,
                       "int": self.number, "number": self.number, "str": self.string, "choice": self.choice,
                       "dice": self.dice, "ref": self.ref}

    def error(self, message: str, path, **params) -> None:
        steps = _steps(path)
        if self.lines is not None:
            line = self.lines.line(steps)
        else:
            line = yamlio.line_of(self.text, steps) if self.text is not None else None
        if not steps and message == "schema_type":
            message = "schema_root_type"  # the whole file: no field to name
        self.errors.append(InputError(message, file=self.file, line=line, path=show_path(steps), **params))

    def closest(self, word, candidates) -> str | None:
        return _closest(word, candidates) if len(self.errors) < MAX_SUGGESTED else None

    def target(self, to: str) -> tuple | None:
        """(values in order, set of values, set of their texts, their texts in order) a reference may take, or None
        when that part of the files is malformed (reported there): nothing is checked then."""
        if to not in self.targets:
            current = self.context
            for part in to.split("."):
                current = current.get(part) if isinstance(current, dict) else None
            if isinstance(current, dict):
                values = list(current)
            elif isinstance(current, (list, tuple)):
                values = [v for v in current if _hashable(v)]
            elif current is None:
                values = []  # absent or empty: nothing can be referred to
            else:
                values = None
            self.targets[to] = None if values is None else (values, set(values), {str(v) for v in values},
                                                              [str(v) for v in values])
        return self.targets[to]

    def visit(self, node: Node, value, path) -> None:
        if node.simple and isinstance(value, node.types) and (node.bools or value.__class__ is not bool):
            return  # the common case, first: a plain value of the right type
        if value is None:
            if not (node.nullable or node.kind == "any"):
                self.error("schema_type", path, expected=node.expected(), found=found(None))
            return
        types = node.types
        if types is not None and (not isinstance(value, types) or (value.__class__ is bool and not node.bools)):
            self.error("schema_type", path, expected=node.expected(), found=found(value))
            return
        check = self.checks.get(node.kind)
        if check is not None:
            check(node, value, path)

    def number(self, node: Node, value, path) -> None:
        if node.low is not None and value < node.low:
            self.error("schema_too_small", path, value=value, low=node.low)
        elif node.high is not None and value > node.high:
            self.error("schema_too_large", path, value=value, high=node.high)

    def string(self, node: Node, value, path) -> None:
        if node.pattern is not None and not node.pattern.match(value):
            self.error("schema_pattern", path, value=_short(value), pattern=node.pattern.pattern)

    def choice(self, node: Node, value, path) -> None:
        if _hashable(value) and value in node.value_set:
            return
        if _hashable(value):
            self.error("schema_choice", path, value=_short(value), valid=_listed(node.values),
                       suggestion=self.closest(str(value), [str(v) for v in node.values]))
        else:
            self.error("schema_type", path, expected=node.expected(), found=found(value))

    def dice(self, node: Node, value, path) -> None:
        from pbp.model.dice import parse

        try:
            parse(value)
        except PbpError:
            self.error("schema_dice", path, value=_short(value))

    def sequence(self, node: Node, value, path) -> None:
        if not isinstance(value, list):
            self.error("schema_type", path, expected=node.expected(), found=found(value))
            return
        self.size(node, len(value), path)
        of, visit = node.of, self.visit
        for i, item in enumerate(value):
            visit(of, item, (path, Index(i)))

    def one_of(self, node: Node, value, path) -> None:
        for option in node.options:
            if option.accepts_kind(value):
                self.visit(option, value, path)
                return
        self.error("schema_type", path, expected=node.expected(), found=found(value))

    def ref(self, node: Node, value, path) -> None:
        target = self.target(node.to)
        if target is None:
            return
        _, exact, texts, shown = target
        if (str(value) in texts) if node.text else (value in exact):
            return
        self.error("schema_ref", path, value=_short(value), target=describe_target(node.to),
                   valid=shown if len(shown) <= MAX_LISTED else [],
                   suggestion=self.closest(str(value), shown))

    def size(self, node: Node, count: int, path) -> None:
        if node.low is not None and count < node.low:
            self.error("schema_too_few", path, count=count, low=node.low)
        elif node.high is not None and count > node.high:
            self.error("schema_too_many", path, count=count, high=node.high)

    def mapping(self, node: Node, value, path) -> None:
        if not isinstance(value, dict):
            self.error("schema_type", path, expected=node.expected(), found=found(value))
            return
        fields, required, defaults = node.fields, node.required, node.defaults
        if node.when:
            merged = None
            for condition, then in node.when:
                if all(_hashable(value.get(f)) and value.get(f) in wanted or (value.get(f) is None and None in wanted)
                       for f, wanted in condition.items()):
                    merged = {**(merged or fields), **then}
            if merged is not None:
                fields, required, defaults = merged, *_needs(merged)
        visit = self.visit
        for key, item in value.items():
            sub = fields.get(key if key.__class__ is str else str(key))
            if sub is not None:
                if sub.simple and isinstance(item, sub.types) and (sub.bools or item.__class__ is not bool):
                    continue  # visit's first case, without the call (most fields of a big file)
                visit(sub, item, (path, key))
            elif not node.open and str(key) not in node.known:
                known = sorted(node.known)
                self.error("schema_unknown_field", (path, key), valid=known,
                           suggestion=self.closest(str(key), known))
        for name in required:
            if name not in value:
                self.error("schema_missing", (path, name), expected=fields[name].expected())
        for name, default in defaults:
            if name not in value:
                import copy  # (here: most commands fill in no default)

                value[name] = copy.deepcopy(default)

    def map(self, node: Node, value, path) -> None:
        if not isinstance(value, dict):
            self.error("schema_type", path, expected=node.expected(), found=found(value))
            return
        self.size(node, len(value), path)
        keys, items = node.keys, node.items
        for key, item in value.items():
            here = (path, key)
            if keys is not None:
                self.visit(keys, key, here)
            if items.kind != "any":
                self.visit(items, item, here)
        if node.covers:
            target = self.target(node.covers)
            for wanted in (target[0] if target else ()):
                if wanted not in value:
                    self.error("schema_covers", path, key=_short(wanted), target=describe_target(node.covers))
