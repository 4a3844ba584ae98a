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

from pbp.base import i18n, yamlio
from pbp.base.errors import InputError, PbpError, Phrase
from pbp.model.schema_compile import compile_node, from_example, load
from pbp.model.schema_node import (COMMON, EXTRA, KINDS, MAX_LISTED, MAX_SUGGESTED, SCALAR_TYPES, SCALARS,
                                   TARGET_FILES, Node, SchemaDefinitionError, _hashable, _listed, _needs,
                                   describe_target)

__all__ = ["COMMON", "EXTRA", "KINDS", "MAX_LISTED", "MAX_SUGGESTED", "SCALAR_TYPES", "SCALARS", "TARGET_FILES",
           "Index", "Node", "SchemaDefinitionError", "check", "compile_node", "describe_target", "found",
           "from_example", "load", "show_path"]


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
