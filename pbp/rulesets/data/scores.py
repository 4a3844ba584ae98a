"""The winners by score at the end of the game (`end: score:`, `fin: classement:`):
each character's score by the rules' formula, seen from that character; every
character of the roster ranked, the best first, those still in play before those
out of play (equal scores share a rank, the next rank counts them: 1, 2, 2, 4;
equal scores in roster order); the winners are every character of the first
rank (the best score in play; when nobody is left in play, the best of all). The ranking is said
in the thread, unless the formula reads a value not public: then to the MJ alone,
and the thread learns the winners only (an MJ's input counts as not public).
With `score_every_turn: true` (`classement_chaque_tour`), the same ranking, to
the same audience, ends every turn the game goes on after.
"""

from __future__ import annotations

from pbp.datarules.program import canonical_name

from . import rules as R

#: names whose values every player knows
_KNOWN = frozenset({"turn", "day", "turn_of_day", "phase"})


def ranked(turn) -> list[str]:
    """The ranking said (its event), and the winners: every character of the best score."""
    formula, state, data = turn.program.score, turn.state, turn.data
    roster = list(turn.scenario.roster)
    scores = {h: R.as_number(formula.evaluate(R.env(formula.names_used, state, data, h, None, None, {})))
              for h in roster}
    out = {h: bool(state["characters"][h]["out"]) for h in roster}
    place = {h: (out[h], -scores[h]) for h in roster}
    order = sorted(roster, key=place.get)  # stable: roster order among equals
    rows, rank = [], 0
    for i, handle in enumerate(order):
        if i == 0 or place[handle] != place[order[i - 1]]:
            rank = i + 1
        rows.append({"who": handle, "score": scores[handle], "rank": rank, "out": out[handle]})
    turn.out.public("ranking", rows=rows) if _public(turn) else turn.out.gm("ranking", rows=rows)
    return [row["who"] for row in rows if row["rank"] == 1]


def _public(turn) -> bool:
    """Whether every value the score reads is public: a stat or gauge seen by all, the
    turn, the calendar (an MJ's input, a secret stat: not)."""
    program = turn.program
    for name in program.score.names_used:
        key = canonical_name(name)
        spec = program.stats.get(key) or program.gauges.get(key)
        if key in _KNOWN:
            continue
        if spec is None or "public" not in R.visibility(spec.get("visibility")):
            return False
    return True
