"""A data ruleset's set-up and turn: the orders in roster order, each action's
effects run in the order the MJ wrote them, each gauge's thresholds after every
change, then the end of the game.

Every roll is labelled from the rules' own names, so the MJ can force it in
gm.yaml: `<handle>.<action>.<table or check>` for an action's (`lucy.attaquer.perte`),
`<handle>.<gauge>.<table or check>` for a threshold's, `.<n>` when one repeats.
Every event carries its audience, from the visibility the MJ gave the gauge, the
table, the check, the action or the message (public when none is given).
"""

from __future__ import annotations


from pbp.base.errors import PbpError
from pbp.model import events as ev

from . import absence, fields, input_effects, opposed, parts, phases, places, rules as R, scores, states, tables, votes
from .values import RESOLVING, calendar_value, whole  # whole: a gauge takes a fraction rounded down
from .verdict import judge


def initial_state(program, scenario) -> dict:
    """Turn 0: every character's stats and gauges (characters.yaml over the rules' defaults)."""
    data = program.data
    characters = {}
    for handle in scenario.roster:
        sheet = scenario.characters.get(handle) or {}
        stats = {k: sheet.get(k, spec.get("default", _blank(spec))) for k, spec in program.stats.items()}
        gauges = {k: R.clamp(int(sheet.get(k, spec.get("start", spec.get("max", 0)))), spec)
                  for k, spec in program.gauges.items()}
        characters[handle] = {"stats": stats, "gauges": gauges, "out": False, "lost": 0, "fired": [],
                              "revealed": []}
    inputs = {k: spec["default"] for k, spec in (data.get("inputs") or {}).items()
              if spec.get("default") is not None and R.word(spec.get("per", "game")) == "game"}
    state = {"turn": 0, "characters": characters, "inputs": inputs, "inputs_by": {}, "over": False,
             "winners": []}
    places.set_up(data, scenario, state)
    return state


def _blank(spec: dict):
    kind = R.word(spec.get("type", "number"))
    return {"number": 0, "text": "", "bool": False, "list": []}.get(kind, 0)


def set_up(program, scenario, quiet: bool = False):
    state = initial_state(program, scenario)
    out = ev.collector(quiet)
    out.public("start", characters=list(scenario.roster))
    sheets(program, state, scenario, out)
    return state, out


def sheets(program, state: dict, scenario, out) -> None:
    """Each player's own sheet in their report, every sheet in the MJ's: the
    values as they stand, hidden ones included (they are the reader's own). A
    sheet is built once for both: a turn's events are copied into plain data
    before they are written (pbp/engine/turn.py), so no YAML alias comes of it."""
    if out.quiet:
        return
    values = {handle: sheet_values(program, state, handle, owner=True) for handle in scenario.roster}
    for handle in scenario.roster:
        out.private(handle, "sheet", who=handle, values=values[handle])
    out.gm("sheets", rows=[{"who": h, "values": values[h]} for h in scenario.roster])


def sheet_values(program, state: dict, handle: str, owner: bool) -> list[dict]:
    """[{name: {fr, en}, value}] of a character's stats and gauges (the owner's view:
    everything but what only the MJ sees; the MJ's report uses owner=True too).
    Each row a new dict; its name and visibility the rules' own, read, never changed."""
    me = state["characters"][handle]
    return [{"id": ident, "name": name, "value": me[section].get(ident), "visibility": seen}
            for section, ident, name, seen in _sheet_rows(program)] + places.sheet_rows(program.data, state, handle)


#: id(program) -> (the program, its sheet's rows): names and visibilities read once per rules file
_SHEET_ROWS: dict[int, tuple] = {}


def _sheet_rows(program) -> list[tuple]:
    kept = _SHEET_ROWS.get(id(program))
    if kept is None or kept[0] is not program:  # the program itself is kept: its id cannot be another's
        if len(_SHEET_ROWS) > 64:
            _SHEET_ROWS.clear()
        rows = [(section, ident, R.name_of(spec, ident), list(R.visibility(spec.get("visibility"))))
                for section in ("stats", "gauges") for ident, spec in getattr(program, section).items()]
        kept = _SHEET_ROWS[id(program)] = (program, rows)
    return kept[1]


class Turn:
    """One turn being played: the state it changes, its dice and its events."""

    def __init__(self, ruleset, state: dict, scenario, dice, out, gm_inputs: dict):
        self.rs, self.program, self.data = ruleset, ruleset.program, ruleset.program.data
        self.state, self.scenario, self.dice, self.out = state, scenario, dice, out
        self.steps = 0
        self.limit = ruleset.rules["limits"]["effects_per_turn"]
        self.gm_inputs = gm_inputs
        self.ballots: dict[str, dict[str, str]] = {}  # vote id -> voter -> choice (pbp/rulesets/data/votes.py)

    # -- the turn ------------------------------------------------------------------------
    def play(self, orders: dict) -> None:
        state = self.state
        state["turn"] += 1
        state[RESOLVING] = True  # formulas read the day and phase of this turn (pbp/rulesets/data/phases.py)
        self.take_inputs()
        self.inputs_act("start")
        phases.announce(self)
        losing = [h for h, me in state["characters"].items() if me["lost"] > 0]
        blocked = [h for h in state["characters"] if states.blocked(self.program, state, h)]
        for handle in phases.ordered(self):
            if handle not in orders or not R.in_play(state, handle) or handle in losing or handle in blocked:
                continue
            for action in orders[handle].actions:
                if R.in_play(state, handle):
                    self.action(handle, action)
        absence.count(self, orders, losing + blocked)
        phases.periodic(self)
        votes.tally(self)
        for handle in losing:
            state["characters"][handle]["lost"] -= 1
        self.inputs_act("end")
        states.expire(self)
        self.drop_inputs()
        self.end()
        del state[RESOLVING]
        if not state["over"]:
            sheets(self.program, state, self.scenario, self.out)

    def inputs_act(self, when: str) -> None:
        """The effects of the MJ's inputs given this turn, at its start or its end (input_effects.py)."""
        for handle, name, effects in input_effects.due(self.program, self.gm_inputs, self.state, self.scenario.roster,
                                                       when):
            self.run(effects, Scope(handle, None, None, f"{handle}.{name}"))

    def take_inputs(self) -> None:
        """gm.yaml's `orders:` (checked by checks.gm_inputs), kept in the state
        (those the rules say `keep: false` until the end of this turn)."""
        state = self.state
        for name, value in self.gm_inputs.items():
            spec = self.data["inputs"][name]
            if R.word(spec.get("per", "game")) == "character":
                for handle, given in value.items():
                    state["inputs_by"].setdefault(handle, {})[name] = given
            else:
                state["inputs"][name] = value
            self.out.gm("input", name=name, value=value)

    def drop_inputs(self) -> None:
        """The MJ's inputs for one turn only (`keep: false`), once it is played."""
        state = self.state
        for name, spec in (self.data.get("inputs") or {}).items():
            if spec.get("keep") is False:
                if R.word(spec.get("per", "game")) == "character":
                    for given in state["inputs_by"].values():
                        given.pop(name, None)
                else:
                    state["inputs"].pop(name, None)

    def action(self, handle: str, action) -> None:
        spec = self.data["actions"][action.id]
        kind = R.arg_kind(spec)
        target = action.arg if kind == "character" else None
        arg = places.normalized(self.data, spec, action.arg, self.state, handle) if kind in places.P.ARG_KINDS \
            else action.arg
        scope = Scope(handle, target, arg, f"{handle}.{action.id}")
        if self.out.quiet:  # a simulated turn's events are not kept: not built either
            shown = None
        else:
            shown = places.shown(self.data, spec, arg) if kind in places.P.ARG_KINDS else arg
        if kind == "fields":  # arg.<field> for its formulas, the fields as the post shows them
            scope.bound.update(fields.bound(spec["arg"], arg, self.state, handle))
            shown = None if self.out.quiet else fields.shown(spec["arg"], arg)
        if not self.out.quiet:  # a simulated turn's events are not kept: not built either
            audience = R.audience(R.seen_by(spec), handle, target)
            self.emit(audience, "action", who=handle, action=action.id, name=R.named(spec, action.id),
                      target=target, arg=None if target else shown)
        gauge = (self.data.get("budget") or {}).get("gauge")
        if gauge is not None and action.id in self.program.costs:  # points that do not come back: paid now
            from .checks import cost_of

            cost = cost_of(self.rs, action.replace(arg=arg), self.state, handle)
            seen_by = R.seen_by(spec)  # a secret action's price is as secret as it
            if cost:
                self.change(handle, gauge, -cost, scope, None if "public" in seen_by else seen_by)
        self.run(self.program.actions[action.id], scope)

    # -- effects -------------------------------------------------------------------------
    # places, movement and items (pbp/rulesets/data/places.py)
    do_move, do_gain, do_lose, do_drop = places.do_move, places.do_gain, places.do_lose, places.do_drop
    do_pick_up, do_use, do_find = places.do_pick_up, places.do_use, places.do_find

    def run(self, effects, scope) -> None:
        for effect in effects:
            self.steps += 1
            if self.steps > self.limit:
                raise PbpError("data.effects_limit", limit=self.limit)
            getattr(self, "do_" + effect.verb)(effect, scope)

    def evaluate(self, formula, scope, to=None):
        """A formula's value where it stands; the dice it rolls are shown with it (parts.py)."""
        values = R.env(formula.names_used, self.state, self.data, scope.actor, scope.target, scope.arg, scope.bound)
        if not formula.dice_terms:
            return formula.evaluate(values)
        return parts.rolled(self, formula, values, scope, to)

    def who(self, effect, scope) -> list[str]:
        on = effect.on
        if on == "target":
            return [scope.target] if scope.target else []
        if on in ("all", "others"):
            return [h for h in R.playing(self.state, self.scenario.roster) if on == "all" or h != scope.actor]
        return [scope.actor] if scope.actor else []  # (a vote's effects when nobody is chosen)

    def do_add(self, effect, scope) -> None:
        for name, formula in effect.formulas.items():
            amount = whole(self.evaluate(formula, scope, effect.to))
            for handle in self.who(effect, scope):
                self.change(handle, name, amount, scope, effect.to, scope.depth)

    def do_set(self, effect, scope) -> None:
        for name, formula in effect.formulas.items():
            value = R.as_number(self.evaluate(formula, scope, effect.to))
            for handle in self.who(effect, scope):
                me = self.state["characters"][handle]
                if name in me["gauges"]:
                    self.change(handle, name, whole(value) - me["gauges"][name], scope, effect.to, scope.depth)
                else:
                    me["stats"][name] = value
                    spec = self.program.stats[name]
                    self.emit(R.audience(R.visibility(spec.get("visibility")), handle), "stat", who=handle,
                              stat=name, name=R.name_of(spec, name), value=value)

    def change(self, handle: str, gauge_id: str, amount: int, scope, to=None, depth: int = 0) -> None:
        """A gauge moved by `amount`, held within its bounds, then its thresholds."""
        spec = self.program.gauges[gauge_id]
        me = self.state["characters"][handle]
        before = me["gauges"][gauge_id]
        after = R.clamp(before + amount, spec)
        me["gauges"][gauge_id] = after
        if not self.out.quiet and amount:  # a change of nothing is no news (one a bound ate is: it says so)
            audience = R.audience(to or R.seen_by(spec), handle, scope.target)
            self.emit(audience, "gauge", who=handle, gauge=gauge_id, name=R.named(spec, gauge_id), before=before,
                      change=amount, after=after, clamped=after != before + amount)
        if depth > self.rs.rules["limits"]["threshold_chain"]:
            raise PbpError("data.threshold_chain", gauge=gauge_id, limit=self.rs.rules["limits"]["threshold_chain"])
        for i, threshold in enumerate(spec.get("thresholds") or []):
            times = R.crossings(threshold, before, after)
            key = f"{gauge_id}.{i}"
            if threshold.get("once") and key in me["fired"]:
                continue
            # each time a threshold goes off counts, its effects or none: `every: 1` on a
            # gauge moved by 10**11 would otherwise loop 10**11 times
            self.steps += 1 if threshold.get("once") else times
            if self.steps > self.limit:
                raise PbpError("data.effects_limit", limit=self.limit)
            for _ in range(times):
                if threshold.get("once"):
                    me["fired"].append(key)
                inner = Scope(handle, None, None, f"{handle}.{gauge_id}", depth + 1)
                self.run(self.program.thresholds[gauge_id, i], inner)
                if threshold.get("once"):
                    break

    def do_roll(self, effect, scope) -> None:
        table_id = effect.value
        chain: list = []
        roll, row = tables.roll(self, table_id, f"{scope.label}.{table_id}", chain=chain)
        scope.bind_row(effect.as_name, roll.total, row)
        spec = self.program.tables[table_id]
        audience = R.audience(effect.to or R.seen_by(spec), scope.actor, scope.target)
        columns = {k: v for k, v in row.items() if k not in ("roll", "weight", "table", "text")}
        text, sub = tables.shown(self, spec, row, chain, scope.values(self))
        self.emit(audience, "table", who=scope.actor, table=table_id, name=R.name_of(spec, table_id), roll=roll,
                  text=text, columns=columns, **({"sub": sub} if chain else {}))

    def do_check(self, effect, scope) -> None:
        check_id = effect.value
        spec = self.data["checks"][check_id]
        seen_by = effect.to or R.seen_by(spec)  # dice of the chance: seen as the check is
        chance = whole(self.evaluate(self.program.checks[check_id], scope, None if "public" in seen_by else seen_by))
        if check_id in self.program.pools:  # a dice pool: its size from a formula (pbp/rulesets/data/opposed.py)
            roll = opposed.pool_roll(self, check_id, spec, scope)
        else:
            roll = self.dice.roll(f"{scope.label}.{check_id}", str(spec["dice"]))
        result = judge(spec, roll.total, chance)
        scope.bind_check(effect.as_name, result, roll.total)
        if not self.out.quiet:
            audience = R.audience(seen_by, scope.actor, scope.target)
            self.emit(audience, "check", who=scope.actor, check=check_id, name=R.named(spec, check_id), roll=roll,
                      target=chance, success=result["success"], critical=result["critical"],
                      margin=result["margin"], band=result["band"], sign=spec.get("success", "<="))
        self.run(effect.then if result["success"] else effect.otherwise, scope)
        scope.bound.update(effect.blanks[0 if result["success"] else 1])

    def do_if(self, effect, scope) -> None:
        chosen = bool(self.evaluate(effect.formulas["if"], scope, effect.to))
        self.run(effect.then if chosen else effect.otherwise, scope)
        scope.bound.update(effect.blanks[0 if chosen else 1])

    def do_say(self, effect, scope) -> None:
        if self.out.quiet:  # a simulated turn: a message changes nothing, and nobody reads it
            return
        messages = self.data.get("messages") or {}
        text = messages.get(effect.value, effect.value) if isinstance(effect.value, str) else effect.value
        audience = R.audience(effect.to, scope.actor, scope.target)
        self.emit(audience, "say", who=scope.actor, text=R.filled(R.words(text), scope.values(self)))

    def do_out(self, effect, scope) -> None:
        for handle in self.who(effect, scope):
            me = self.state["characters"][handle]
            if not me["out"]:
                me["out"] = True
                self.emit(ev.PUBLIC, "out", who=handle)

    def do_lose_turn(self, effect, scope) -> None:
        turns = whole(self.evaluate(effect.formulas["lose_turn"], scope))
        for handle in self.who(effect, scope):
            me = self.state["characters"][handle]
            me["lost"] = max(me["lost"], turns)
            self.emit(R.audience(effect.to, handle), "lose_turn", who=handle, turns=turns)

    def do_reveal(self, effect, scope) -> None:
        name = effect.value
        for handle in self.who(effect, scope):
            me = self.state["characters"][handle]
            if name not in me["revealed"]:
                me["revealed"].append(name)
            spec = self.program.stats.get(name) or self.program.gauges.get(name)
            self.emit(ev.PUBLIC, "reveal", who=handle, stat=name, name=R.name_of(spec, name),
                      value=R.value_of(self.state, handle, name))

    def new_scope(self, actor: str | None, label: str) -> "Scope":
        """Where the effects of a block run with no action behind them (a vote's, a periodic one...)."""
        return Scope(actor, None, None, label)

    def do_inflict(self, effect, scope) -> None:
        states.inflict(self, effect, scope)

    def do_cure(self, effect, scope) -> None:
        states.cure(self, effect, scope)

    def do_vote(self, effect, scope) -> None:
        votes.cast(self, effect, scope)

    def do_oppose(self, effect, scope) -> None:
        opposed.oppose(self, effect, scope)

    # -- the end -------------------------------------------------------------------------
    def end(self) -> None:
        state, end = self.state, self.data.get("end") or {}
        left = R.playing(state, self.scenario.roster)
        team = votes.victory(self) if self.program.victories else None
        if team is not None:  # a team's victory (`end: victories:`): its characters win
            state["over"], state["winners"] = True, team
            self.out.public("end", winners=team, draw=not team)
            return
        over = "last_standing" in end and len(left) <= end["last_standing"]
        if not over and self.program.end_when is not None:
            over = bool(self.evaluate(self.program.end_when, Scope(None, None, None, "end")))
        if not over and end.get("max_turns"):
            over = state["turn"] >= end["max_turns"]
        if not over and end.get("stuck"):  # nobody can take any action any more (out of points...)
            from .checks import can_act

            over = not any(can_act(self.rs, state, self.scenario, h) for h in self.rs.players_to_play(state,
                                                                                                   self.scenario))
        if over:  # the characters still in play win, or the best score (`end: score:`, scores.py)
            winners = scores.ranked(self) if self.program.score is not None else left
            state["over"], state["winners"] = True, winners
            self.out.public("end", winners=winners, draw=not winners)
        elif self.program.score is not None and end.get("score_every_turn"):
            scores.ranked(self)  # the ranking after this turn (`score_every_turn: true`), the game goes on

    def emit(self, audience, kind: str, **data) -> None:
        if audience is ev.PUBLIC:
            self.out.public(kind, **data)
        elif audience is ev.GM:
            self.out.gm(kind, **data)
        else:
            self.out.private(audience.handles, kind, **data)


class Scope:
    """Where effects run: who acts, on whom, with what argument, the results
    bound so far (`as:`), and the prefix of their rolls' labels."""

    __slots__ = ("actor", "target", "arg", "label", "bound", "depth")

    def __init__(self, actor, target, arg, label, depth: int = 0):
        self.actor, self.target, self.arg, self.label = actor, target, arg, label
        self.depth = depth  # thresholds set off by thresholds, so far
        self.bound: dict = {}

    def bind_row(self, name: str, total: int, row: dict) -> None:
        self.bound[name] = total
        self.bound[f"{name}.roll"] = total
        for column, value in row.items():
            if column not in ("roll", "weight", "table"):
                self.bound[f"{name}.{column}"] = value if not isinstance(value, dict) else R.words(value)["fr"]

    def bind_check(self, name: str, result: dict, total: int) -> None:
        self.bound[name] = result["success"]
        self.bound[f"{name}.roll"] = total
        self.bound[f"{name}.margin"] = result["margin"]
        self.bound[f"{name}.critical"] = result["critical"] is not None
        self.bound[f"{name}.band"] = (result["band"] or {}).get("fr", "")

    def values(self, turn: Turn) -> "Said":
        """What a message may name: the results bound, the actor's values and names."""
        return Said(self, turn)


class Said:
    """A message's names, each looked up when the message names it (a message names
    few; building every value for each would cost more than the turn's rules):
    the results bound, then the MJ's inputs (`gm.<input>`), the target's or the
    argument's name, the target's gauges and stats (`target.<name>`), the actor's
    name, gauges and stats, the turn."""

    __slots__ = ("scope", "turn")

    def __init__(self, scope: Scope, turn: Turn):
        self.scope, self.turn = scope, turn

    def get(self, key: str, default=None):
        scope, state = self.scope, self.turn.state
        if key in scope.bound:
            return scope.bound[key]
        if key.startswith("gm.") and key[3:] in (self.turn.data.get("inputs") or {}):
            return R.gm_value(state, self.turn.data, key[3:], scope.actor)
        if key == "target" and scope.target:
            return self.turn.scenario.name(scope.target)
        if key == "arg" and not scope.target and scope.arg is not None:
            return scope.arg
        if key.startswith("target.") and scope.target:  # {cible.role}: the target's gauge or stat
            them = state["characters"].get(scope.target) or {}
            for values in (them.get("gauges") or {}, them.get("stats") or {}):
                if key[7:] in values:
                    return values[key[7:]]
        if scope.actor:
            if key == "name":
                return self.turn.scenario.name(scope.actor)
            me = state["characters"][scope.actor]
            if key in me["gauges"]:
                return me["gauges"][key]
            if key in me["stats"]:
                return me["stats"][key]
        if key == "turn":
            return state["turn"]
        if self.turn.data.get("calendar"):  # {jour}, {phase}, {tour_du_jour} (a stat of that name is the stat)
            from pbp.datarules.phases import PLAIN

            if key in PLAIN:
                return calendar_value(state, self.turn.data, PLAIN[key])
        return default
