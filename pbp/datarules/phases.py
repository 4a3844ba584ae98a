"""Turn order, days and phases, and what happens every N turns, as the compiler
sees them.

- `turn_order:` (`ordre_de_jeu:`): who plays first: `by:` (`selon:`) a formula,
  each character's view, the highest first; `initiative:` a formula with dice
  rolled for each character every turn, the highest first; `groups:`
  (`groupes:`) the characters of one team after the other. Ties: roster order.
- `calendar:` (`calendrier:`): `turns_per_day:` (`tours_par_jour:`) and the
  `phases:` of a day; formulas read `day` (`jour`), `turn_of_day`
  (`tour_du_jour`) and `phase`.
- `periodic:` (`périodiques:`): effects every N turns (`every:`/`tous_les:`),
  from a turn on (`from:`/`à_partir_de:`), once or for each character in play
  (`each:`/`chacun:`).
The engine's side is pbp/rulesets/data/phases.py."""

from __future__ import annotations

from pbp.base.i18n import by_lang

#: the calendar's names in formulas, in both languages -> what they are
PLAIN = {"jour": "day", "day": "day", "phase": "phase", "tour_du_jour": "turn_of_day", "turn_of_day": "turn_of_day"}
KINDS = {"day": "number", "turn_of_day": "number", "phase": "text"}


def formula_names(data: dict, *taken: str) -> dict[str, str]:
    """The calendar's names (every spelling) when the rules have one, but those `taken`."""
    if not data.get("calendar"):
        return {}
    return {name: KINDS[meaning] for name, meaning in PLAIN.items() if name not in taken}


def effect_lists(data: dict):
    from pbp.model import schema

    for i, periodic in enumerate(data.get("periodic") or []):
        yield ("periodic", schema.Index(i), "effects"), periodic["effects"]


def compile_phases(compiler) -> None:
    """The order's formulas (each character's view), the periodic effects (with an actor when `each`)."""
    data, program = compiler.data, compiler.program
    order = data.get("turn_order") or {}
    program.order = {}
    for key in ("by", "initiative"):
        if order.get(key) is not None:
            program.order[key] = compiler.formula(order[key], ("turn_order", key), compiler.scope({}), "number")
    groups = order.get("groups")
    if groups is not None and groups["stat"] not in (data.get("stats") or {}):
        stats = list(data.get("stats") or {})
        compiler.errors.append(compiler.rules.error("rules_unknown_ref", ("turn_order", "groups", "stat"),
                                                    value=groups["stat"], section="stats", valid=stats))
    calendar = data.get("calendar") or {}
    phases = calendar.get("phases") or []
    if phases and calendar.get("turns_per_day") not in (None, len(phases)):
        compiler.errors.append(compiler.rules.error("rules_phases_count", ("calendar", "phases"),
                                                    phases=len(phases), turns=calendar["turns_per_day"]))
    program.periodic = [compiler.effects(p["effects"], ("periodic", i, "effects"), compiler.scope({}))
                        for i, p in enumerate(data.get("periodic") or [])]


def turns_per_day(data: dict) -> int:
    calendar = data.get("calendar") or {}
    return calendar.get("turns_per_day") or len(calendar.get("phases") or []) or 1


#: `pbp rules explain`
EXPLAIN = by_lang({
    "title": ("Ordre de jeu et calendrier", "Turn order and calendar"),
    "roster": ("ordre de jeu : celui de campaign.yaml", "turn order: campaign.yaml's"),
    "by": ("ordre de jeu : selon {value}, le plus haut d'abord (égalité : ordre de campaign.yaml)",
           "turn order: by {value}, the highest first (ties: campaign.yaml's order)"),
    "initiative": ("initiative à chaque tour : {value}, la plus haute d'abord (égalité : ordre de campaign.yaml)",
                   "initiative every turn: {value}, the highest first (ties: campaign.yaml's order)"),
    "groups": ("par groupes de {stat} : {order}", "by groups of {stat}: {order}"),
    "day": ("un jour = {turns} tour(s)", "a day = {turns} turn(s)"),
    "phases": ("phases : {phases}", "phases: {phases}"),
    "every": ("tous les {every} tours (à partir du tour {start}){each}",
              "every {every} turns (from turn {start}){each}"),
    "each": (", pour chaque personnage en jeu", ", for each character in play"),
})


def explained(data: dict, lang: str, words, effects) -> list:
    w, out = EXPLAIN[lang], []
    order = data.get("turn_order") or {}
    if order.get("initiative") is not None:
        out.append(w["initiative"].format(value=order["initiative"]))
    elif order.get("by") is not None:
        out.append(w["by"].format(value=order["by"]))
    elif order or data.get("calendar") or data.get("periodic"):
        out.append(w["roster"])
    if order.get("groups"):
        out.append(w["groups"].format(stat=order["groups"]["stat"], order=", ".join(order["groups"]["order"])))
    calendar = data.get("calendar") or {}
    if calendar:
        out.append(w["day"].format(turns=turns_per_day(data)))
        if calendar.get("phases"):
            out.append(w["phases"].format(phases=", ".join(words(p) for p in calendar["phases"])))
    for periodic in data.get("periodic") or []:
        out.append((w["every"].format(every=periodic["every"], start=periodic.get("from", periodic["every"]),
                                      each=w["each"] if periodic.get("each") else ""), effects(periodic["effects"])))
    return out
