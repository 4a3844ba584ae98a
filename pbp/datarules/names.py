"""The names an MJ gives (a stat, a gauge, a table, a check, an MJ input) may
not be the ones pbp gives itself: a stat called `name` would be shadowed by the
acting character's name in every message, `turn` by the turn's number, `target`
by the target's; nor a dunder (`__class__`), which says nothing and looks like a
way into Python (there is none: formulas read names from a plain mapping). Each
is refused at its line, saying why and what to do.

A name that is a word or a function of the formulas (`or`, gold in French; `min`)
stays allowed: `ajouter: {or: 5}` and a message's `{or}` read it, and a formula
that writes it is refused at its line (`min` needs parentheses, `or` joins two
conditions), saying so."""

from __future__ import annotations

from pbp.datarules.format import RulesFile
from pbp.base.errors import ByLang, PbpError

#: the sections whose names formulas and messages read, bare
SECTIONS = ("stats", "gauges", "tables", "checks", "inputs")
#: what the engine itself puts under a name (a message's `{name}`, a formula's `turn`...)
ENGINE = ("turn", "tour", "arg", "argument", "name", "target", "cible", "gm", "mj",
          "stat", "stats", "carac", "jauge", "jauges", "gauge", "gauges")
WHY = {
    "engine": ByLang(fr="un nom que pbp donne lui-même (tour, argument, nom du personnage, cible, MJ…)",
                     en="a name pbp gives itself (turn, argument, character's name, target, GM…)"),
    "dunder": ByLang(fr="un nom réservé (deux « _ » au début)", en="a reserved name (two `_` at the start)"),
}


def why_reserved(name: str) -> str | None:
    """Why `name` cannot be an MJ's name (a key of WHY), or None."""
    low = name.lower()
    if low.startswith("__"):
        return "dunder"
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
