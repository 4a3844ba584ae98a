"""Dice: expressions, the seeded per-turn roller, forced rolls, the roll log.

Every roll has a label (`<actor>.<purpose>[.<n>]`). Its faces come from a
random stream keyed by (campaign secret, turn, label), so a turn replays byte
for byte, and fixing one player's orders leaves everybody else's dice alone.
How the stream is derived is versioned (pbp.model.dice_versions, docs/dice.md): a
turn records the version it was played with, and is replayed with it.
The MJ can force any roll by label in gm.yaml (dice rolled live on Roll20, or a
ruling); tests do the same to pin outcomes.
"""

from __future__ import annotations

import functools

from pbp.base.errors import ForcedRollError, PbpError
from pbp.base.record import FrozenRecord, Record
from pbp.model.dice_notation import MAX_COUNT, MAX_SIDES, ODDS_BUDGET, Die, Term, parse_terms
from pbp.model.dice_versions import STREAMS, VERSION

class DiceExpr(FrozenRecord):
    """Dice and constants added up: `2d6+1d4+2`, `d%`, `-1d6`, `3`, and the
    forum's notation (`2d20kh1`, `3d6!`, `6d6>=4`, `4dF`: pbp.model.dice_notation)."""

    __slots__ = ("terms",)

    def __init__(self, terms: tuple[Term, ...]):
        self.terms = terms

    @property
    def dice(self) -> tuple[Term, ...]:
        return tuple(t for t in self.terms if t.count)

    @property
    def plain(self) -> bool:
        """A sum of dice, each die one face: what the fast paths and the old forum style handle."""
        return all(t.mods is None for t in self.terms)

    @property
    def constant(self) -> int:
        return sum(t.sign * t.sides for t in self.terms if not t.count)

    @property
    def minimum(self) -> int:
        if not self.plain:
            return min(self.exact())
        return sum(t.sign * (t.count if t.sign > 0 else t.count * t.sides) for t in self.dice) + self.constant

    @property
    def maximum(self) -> int:
        if not self.plain:
            return max(self.exact())
        return sum(t.sign * (t.count * t.sides if t.sign > 0 else t.count) for t in self.dice) + self.constant

    def __str__(self) -> str:
        out = ""
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                out += "-"
            elif i:
                out += "+"
            out += str(term)
        return out or "0"

    def throw(self, read) -> tuple[tuple[int, ...], int, list[list[Die]]]:
        """Throw every die from `read(sides) -> face`, term by term: the faces
        read (in order), the total, and each dice term's dice (for the forum)."""
        faces: list[int] = []

        def reading(sides: int) -> int:
            face = read(sides)
            faces.append(face)
            return face

        total, thrown = self.constant, []
        for term in self.dice:
            dice, value = term.throw(reading)
            total += term.sign * value
            thrown.append(dice)
        return tuple(faces), total, thrown

    def cost(self) -> int:
        return sum(t.cost() for t in self.dice)

    def exact(self) -> dict[int, "Fraction"]:
        """P(total) for every total, exactly; refused (odds_too_large) beyond ODDS_BUDGET."""
        if self.cost() > ODDS_BUDGET:
            raise PbpError("odds_too_large", expr=str(self), budget=ODDS_BUDGET)
        return _exact(self)

    def to_dyce(self):
        """The exact distribution of a plain expression, as a dyce histogram."""
        from dyce import H

        total = H({0: 1})
        for term in self.terms:
            part = term.count @ H(term.sides) if term.count else H({term.sides: 1})
            total = total + part if term.sign > 0 else total - part
        return total


@functools.lru_cache(maxsize=256)
def _exact(expr: DiceExpr) -> dict[int, "Fraction"]:
    from fractions import Fraction

    if expr.plain:
        h = expr.to_dyce()
        return {int(v): Fraction(c, h.total) for v, c in sorted(h.items())}
    total = None
    for term in expr.terms:
        part = term.to_icepool()
        total = part if total is None else total + part
    denominator = total.denominator()
    return {int(v): Fraction(q, denominator) for v, q in total.items()}


def parse(expr: str | int) -> DiceExpr:
    """Parse dice notation; raises PbpError('bad_dice') with what is valid."""
    if isinstance(expr, DiceExpr):
        return expr
    if not isinstance(expr, (str, int)):  # a list or mapping written where dice belong (and not hashable)
        raise PbpError("bad_dice", expr=str(expr))
    return _parse(expr)


@functools.lru_cache(maxsize=1024)  # rules roll the same few expressions all game long
def _parse(expr: str | int) -> DiceExpr:
    if isinstance(expr, int) and not isinstance(expr, bool):
        return DiceExpr((Term(1 if expr >= 0 else -1, 0, abs(expr)),))
    return DiceExpr(parse_terms(str(expr).strip()))


@functools.lru_cache(maxsize=1024)
def _plan(expr) -> tuple[DiceExpr, str, tuple[int, ...], tuple[int, ...] | None, int]:
    """What rolling `expr` takes, worked out once per expression: the parsed
    expression, its text (as the roll log writes it), the faces of each die in
    the order they are thrown (None: not known before they are thrown), each
    die's sign (None: all added) and the constant."""
    parsed = expr if isinstance(expr, DiceExpr) else _parse(expr)
    if not parsed.plain:  # dice thrown as their results say (rerolls, explosions): DiceExpr.throw
        return parsed, str(parsed), None, None, parsed.constant
    sides = tuple(t.sides for t in parsed.dice for _ in range(t.count))
    signs = tuple(t.sign for t in parsed.dice for _ in range(t.count))
    return parsed, str(parsed), sides, None if all(sg > 0 for sg in signs) else signs, parsed.constant


def plan(expr):
    """`_plan(expr)`, with parse's refusal of what is no dice expression."""
    if not isinstance(expr, (str, int, DiceExpr)):
        parse(expr)  # raises bad_dice
    return _plan(expr)


class Roll(FrozenRecord):
    """One labelled roll, as written to the turn's roll log."""

    __slots__ = ("label", "expr", "faces", "total", "reason", "forced")

    def __init__(self, label: str, expr: str, faces: tuple[int, ...], total: int, reason: str = "",
                 forced: bool = False):
        self.label = label
        self.expr = expr
        self.faces = faces
        self.total = total
        self.reason = reason
        self.forced = forced

    def __str__(self) -> str:
        """Forum style: `1d10 (7)`, `2d6+1 (3+4+1 = 8)`."""
        return forum(self)

    def to_dict(self) -> dict:
        out = {"label": self.label, "expr": self.expr, "faces": list(self.faces), "total": self.total}
        if self.reason:
            out["reason"] = self.reason
        if self.forced:
            out["forced"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Roll":
        return cls(data["label"], data["expr"], tuple(data.get("faces", ())), data["total"],
                   data.get("reason", ""), data.get("forced", False))


def forum(roll: Roll | dict, strike=None) -> str:
    """How a roll is shown on the forum: the expression and what it gave.
    `strike(text)` marks a die read but not counted (dropped, rerolled): the
    output format's own mark (pbp.render.formatters' `m.roll`), Markdown's `~~1~~` when None."""
    if isinstance(roll, dict):
        roll = Roll.from_dict(roll)
    expr = parse(roll.expr)
    simple = len(expr.terms) == 1 and expr.terms[0].count == 1 and expr.plain
    if simple or not roll.faces:
        return f"{roll.expr} ({roll.total})"
    if not expr.plain:
        return _forum_notation(roll, expr, strike)
    shown = "+".join(str(f) for f in roll.faces)
    if expr.constant:
        shown += f"{expr.constant:+d}"
    return f"{roll.expr} ({shown} = {roll.total})"


def _forum_notation(roll: Roll, expr: DiceExpr, strike=None) -> str:
    """`4d6dl1 (6+4+3+~~1~~ = 13)`, `3d6! (6!+2+4+1 = 13)`, `6d6>=4 (5✔ 2 6✔ 1 = 2)`:
    every die read, the dropped and rerolled ones struck through."""
    faces = iter(roll.faces)
    try:
        _, _, thrown = expr.throw(lambda sides: next(faces))
    except StopIteration:  # a log that does not hold every face: its total alone
        return f"{roll.expr} ({roll.total})"
    shown = ""
    for term, dice in zip(expr.dice, thrown):
        text = term.shown(dice, strike)
        if term.sign < 0:
            shown += f"-({text})" if len(dice) > 1 else f"-{text}"
        else:
            shown += f"+{text}" if shown else text
    if expr.constant:
        shown += f"{expr.constant:+d}"
    if shown == str(roll.total):  # one die, nothing else to show: `1d20ro1 (16)`
        return f"{roll.expr} ({roll.total})"
    return f"{roll.expr} ({shown} = {roll.total})"


class Dice(Record):
    """The roller of one turn.

    `forced` maps labels to a total (int) or to the faces (list of ints);
    `version` is the dice derivation the faces come from (pbp.model.dice_versions).
    """

    __slots__ = ("secret", "turn", "forced", "version", "log", "_seen")

    def __init__(self, secret: str, turn: int, forced: dict | None = None, version: int = VERSION,
                 log: list[Roll] | None = None, _seen: dict | None = None):
        if type(version) is not int or version not in STREAMS:  # turn.yaml may say anything
            raise PbpError("dice_version_unknown", version=version, known=sorted(STREAMS))
        self.secret = secret
        self.turn = turn
        self.forced = {} if forced is None else forced
        self.version = version  # the derivation of the faces (docs/dice.md); a turn records it
        self.log = [] if log is None else log
        self._seen = {} if _seen is None else _seen  # label -> times rolled so far (see _label)

    def _label(self, label: str) -> str:
        """Labels are unique within a turn: a repeated one gets `.2`, `.3`..."""
        n = self._seen.get(label, 0) + 1
        self._seen[label] = n
        return label if n == 1 else f"{label}.{n}"

    def _draw(self, label: str, expr: DiceExpr) -> tuple[tuple[int, ...], int]:
        """The faces and total the seed gives `label`."""
        return _thrown(expr, STREAMS[self.version](self.secret, self.turn, label).face)

    def roll(self, label: str, expr: str | DiceExpr, reason: str = "") -> Roll:
        parsed, text, _, _, _ = plan(expr)
        label = self._label(label)
        forced = label in self.forced
        if forced:
            faces, total = self._forced(label, parsed)
        else:
            faces, total = self._draw(label, parsed)
        result = Roll(label, text, faces, total, reason, forced)
        self.log.append(result)
        return result

    def seeded(self, label: str, expr: str | DiceExpr) -> Roll:
        """What the seed gives `label` (as the roll log spells it), forced or not,
        logging nothing: the audit shows it beside each forced roll."""
        parsed = parse(expr)
        faces, total = self._draw(label, parsed)
        return Roll(label, str(parsed), faces, total)

    def d(self, label: str, sides: int, reason: str = "") -> int:
        """Shortcut: the total of one die with `sides` faces."""
        return self.roll(label, f"1d{sides}", reason).total

    def choice(self, label: str, options, reason: str = ""):
        """A random pick among `options`, logged as a 1dN roll (N = len(options))."""
        options = list(options)
        if not options:
            return None
        return options[self.d(label, len(options), reason) - 1]

    def shuffled(self, label: str, items, reason: str = "") -> list:
        """A random order of `items`, drawn as successive picks."""
        pool, out = list(items), []
        while pool:
            out.append(pool.pop(self.d(label, len(pool), reason) - 1))
        return out

    def _forced(self, label: str, expr: DiceExpr) -> tuple[tuple[int, ...], int]:
        value = self.forced[label]
        if isinstance(value, bool) or not isinstance(value, (int, list)):
            raise ForcedRollError("forced_bad", label=label, expr=str(expr))
        if isinstance(value, int):
            if not expr.minimum <= value <= expr.maximum or not expr.plain and value not in expr.exact():
                raise ForcedRollError("forced_range", label=label, expr=str(expr), value=value,
                                      low=expr.minimum, high=expr.maximum)
            return (), value
        if expr.plain:
            sides = [t.sides for t in expr.dice for _ in range(t.count)]
            if len(value) != len(sides) or any(not isinstance(v, int) or not 1 <= v <= s for v, s in zip(value, sides)):
                raise ForcedRollError("forced_faces", label=label, expr=str(expr), count=len(sides))
            given = iter(value)
            return _thrown(expr, lambda sides: next(given))
        return self._forced_notation(label, expr, value)

    @staticmethod
    def _forced_notation(label: str, expr: DiceExpr, value: list) -> tuple[tuple[int, ...], int]:
        """Faces the MJ gives for dice thrown as their results say: read in
        order (rerolls and explosions included), every one used, each a face."""
        given = iter(value)

        def read(sides: int) -> int:
            face = next(given, None)
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
                raise ForcedRollError("forced_faces_read", label=label, expr=str(expr), given=len(value))
            return face

        faces, total, _ = expr.throw(read)
        if len(faces) != len(value):
            raise ForcedRollError("forced_faces_read", label=label, expr=str(expr), given=len(value))
        return faces, total

    def unused_forced(self) -> list[str]:
        """Forced labels no roll asked for: most likely a typo in gm.yaml."""
        used = {r.label for r in self.log}
        return sorted(k for k in self.forced if k not in used)


def _thrown(expr: DiceExpr, read) -> tuple[tuple[int, ...], int]:
    """The faces `read(sides)` gives `expr`, and its total: a plain sum read
    die by die (the turn's every roll), the notation's dice by DiceExpr.throw."""
    if not expr.plain:
        faces, total, _ = expr.throw(read)
        return faces, total
    faces, total = [], expr.constant
    for term in expr.dice:
        part = [read(term.sides) for _ in range(term.count)]
        faces += part
        total += term.sign * sum(part)
    return tuple(faces), total


class FreeDice(Dice):
    """A roller for simulations and `pbp roll`: one fast stream, labels not keyed.

    Still logs nothing unless asked, to keep simulations light.
    """

    def __init__(self, seed: int | None = None, keep_log: bool = False):
        import random

        super().__init__(secret="", turn=0)
        self._rng = random.Random(seed)
        self._keep_log = keep_log
        self.draws = 0  # dice thrown, for the simulation benchmark

    def _label(self, label: str) -> str:
        return label

    def _draw(self, label: str, expr: DiceExpr) -> tuple[tuple[int, ...], int]:
        faces, total = _thrown(expr, self._face)
        self.draws += len(faces)
        return faces, total

    def _face(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def roll(self, label: str, expr: str | DiceExpr, reason: str = "") -> Roll:
        """The simulations' path, a few hundred thousand times a run: the
        expression worked out once (`plan`), the faces drawn from the one
        stream in the same order as `_draw` (the same results for a seed), no
        label bookkeeping, nothing logged unless asked."""
        if self.forced:
            result = super().roll(label, expr, reason)
            if not self._keep_log:
                self.log.clear()
            return result
        parsed, text, sides, signs, constant = plan(expr)
        if sides is None:  # the notation's dice: thrown as their results say
            faces, total = self._draw(label, parsed)
            result = Roll(label, text, faces, total, reason, False)
            if self._keep_log:
                self.log.append(result)
            return result
        randint = self._rng.randint
        faces = tuple([randint(1, s) for s in sides])
        self.draws += len(faces)
        total = constant + (sum(faces) if signs is None else sum(f * sg for f, sg in zip(faces, signs)))
        result = Roll(label, text, faces, total, reason, False)
        if self._keep_log:
            self.log.append(result)
        return result

    def d(self, label: str, sides: int, reason: str = "") -> int:
        """`roll(label, "1d<sides>").total` without the Roll nobody keeps: each
        bot's and each panic's random pick (`choice`) is one. The same draw from
        the stream; the general path when a roll is forced or logged, or when
        `sides` is no die (it refuses it)."""
        if self.forced or self._keep_log or type(sides) is not int or not 1 <= sides <= MAX_SIDES:
            return super().d(label, sides, reason)
        self.draws += 1
        return self._rng.randint(1, sides)
