"""What a player who missed turns is owed on return, as the compiler sees it:
`missed_orders: on_return:` (`ordres_manqués: au_retour:`) gives `actions` and
`points` more for each turn missed in a row (at most `max` turns counted), and
formulas read `missed` (`absences`): the turns the character missed in a row
before this one. The engine's side is pbp/rulesets/data/absence.py."""

from __future__ import annotations

#: the name of the turns missed in a row, in both languages
PLAIN = ("absences", "tours_manques", "tours_manqués", "missed")


def formula_names() -> dict[str, str]:
    return {name: "number" for name in PLAIN}


def tracked(data: dict, formulas, canonical_name) -> bool:
    """Whether the rules need the turns each character missed: an `on_return`, or a
    formula reading `missed` (`canonical_name`: how the compiler spells a name)."""
    if (data.get("missed_orders") or {}).get("on_return"):
        return True
    return any(canonical_name(name) in PLAIN for _, formula in formulas for name in formula.names_used)


EXPLAIN = {"fr": "au retour, par tour manqué d'affilée (au plus {max}) : {actions} action(s) et {points} point(s) de plus",
           "en": "on return, for each turn missed in a row (at most {max}): {actions} more action(s) and {points} more point(s)"}


def explained(data: dict, lang: str) -> list[str]:
    owed = (data.get("missed_orders") or {}).get("on_return")
    if not owed:
        return []
    return [EXPLAIN[lang].format(max=owed.get("max", 1), actions=owed.get("actions", 0), points=owed.get("points", 0))]
