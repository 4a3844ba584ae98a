"""Dice pools and opposed rolls of a rules file, as the compiler sees them.

- A check's `pool:` (`réserve:`): `{dice: <formula>, sides: 6, success: 4}`, so
  many dice of `sides` faces, each at `success` or more a success; the check
  compares the number of successes with its `target`.
- `opposed:` (`oppositions:`): the acting character's `roll` (a formula with
  dice) against the `versus` one (`adversaire`, the target's), `ties`, and
  `rounds` (best of N exchanges); the effect `oppose: <id>` (`opposer:`) with
  `then:`/`else:` binds `<as>` (the actor won), `<as>.margin`, `<as>.roll`,
  `<as>.versus`, `<as>.won`, `<as>.lost`.
The engine's side is pbp/rulesets/data/opposed.py."""

from __future__ import annotations

#: the most dice a pool rolls (a formula giving more is held to it)
MOST_POOL_DICE = 100
#: the most times a tied exchange is rolled again (`ties: reroll`), then the defender wins it
MOST_REROLLS = 10
WORDS = {"defender": "defender", "defenseur": "defender", "attacker": "attacker", "attaquant": "attacker",
         "reroll": "reroll", "relance": "reroll", "relancer": "reroll"}
VERBS = ("oppose",)
BOUND = (("", "bool"), (".margin", "number"), (".roll", "number"), (".versus", "number"), (".won", "number"),
         (".lost", "number"))


def ties(spec: dict) -> str:
    return WORDS.get(str(spec.get("ties", "defender")), "defender")


def compile_pools(compiler) -> None:
    """Each check's pool size formula (`program.pools`), and a check with neither `dice` nor `pool` refused."""
    program = compiler.program
    program.pools = {}
    for check_id, check in (compiler.data.get("checks") or {}).items():
        path = ("checks", check_id)
        if check.get("pool") is not None:
            program.pools[check_id] = compiler.formula(check["pool"]["dice"], path + ("pool", "dice"),
                                                       compiler.scope({"arg": "character"}), "number")
        elif check.get("dice") is None:
            compiler.errors.append(compiler.rules.error("rules_check_needs_dice", path))


def pool_expression(spec: dict, count: int) -> str:
    """The notation of a pool of `count` dice (held to 1..MOST_POOL_DICE: a pool always rolls a die)."""
    count = max(1, min(MOST_POOL_DICE, count))
    return f"{count}{_pool_die(spec['pool'])}"


def _pool_die(pool: dict) -> str:
    """`d6>=4`, or `d6!=6>=4` for a pool that explodes (each die of the explosion may be a success)."""
    sides = pool.get("sides", 6)
    explode = f"!={sides}" if pool.get("explode") else ""
    return f"d{sides}{explode}>={pool.get('success', 4)}"


def dice_text(check: dict) -> str:
    """A check's dice as the explanation shows them: `1d100`, or a pool `(force + 1)d6>=4`."""
    pool = check.get("pool")
    if pool is None:
        return str(check.get("dice"))
    return f"({pool['dice']}){_pool_die(pool)}"


def compile_opposed(compiler) -> None:
    """Each opposition's two formulas, in an action's scope with a character argument (the opponent)."""
    program = compiler.program
    program.opposed = {}
    scope = compiler.scope({"arg": "character"})
    for opposed_id, spec in (compiler.data.get("opposed") or {}).items():
        path = ("opposed", opposed_id)
        program.opposed[opposed_id] = {side: compiler.formula(spec[side], path + (side,), scope, "number")
                                       for side in ("roll", "versus")}


def compile_effect(compiler, raw: dict, verb: str, path: tuple, scope: dict, formulas: dict):
    """`oppose: <id>`: the opposition's id; the action must take a character; its results bound."""
    value = compiler.ref(raw[verb], "opposed", path + (verb,))
    if not compiler.takes_character(path, scope):
        compiler.errors.append(compiler.rules.error("rules_oppose_needs_character", path + (verb,)))
    as_name = raw.get("as") or value
    for suffix, kind in BOUND:
        scope[f"{as_name}{suffix}"] = kind
    return value


def explained(data: dict, lang: str, name) -> list[str]:
    w = {"fr": ("{roll} contre {versus}", "égalité : {ties}", "au meilleur de {rounds} manches",
                {"defender": "le défenseur l'emporte", "attacker": "l'attaquant l'emporte", "reroll": "on relance"}),
         "en": ("{roll} against {versus}", "tie: {ties}", "best of {rounds} exchanges",
                {"defender": "the defender wins", "attacker": "the attacker wins", "reroll": "rolled again"})}[lang]
    out = []
    for opposed_id, spec in (data.get("opposed") or {}).items():
        parts = [f"{name(spec, opposed_id)} ({opposed_id})", w[0].format(roll=spec["roll"], versus=spec["versus"]),
                 w[1].format(ties=w[3][ties(spec)])]
        if spec.get("rounds", 1) > 1:
            parts.append(w[2].format(rounds=spec["rounds"]))
        out.append(" — ".join(parts))
    return out


SAYS = {"oppose": ("jet opposé {value} contre la cible", "opposed roll {value} against the target")}
