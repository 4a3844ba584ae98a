"""Order arguments: one type language, declared as data, compiled once.

A ruleset declares what each action takes (data.yaml: `actions: <id>: arg:`,
named types under `arg_types:`; a data ruleset's rules.yaml `arg:`, translated
by pbp/rulesets/data). A node is a type name, a named type, or a mapping with a
`type`: text (prose), int (min, max), choice (values, aliases, en, en_values),
direction, player / character (alive, others, in_sight), place (adjacent), item
(carried), yes_no (true/false, oui/non), map (fields, short), list (of, min, max); any node may say
`optional`, `default`, `en` (a field's English name) and `aliases`. The table
of what each accepts: pbp/rulesets/README.md, "Argument types".

`compile_types` turns the declarations into `ArgType`s; each checks a value
with `check(value, context, at, problems)` (the value normalised, or None with
a `Refusal` naming what would be valid), says what it takes (`describe`, for
the order form), writes a value in English (`english`, for English forms) and
lists what a player may name (`offers`, for the form and the import). What a
type knows of the game comes from an `ArgContext` (pbp/model/argcontext.py);
a type whose facts are absent accepts any name of its shape, and the ruleset's
own checks judge it.
"""

from __future__ import annotations

from pbp.base import i18n
from pbp.base.errors import ByLang
from pbp.model.argcontext import match_names, normalize_id
from pbp.model.argtypes_words import (ArgDefinitionError, ArgType, Choice, Direction, NoArg, Number, Text, YesNo,
                                      _Words)

#: the type names a node may give, beside the named types of `arg_types`
KINDS = ("text", "int", "number", "choice", "player", "character", "place", "item", "direction", "map", "list",
         "yes_no")
#: what every node may say, whatever its type
COMMON = {"type", "optional", "default", "en", "aliases", "description"}
EXTRA = {
    "text": {"prose", "shown_as"}, "int": {"min", "max"}, "number": {"min", "max"},
    "choice": {"values", "en_values"}, "direction": {"values", "en_values"},
    "player": {"alive", "others", "in_sight"}, "character": {"alive", "others", "in_sight"},
    "place": {"adjacent"}, "item": {"carried"},
    "map": {"fields", "short"}, "list": {"of", "min", "max"},
}


# -- the types that name game things, and the composite types ------------------------------

class Character(_Words):
    """A character, by handle or by name. `alive`, `others` and `in_sight` narrow
    it with the ruleset's facts, when it gives them."""

    kind = "character"
    reads = "player"

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.alive, self.others, self.in_sight = (bool(spec.get(k)) for k in ("alive", "others", "in_sight"))

    def accept(self, value, context, at, problems):
        names = context.characters()
        found = match_names(value, names)
        if len(found) > 1:
            problems.add("ambiguous_player_arg", at, value=value, valid=[context.name(h) for h in found])
            return None
        if not found:
            handles = list(names)
            problems.add("unknown_player_arg", at, value=value, valid=handles,
                         suggestion=i18n.closest(str(value), handles))
            return None
        allowed = self.offers(context)
        if found[0] not in allowed:
            problems.add("bad_target", at, target=context.name(found[0]), valid=list(allowed))
            return None
        return found[0]

    def describe(self, lang=None) -> str:
        return i18n.t(lang or "fr", "arg_kind_player")

    def offers(self, context):
        facts, names = context.facts, context.characters()
        keep = [h for h in names if not (self.others and h == context.actor)]
        if self.alive and facts.get("alive") is not None:
            keep = [h for h in keep if h in facts["alive"]]
        if self.in_sight and facts.get("in_sight") is not None:
            keep = [h for h in keep if h in facts["in_sight"]]
        return {h: names[h] for h in keep}


class Named(_Words):
    """A thing of the game named by a player (a place, an item): checked against
    the ruleset's facts when it gives them, else taken as written."""

    every = near = ""  # the facts: all of them, and those within the actor's reach
    unknown = far = ""  # the refusals' message keys

    def accept(self, value, context, at, problems):
        if isinstance(value, (dict, list)):
            self.refuse_type(at, problems)
            return None
        known = context.facts.get(self.every)
        if known is None:
            known = context.facts.get(self.near) if self.reach else None
        if known is None:
            return str(value)
        found = _one(value, known, self.unknown, at, problems)
        if found is None:
            return None
        allowed = self.offers(context)
        if found not in allowed:
            problems.add(self.far, at, value=known.get(found, found), valid=list(allowed.values()))
            return None
        return found

    def offers(self, context):
        if self.reach and context.facts.get(self.near) is not None:
            return dict(context.facts[self.near])
        known = context.facts.get(self.every)
        return None if known is None else dict(known)


def _one(value, known: dict, key: str, at: tuple, problems):
    """The one id of `known` ({id: name}) a player's word names, or None (refused)."""
    found = match_names(value, known)
    if len(found) == 1:
        return found[0]
    if found:  # several: the player writes more of the name
        problems.add("arg_ambiguous_name", at, value=value, valid=[known[k] for k in found])
        return None
    names = list(known.values())
    problems.add(key, at, value=value, valid=names, suggestion=i18n.closest(str(value), names))
    return None


class Place(Named):
    kind = "place"
    every, near, unknown, far = "places", "adjacent", "arg_unknown_place", "arg_place_out_of_reach"

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.reach = bool(spec.get("adjacent"))


class Item(Named):
    kind = "item"
    every, near, unknown, far = "items", "carried", "arg_unknown_item", "arg_item_not_carried"

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.reach = bool(spec.get("carried", True))


class Mapping(ArgType):
    """Named fields; a bare value fills the `short` field (`combat: Lucy`)."""

    kind = reads = "map"

    def __init__(self, spec: dict, fields: dict):
        super().__init__(spec)
        self.fields: dict[str, ArgType] = fields
        self.short = spec.get("short")
        self.names = {}  # every accepted spelling of a field (its `en:` and `aliases:` too)
        for name, field in fields.items():
            for spelling in [name, field.en, *field.aliases]:
                if spelling:
                    self.names[normalize_id(spelling)] = name

    def check(self, value, context, at, problems):
        if value is None and self.optional:
            value = {}  # an optional map left out: its fields' defaults
        return super().check(value, context, at, problems)

    def accept(self, value, context, at, problems):
        if not isinstance(value, dict):
            short = self.fields.get(self.short) if self.short else None
            if short is None or (isinstance(value, list) and not isinstance(short, List)):
                self.refuse_type(at, problems)
                return None
            value = {self.short: value}
        out = {}
        for key, raw in value.items():
            name = self.names.get(normalize_id(key))
            if name is None:
                problems.add("unknown_field", at + (key,), field=key,
                             valid=ByLang(fr=list(self.fields), en=[f.en or n for n, f in self.fields.items()]),
                             suggestion=i18n.closest(normalize_id(key), self.names))
                continue
            out[name] = self.fields[name].check(raw, context, at + (key,), problems)
        for name, field in self.fields.items():
            if name not in out:
                if not field.optional:
                    problems.add("field_missing", at, field=name)
                out[name] = field.default
        return out

    def describe(self, lang=None) -> str:
        def name(field_name, field):
            return field.en if lang == "en" and field.en else field_name
        return "{" + ", ".join(f"{name(k, f)}: {f.describe(lang)}" for k, f in self.fields.items()) + "}"

    def english(self, value):
        if isinstance(value, dict):
            out = {}
            for key, v in value.items():
                field = self.fields.get(key)
                out[field.en or key if field else key] = field.english(v) if field else v
            return out
        if self.short:  # the short field's value alone
            return self.fields[self.short].english(value)
        return value


class List(ArgType):
    """A list of `of`, between `min` and `max` long; a bare value is a list of one."""

    kind = reads = "list"

    def __init__(self, spec: dict, of: ArgType):
        super().__init__(spec)
        self.of, self.low, self.high = of, spec.get("min", 0), spec.get("max")

    def accept(self, value, context, at, problems):
        if not isinstance(value, list):
            value = [value]
        if len(value) < self.low or (self.high is not None and len(value) > self.high):
            problems.add("list_length", at, count=len(value), low=self.low,
                         high=self.high if self.high is not None else "∞")
        return [self.of.check(v, context, at + (i,), problems) for i, v in enumerate(value)]

    def describe(self, lang=None) -> str:
        return f"[{self.of.describe(lang)}, ...]"

    def english(self, value):
        return [self.of.english(v) for v in value] if isinstance(value, list) else value

    def offers(self, context):
        return self.of.offers(context)


# -- compiling the declarations ------------------------------------------------------------

_SIMPLE = {"text": Text, "int": Number, "number": Number, "choice": Choice, "direction": Direction,
           "player": Character, "character": Character, "place": Place, "item": Item, "yes_no": YesNo}


class _Compiler:
    def __init__(self, named: dict):
        self.named, self.done, self.building = named, {}, set()

    def build(self, spec, where: str) -> ArgType:
        if spec is None:
            return NoArg()
        if isinstance(spec, str):
            return self._named(spec, where) if spec in self.named else self.build({"type": spec}, where)
        if not isinstance(spec, dict):
            raise ArgDefinitionError(f"{where}: an argument is a type name or a mapping, not {spec!r}")
        kind = spec.get("type")
        if kind in self.named:
            return self._derived(kind, spec, where)
        if kind not in KINDS:
            raise ArgDefinitionError(f"{where}: unknown argument type {kind!r} (known: {', '.join(KINDS)}, "
                                     f"or a name of `arg_types`)")
        unknown = set(spec) - COMMON - EXTRA.get(kind, set())
        if unknown:
            raise ArgDefinitionError(f"{where}: {sorted(unknown)} do not apply to `{kind}`")
        if kind == "map":
            fields = spec.get("fields") or {}
            return Mapping(spec, {str(k): self.build(v, f"{where}.{k}") for k, v in fields.items()})
        if kind == "list":
            return List(spec, self.build(spec.get("of", "text"), f"{where}.of"))
        return _SIMPLE[kind](spec)

    def _named(self, name: str, where: str) -> ArgType:
        if name not in self.done:
            if name in self.building:
                raise ArgDefinitionError(f"{where}: the argument type `{name}` refers to itself")
            self.building.add(name)
            node = _copy(self.build(self.named[name], f"arg_types.{name}"))
            node.name = name
            self.done[name] = node
            self.building.discard(name)
        return self.done[name]

    def _derived(self, name: str, spec: dict, where: str) -> ArgType:
        """A named type with its own `optional`, `default`, `en`, `aliases`."""
        if set(spec) - COMMON:
            raise ArgDefinitionError(f"{where}: `{name}` is a named type; only {sorted(COMMON)} may be added")
        node = _copy(self._named(name, where))
        base = ArgType(spec)
        for flag in ("optional", "default", "en", "aliases"):
            if flag in spec:
                setattr(node, flag, getattr(base, flag))
        return node


def _copy(node: ArgType) -> ArgType:
    import copy

    return copy.copy(node)


class ArgTypes:
    """A ruleset's argument types: each action's, compiled on first use."""

    def __init__(self, rules: dict):
        self.compiler = _Compiler(rules.get("arg_types") or {})
        self.by_spec: dict[int, tuple[object, ArgType]] = {}

    def of(self, spec, where: str = "arg") -> ArgType:
        """The type of a declaration of these rules (an action's `arg`, an MJ order's)."""
        known = self.by_spec.get(id(spec))
        if known is None or known[0] is not spec:
            known = (spec, self.compiler.build(spec, where))
            self.by_spec[id(spec)] = known
        return known[1]

    def action(self, actions: dict, action_id: str) -> ArgType:
        return self.of((actions.get(action_id) or {}).get("arg"), f"actions.{action_id}.arg")


_compiled: dict[int, tuple[dict, ArgTypes]] = {}


def compile_types(rules: dict) -> ArgTypes:
    """The argument types of a ruleset's rules (compiled once per rules mapping)."""
    known = _compiled.get(id(rules))
    if known is None or known[0] is not rules:
        known = (rules, ArgTypes(rules))
        _compiled[id(rules)] = known
    return known[1]
