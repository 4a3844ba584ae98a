"""Murder in the lab (seed 000, first part): a hidden-role forum game.

Investigators hunt one or more murderers hidden among the witnesses. See
README.md for the rules as implemented and data.yaml for every number. The
rules are in rules.py; this module adds the ruleset's secrecy hooks.
"""

from pbp.events import GM, Players
from pbp.rulesets.murder import rules as _rules
from pbp.rulesets.murder.rules import DEAD, INVESTIGATOR

#: how the posts name a sheet number, a score and an armed room, in French and English:
#: the forms a leaked secret would take in a public post (a bare number would match anything)
SHEET_FORMS = ("fiche n° {n}", "sheet #{n}")
SCORE_LABELS = {"resilience": ("résilience", "resilience"), "defence": ("défense", "defence"),
                "mensonge": ("mensonge", "lying"), "survival": ("survie", "survival")}
TRAP_FORMS = ("piège dans {room}", "{room} est piégée", "trap in {room}", "{room} is trapped")


class Murder(_rules.Murder):
    __doc__ = _rules.Murder.__doc__

    def roleplay_audience(self, state, scenario, handle):
        """A ghost's roleplay would tell the thread which ghost acted (a possessing
        ghost is a dead murderer): it goes to the MJ only, and to the ghost's own
        report when `ghost_roleplay.own_report` is true."""
        p = state["players"].get(handle)
        if p is not None and p["status"] == DEAD:
            return Players(handle) if self.rules["ghost_roleplay"]["own_report"] else GM
        return super().roleplay_audience(state, scenario, handle)

    def secret_values(self, state, scenario):
        """Every sheet the rules have not revealed (an execution reveals the
        executed player's sheet, the end of the game every sheet): its story, job
        and alibi, its number, its scores (but an investigator's survival, public
        from the set-up); and every armed room, as the posts would name it."""
        if state.get("over"):
            return set()
        players = state["players"]
        board = self.board(scenario)
        revealed = {h for h, p in players.items() if (p.get("died") or {}).get("cause") == "executed"}

        def sheet_values(h):
            p = players[h]
            sheet = self._sheet(scenario, p)
            out = {str(sheet.get(k, "")).strip() for k in ("story", "job", "alibi")}
            out |= {form.format(n=p["sheet"]) for form in SHEET_FORMS}
            for score, value in p["scores"].items():
                if not (p["role"] == INVESTIGATOR and score == "survival"):
                    out |= {f"{label} {value}" for label in SCORE_LABELS.get(score, (score,))}
            return out

        hidden = set().union(*(sheet_values(h) for h in players if h not in revealed))
        shown = set().union(*(sheet_values(h) for h in revealed))
        traps = {form.format(room=board.name(room)) for room in state.get("traps", {}) for form in TRAP_FORMS}
        # a revealed sheet may share a job or a number with a hidden one: showing it is no leak
        return {v for v in hidden - shown if v} | traps


RULESET = Murder

__all__ = ["RULESET", "Murder"]
