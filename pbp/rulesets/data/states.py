"""States ("conditions with a duration") as a turn plays them: `inflict` and
`cure` effects, what a state forbids or blocks when orders are checked, and
the end of the states whose time is up, announced to those who see them.

A character's states are kept in the state as `states: {<id>: <last turn>}`
(None: until an effect lifts it), added the first time one is inflicted (an
archive from rules without states keeps its bytes). A state inflicted during
turn T for N turns applies to the orders of turns T+1 to T+N and ends at the
end of turn T+N; the orders of turn T were checked before it was inflicted.
"""

from __future__ import annotations

from pbp.datarules.states import stacking

from . import rules as R
from .values import whole


def held(state: dict, handle: str | None) -> dict:
    """A character's states: {id: last turn or None}."""
    if handle is None:
        return {}
    return state["characters"][handle].get("states") or {}


def state_problems(program, state: dict) -> list:
    """A state.yaml the MJ edited by hand: each character's `states:` a table of
    states of the rules, each to its last turn (a whole number, or null: until
    lifted), else refused at its place."""
    from pbp.base.errors import PbpError

    known = program.data.get("states") or {}
    errors = []
    characters = state.get("characters") if isinstance(state.get("characters"), dict) else {}
    for handle, me in characters.items():
        if not isinstance(me, dict) or me.get("states") is None:
            continue
        if not isinstance(me["states"], dict):
            errors.append(PbpError("data.state_states_shape", file="state.yaml", at=("characters", handle, "states"),
                                   handle=handle, value=me["states"]))
            continue
        for ident, last in me["states"].items():
            if ident not in known:
                errors.append(PbpError("data.state_unknown_state", file="state.yaml",
                                       at=("characters", handle, "states", ident), value=ident, valid=list(known)))
            elif last is not None and (isinstance(last, bool) or not isinstance(last, int)):
                errors.append(PbpError("data.state_states_shape", file="state.yaml",
                                       at=("characters", handle, "states", ident), handle=handle, value=last))
    return errors


def blocked(program, state: dict, handle: str) -> str | None:
    """The first state that keeps `handle` from acting (`blocks: true`), else None."""
    for ident in held(state, handle):
        if (program.data["states"][ident]).get("blocks"):
            return ident
    return None


def forbidding(program, state: dict, handle: str, action_id: str) -> tuple | None:
    """(None, reason words, path) when a state of `handle` forbids `action_id` (unmet's shape), else None."""
    for ident, last in held(state, handle).items():
        spec = program.data["states"][ident]
        if action_id in (spec.get("forbids") or ()) or spec.get("blocks"):
            name = R.name_of(spec, ident)
            left = "" if last is None else last - state["turn"]
            reason = {"fr": f"état « {name['fr']} »" + (f" (encore {left} tour{'s' if left > 1 else ''})"
                                                          if left else ""),
                      "en": f"state `{name['en']}`" + (f" ({left} more turn{'s' if left > 1 else ''})"
                                                        if left else "")}
            return None, reason, ("states", ident)
    return None


def inflict(turn, effect, scope) -> None:
    """`inflict: <state>`: each character the effect is on gets the state for its
    duration (the effect's `duration:`, else the state's; none: until lifted),
    stacked by the state's `stacking` when it already has it."""
    ident = effect.value
    spec = turn.data["states"][ident]
    duration = spec.get("duration")
    if "duration" in effect.formulas:
        duration = whole(turn.evaluate(effect.formulas["duration"], scope, effect.to))
        if duration <= 0:
            return
    now = turn.state["turn"]
    for handle in turn.who(effect, scope):
        mine = turn.state["characters"][handle].setdefault("states", {})
        last = None if duration is None else now + duration
        if ident in mine:
            rule, current = stacking(spec), mine[ident]
            if rule == "ignore" or current is None:
                continue
            last = None if last is None else (current + duration if rule == "extend" else max(current, last))
        mine[ident] = last
        turn.emit(_audience(effect.to, spec, handle, scope), "state", who=handle, state=ident,
                  name=R.name_of(spec, ident), turns=None if last is None else last - now)


def cure(turn, effect, scope) -> None:
    """`cure: <state>`: the state lifted from each character the effect is on that has it."""
    ident = effect.value
    spec = turn.data["states"][ident]
    for handle in turn.who(effect, scope):
        mine = turn.state["characters"][handle].get("states") or {}
        if ident in mine:
            del mine[ident]
            turn.emit(_audience(effect.to, spec, handle, scope), "state_off", who=handle, state=ident,
                      name=R.name_of(spec, ident), expired=False, text=_end_text(turn, spec, handle))


def expire(turn) -> None:
    """At the end of a turn: every state whose last turn it was ends, said to those who see it."""
    now, characters = turn.state["turn"], turn.state["characters"]
    for handle in [h for h in turn.scenario.roster if h in characters]:
        mine = characters[handle].get("states") or {}
        for ident in [i for i, last in mine.items() if last is not None and last <= now]:
            del mine[ident]
            spec = turn.data["states"][ident]
            turn.emit(R.audience(R.visibility(spec.get("visibility")), handle), "state_off", who=handle,
                      state=ident, name=R.name_of(spec, ident), expired=True, text=_end_text(turn, spec, handle))


def _audience(to, spec: dict, handle: str, scope):
    return R.audience(to or R.visibility(spec.get("visibility")), handle, scope.target)


def _end_text(turn, spec: dict, handle: str) -> dict | None:
    if spec.get("end_message") is None:
        return None
    return R.filled(R.words(spec["end_message"]), {"name": turn.scenario.name(handle)})


def secret_names(program, state: dict) -> set[str]:
    """The names of the states not public held now, in both languages (a public post never shows them)."""
    found = set()
    for handle, me in state["characters"].items():
        for ident in me.get("states") or {}:
            spec = program.data["states"][ident]
            if "public" not in R.visibility(spec.get("visibility")):
                found.update(R.name_of(spec, ident).values())
    return found
