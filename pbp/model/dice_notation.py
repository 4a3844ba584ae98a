"""Dice notation: what an expression says, how its dice are thrown from a
stream of faces, how a roll is shown, and its exact distribution.

    2d6+1d4-2   sums of dice and constants (d% is 1d100)
    2d20kh1     keep the highest (kl: lowest; dh/dl: drop the highest/lowest)
    3d6!        exploding dice (on the highest face; !>=5, !>5: on 5 and up)
    4d6r1       reroll a 1 (ro1: once; r<3, r<=2...)
    6d6>=4      count successes (f1: minus each 1, 6d6>=4f1)
    4dF         Fate dice (-1, 0, +1)

Modifiers come in that order after the die: reroll, explode, keep/drop,
count. A die that rerolls is rerolled at most REROLL_DEPTH times (`ro`: once)
and a die that explodes adds at most EXPLODE_DEPTH dice: the odds are exact
for those same bounds. docs/dice.md says in which order the dice are read.
"""

from __future__ import annotations

import functools
import operator
import re

from pbp.base.errors import PbpError
from pbp.base.record import FrozenRecord

#: the most dice in one term, and faces on a die (a larger one is refused, saying so)
MAX_COUNT = 1000
MAX_SIDES = 100000
#: the longest expression read (a longer one is refused before it is read)
MAX_LENGTH = 200
#: extra dice one exploding die adds at most; rerolls of one die at most (`r`)
EXPLODE_DEPTH = 10
REROLL_DEPTH = 10
#: the dice and faces an exact distribution may cost, beyond which `pbp odds` refuses
ODDS_BUDGET = 4_000_000

_OPS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "=": operator.eq}
_CMP = r"(?:>=|<=|>|<|=)"
# One reading of any text (no two `\s*` side by side): a run of spaces costs
# linear time to refuse, not cubic.
_TERM_TEXT = (
    r"\s*(?:(?P<sign>[+-])\s*)?(?:"
    r"(?:(?P<count>\d+)\s*)?[dD]\s*(?P<sides>\d+|%|[fF])"
    rf"(?:r(?P<once>o)?(?P<rop>{_CMP})?(?P<rval>\d+))?"
    r"(?:(?P<explode>!)(?:(?P<eop>>=|>|=)(?P<eval>\d+))?)?"
    r"(?:(?P<keep>kh|kl|dh|dl|k)(?P<kn>\d+))?"
    rf"(?:(?P<sop>{_CMP})(?P<sval>-?\d+)(?:f(?P<fop>{_CMP})?(?P<fval>-?\d+))?)?"
    r"|(?P<const>\d+))\s*")
#: a plain sum's term (`2d6`, `+3`): read first, its pattern costs far less to
#: compile than the notation's, which a command compiles only when it meets one
_PLAIN = re.compile(r"\s*(?:(?P<sign>[+-])\s*)?(?:(?:(?P<count>\d+)\s*)?[dD]\s*(?P<sides>\d+|%)|(?P<const>\d+))\s*")


@functools.cache
def _notation():
    return re.compile(_TERM_TEXT)



class Cond(FrozenRecord):
    """A comparison a face is put to: `>=4`, `=1`."""

    __slots__ = ("op", "value")

    def __init__(self, op: str, value: int):
        self.op = op
        self.value = value

    def test(self, face: int) -> bool:
        return _OPS[self.op](face, self.value)

    def __str__(self) -> str:
        return f"{'' if self.op == '=' else self.op}{self.value}"


class Mods(FrozenRecord):
    """What a term does beyond summing its dice (None: nothing)."""

    __slots__ = ("fate", "reroll", "once", "explode", "keep", "keep_n", "success", "failure")

    def __init__(self, fate: bool = False, reroll: Cond | None = None, once: bool = False,
                 explode: Cond | None = None, keep: str | None = None, keep_n: int = 0,
                 success: Cond | None = None, failure: Cond | None = None):
        self.fate = fate
        self.reroll = reroll
        self.once = once
        self.explode = explode
        self.keep = keep  # kh | kl | dh | dl
        self.keep_n = keep_n
        self.success = success
        self.failure = failure

    def text(self, sides: int) -> str:
        out = ""
        if self.reroll:
            out += f"r{'o' if self.once else ''}{self.reroll}"
        if self.explode:
            # a bare `!` followed by a count (`!>=5`) would read as exploding on 5: say the face
            bare = self.explode == Cond("=", sides) and (self.keep or not self.success)
            out += "!" if bare else f"!{self.explode.op}{self.explode.value}"
        if self.keep:
            out += f"{self.keep}{self.keep_n}"
        if self.success:
            out += f"{self.success.op}{self.success.value}"
            if self.failure:
                out += f"f{self.failure}"
        return out


#: a plain term's modifiers: none
NO_MODS = Mods()


class Die(FrozenRecord):
    """One die as thrown: every face read (rerolled ones first), the value it
    counts for (its chain's sum when it exploded), and whether it was kept."""

    __slots__ = ("reads", "chain", "value", "kept")

    def __init__(self, reads: tuple[int, ...], chain: tuple[int, ...], value: int, kept: bool = True):
        self.reads = reads  # faces read, in order
        self.chain = chain  # the values that add up (one, or an explosion's)
        self.value = value
        self.kept = kept


class Term(FrozenRecord):
    __slots__ = ("sign", "count", "sides", "mods")

    def __init__(self, sign: int, count: int, sides: int, mods: Mods | None = None):
        self.sign = sign  # +1 or -1
        self.count = count  # number of dice; 0 for a constant
        self.sides = sides  # faces per die (3 for Fate dice); the constant's value when count == 0
        self.mods = mods

    def __str__(self) -> str:
        if not self.count:
            return str(self.sides)
        if self.mods and self.mods.fate:
            return f"{self.count}dF{self.mods.text(3)}"
        return f"{self.count}d{self.sides}{self.mods.text(self.sides) if self.mods else ''}"

    # -- throwing ------------------------------------------------------------------------

    def face_value(self, face: int) -> int:
        return face - 2 if self.mods and self.mods.fate else face

    def _one(self, read) -> tuple[list[int], int]:
        """One die with its rerolls: the faces read, the value it keeps."""
        face = read(self.sides)
        reads, value = [face], self.face_value(face)
        mods = self.mods or NO_MODS
        reroll, times = mods.reroll, 0
        while reroll is not None and reroll.test(value) and times < (1 if mods.once else REROLL_DEPTH):
            face = read(self.sides)
            reads.append(face)
            value, times = self.face_value(face), times + 1
        return reads, value

    def throw(self, read) -> tuple[list[Die], int]:
        """Throw the term's dice from `read(sides) -> face`: each die whole
        (rerolls, then explosion) before the next. Returns the dice and the
        term's value (before its sign)."""
        dice = []
        for _ in range(self.count):
            reads, value = self._one(read)
            chain = [value]
            explode = (self.mods or NO_MODS).explode
            while explode is not None and explode.test(chain[-1]) and len(chain) <= EXPLODE_DEPTH:
                more, value = self._one(read)
                reads += more
                chain.append(value)
            dice.append(Die(tuple(reads), tuple(chain), sum(chain)))
        dice = self._keep(dice)
        return dice, sum(self.die_worth(d) for d in dice if d.kept)

    @property
    def counts_each_face(self) -> bool:
        """An exploding pool (`6d6!=6>=5`): each face of an explosion is a die of its own that
        may be a success (the forums' "a 6 explodes: roll again, one more success possible")."""
        mods = self.mods
        return mods is not None and mods.explode is not None and mods.success is not None

    def die_worth(self, die: Die) -> int:
        """What a kept die adds: its worth, or each of its explosion's faces' in an exploding pool."""
        if self.counts_each_face:
            return sum(self.worth(v) for v in die.chain)
        return self.worth(die.value)

    def _keep(self, dice: list[Die]) -> list[Die]:
        keep, n = (self.mods or NO_MODS).keep, (self.mods or NO_MODS).keep_n
        if not keep:
            return dice
        kept = n if keep in ("kh", "kl") else len(dice) - n
        # ties broken by position: the first of equal dice is kept first (stable sort)
        order = sorted(range(len(dice)), key=lambda i: dice[i].value, reverse=keep in ("kh", "dl"))
        chosen = set(order[:kept])
        return [d if i in chosen else d.replace(kept=False) for i, d in enumerate(dice)]

    def worth(self, value: int) -> int:
        """What a kept die adds to the term: its value, or 1 / -1 / 0 when counting."""
        mods = self.mods
        if mods is None or mods.success is None:
            return value
        return int(mods.success.test(value)) - int(mods.failure is not None and mods.failure.test(value))

    def shown(self, dice: list[Die], strike=None) -> str:
        """The dice as the forum sees them: `6+4+3+~~1~~`, `6!+2`, `5✔ 2 1✘`, `+1 0 -1`.
        `strike(text)` marks a face read but not counted (Markdown's `~~1~~` when None)."""
        strike = strike or struck
        mods = self.mods or NO_MODS
        parts = []
        for die in dice:
            rerolled = len(die.reads) - len(die.chain) if not mods.explode else 0
            if mods.fate:
                text = f"{die.value:+d}" if die.value else "0"
            elif self.counts_each_face:
                text = "+".join(f"{v}{'!' if i < len(die.chain) - 1 else ''}{_mark(self.worth(v))}"
                                for i, v in enumerate(die.chain))
            elif mods.success is not None:
                text = f"{_chain(die)}{_mark(self.worth(die.value))}"
            else:
                text = _chain(die)
            # a rerolled face, and a dropped die, are shown struck through: read, not counted
            tokens = [strike(str(f)) for f in die.reads[:rerolled]] + [text if die.kept else strike(text)]
            parts.append("+".join(tokens))
        return (" " if mods.fate or mods.success is not None else "+").join(parts)

    # -- exact odds ----------------------------------------------------------------------

    def cost(self) -> int:
        """How much an exact distribution of this term costs, roughly (see ODDS_BUDGET)."""
        span = self.sides * (EXPLODE_DEPTH + 1 if self.mods and self.mods.explode else 1)
        return self.count * self.count * span

    def to_icepool(self):
        """The exact distribution of this term (its sign applied), as an icepool Die."""
        import icepool

        mods = self.mods
        if not self.count:
            return icepool.Die([self.sign * self.sides])
        die = icepool.Die([self.face_value(f) for f in range(1, self.sides + 1)])
        if mods is not None and mods.reroll is not None:
            hits = [v for v in die.outcomes() if mods.reroll.test(v)]
            die = die.reroll(hits, depth=1 if mods.once else REROLL_DEPTH)
        if self.counts_each_face:
            total = self.count @ self._each_face_successes(die)
            return -total if self.sign < 0 else total
        if mods is not None and mods.explode is not None:
            die = die.explode([v for v in die.outcomes() if mods.explode.test(v)], depth=EXPLODE_DEPTH)
        pool = die.pool(self.count)
        if mods is not None and mods.keep:
            kept = mods.keep_n if mods.keep in ("kh", "kl") else self.count - mods.keep_n
            pool = pool.highest(kept) if mods.keep in ("kh", "dl") else pool.lowest(kept)
        total = pool.sum(map=self.worth) if mods is not None and mods.success is not None else pool.sum()
        return -total if self.sign < 0 else total


    def _each_face_successes(self, die):
        """The successes one die of an exploding pool counts, exactly: its face's worth, plus
        a die of the same kind when it explodes, at most EXPLODE_DEPTH times (as the roller)."""
        successes = die.map(self.worth)
        for _ in range(EXPLODE_DEPTH):
            successes = die.map(self._then(successes))
        return successes

    def _then(self, more):
        """A face's successes, with `more` (the next die's) when it explodes (icepool maps it)."""
        explode = self.mods.explode

        def successes(v):
            return more + self.worth(v) if explode.test(v) else self.worth(v)
        return successes


def _mark(worth: int) -> str:
    """A counted die's mark: ✔ a success, ✘ a failure taken off, nothing otherwise."""
    return "✔" if worth > 0 else "✘" if worth < 0 else ""


def struck(text: str) -> str:
    """A face read but not counted, as Markdown and the terminal show it: `~~1~~`."""
    return f"~~{text}~~"


def _chain(die: Die) -> str:
    """An exploded die's values joined (`6!+6!+2`), a plain die's value."""
    return "+".join(f"{v}!" if i < len(die.chain) - 1 else str(v) for i, v in enumerate(die.chain))


def parse_terms(text: str) -> tuple[Term, ...]:
    """The terms of dice notation; raises PbpError naming what is wrong and the limits."""
    if len(text) > MAX_LENGTH:
        raise PbpError("dice_too_long", expr=text[:40] + "…", limit=MAX_LENGTH)
    terms = _read(text, _PLAIN)
    if terms is None:
        terms = _read(text, _notation())
    if not terms:
        raise PbpError("bad_dice", expr=text)
    return tuple(terms)


def _read(text: str, pattern: re.Pattern) -> list[Term] | None:
    """The terms `pattern` reads in the whole of `text`, None if it does not."""
    terms: list[Term] = []
    pos = 0
    while pos < len(text):
        match = pattern.match(text, pos)
        if not match or match.end() == pos or (terms and not match.group("sign")):
            return None
        terms.append(_term(match, text))
        pos = match.end()
    return terms


def _term(match: re.Match, text: str) -> Term:
    g = dict.fromkeys(("rval", "once", "rop", "explode", "eop", "eval", "keep", "kn", "sop", "sval", "fop", "fval"))
    g.update(match.groupdict())
    sign = -1 if g["sign"] == "-" else 1
    if g["const"] is not None:
        return Term(sign, 0, int(g["const"]))
    count = int(g["count"]) if g["count"] else 1
    fate = g["sides"] in ("f", "F")
    sides = 3 if fate else 100 if g["sides"] == "%" else int(g["sides"])
    if count < 1 or sides < 1:
        raise PbpError("bad_dice", expr=text)
    if count > MAX_COUNT or sides > MAX_SIDES:
        raise PbpError("dice_too_many", expr=text, max_count=MAX_COUNT, max_sides=MAX_SIDES)
    mods = Mods(
        fate=fate,
        reroll=Cond(g["rop"] or "=", int(g["rval"])) if g["rval"] is not None else None,
        once=bool(g["once"]),
        explode=(Cond(g["eop"], int(g["eval"])) if g["eval"] is not None else Cond("=", sides)) if g["explode"]
        else None,
        keep={"k": "kh"}.get(g["keep"], g["keep"]), keep_n=int(g["kn"] or 0),
        success=Cond(g["sop"], int(g["sval"])) if g["sop"] else None,
        failure=Cond(g["fop"] or "=", int(g["fval"])) if g["fval"] is not None else None)
    if mods == NO_MODS:
        return Term(sign, count, sides)
    term = Term(sign, count, sides, mods)
    _check(term, text)
    return term


def _check(term: Term, text: str) -> None:
    """Refuse what would never stop or means nothing, saying why."""
    mods = term.mods
    values = [term.face_value(f) for f in range(1, term.sides + 1)]
    if mods.fate and (mods.reroll or mods.explode):
        raise PbpError("dice_fate_modifier", expr=text)
    if mods.reroll and all(mods.reroll.test(v) for v in values):
        raise PbpError("dice_reroll_all", expr=text, depth=REROLL_DEPTH)
    if mods.explode and (all(mods.explode.test(v) for v in values) or mods.explode.op == "<"):
        raise PbpError("dice_explode_all", expr=text, depth=EXPLODE_DEPTH)
    if mods.keep and mods.explode and mods.success:
        raise PbpError("dice_keep_exploding_pool", expr=text)
    if mods.keep:
        low, high = (1, term.count) if mods.keep in ("kh", "kl") else (1, term.count - 1)
        if not low <= mods.keep_n <= high:
            raise PbpError("dice_keep_range", expr=text, low=low, high=high)
