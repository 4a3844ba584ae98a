"""What `pbp rules check` finds by following the rules as they would play: each
warning at its file:line, in the MJ's language, every one at once.

- an action nobody can ever take: a condition of it that can never hold given
  what its names can be (the bounds, and where each gauge can go from its start:
  a gauge no effect ever raises stays at or under its start), or a cost above
  any budget (the points of a turn, or the most its budget gauge can hold);
- a threshold its gauge can never reach from its start (nothing moves the gauge
  that way), beyond the bounds `pbp.datarules.lint` checks already;
- a secret that a public message would show: a message with no audience (so
  public) that names a stat or gauge that is not public, a result of a table or
  check that is not public, or that is said in a secret action;
- a formula that goes out of bounds: a number beyond the ±10^18 formulas compute
  with (the turn would stop on it), a cost that can be negative, a value `set`
  outside its gauge's or stat's bounds (pbp holds it within them), a check whose
  chance makes it always succeed or always fail.

The bounds come from pbp.datarules.formula's interval analysis (`Formula.bounds`):
a name the rules do not bound can be any number, so nothing is said of it.
"""

from __future__ import annotations

import math
import re

from pbp.datarules.format import RulesFile, word
from pbp.base.errors import PbpError

#: the verbs that bind a result name, and the section it names
BINDS = {"roll": "tables", "check": "checks"}
#: a value a message names, `{name}` (as pbp.rulesets.data.rules fills them)
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")


def warnings(rules: RulesFile) -> list[PbpError]:
    play = _Play(rules)
    return play.never_taken() + play.never_reached() + play.secrets() + play.out_of_bounds()


class _Play:
    def __init__(self, rules: RulesFile):
        from pbp.datarules import lint

        self.rules, self.data, self.program = rules, rules.data, rules.program
        self.base = {**lint.name_bounds(self.data), **self.input_bounds(), "turn": _interval(0, math.inf)}
        self.reach = self.gauge_reach()
        for gauge_id, interval in self.reach.items():  # where a gauge can go in play, tighter than its bounds
            self.base[gauge_id] = self.base[f"target.{gauge_id}"] = interval

    # -- what names can be ---------------------------------------------------------------
    def input_bounds(self) -> dict:
        out = {}
        for ident, spec in (self.data.get("inputs") or {}).items():
            kind = word(spec.get("type"))
            if kind == "bool":
                out[f"gm.{ident}"] = _interval(0, 1)
            elif kind == "number" and spec.get("min") is not None and spec.get("max") is not None:
                out[f"gm.{ident}"] = _interval(spec["min"], spec["max"])
        return out

    def bound(self, formula, extra: dict | None = None):
        """The interval a formula's value lies in (names as it spells them)."""
        from pbp.datarules import lint

        known = {**self.base, **(extra or {})}
        names = {name: known[lint.canonical(name)] for name in formula.names_used if lint.canonical(name) in known}
        if not hasattr(formula, "bounds"):  # a constant
            value = formula.value
            return _interval(value, value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        return formula.bounds(names)

    def effect_lists(self):
        """(effects, where) of every compiled effect list: the actions', the thresholds'."""
        for action_id, effects in self.program.actions.items():
            yield effects, ("actions", action_id)
        for (gauge_id, i), effects in self.program.thresholds.items():
            yield effects, ("gauges", gauge_id, "thresholds", i)

    def moving_lists(self):
        """The effect lists that can move a gauge: the actions' and thresholds', and
        those that play without an action (every N turns, the MJ's inputs, a vote's,
        a victory's, opening a door, using an item): a gauge only these move still moves."""
        program = self.program
        yield from self.effect_lists()
        for i, effects in enumerate(program.periodic):
            yield effects, ("periodic", i, "effects")
        for (input_id, key), effects in program.input_effects.items():
            yield effects, ("inputs", input_id, key)
        for vote_id, vote in program.votes.items():
            for key in ("effects", "none"):
                yield vote[key], ("votes", vote_id, key)
        for i, (_, _, effects) in enumerate(program.victories):
            yield effects, ("end", "victories", i, "effects")
        for kind, effects in program.door_effects.items():
            yield effects, ("doors", kind, "open")
        for item, effects in program.item_effects.items():
            yield effects, ("items", item, "effects")

    def walk(self, effects, bound: dict | None = None):
        """(effect, result bounds known there) of every effect, nested ones too,
        in the order they play: a table's or check's result is known after it."""
        bound = dict(bound or {})
        for effect in effects:
            yield effect, bound
            if effect.verb in BINDS and effect.as_name:
                bound.update(self.result_bounds(effect.verb, effect.value, effect.as_name))
            for branch in (effect.then, effect.otherwise):
                yield from self.walk(branch or (), bound)

    def result_bounds(self, verb: str, ident, name: str) -> dict:
        from pbp.datarules import lint
        from pbp.model.dice import parse

        section = self.data.get(BINDS[verb]) or {}
        spec = section.get(ident)
        if not isinstance(spec, dict):
            return {}
        try:
            die = parse(lint.table_dice(spec) if verb == "roll" else spec["dice"])
            faces = _interval(die.minimum, die.maximum)
        except (PbpError, KeyError, TypeError):
            faces = _interval(-math.inf, math.inf)
        if verb == "check":
            return {name: _interval(0, 1), f"{name}.roll": faces, f"{name}.critical": _interval(0, 1)}
        out = {name: faces, f"{name}.roll": faces}
        columns: dict[str, list] = {}
        for row in spec.get("rows") or []:
            for column, cell in row.items():
                if column not in ("roll", "weight", "table", "text"):
                    columns.setdefault(column, []).append(cell)
        for column, cells in columns.items():
            if all(isinstance(c, (int, float)) for c in cells):  # bools are ints: false 0, true 1
                out[f"{name}.{column}"] = _interval(min(cells), max(cells))
        return out

    def gauge_reach(self) -> dict:
        """gauge -> the interval it can take from its start: a gauge nothing
        raises never goes above its start, nothing lowers never below (a sheet
        may give another start: the start is the rules' own)."""
        up, down = self.directions()
        out = {}
        self.moves = {}  # gauge -> (its start, whether it can go up, whether it can go down)
        for gauge_id, spec in (self.data.get("gauges") or {}).items():
            low = -math.inf if spec.get("min") is None else spec["min"]
            high = math.inf if spec.get("max") is None else spec["max"]
            start = min(max(spec.get("start", spec.get("max", 0)), low), high)
            out[gauge_id] = _interval(low if gauge_id in down else start, high if gauge_id in up else start)
            self.moves[gauge_id] = (start, gauge_id in up, gauge_id in down)
        return out

    def directions(self) -> tuple[set, set]:
        """(the gauges some effect can raise, those some effect can lower)."""
        up, down = set(), set()
        for effects, _ in self.moving_lists():
            for effect, bound in self.walk(effects):
                for name, formula in effect.formulas.items() if effect.verb in ("add", "set") else ():
                    if name not in (self.data.get("gauges") or {}):
                        continue
                    span = self.bound(formula, bound)
                    if effect.verb == "set" or span is None or span.hi > 0:
                        up.add(name)
                    if effect.verb == "set" or span is None or span.lo < 0:
                        down.add(name)
        budget_gauge = (self.data.get("budget") or {}).get("gauge")
        if budget_gauge is not None:
            down.add(budget_gauge)  # costs are paid from it
        return up, down

    # -- an action nobody can take --------------------------------------------------------
    def never_taken(self) -> list[PbpError]:
        out = []
        budget = self.data.get("budget") or {}
        most = budget.get("points")
        if budget.get("gauge") in (self.data.get("gauges") or {}):
            most = self.reach[budget["gauge"]].hi
        for action_id, requires in self.program.requires.items():
            for formula, _, path in requires:
                span = self.bound(formula)
                if span is not None and span.hi < 1:
                    out.append(self.rules.error("rules_warning_never_holds", path + ("if",), action=action_id))
            cost = self.program.costs.get(action_id)
            span = self.bound(cost) if cost is not None else None
            if span is not None and most is not None and span.lo > most:
                out.append(self.rules.error("rules_warning_cost_above_budget", ("actions", action_id, "cost"),
                                            action=action_id, cost=_shown(span.lo), budget=_shown(most)))
        return out

    # -- a threshold its gauge never reaches ----------------------------------------------
    def never_reached(self) -> list[PbpError]:
        from pbp.datarules import lint

        out = []
        for gauge_id, spec in (self.data.get("gauges") or {}).items():
            low, high = spec.get("min"), spec.get("max")
            reach = self.reach[gauge_id]
            for i, threshold in enumerate(spec.get("thresholds") or []):
                if lint._unreachable(threshold, low, high):
                    continue  # said already, by its bounds
                if _unreachable_from(threshold, reach, *self.moves[gauge_id]):
                    value = next((threshold[k] for k in ("at", "below", "above", "every") if k in threshold), "-")
                    out.append(self.rules.error("rules_warning_never_moves", ("gauges", gauge_id, "thresholds", i),
                                                value=value, gauge=gauge_id, low=_shown(reach.lo),
                                                high=_shown(reach.hi)))
        return out

    # -- a secret in a public message -----------------------------------------------------
    def secrets(self) -> list[PbpError]:
        out = []
        for effects, where in self.effect_lists():
            action = self.data["actions"].get(where[1]) if where[0] == "actions" else None
            secret_action = action is not None and "public" not in _seen_by(action.get("visibility"))
            out += self.secrets_in(effects, secret_action, {})
        return out

    def secrets_in(self, effects, secret_action: bool, results: dict) -> list[PbpError]:
        """The public messages of an effect list that show a secret; `results`:
        result name -> (section, id) of the tables and checks rolled before."""
        from pbp.datarules import lint

        out, results = [], dict(results)
        for effect in effects:
            # a `to:` written out (even `to: public`) is the MJ's own choice of audience: said, not guessed
            if effect.verb == "say" and effect.to is None:
                at = effect.path + ("say",)
                if secret_action:
                    out.append(self.rules.error("rules_warning_secret_action_said", at))
                for name in dict.fromkeys(PLACEHOLDER.findall(self.message_text(effect.value))):
                    secret = self.secret_named(lint.canonical(name), results)
                    if secret:
                        out.append(self.rules.error("rules_warning_secret_said", at, name=name, what=secret))
            if effect.verb in BINDS and effect.as_name:
                results[effect.as_name] = (BINDS[effect.verb], effect.value)
            for branch in (effect.then, effect.otherwise):
                # under a condition, a public message is an announcement (an escape), not the action itself
                out += self.secrets_in(branch or (), False, results)
        return out

    def message_text(self, value) -> str:
        """Every language of a message (a name of `messages:` or the text itself), as one text."""
        value = (self.data.get("messages") or {}).get(value, value) if isinstance(value, str) else value
        if isinstance(value, dict):
            return " ".join(str(v) for v in value.values())
        return str(value)

    def secret_named(self, name: str, results: dict) -> str | None:
        """What a message's `{name}` shows that is not public: `section.id`, or None."""
        head = name.split(".")[0]
        own = name[len("target."):] if head == "target" else name  # {cible.role}: the target's
        for section in ("stats", "gauges"):
            spec = (self.data.get(section) or {}).get(own)
            if isinstance(spec, dict) and "public" not in _seen_by(spec.get("visibility")):
                return f"{section}.{own}"
        if head in results:
            section, ident = results[head]
            spec = (self.data.get(section) or {}).get(ident)
            if isinstance(spec, dict) and "public" not in _seen_by(spec.get("visibility")):
                return f"{section}.{ident}"
        return None

    # -- out of bounds --------------------------------------------------------------------
    def out_of_bounds(self) -> list[PbpError]:
        from pbp.datarules.formula import LIMIT, LIMIT_TEXT

        out = []
        for path, formula in self.program.formulas:
            span = self.bound(formula, self.results_at(path))
            if span is not None and (abs(span.lo) >= LIMIT and span.lo != -math.inf
                                     or abs(span.hi) >= LIMIT and span.hi != math.inf):
                out.append(self.rules.error("rules_warning_too_large", path, limit=LIMIT_TEXT))
        for action_id, cost in self.program.costs.items():
            span = self.bound(cost)
            if span is not None and span.lo < 0:
                out.append(self.rules.error("rules_warning_negative_cost", ("actions", action_id, "cost"),
                                            low=_shown(span.lo)))
        for effects, _ in self.effect_lists():
            for effect, bound in self.walk(effects):
                if effect.verb == "set":
                    out += self.set_outside(effect, bound)
        out += self.fixed_checks()
        return out

    def results_at(self, path: tuple) -> dict:
        """The results known where a formula at `path` of an effect list is (the
        effect's whose path starts it)."""
        if not hasattr(self, "_at"):
            self._at = {effect.path: bound for effects, _ in self.effect_lists()
                        for effect, bound in self.walk(effects)}
        for end in range(len(path), 0, -1):
            if path[:end] in self._at:
                return self._at[path[:end]]
        return {}

    def set_outside(self, effect, bound: dict) -> list[PbpError]:
        out = []
        for name, formula in effect.formulas.items():
            spec = (self.data.get("gauges") or {}).get(name) or (self.data.get("stats") or {}).get(name) or {}
            low, high = spec.get("min"), spec.get("max")
            span = self.bound(formula, bound)
            if span is None or (low is None and high is None):
                continue
            if (low is not None and span.lo < low) or (high is not None and span.hi > high):
                out.append(self.rules.error("rules_warning_set_outside", effect.path + ("set", name), name=name,
                                            lo=_shown(span.lo), hi=_shown(span.hi), low=_shown(low, "-∞"),
                                            high=_shown(high, "∞")))
        return out

    def fixed_checks(self) -> list[PbpError]:
        from pbp.model.dice import parse

        out = []
        for check_id, formula in self.program.checks.items():
            spec = self.data["checks"][check_id]
            if spec.get("dice") is None:
                continue  # a dice pool: how many dice is a formula, its successes run from none to all
            chance = self.bound(formula)
            try:
                die = parse(spec["dice"])
            except PbpError:
                continue  # refused when the file loads
            if chance is None or math.isinf(chance.lo) or math.isinf(chance.hi) or spec.get("critical"):
                continue  # unbounded, or criticals decide some faces whatever the chance
            always, never = _check_outcome(spec.get("success", "<="), chance, die.minimum, die.maximum)
            if always or never:
                out.append(self.rules.error("rules_warning_check_always" if always else "rules_warning_check_never",
                                            ("checks", check_id, "target"), check=check_id, lo=_shown(chance.lo),
                                            hi=_shown(chance.hi), dice=spec["dice"]))
        return out


def _check_outcome(sign: str, chance, low: int, high: int) -> tuple[bool, bool]:
    """(always succeeds, never succeeds) for a roll of low..high against a chance in `chance`."""
    if sign == "<=":
        return chance.lo >= high, chance.hi < low
    if sign == "<":
        return chance.lo > high, chance.hi <= low
    if sign == ">=":
        return chance.hi <= low, chance.lo > high
    return chance.hi < low, chance.lo >= high  # ">"


def _unreachable_from(threshold: dict, reach, start, up: bool, down: bool) -> bool:
    """Whether a gauge that moves only as `up`/`down` say, within `reach`, never
    sets the threshold off (pbp.rulesets.data.rules.crossings: `at` arriving at
    N, `below` going under N, `above` going over N, `every` any move)."""
    if "at" in threshold:
        n = threshold["at"]
        return not reach.lo <= n <= reach.hi or not (up or down) or (n == start and not (up and down))
    if "below" in threshold:
        return not down or not reach.lo < threshold["below"] <= reach.hi
    if "above" in threshold:
        return not up or not reach.lo <= threshold["above"] < reach.hi
    if "every" in threshold:
        return not (up or down)
    return False


def _seen_by(value) -> tuple[str, ...]:
    """Who sees a stat, gauge, table, check or action (as the data ruleset reads `visibility`)."""
    values = value if isinstance(value, list) else [value or "public"]
    return tuple(word(v) for v in values)


def _interval(lo, hi):
    from pbp.datarules.formula import Interval

    return Interval(lo, hi, whole=True)


def _shown(value, default: str = "?"):
    if value is None:
        return default
    if value == math.inf:
        return "∞"
    if value == -math.inf:
        return "-∞"
    return int(value) if float(value).is_integer() else value
