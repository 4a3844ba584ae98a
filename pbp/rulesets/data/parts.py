"""A formula with its numbers in place, for a post that shows every number with
its parts: `1d20 (12) + force 3 = 15`. Each dice term with the roll it gave,
each name with its value, when the readers of the event may see that value (a
secret stat in a public line shows its name alone: the thread never learns it)."""

from __future__ import annotations

from pbp.datarules.program import canonical_name
from pbp.model import events as ev

from . import rules as R

#: how a formula names the target's values: a post may show them after the target's name
_THEIRS = ("cible.", "target.")
#: names whose values every player knows (the turn, the calendar)
_PUBLIC_NAMES = frozenset({"turn", "day", "turn_of_day", "phase"})


def rolled(turn, formula, values: dict, scope, to=None):
    """A formula that rolls dice (`1d20 + force`), evaluated: its dice labelled `<scope's
    label>.<d1, d2...>` and shown with the formula, every number with its parts (to `to`,
    else the thread): `Dés de Lyra : 1d20 (12) + force 3 > 1d20 (9) + cible.force 1 → vrai.`"""
    rolls, by_term = [], {}

    def roll(expression, suffix):
        rolls.append(turn.dice.roll(f"{scope.label}.{suffix}", expression))
        by_term[suffix] = rolls[-1]
        return rolls[-1].total

    result = formula.evaluate(values, roll=roll)
    if rolls and not turn.out.quiet:  # dice in a branch not taken (si(...)): nothing rolled, nothing to show
        audience = R.audience(to, scope.actor, scope.target)
        turn.emit(audience, "dice", who=scope.actor, rolls=rolls, formula=formula.source, value=R.as_number(result),
                  parts=shown(turn, formula, values, by_term, audience, scope, theirs_named=True))
    return result


def shown(turn, formula, values: dict, by_term: dict, audience, scope, theirs_named: bool = False) -> list[dict]:
    """A formula's parts: `{"text"}` as written, `{"name", "value"}` for each name (its value
    left out where the readers may not see it), `{"rolled": Roll}` for each dice term rolled
    (one in a branch not taken: as written). `cible.force` is shown as `force` (after the
    target's name, in an opposed roll), unless `theirs_named`."""
    out = []
    for piece in formula.pieces(values):
        if "dice" in piece:
            rolled = by_term.get(piece["dice"])
            out.append({"rolled": rolled} if rolled is not None else {"text": piece["written"]})
        elif "name" in piece:
            name = piece["name"]
            if not theirs_named and name.startswith(_THEIRS):
                name = name.split(".", 1)[1]
            if may_show(turn, piece["key"], audience, scope):
                out.append({"name": name, "value": _plain(piece["value"])})
            else:
                out.append({"text": name})
        else:
            out.append(piece)
    return out


def may_show(turn, key: str, audience, scope) -> bool:
    """Whether the readers of an event may see the value of the name `key` (as the formula has it):
    the MJ sees all; a stat or gauge public, or revealed, is everyone's; one seen by its
    owner only reaches a report that only its owner reads; any other value (the MJ's
    inputs, a result, the argument) stays out of the thread."""
    key = canonical_name(key)
    if audience is ev.GM or key in _PUBLIC_NAMES:
        return True
    owner, ident = (scope.target, key[len("target."):]) if key.startswith("target.") else (scope.actor, key)
    program = turn.program
    spec = program.stats.get(ident) or program.gauges.get(ident)
    if spec is None or owner is None:
        return audience is not ev.PUBLIC
    seen = R.visibility(spec.get("visibility"))
    if "public" in seen or ident in turn.state["characters"][owner].get("revealed", ()):
        return True
    if audience is ev.PUBLIC or not ({"owner", "actor", "self"} & set(seen)):
        return False
    return set(audience.handles) <= {owner}


def _plain(value):
    """A name's value as events.yaml can hold it: numbers, texts, true/false, lists of them."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v) for v in value]
        return items if isinstance(value, (list, tuple)) else sorted(items, key=str)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    number = R.as_number(value)
    return number if isinstance(number, (int, float)) else str(value)
