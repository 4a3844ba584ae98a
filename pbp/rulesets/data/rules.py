"""The plain values a data ruleset plays with: a character's stats and gauges
in the state, the words the MJ wrote in two languages, who an event is for,
and the names a formula reads. Pure functions on plain dicts; the Program
(pbp.datarules.program) says what the rules define."""

from __future__ import annotations

import re

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
    def one(template: str) -> str:
        return _PLACEHOLDER.sub(lambda m: str(values.get(canonical_name(m.group(1)), m.group(0))), template)

    return {lang: one(t) for lang, t in text.items()}


def name_of(definition: dict, ident: str) -> dict[str, str]:
    """A stat's, gauge's, table's or action's name in both languages (its id if none)."""
    return words(definition.get("name"), ident.replace("_", " "))


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
    """The values of the names a formula uses, where it is evaluated."""
    out = {}
    for name in names:
        key = canonical_name(name)
        if key in bound:
            out[name] = bound[key]
        elif key == "turn":
            out[name] = state["turn"]
        elif key == "arg":
            out[name] = arg
        elif key.startswith("arg."):  # a field an order left out, or a check rolled by another action
            out[name] = "" if key.endswith(".id") else 0
        elif key.startswith("gm."):
            out[name] = gm_value(state, rules, key[3:], actor)
        elif places_reads(key, rules):
            out[name] = places_value(key, state, rules, actor, target)
        elif key.startswith("team."):  # how many of a team are in play (pbp/rulesets/data/votes.py)
            out[name] = V.team_count(state, rules, key[5:])
        elif key.startswith(("state.", "target.state.")):  # a character's states (pbp/rulesets/data/states.py)
            out[name] = V.state_value(state, target if key.startswith("target.") else actor,
                                      key.partition("state.")[2])
        elif key.startswith("target."):
            out[name] = value_of(state, target, key[7:])
        else:
            out[name] = value_of(state, actor, key)
            if out[name] is None:  # not a stat or gauge: the calendar's, the turns missed (pbp/rulesets/data/values.py)
                out[name] = V.plain_value(state, rules, actor, key)
    return out


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


def places_reads(key: str, rules: dict) -> bool:
    """A name about places and items, in rules that have them (pbp/datarules/places.py reads it)."""
    from pbp.datarules import places

    return places.reads(key) and places.used(rules)


def places_value(key: str, state: dict, rules: dict, actor, target):
    from pbp.datarules import places

    return places.value(key, state, rules, actor, target)
