"""The names an MJ gives (a stat, a gauge, a table, a check, an MJ input, a
result's `as`) may not be the language's own words: a stat called `min` could
never be read (`min` is a function), one called `name` would be shadowed by the
acting character's name in every message, `turn` by the turn's number, `si` or
`vrai` by the formula language, a dunder (`__class__`) says nothing and looks
like a way into Python (there is none: formulas read names from a plain
mapping). Each is refused at its line, saying why and what to do."""

from __future__ import annotations

from pbp.datarules.format import RulesFile
from pbp.errors import ByLang, PbpError

#: the sections whose names formulas and messages read, bare
SECTIONS = ("stats", "gauges", "tables", "checks", "inputs")
#: what the engine itself puts under a name (a message's `{name}`, a formula's `turn`...)
ENGINE = ("turn", "tour", "arg", "argument", "name", "target", "cible", "gm", "mj",
          "stat", "stats", "carac", "jauge", "jauges", "gauge", "gauges")
WHY = {
    "function": ByLang(fr="une fonction des formules", en="a function of the formulas"),
    "keyword": ByLang(fr="un mot des formules", en="a word of the formulas"),
    "engine": ByLang(fr="un nom que pbp donne lui-même (tour, argument, nom du personnage, cible, MJ…)",
                     en="a name pbp gives itself (turn, argument, character's name, target, MJ…)"),
    "dunder": ByLang(fr="un nom réservé (deux « _ » au début)", en="a reserved name (two `_` at the start)"),
}


def why_reserved(name: str) -> str | None:
    """Why `name` cannot be an MJ's name (a key of WHY), or None."""
    from pbp.datarules.formula import _FUNCTION_NAMES, RESERVED

    low = name.lower()
    if low.startswith("__"):
        return "dunder"
    if low in _FUNCTION_NAMES:
        return "function"
    if low in RESERVED:
        return "keyword"
    if low in ENGINE:
        return "engine"
    return None


def problems(rules: RulesFile) -> list[PbpError]:
    out = []
    for section in SECTIONS:
        for name in rules.data.get(section) or {}:
            why = why_reserved(str(name))
            if why:
                out.append(rules.error("rules_reserved_name", (section, name), name=name, why=WHY[why]))
    return out
