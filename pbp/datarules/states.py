"""States ("conditions with a duration") of a rules file, as the compiler and
`pbp rules check` see them: `states:` (`états:`) names a state, its duration in
turns (or until lifted), whether it keeps the character from acting, which
actions it forbids, who sees it, and what a second infliction does (stacking).
Effects `inflict: <state>` (`infliger:`) and `cure: <state>` (`lever:`) set and
lift one; formulas read `state.<id>` (`état.<id>`: does the character have it)
and `state.<id>.left` (`état.<id>.reste`: turns it lasts after the current one).
The engine's side is pbp/rulesets/data/states.py."""

from __future__ import annotations

from pbp.base.i18n import by_lang

#: how a formula spells a state name, and its parts: `état.prison.reste` -> `state.prison.left`
PREFIXES = ("state", "states", "etat", "etats", "état", "états")
PARTS = {"reste": "left", "restant": "left", "tours": "left", "turns": "left", "left": "left"}
#: what inflicting a state a character already has does (the MJ's words -> the engine's)
STACKING = {"refresh": "refresh", "renouveler": "refresh", "extend": "extend", "prolonger": "extend",
            "ignore": "ignore", "ignorer": "ignore"}
VERBS = ("inflict", "cure")


def canonical(head: str, rest: str) -> str | None:
    """`état` + `prison.reste` -> `state.prison.left`; None when `head` names no state."""
    if head not in PREFIXES or not rest:
        return None
    ident, dot, part = rest.partition(".")
    return f"state.{ident}" + (f".{PARTS.get(part, part)}" if dot else "")


def formula_names(data: dict, prefix: str = "") -> dict[str, str]:
    """The names of the states a formula may read: `state.<id>` (bool), `state.<id>.left` (number)."""
    names = {}
    for ident in data.get("states") or {}:
        names[f"{prefix}state.{ident}"] = "bool"
        names[f"{prefix}state.{ident}.left"] = "number"
    return names


def stacking(spec: dict) -> str:
    return STACKING.get(str(spec.get("stacking", "refresh")), "refresh")


def compile_effect(compiler, raw: dict, verb: str, path: tuple, scope: dict, formulas: dict):
    """`inflict: prison` (with `duration:` a formula) or `cure: prison`: the state's id."""
    value = compiler.ref(raw[verb], "states", path + (verb,))
    if verb == "inflict" and raw.get("duration") is not None:
        formulas["duration"] = compiler.formula(raw["duration"], path + ("duration",), scope, "number")
    elif raw.get("duration") is not None:
        compiler.errors.append(compiler.rules.error("rules_duration_without_inflict", path + ("duration",)))
    return value


def problems(rules) -> list:
    """What a state refers to: the actions it forbids, each an action of the rules."""
    from pbp.base import i18n

    errors = []
    actions = list(rules.data.get("actions") or {})
    for ident, spec in (rules.data.get("states") or {}).items():
        for i, action in enumerate(spec.get("forbids") or []):
            if action not in actions:
                errors.append(rules.error("rules_unknown_ref", ("states", ident, "forbids", i), value=action,
                                          section="actions", valid=actions,
                                          suggestion=i18n.closest(str(action), actions)))
    return errors


def warnings(rules) -> list:
    """A state no effect ever inflicts (`pbp rules check`): its rules never apply."""
    inflicted = set()
    for effect in _all_effects(rules.data):
        if "inflict" in effect:
            inflicted.add(effect["inflict"])
    return [rules.error("rules_warning_state_never", ("states", ident), state=ident)
            for ident in rules.data.get("states") or {} if ident not in inflicted]


def _all_effects(data: dict):
    from pbp.datarules.format import effect_lists

    stack = [effects for _, effects in effect_lists(data)]
    while stack:
        for effect in stack.pop():
            if isinstance(effect, dict):
                yield effect
                stack += [effect[k] for k in ("then", "else") if isinstance(effect.get(k), list)]


#: `pbp rules explain`: a state in each language
WORDS = by_lang({
    "title": ("États", "States"),
    "lasts": ("dure {value} tour(s)", "lasts {value} turn(s)"),
    "until": ("jusqu'à ce qu'un effet le lève", "until an effect lifts it"),
    "blocks": ("empêche d'agir", "keeps from acting"),
    "forbids": ("interdit : {value}", "forbids: {value}"),
    "stacking": ({"refresh": "infligé à nouveau : la durée la plus longue",
                  "extend": "infligé à nouveau : durées ajoutées", "ignore": "infligé à nouveau : sans effet"},
                 {"refresh": "inflicted again: the longer duration", "extend": "inflicted again: durations added",
                  "ignore": "inflicted again: no effect"}),
})
#: how an effect of this block reads in `pbp rules explain`: (fr, en) with {value}
SAYS = {"inflict": ("infliger l'état {value}", "inflict the state {value}"),
        "cure": ("lever l'état {value}", "lift the state {value}")}


def explained(data: dict, lang: str, name, seen) -> list[str]:
    """One line per state: its name, duration, what it prevents, stacking, who sees it
    (`name(spec, id)` and `seen(visibility)` as the rest of the explanation says them)."""
    w, lines = WORDS[lang], []
    for ident, spec in (data.get("states") or {}).items():
        parts = [f"{name(spec, ident)} ({ident})",
                 w["lasts"].format(value=spec["duration"]) if spec.get("duration") else w["until"]]
        if spec.get("blocks"):
            parts.append(w["blocks"])
        if spec.get("forbids"):
            parts.append(w["forbids"].format(value=", ".join(spec["forbids"])))
        parts.append(w["stacking"][stacking(spec)])
        parts.append(seen(spec.get("visibility")))
        lines.append(" — ".join(parts))
    return lines
