"""skirmish: tactical action resolution on a grid (seed 003). See README.md.

The rules are in rules.py; this module adds the ruleset's secrecy hook."""

from pbp.rulesets.skirmish import rules as _rules
from pbp.rulesets.skirmish.rules import CHARACTER, CHARACTERISTICS, CREATURE

#: how the MJ log and the reports name a skill, in French and English
SKILL_LABELS = {"bagarre": ("bagarre", "brawl"), "melee": ("mêlée", "melee"), "distance": ("distance", "ranged"),
                "esquive": ("esquive", "dodge"), "magie": ("magie", "magic")}


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"  # the templates' sign(): a true minus


class Skirmish(_rules.Skirmish):
    __doc__ = _rules.Skirmish.__doc__

    def secret_values(self, state, scenario):
        """The sheets' values the public post never shows (it gives the forum
        line: rolls, final chances, damage and reduction totals, who fell): every
        character's and creature's characteristics ("DEX 15"), luck ("chance
        (4 pts)"), non-zero skills ("mêlée +45"), PV ("12/20 PV") and XP ("7 XP"),
        as the MJ log and the reports print them."""
        out = set()
        for u in state["units"].values():
            if u["type"] not in (CHARACTER, CREATURE):
                continue
            out |= {f"{c} {u[c]}" for c in CHARACTERISTICS if c in u}
            out |= {f"chance ({u['chance']} pts)", f"luck ({u['chance']} pts)"}
            for skill, value in (u.get("competences") or {}).items():
                if value:
                    out |= {f"{label} {_signed(value)}" for label in SKILL_LABELS.get(skill, (skill,))}
            out.add(f"{u['pv']}/{u['pv_max']} PV")
            if u["type"] == CHARACTER:
                out.add(f"{u['xp']} XP")
        return out


RULESET = Skirmish
