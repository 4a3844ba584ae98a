"""`pbp odds --rule data.<name> --character X [--target Y]`: a calculator's
parameters read from the campaign, as the turn would read them when X acts
against Y (the action's argument): a check's target (its `target` formula), a
pool's number of dice, an opposed roll's values (`force`, `cible.force`...).

Each reader returns {parameter: value}; a formula that needs what was not given
(the opponent, the action's argument) or that rolls dice is refused with a
message naming what is missing and the `--set` that would answer instead."""

from __future__ import annotations

from pbp.base.errors import PbpError
from pbp.datarules.opposed import MOST_POOL_DICE
from pbp.datarules.program import canonical_name

from . import rules as R
from .values import whole


def _values(rs, rule: str, formula, state: dict, handle: str, target: str | None, param: str) -> dict:
    """The values of the names `formula` reads, X acting against Y."""
    names = sorted(formula.names_used)
    keys = {name: canonical_name(name) for name in names}
    arg = [name for name in names if keys[name] == "arg" or keys[name].startswith("arg.")]
    if arg:
        raise PbpError("data.odds_reads_arg", rule=rule, names=", ".join(arg), param=param)
    if target is None:
        wanted = [name for name in names if keys[name].startswith("target.")]
        if wanted:
            raise PbpError("data.odds_needs_target", rule=rule, names=", ".join(wanted))
    return R.env(formula.names_used, state, rs.program.data, handle, target, None, {})


def _number(rs, rule: str, formula, state: dict, handle: str, target: str | None, param: str) -> int:
    """A formula without dice, worked out for X against Y, rounded down as the turn rounds it."""
    values = _values(rs, rule, formula, state, handle, target, param)
    if formula.dice_terms:
        raise PbpError("data.odds_formula_rolls", rule=rule, formula=formula.source, param=param)
    return whole(formula.evaluate(values))


def check_reader(rs, check_id: str):
    """A check's `target`, and a pool's number of dice (held to 1..MOST_POOL_DICE as a roll holds it)."""
    rule = f"data.{check_id}"

    def read(state: dict, handle: str, target: str | None) -> dict:
        out = {"target": _number(rs, rule, rs.program.checks[check_id], state, handle, target, "target")}
        if check_id in rs.program.pools:
            dice = _number(rs, rule, rs.program.pools[check_id], state, handle, target, "dice")
            out["dice"] = max(1, min(MOST_POOL_DICE, dice))
        return out
    return read


def opposed_reader(rs, opposed_id: str):
    """Each value the two sides' formulas read (their dice stay dice)."""
    rule = f"data.{opposed_id}"
    compiled = rs.program.opposed[opposed_id]

    def read(state: dict, handle: str, target: str | None) -> dict:
        out = {}
        for side in ("roll", "versus"):
            out.update(_values(rs, rule, compiled[side], state, handle, target, "<name>"))
        return {name: R.as_number(value) for name, value in out.items()}
    return read
