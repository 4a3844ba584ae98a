"""Votes and teams as a turn plays them: ballots cast by actions (`vote: <id>`),
tallied at the end of the turn by the vote's majority rule, the effects on the
one chosen; a team's victory at the end of a turn.

The ruling, in the order it is applied (docs/rules-format.md says it to the MJ):
- one ballot per voter and vote in a turn: a later one replaces an earlier one;
- the voters are the characters in play for whom `voters` holds at the tally
  (all in play without it); a ballot of anyone else does not count;
- relative majority: the most votes (at least one); a tie is settled by `ties`
  (nobody, all the tied, or drawn by lot among them with a roll labelled
  `vote.<id>.tie`, the tied in roster order);
- absolute majority: more than half of the base (votes * 2 > base), the base
  being the voters (abstentions count against) or the ballots cast;
- unanimity: every one of the base for the same character.
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.datarules.votes import word

from . import rules as R


def cast(turn, effect, scope) -> None:
    """The actor's ballot for the action's target, said to all (public ballot) or to the voter alone (secret)."""
    if scope.target is None:
        return
    vote_id = effect.value
    spec = turn.data["votes"][vote_id]
    turn.ballots.setdefault(vote_id, {})[scope.actor] = scope.target
    seen = effect.to or (("public",) if word(spec.get("ballot"), "public") == "public" else ("actor",))
    turn.emit(R.audience(seen, scope.actor, scope.target), "ballot", who=scope.actor, vote=vote_id,
              name=R.name_of(spec, vote_id), choice=scope.target)


def voters(turn, vote_id: str) -> list[str]:
    """The characters in play who may vote in `vote_id` now, in roster order."""
    formula = turn.program.votes[vote_id]["voters"]
    playing = R.playing(turn.state, turn.scenario.roster)
    if formula is None:
        return playing
    return [h for h in playing if formula.evaluate(R.env(formula.names_used, turn.state, turn.data, h, None, None, {}))]


def may_vote(rs, state: dict, handle: str, action_id: str) -> tuple | None:
    """(None, reason, path) when `action_id` casts a ballot in a vote `handle` may not vote in (unmet's shape)."""
    for vote_id, compiled in rs.program.votes.items():
        formula = compiled["voters"]
        if action_id not in compiled["actions"] or formula is None:
            continue
        if not formula.evaluate(R.env(formula.names_used, state, rs.program.data, handle, None, None, {})):
            name = R.name_of(rs.program.data["votes"][vote_id], vote_id)
            return None, {"fr": f"ne vote pas à « {name['fr']} »", "en": f"does not vote in `{name['en']}`"}, \
                ("votes", vote_id, "voters")
    return None


def tally(turn) -> None:
    """Every vote with ballots this turn, in the rules' order: the count, who is chosen, their effects."""
    for vote_id, spec in (turn.data.get("votes") or {}).items():
        ballots = turn.ballots.get(vote_id)
        if not ballots:
            continue
        electorate = voters(turn, vote_id)
        counted = {voter: choice for voter, choice in ballots.items() if voter in electorate}
        counts = _counts(counted, turn.scenario.roster)
        base = len(electorate) if word(spec.get("base"), "voters") == "voters" else len(counted)
        chosen, tied, needed = _chosen(turn, vote_id, spec, counts, base)
        tallied = dict(vote=vote_id, name=R.name_of(spec, vote_id), counts=[{"who": h, "votes": n} for h, n in counts],
                       base=base, needed=needed, rule=word(spec.get("majority"), "relative"), chosen=chosen,
                       tied=tied, voters=len(electorate), ballots=len(counted))
        # a secret vote's count and choice are the MJ's: the thread learns what its effects say
        secret = word(spec.get("ballot"), "public") == "secret"
        turn.emit(ev.GM if secret else ev.PUBLIC, "tally", **tallied)
        compiled = turn.program.votes[vote_id]
        for handle in chosen:
            scope = turn.new_scope(handle, f"{handle}.{vote_id}")
            scope.bound[f"{vote_id}.votes"] = dict(counts).get(handle, 0)
            turn.run(compiled["effects"], scope)
        if not chosen:
            turn.run(compiled["none"], turn.new_scope(None, f"vote.{vote_id}"))


def _counts(counted: dict, roster) -> list[tuple[str, int]]:
    """(candidate, votes), the most first, ties in roster order."""
    totals: dict[str, int] = {}
    for choice in counted.values():
        totals[choice] = totals.get(choice, 0) + 1
    order = list(roster)
    return sorted(totals.items(), key=lambda item: (-item[1], order.index(item[0]) if item[0] in order else 0))


def _chosen(turn, vote_id: str, spec: dict, counts: list, base: int) -> tuple[list, list, int | None]:
    """(chosen, tied, votes needed) by the vote's majority rule."""
    rule = word(spec.get("majority"), "relative")
    if not counts:
        return [], [], None
    leader, top = counts[0]
    if rule == "absolute":
        needed = base // 2 + 1
        return ([leader] if top * 2 > base else []), [], needed
    if rule == "unanimous":
        return ([leader] if base > 0 and top == base else []), [], base
    tied = [h for h, n in counts if n == top]
    if len(tied) == 1:
        return tied, [], None
    ties = word(spec.get("ties"), "nobody")
    if ties == "all":
        return tied, tied, None
    if ties == "random":
        roll = turn.dice.roll(f"vote.{vote_id}.tie", f"1d{len(tied)}")
        return [tied[roll.total - 1]], tied, None
    return [], tied, None


def victory(turn) -> list[str] | None:
    """The first victory of `end: victories:` whose formula holds: its team's characters
    (in or out of play: a team wins), said in the thread; None when none holds."""
    data, state = turn.data, turn.state
    stat = ((data.get("end") or {}).get("teams") or {}).get("stat")
    for victory_spec, when, effects in turn.program.victories:
        if not when.evaluate(R.env(when.names_used, state, data, None, None, None, {})):
            continue
        team = str(victory_spec["team"])
        members = [h for h in turn.scenario.roster if h in state["characters"]
                   and str(state["characters"][h]["stats"].get(stat)) == team]
        turn.emit(ev.PUBLIC, "victory", team=team, winners=members)
        turn.run(effects, turn.new_scope(None, f"end.{team}"))
        return members
    return None
