"""The plain values a data ruleset plays with: a character's stats and gauges
in the state, the words the MJ wrote in two languages, who an event is for,
and the names a formula reads. Pure functions on plain dicts; the Program
(pbp.datarules.program) says what the rules define."""

from __future__ import annotations

import functools
import re

from pbp.datarules import places
from pbp.datarules.format import word
from pbp.datarules.program import canonical_name

from . import values as V
from pbp.model import events as ev

LANGS = ("fr", "en")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")


def words(value, default: str = "") -> dict[str, str]:
    """A text the MJ wrote, in both languages: `"Énergie"` -> {fr: Énergie, en: Énergie};
    `{fr: Énergie, en: Energy}` as it is (a missing language takes the other's)."""
    if value is None:
        return {lang: default for lang in LANGS}
    if isinstance(value, dict):
        fr = value.get("fr", value.get("en", default))
        return {"fr": str(fr), "en": str(value.get("en", fr))}
    return {lang: str(value) for lang in LANGS}


def filled(text: dict[str, str], values: dict) -> dict[str, str]:
    """`{nom} perd {perte.loss}` with the values it names (a name it does not
    know stays as written). Only names are replaced: no attribute, no index,
    nothing computed (str.format would reach into objects)."""
    known: dict = {}  # each name looked up once for both languages

    def one(template: str) -> str:
        pieces = _pieces(template)
        if len(pieces) == 1:  # no placeholder
            return template
        out = []
        for piece, key in pieces:
            if key is None:
                out.append(piece)
                continue
            found = known[key] if key in known else known.setdefault(key, values.get(key, _ABSENT))
            out.append(piece if found is _ABSENT else str(found))
        return "".join(out)

    return {lang: one(t) for lang, t in text.items()}


_ABSENT = object()


@functools.lru_cache(maxsize=4096)
def _pieces(template: str) -> tuple[tuple[str, str | None], ...]:
    """A message cut once into its pieces: (text, None) as written, ("{name}", its
    canonical name) for each placeholder."""
    pieces, at = [], 0
    for found in _PLACEHOLDER.finditer(template):
        pieces.append((template[at:found.start()], None))
        pieces.append((found.group(0), canonical_name(found.group(1))))
        at = found.end()
    pieces.append((template[at:], None))
    return tuple(pieces)


def name_of(definition: dict, ident: str) -> dict[str, str]:
    """A stat's, gauge's, table's or action's name in both languages (its id if none)."""
    return words(definition.get("name"), ident.replace("_", " "))


def named(definition: dict, ident: str) -> dict[str, str]:
    """name_of(definition, ident), once per definition (an event's name: read, never changed)."""
    return derived(definition, "name", lambda d: name_of(d, ident))


def visibility(value) -> tuple[str, ...]:
    """`public`, `owner`, `gm` (French words too) or a list of them, as a tuple."""
    values = value if isinstance(value, list) else [value or "public"]
    return tuple(word(v) for v in values)


def audience(who: tuple[str, ...] | None, actor: str | None, target: str | None = None, default=ev.PUBLIC):
    """The audience of an event: `public`, the actor (`actor`/`owner`), the
    `target`, the MJ (`gm`): PUBLIC if any says public, else the players named
    (the MJ reads every report), else the MJ alone."""
    if not who:
        return default
    if "public" in who:
        return ev.PUBLIC
    handles = []
    for item in who:
        if item in ("actor", "owner", "self") and actor:
            handles.append(actor)
        elif item == "target" and target:
            handles.append(target)
    handles = tuple(dict.fromkeys(handles))
    return ev._players(handles) if handles else ev.GM


#: (id(part of the rules), what) -> (the part, what was worked out from it)
_DERIVED: dict[tuple[int, str], tuple] = {}


def derived(part: dict, what: str, make):
    """`make(part)`, worked out once per part of the rules (an action's, a check's
    definition...), not at each event: the part itself is kept, so its id cannot be
    another's. The value is shared: read it, never change it."""
    key = (id(part), what)
    kept = _DERIVED.get(key)
    if kept is None or kept[0] is not part:
        if len(_DERIVED) > 8192:  # rules files read one after another (tests, a long process): the newest kept
            _DERIVED.clear()
        kept = _DERIVED[key] = (part, make(part))
    return kept[1]


def seen_by(part: dict) -> tuple[str, ...]:
    """visibility(part's `visibility`), once per part."""
    return derived(part, "visibility", lambda p: visibility(p.get("visibility")))


def arg_kind(action: dict) -> str | None:
    """An action's argument's type in English (`character`, `fields`, `place`...), None
    without one; once per action."""
    return derived(action, "arg kind", _arg_kind)


def _arg_kind(action: dict) -> str | None:
    arg = action.get("arg")
    return word(arg if isinstance(arg, str) or arg is None else arg.get("type"))


def character(state: dict, handle: str) -> dict:
    return state["characters"][handle]


def in_play(state: dict, handle: str) -> bool:
    me = state["characters"].get(handle)
    return me is not None and not me["out"]


def playing(state: dict, roster) -> list[str]:
    return [h for h in roster if in_play(state, h)]


def value_of(state: dict, handle: str | None, name: str):
    """A character's gauge, else stat, by id (None when it has neither)."""
    if handle is None:
        return None
    me = state["characters"][handle]
    if name in me["gauges"]:
        return me["gauges"][name]
    return me["stats"].get(name)


def gm_value(state: dict, rules: dict, name: str, actor: str | None):
    """What the MJ gave for `inputs.<name>` (the character's own for a
    per-character input), else its default."""
    spec = (rules.get("inputs") or {}).get(name) or {}
    if word(spec.get("per", "game")) == "character":
        found = (state["inputs_by"].get(actor) or {}).get(name) if actor else None
    else:
        found = state["inputs"].get(name)
    if found is None:
        return spec.get("default", False if word(spec.get("type")) == "bool" else 0)
    return found


def env(names, state: dict, rules: dict, actor: str | None, target: str | None, arg, bound: dict) -> dict:
    """The values of the names a formula uses, where it is evaluated: a result
    bound by the effects before (`as:`) first, else what the name reads."""
    plan = _PLANS.get(names)
    if plan is None:
        plan = _plan(names)
    out = {}
    for name, key, read in plan:
        out[name] = bound[key] if key in bound else read(key, state, rules, actor, target, arg)
    return out


#: a formula's names -> [(name, its canonical key, its reader)]: each name read
#: apart once per formula, not at each evaluation
_PLANS: dict[frozenset, list] = {}


def _plan(names) -> list[tuple]:
    if len(_PLANS) > 4096:  # rules files read one after another (tests, a long process): the newest kept
        _PLANS.clear()
    found = _PLANS[names] = [(name, canonical_name(name), _reader(canonical_name(name))) for name in names]
    return found


def _reader(key: str):
    """What a name reads when no effect bound it: (key, state, rules, actor, target, arg) -> value."""
    if key == "turn":
        return lambda key, state, rules, actor, target, arg: state["turn"]
    if key == "arg":
        return lambda key, state, rules, actor, target, arg: arg
    if key.startswith("arg."):  # a field an order left out, or a check rolled by another action
        blank = "" if key.endswith(".id") else 0
        return lambda key, state, rules, actor, target, arg: blank
    if key.startswith("gm."):
        return lambda key, state, rules, actor, target, arg: gm_value(state, rules, key[3:], actor)
    if places.reads(key):  # read as a place's or an item's in rules that have them
        otherwise = _character_reader(key)
        return lambda key, state, rules, actor, target, arg: places.value(key, state, rules, actor, target) \
            if places.used(rules) else otherwise(key, state, rules, actor, target, arg)
    return _character_reader(key)


def _character_reader(key: str):
    """What a name about a character reads: a team's count, a state, the target's or the actor's value."""
    if key.startswith("team."):  # how many of a team are in play (pbp/rulesets/data/votes.py)
        return lambda key, state, rules, actor, target, arg: V.team_count(state, rules, key[5:])
    if key.startswith(("state.", "target.state.")):  # a character's states (pbp/rulesets/data/states.py)
        return lambda key, state, rules, actor, target, arg: V.state_value(
            state, target if key.startswith("target.") else actor, key.partition("state.")[2])
    if key.startswith("target."):
        return lambda key, state, rules, actor, target, arg: value_of(state, target, key[7:])
    return _own_value


def _own_value(key: str, state: dict, rules: dict, actor, target, arg):
    """The actor's stat or gauge; else the calendar's, the turns missed (pbp/rulesets/data/values.py)."""
    found = value_of(state, actor, key)
    return V.plain_value(state, rules, actor, key) if found is None else found


def clamp(value: int, gauge: dict) -> int:
    low, high = gauge.get("min"), gauge.get("max")
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value


def crossings(threshold: dict, before: int, after: int) -> int:
    """How many times a move of a gauge from `before` to `after` sets a threshold off:
    `at: N` reaching N, `below: N` going under N, `above: N` going over N,
    `every: N` each multiple of N reached or passed: going up, the multiples m with
    before < m <= after; going down, after <= m < before (leaving a multiple is not
    passing one: 100 -> 90 with `every: 25` sets nothing off, 100 -> 75 once)."""
    if "every" in threshold:
        step = threshold["every"]
        if after >= before:
            return after // step - before // step
        return (before - 1) // step - (after - 1) // step
    if "at" in threshold:
        return int(before != threshold["at"] and after == threshold["at"])
    if "below" in threshold:
        return int(before >= threshold["below"] > after)
    if "above" in threshold:
        return int(before <= threshold["above"] < after)
    return 0


def as_number(value):
    """A formula's result kept in YAML's types: a whole Fraction as an int."""
    from fractions import Fraction

    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value
