"""A campaign's rules file (rules.yaml), read as a stranger's input: keys in the
MJ's language made canonical, held to the rules schema, every problem at once
with file:line in the MJ's language.

    parse(text, source)         a rules file's text -> RulesFile (data, lines)

A rules file never runs code and never reads another file: it is YAML read by
pbp's untrusted reader (no aliases, no tags, bounded depth, numbers and size),
its formulas compiled by pbp.datarules.formula (total: no loops, no calls out).
What names refer to (a gauge, a table, a check, a message) and whether a table
covers its die exactly once are checked by pbp.datarules.lint, which
pbp.datarules.load runs after the shape.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.base import i18n, yamlio
from pbp.base.errors import ErrorList, InputError, PbpError
from pbp.base.record import Record
from pbp.datarules import places as _places
from pbp.model import schema

RULES_FILE = "rules.yaml"
HERE = Path(__file__).parent
#: what pbp accepts from a rules file (a stranger's too): refused beyond, with the limit named
LIMITS = {"rules_file_bytes": 262144, "depth": 12, "integer_digits": 12, "formula_chars": 400}

_schema: dict = {}
_aliases: dict = {}


def rules_schema() -> schema.Node:
    """The rules file's schema (schema.yaml here), compiled once."""
    if not _schema:
        _schema.update(schema.load(HERE / "schema.yaml"))
        i18n.register_file(HERE / "messages.yaml")
    return _schema["rules"]


def effect_node() -> schema.Node:
    """One effect of an `effects:` list (checked one by one: effects nest)."""
    if "effect" not in _schema:
        _schema["effect"] = schema.compile_node(EFFECT, where="effect")
    return _schema["effect"]


#: the verbs and modifiers of an effect (see docs/rules-format.md, "Effects")
EFFECT = {"type": "mapping", "fields": {
    **{verb: {"type": "any", "optional": True} for verb in
       ("add", "set", "roll", "check", "if", "say", "out", "lose_turn", "reveal", *_places.VERBS, "inflict", "cure",
        "vote", "oppose")},
    "duration": {"type": "any", "optional": True},  # inflict's: a formula of turns (pbp/datarules/states.py)
    "then": {"type": "list", "optional": True, "max": 50},
    "else": {"type": "list", "optional": True, "max": 50},
    "as": {"type": "str", "optional": True, "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
    "who": {"type": "choice", "values": ["self", "target", "all", "others", "moi", "cible", "tous", "autres"],
           "optional": True},
    "to": {"type": "any", "optional": True},  # an audience: checked by lint
}}
VERBS = ("add", "set", "roll", "check", "if", "say", "out", "lose_turn", "reveal", *_places.VERBS, "inflict", "cure",
         "vote", "oppose")
#: the verbs as a French MJ writes them (keys.yaml has every spelling)
VERBS_FR = ("ajouter", "fixer", "tirer", "tester", "si", "dire", "hors_jeu", "perd_un_tour", "reveler",
            *_places.VERBS_FR, "infliger", "lever", "voter", "opposer")
#: French words of the values the engine reads (the keys are respelt by keys.yaml)
VALUE_WORDS = {"moi": "self", "cible": "target", "tous": "all", "autres": "others", "proprietaire": "owner",
               "joueur": "owner", "mj": "gm", "nombre": "number", "texte": "text", "oui_non": "bool",
               "choix": "choice", "liste": "list", "personnage": "character", "partie": "game", "objet": "item", "lieu": "place",
               "objet_ici": "item_here"}
VALUE_WORDS.update({"champs": "fields", "carac": "stat", "caracteristique": "stat"})


def aliases() -> dict[str, tuple[str, ...]]:
    """Every spelling of a key (normalised) -> the canonical keys it may stand for."""
    if not _aliases:
        from pbp.model.orders import normalize_id

        raw = yamlio.load_data_file(HERE / "keys.yaml") or {}
        for canonical, spellings in raw.items():
            for spelling in [canonical, *(spellings or [])]:
                key = normalize_id(spelling)
                _aliases[key] = _aliases.get(key, ()) + (str(canonical),)
    return _aliases


class RulesFile(Record):
    """A rules file as read: its canonical data and where each value was."""

    __slots__ = ("data", "lines", "source", "program", "lang")

    def __init__(self, data: dict, lines: yamlio.Lines, source: str = RULES_FILE, lang: str = "en"):
        self.data = data
        self.lang = lang  # the language its keys are written in: what pbp speaks about it outside a campaign
        self.lines = lines
        self.source = source
        self.program = None  # the compiled rules (pbp.datarules.program), once checked

    def line(self, path: tuple) -> int | None:
        return self.lines.line(tuple(path))

    def error(self, key: str, path: tuple, /, **params) -> InputError:
        if self.lang == "fr" and isinstance(params.get("section"), str):  # `caracteristiques`, not `stats`
            params["section"] = ".".join(spelt_fr(step) for step in params["section"].split("."))
        return InputError(key, file=self.source, line=self.line(path), **params)


def parse(data: bytes | str, source: str = RULES_FILE, overrides: dict | None = None) -> RulesFile:
    """A rules file's bytes or text -> its RulesFile, held to the schema (ErrorList:
    every problem of its shape). pbp.datarules.load then compiles and lints it."""
    node = rules_schema()  # (registers the messages the refusals below speak through)
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > LIMITS["rules_file_bytes"]:
        raise InputError("rules_too_large", file=source, size=size, limit=LIMITS["rules_file_bytes"])
    raw, lines = yamlio.load_untrusted(data, source, max_depth=LIMITS["depth"],
                                       max_int_digits=LIMITS["integer_digits"], normalize=_spelling)
    if raw is None:
        raise InputError("rules_empty", file=source)
    if not isinstance(raw, dict):
        raise InputError("rules_not_mapping", file=source, line=lines.line(()))
    french = any(_field(node, key) != key for key in raw if isinstance(key, str))
    written: dict[tuple, str] = {}
    rules = RulesFile(canonical(node, raw, (), written), lines, source, "fr" if french else "en")
    if overrides:
        _override(rules.data, overrides)
    errors = schema.check(node, rules.data, file=source, lines=lines)
    if not errors:
        errors = _effects_shape(rules, written)
    for error in errors:
        _in_mj_words(error, written, rules.lang)
    if errors:
        raise ErrorList(sorted(errors, key=lambda e: e.line or 0))
    return rules


def _spelling(key) -> str:
    """How Lines matches a canonical path step with the key as written: both
    normalised, then read through the aliases (any of a spelling's meanings)."""
    from pbp.model.orders import normalize_id

    word = normalize_id(key)
    meanings = aliases().get(word)
    return meanings[0] if meanings and len(meanings) == 1 else word


def canonical(node: schema.Node, value, path: tuple = (), written: dict | None = None):
    """`value` with the keys of the schema's mappings in their canonical spelling
    (`jauges` -> `gauges`, `coût` -> `cost`): a key is respelt only where the
    schema has a field of that name. Names the MJ chose (a gauge's id) stay.
    `written` gets each respelt key's path (canonical) -> the key as written."""
    if node is None:
        return value
    kind = node.kind
    if kind == "one_of":
        for option in node.options:
            if option.kind == "choice" and _choice(option, value) is not value:
                return _choice(option, value)
        option = next((o for o in node.options if o.accepts_kind(value)), None)
        return canonical(option, value, path, written)
    if kind == "choice":
        return _choice(node, value)
    if kind == "mapping" and isinstance(value, dict):
        out = {}
        for key, item in value.items():
            name = _field(node, key)
            if written is not None and name != key:
                written[path + (name,)] = str(key)
            out[name] = canonical(node.fields.get(name), item, path + (name,), written)
        return out
    if kind == "map" and isinstance(value, dict):
        return {k: canonical(node.items, v, path + (str(k),), written) for k, v in value.items()}
    if kind == "list" and isinstance(value, list):
        return [canonical(node.of, v, path + (i,), written) for i, v in enumerate(value)]
    return value


_STEP = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


def _in_mj_words(error: PbpError, written: dict[tuple, str], lang: str) -> None:
    """A refusal of the file's shape in the keys the MJ writes: its path as written
    and, in a French file, the field it misses and the fields it could have
    (`nom, jet, …`) in their French spelling (keys.yaml), not the canonical English."""
    params = error.params
    if isinstance(params.get("path"), str):
        params["path"] = as_written(params["path"], written)
    if lang != "fr":
        return
    if error.key == "schema_missing" and isinstance(params.get("path"), str):
        head, _, last = params["path"].rpartition(".")
        params["path"] = (head + "." if head else "") + spelt_fr(last)
    elif error.key == "schema_unknown_field" and params.get("valid"):
        from pbp.model.orders import normalize_id

        known = [str(k) for k in params["valid"]]
        params["valid"] = sorted((spelt_fr(k, known) for k in known), key=normalize_id)
        typed = params["path"].rpartition(".")[2] if isinstance(params.get("path"), str) else ""
        spellings = [s for k in known for s in _spellings().get(k, ()) if _reads_as(s, k, known)]
        params["suggestion"] = i18n.closest(normalize_id(typed), params["valid"] + spellings) if typed else None


def spelt_fr(key: str, known: list[str] | None = None) -> str:
    """A canonical key in the spelling a French MJ writes it: keys_fr.yaml's, else
    the first spelling keys.yaml lists for it, that reads back as this key where
    the keys `known` are valid; else the key itself."""
    return next((s for s in _spellings().get(key, ()) if _reads_as(s, key, known)), key)


def _reads_as(spelling: str, key: str, known: list[str] | None) -> bool:
    """Whether pbp reads `spelling` as `key` where the keys `known` are valid."""
    from pbp.model.orders import normalize_id

    meanings = [m for m in aliases().get(normalize_id(spelling), ()) if known is None or m in known]
    return meanings[:1] == [key]


_spelling_lists: dict[str, tuple[str, ...]] = {}


def _spellings() -> dict[str, tuple[str, ...]]:
    """Canonical key -> its French spellings, the one docs/rules-format.md shows first
    (keys_fr.yaml), then keys.yaml's list."""
    if not _spelling_lists:
        raw = yamlio.load_data_file(HERE / "keys.yaml") or {}
        shown = yamlio.load_data_file(HERE / "keys_fr.yaml") or {}
        _spelling_lists.update({str(k): tuple(str(s) for s in ([shown[k]] if k in shown else []) + list(v or ()))
                                for k, v in raw.items()})
    return _spelling_lists


def as_written(shown: str, written: dict[tuple, str]) -> str:
    """A path as a message shows it (`gauges.energie.start`), in the keys the MJ
    wrote (`jauges.energie.départ`)."""
    out, steps = "", ()
    for index, key in _STEP.findall(shown):
        if index:
            steps += (int(index) - 1,)
            out += f"[{index}]"
        else:
            steps += (key,)
            out += ("." if out else "") + written.get(steps, key)
    return out


def _choice(node: schema.Node, value):
    """A choice's value as the schema spells it when the MJ wrote it with accents
    or capitals (`Propriétaire` -> `proprietaire`); else `value` itself."""
    from pbp.model.orders import normalize_id

    if not isinstance(value, str) or value in node.value_set:
        return value
    wanted = normalize_id(value)
    return next((v for v in node.values if isinstance(v, str) and normalize_id(v) == wanted), value)


def _field(node: schema.Node, key) -> str:
    from pbp.model.orders import normalize_id

    text = "on" if key is True else str(key)  # YAML 1.1 reads an English `on:` as true
    if text in node.known:
        return text
    for meaning in aliases().get(normalize_id(text), ()):
        if meaning in node.known:
            return meaning
    return text


def _override(data: dict, overrides: dict) -> None:
    """A campaign's `rules:` over its rules file (canonical keys), one level of
    mappings at a time: a number stays where the file had it."""
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            _override(data[key], value)
        else:
            data[key] = value


def _effects_shape(rules: RulesFile, written: dict) -> list[PbpError]:
    """Every effect list of the file held to the effect's shape, nested ones too,
    their keys respelt like the rest (the schema cannot say a recursive shape)."""
    errors: list[PbpError] = []
    for path, effects in effect_lists(rules.data):
        errors += _effects(rules, effects, path, written)
    return errors


def _effects(rules: RulesFile, effects: list, path: tuple, written: dict) -> list[PbpError]:
    errors = []
    for i, effect in enumerate(effects):
        at = path + (schema.Index(i),)
        if not isinstance(effect, dict):
            errors.append(rules.error("rules_effect_shape", at, verbs=_verbs()))
            continue
        effect = effects[i] = canonical(effect_node(), effect, at, written)
        found = schema.check(effect_node(), effect, file=rules.source, lines=rules.lines, path=at)
        verbs = [v for v in VERBS if v in effect]
        if not found and len(verbs) != 1:
            found.append(rules.error("rules_effect_verb", at, found=_verbs(verbs) if verbs else "-",
                                     verbs=_verbs()))
        errors += found
        for branch in ("then", "else"):
            if isinstance(effect.get(branch), list):
                errors += _effects(rules, effect[branch], at + (branch,), written)
    return errors


def _verbs(verbs=VERBS):
    """Verbs as a message lists them: in French for a French MJ."""
    from pbp.base.errors import ByLang

    return ByLang(fr=[VERBS_FR[VERBS.index(v)] for v in verbs], en=list(verbs))


def effect_lists(data: dict):
    """(path, list) of every top-level effect list of the rules: the actions'
    and the gauges' thresholds' (nested `then`/`else` lists are inside them)."""
    for action_id, action in (data.get("actions") or {}).items():
        yield ("actions", action_id, "effects"), action["effects"]
    for gauge_id, gauge in (data.get("gauges") or {}).items():
        for i, threshold in enumerate(gauge.get("thresholds") or []):
            yield ("gauges", gauge_id, "thresholds", schema.Index(i), "effects"), threshold["effects"]
    for input_id, spec in (data.get("inputs") or {}).items():  # the MJ's inputs' effects (input_effects.py)
        for key in ("effects", "end_effects"):
            if spec.get(key) is not None:
                yield ("inputs", input_id, key), spec[key]
    yield from _places.effect_lists(data)
    from pbp.datarules import phases, votes

    yield from votes.effect_lists(data)
    yield from phases.effect_lists(data)


def word(value) -> str:
    """A value the MJ wrote in French or English (`moi`, `self`) in its English spelling."""
    return VALUE_WORDS.get(value, value) if isinstance(value, str) else value
