"""Compiling a schema file (YAML: a ruleset's `schema.yaml`, pbp's own) into
`Node`s, named types resolved; and the node an example value implies (what a
campaign's override of a rules number may be).
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.base import yamlio
from pbp.base.errors import PbpError
from pbp.model.schema_node import COMMON, EXTRA, KINDS, Node, SchemaDefinitionError, _needs

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
