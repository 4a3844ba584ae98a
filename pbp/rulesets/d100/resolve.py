"""One d100 turn: the MJ's orders and the players' orders, resolved in a fixed
order, into a new state and events (each with its audience); and turn 0, the
set-up, which puts every character in the state.

Order of a turn:
 0. players added to the roster since the last turn join (their alignment drawn
    if their sheet has none);
 1. MJ: starting trust (`confiance`), combat flag, situational dice (`situation`);
 2. players, in roster order, their actions in file order (checks, item uses,
    sleep, nothing); then the MJ's called checks (`jet`);
 3. trust gains and losses of the turn (every check used the trust as it stood
    after step 1);
 4. MJ: alignment events, manipulations, grave events (after the checks, so the
    stable state the orders were checked against is the one they were rolled with);
 5. MJ: gauge changes (`jauge`), then recovery (sleep, a full turn without action);
 6. MJ: end-of-level alignment changes;
 7. characters at 0 PV go down; healed ones get up; a summary for each player.

The MJ's orders come in normalised (checks.gm_orders, or the simulated MJ of
balance.py): this module only plays them.
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.model.orders import normalize_id

from . import rules as R
from .sheets import find_faction, sheet_data


# -- turn 0 and players joining ---------------------------------------------------------------

def set_up(rules: dict, scenario, sheets: dict, factions: dict, dice) -> tuple[dict, list[ev.Event]]:
    """The initial state (every character with full gauges) and turn 0's events."""
    state = {"characters": {}, "combat": False, "level": 1}
    events = [ev.public("cast", players=list(scenario.roster))]
    for handle in scenario.roster:
        events += enter(rules, state, handle, sheets[handle], dice)
    for handle in scenario.roster:
        events.append(summary_event(handle, state, sheets[handle], factions, rules))
    events.append(ev.gm("factions", factions=list(factions.values())))
    return state, events


def enter(rules: dict, state: dict, handle: str, sheet: dict, dice) -> list[ev.Event]:
    """Put a character in the state (set-up, or a player added to the roster
    later), drawing their alignment if the sheet has none."""
    total = rules["alignment"]["points"]
    light, drawn = sheet["alignment"], None
    if light is None:
        drawn = dice.roll(f"{handle}.alignement", rules["alignment"]["draw"], "alignment draw")
        light = max(0, min(total, drawn.total))
    state["characters"][handle] = R.initial_character(sheet, light, rules)
    events = [ev.private(handle, "sheet", player=handle, **sheet_data(sheet, rules))]
    if drawn is not None:
        events.append(ev.private(handle, "alignment_draw", player=handle, roll=drawn, light=light,
                                 dark=total - light))
    return events


def summary_event(handle: str, state: dict, sheet: dict, factions: dict, rules: dict) -> ev.Event:
    """A player's private end-of-turn sheet (rules.summary)."""
    return ev.private(handle, "summary", **R.summary(handle, state, sheet, factions, rules))


def play_turn(rules: dict, state: dict, scenario, sheets: dict, factions: dict, orders: dict, gm: dict, dice,
              quiet: bool = False) -> tuple["Turn", list[ev.Event]]:
    """A whole turn on `state` (changed in place): the players who join, then
    the turn itself. Returns the Turn (its tally, for a simulation) and the events."""
    joined = []
    for handle in scenario.roster:
        if handle not in state["characters"]:
            joined.append(ev.public("joined", player=handle))
            joined += enter(rules, state, handle, sheets[handle], dice)
    turn = Turn(rules, state, scenario, sheets, factions, dice, quiet=quiet)
    return turn, joined + turn.run(orders, gm)


class Turn:
    def __init__(self, rules: dict, state: dict, scenario, sheets: dict, factions: dict, dice, quiet: bool = False):
        self.rules, self.state, self.scenario = rules, state, scenario
        self.sheets, self.factions, self.dice = sheets, factions, dice
        #: a simulated turn (pbp simulate): nobody reads the end-of-turn summaries
        self.quiet = quiet
        #: every check of the turn: (handle, origin, outcome), for the simulation's tally
        self.results: list[tuple[str, str, str]] = []
        #: the last reason each character lost PV this turn (a simulation's cause of death)
        self.pv_cause: dict[str, str] = {}
        self.events: list[ev.Event] = []
        self.situations: dict[str, list[dict]] = {}
        self.trust_start: dict[str, dict[str, int]] = {}
        self.trust_delta: dict[str, dict[str, int]] = {}
        self.light_start: dict[str, int] = {}
        self.acted: set[str] = set()
        self.slept: set[str] = set()
        self.recovery_choice: dict[str, str | None] = {}
        #: who was down when the turn began (a simulation counts who goes down, and why)
        self.down_before = {h: c["down"] for h, c in state["characters"].items()}
        # the roster's characters (a player taken out of campaign.yaml is left alone)
        self.handles = [h for h in scenario.roster if h in state["characters"]]

    @property
    def chars(self) -> dict:
        return self.state["characters"]

    # -- the turn ------------------------------------------------------------------------
    def run(self, orders: dict, gm: dict) -> list[ev.Event]:
        for entry in gm.get("confiance", []):
            self.set_trust(entry)
        if gm.get("combat") is not None:
            self.state["combat"] = gm["combat"] == "oui"
            self.events.append(ev.gm("combat", on=self.state["combat"]))
        for entry in gm.get("situation", []):
            self.situation(entry)
        self.trust_start = {h: dict(self.chars[h]["trust"]) for h in self.handles}
        self.light_start = {h: self.chars[h]["light"] for h in self.handles}
        for handle, player_orders in orders.items():
            for action in player_orders.actions:
                self.action(handle, action)
        for entry in gm.get("jet", []):
            self.gm_check(entry)
        self.apply_trust()
        for entry in gm.get("alignement", []):
            self.alignment_event(entry)
        for entry in gm.get("manipulation", []):
            self.manipulation(entry)
        for entry in gm.get("evenement_grave", []):
            self.grave_event(entry)
        for entry in gm.get("jauge", []):
            self.gauge(entry)
        self.recovery()
        if gm.get("fin_de_niveau"):
            self.end_of_level(gm["fin_de_niveau"])
        self.downs()
        if not self.quiet:
            for handle in self.handles:
                self.events.append(summary_event(handle, self.state, self.sheets[handle], self.factions, self.rules))
        return self.events

    # -- player actions ------------------------------------------------------------------
    def action(self, handle: str, action) -> None:
        spec = self.rules["actions"].get(action.id) or {}
        if spec.get("is_action"):
            self.acted.add(handle)
        if action.id == "jet":
            a = action.arg
            self.check(handle, a["carac"], a.get("competence"), a.get("modificateur") or 0, a.get("intention"),
                       a.get("faction"), a.get("type"), a.get("but"), origin="player", index=action.index,
                       public=True)
        elif action.id == "utiliser":
            self.use(handle, action)
        elif action.id == "dormir":
            self.slept.add(handle)
            self.recovery_choice[handle] = action.arg
            self.events.append(ev.public("sleep", player=handle))
            self.sleep_heal(handle)
        elif action.id == "rien":
            self.recovery_choice.setdefault(handle, action.arg)

    def cost(self, sheet: dict, check_type: str | None, skill_id: str | None) -> dict:
        return R.check_cost(self.rules, sheet, check_type, skill_id)

    def check(self, handle, carac, skill_word, modifier, intent, faction_word, check_type, purpose, *,
              origin, index=None, public=True, item=None, charge=True) -> str:
        """One d100 check: the chance explained term by term, the roll, the outcome,
        the trust it moves. Returns the outcome."""
        sheet, me, rules = self.sheets[handle], self.chars[handle], self.rules
        skill_id = normalize_id(skill_word) if skill_word else None
        skill = sheet["skills"].get(skill_id) if skill_id else None
        terms = [{"kind": "carac", "carac": carac, "value": sheet["characteristics"][carac]}]
        if skill is not None:
            if skill["level"] or not skill["die"]:
                terms.append({"kind": "skill", "skill": skill["name"], "level": skill["level"],
                              "value": R.skill_points(skill["level"], rules)})
            if skill["die"]:
                roll = self.dice.roll(f"{handle}.situation", R.dice_expr(skill["die"]),
                                      f"situational die: {skill['name']}")
                points = R.situation_modifier(roll.total, skill["die"], skill["range"])
                terms.append({"kind": "skill_die", "skill": skill["name"], "roll": roll, "range": skill["range"],
                              "points": points, "value": R.skill_points(points, rules)})
        if modifier:
            terms.append({"kind": "modifier", "value": modifier})
        for situation in self.situations.get(handle, []):
            terms.append({"kind": "situation", "reason": situation["reason"], "points": situation["points"],
                          "value": R.skill_points(situation["points"], rules)})
        faction = self.faction_of(faction_word)
        trust = None
        if faction is not None:
            level = self.trust_start[handle].get(faction["id"], 0)
            group = [self.trust_start[h].get(faction["id"], 0) for h in self.handles]
            effective, doubled = R.effective_trust(level, group, rules)
            terms.append({"kind": "trust", "faction": faction["id"], "faction_name": faction["name"],
                          "level": level, "effective": effective, "doubled": doubled,
                          "value": R.trust_bonus(effective, rules)})
        bonus = R.stable_bonus(self.light_start.get(handle, me["light"]), intent, rules)
        if bonus:
            terms.append({"kind": "stable", "side": intent, "value": bonus})
        chance = sum(t["value"] for t in terms)
        spent = {}
        if charge:
            for gauge, points in self.cost(sheet, check_type, skill_id).items():
                if points:
                    me[gauge] = max(0, me[gauge] - points)
                    spent[gauge] = points
        roll = self.dice.roll(f"{handle}.jet", R.dice_expr(rules["check"]["dice"]), purpose or carac)
        result = R.outcome(roll.total, chance, rules)
        # a critical's range, so the post says why the chance did not matter
        critical = dict(rules["check"][result]) if result in ("critical_success", "critical_failure") else None
        self.results.append((handle, origin, result))
        if faction is not None:
            delta = R.trust_delta(result, rules)
            pending = self.trust_delta.setdefault(handle, {})
            pending[faction["id"]] = pending.get(faction["id"], 0) + delta
            trust = {"faction": faction["id"], "faction_name": faction["name"], "delta": delta}
        faction_name = faction["name"] if faction else None
        if public:
            # the thread reads the die (`public_check: die`) or the outcome alone; never the chance,
            # which would tell the sheet
            shown = roll if rules["public_check"] == "die" else None
            self.events.append(ev.public("check", player=handle, carac=carac, purpose=purpose, origin=origin,
                                         faction_name=faction_name, item=item, outcome=result, roll=shown,
                                         critical=critical))
        self.events.append(ev.private(handle, "check_detail", player=handle, carac=carac, purpose=purpose,
                                      origin=origin, index=index, item=item, skill=skill["name"] if skill else None,
                                      intent=intent, terms=terms, chance=chance, roll=roll, outcome=result,
                                      critical=critical, trust=trust, spent=spent, public=public))
        return result

    def use(self, handle: str, action) -> None:
        sheet, me = self.sheets[handle], self.chars[handle]
        a = action.arg
        item = sheet["items"][normalize_id(a["objet"])]
        target = a.get("cible") or handle
        uses_left = None
        if item["uses"] is not None:
            me["uses"][item["id"]] = max(0, me["uses"].get(item["id"], item["uses"]) - 1)
            uses_left = me["uses"][item["id"]]
        result = None
        if item["check"]:
            c = item["check"]
            result = self.check(handle, c["carac"], c["competence"], c["modificateur"], a.get("intention"), None,
                                None, a.get("but") or item["name"], origin="item", index=action.index,
                                public=False, item=item["name"])
        # None: an item without mechanical effect (the story says what it does)
        applied = (result is None or R.succeeded(result)) if item["effect"] else None
        self.events.append(ev.public("use", player=handle, item=item["name"], target=target if target != handle
                                     else None, purpose=a.get("but"), outcome=result))
        self.events.append(ev.private(handle, "use_detail", player=handle, item=item["name"], slot=item["slot"],
                                      target=target, uses_left=uses_left, outcome=result, applied=applied))
        if applied:
            self.change_gauges(target, item["effect"], reason=item["name"], by=handle)

    def sleep_heal(self, handle: str) -> None:
        me, sheet = self.chars[handle], self.sheets[handle]
        spec = self.rules["sleep_heal"]
        missing = sheet["gauges"]["pv"] - me["pv"]
        if missing <= 0:
            return
        if me.get("no_sleep_heal"):
            self.events.append(ev.private(handle, "sleep_no_heal", player=handle))
            return
        if missing <= spec["missing_max"]:
            self.change_gauges(handle, {"pv": spec["points"]}, reason="sleep", by=None)

    # -- MJ orders ---------------------------------------------------------------------------
    def faction_of(self, word) -> dict | None:
        if not word:
            return None
        return find_faction(self.factions, word)

    def set_trust(self, entry: dict) -> None:
        faction = self.faction_of(entry["faction"])
        players = entry.get("joueurs") or list(self.handles)
        for handle in players:
            before = self.chars[handle]["trust"].get(faction["id"])
            self.chars[handle]["trust"][faction["id"]] = entry["niveau"]
            self.events.append(ev.private(handle, "trust_set", player=handle, faction=faction["id"],
                                          faction_name=faction["name"], before=before, level=entry["niveau"]))

    def situation(self, entry: dict) -> None:
        handle = entry.get("joueur")
        label = f"{handle}.situation" if handle else "mj.situation"
        roll = self.dice.roll(label, entry["de"], entry.get("raison") or "situational die")
        points = R.situation_modifier(roll.total, entry["de"], entry.get("plage") or 0)
        if handle and entry.get("plage"):
            self.situations.setdefault(handle, []).append({"reason": entry.get("raison"), "points": points})
        data = dict(player=handle, reason=entry.get("raison"), roll=roll, range=entry.get("plage") or 0,
                    points=points)
        if entry.get("public") == "oui":
            self.events.append(ev.public("situation", **data))
        elif handle:
            self.events.append(ev.private(handle, "situation", **data))
        else:
            self.events.append(ev.gm("situation", **data))

    def gm_check(self, entry: dict) -> None:
        self.check(entry["joueur"], entry["carac"], entry.get("competence"), entry.get("modificateur") or 0,
                   entry.get("intention"), entry.get("faction"), None, entry.get("but"), origin="gm",
                   public=entry.get("public") == "oui", charge=False)

    def apply_trust(self) -> None:
        for handle, deltas in self.trust_delta.items():
            me = self.chars[handle]
            for faction, delta in deltas.items():
                before = me["trust"].get(faction, 0)
                after = R.clamp_trust(self.trust_start[handle].get(faction, 0) + delta, self.rules)
                me["trust"][faction] = after
                self.events.append(ev.private(handle, "trust_change", player=handle, faction=faction,
                                              faction_name=self.factions[faction]["name"], before=before,
                                              delta=delta, after=after))

    def alignment_event(self, entry: dict) -> None:
        handle = entry["joueur"]
        me = self.chars[handle]
        result = R.alignment_event(me["light"], entry["reaction"], entry.get("points"), self.dice, handle,
                                   self.rules)
        me["light"] = result["after"]
        self.events.append(ev.private(handle, "alignment_event", player=handle,
                                      description=entry.get("description"), **result))

    def grave_event(self, entry: dict) -> None:
        handle = entry["joueur"]
        me = self.chars[handle]
        result = R.rupture(me["light"], self.dice, handle, self.rules)
        me["light"] = result["after"]
        self.events.append(ev.private(handle, "rupture", player=handle, description=entry.get("description"),
                                      **result))

    def manipulation(self, entry: dict) -> None:
        handle, by = entry["joueur"], entry.get("par")
        me = self.chars[handle]
        # the chance term by term, as a check's (the players check each number)
        if entry.get("chance") is not None:
            terms = [{"kind": "npc", "value": entry["chance"]}]
        else:
            sheet = self.sheets[by]
            skill = sheet["skills"].get(normalize_id(entry["competence"])) if entry.get("competence") else None
            terms = [{"kind": "carac", "carac": entry["carac"], "value": sheet["characteristics"][entry["carac"]]}]
            if skill:
                terms.append({"kind": "skill", "skill": skill["name"], "level": skill["level"],
                              "value": R.skill_points(skill["level"], self.rules)})
        if entry.get("modificateur"):
            terms.append({"kind": "modifier", "value": entry["modificateur"]})
        chance = sum(t["value"] for t in terms)
        roll = self.dice.roll(f"{handle}.manipulation", self.rules["check"]["dice"], "manipulation of the morale")
        result = R.outcome(roll.total, chance, self.rules)
        critical = dict(self.rules["check"][result]) if result in ("critical_success", "critical_failure") else None
        broken = R.succeeded(result)
        out = R.break_stable(me["light"], broken, self.rules)
        me["light"] = out["after"]
        self.events.append(ev.private(handle, "manipulation", player=handle, by=by,
                                      description=entry.get("description"), terms=terms, chance=chance, roll=roll,
                                      outcome=result, critical=critical, broken=broken, **out))
        if by and by != handle:
            self.events.append(ev.private(by, "manipulation_by", player=by, target=handle, terms=terms,
                                          chance=chance, roll=roll, outcome=result, critical=critical))

    def gauge(self, entry: dict) -> None:
        handle = entry["joueur"]
        deltas = {g: entry.get(g) or 0 for g in self.rules["gauges"]}
        if entry.get("sans_soin") is not None:
            self.chars[handle]["no_sleep_heal"] = entry["sans_soin"] == "oui"
        self.change_gauges(handle, deltas, reason=entry.get("raison"), by="gm",
                           no_heal=entry.get("sans_soin"))

    def change_gauges(self, handle: str, deltas: dict, *, reason, by, no_heal=None) -> None:
        me, maxima = self.chars[handle], self.sheets[handle]["gauges"]
        changes = []
        for gauge in self.rules["gauges"]:
            delta = deltas.get(gauge) or 0
            if not delta:
                continue
            before = me[gauge]
            me[gauge] = max(0, min(maxima[gauge], before + delta))
            if gauge == "pv" and delta < 0:
                self.pv_cause[handle] = reason
            changes.append({"gauge": gauge, "delta": delta, "before": before, "after": me[gauge],
                            "max": maxima[gauge]})
        if changes or no_heal is not None:
            self.events.append(ev.private(handle, "gauge_change", player=handle, reason=reason, by=by,
                                          changes=changes, no_heal=no_heal))

    def recovery(self) -> None:
        spec = self.rules["recovery"]
        in_play = [h for h in self.handles if not self.chars[h]["down"]]
        quiet = bool(in_play) and not any(h in self.acted for h in in_play)
        if quiet:
            self.events.append(ev.public("quiet_turn"))
        for handle in in_play:
            if self.chars[handle]["pv"] <= 0:  # goes down at the end of this turn: no recovery (README)
                continue
            sources = (["sleep"] if handle in self.slept else []) + (["quiet"] if quiet else [])
            if not sources:
                continue
            me, maxima = self.chars[handle], self.sheets[handle]["gauges"]
            gauge = R.recovery_gauge(self.recovery_choice.get(handle), me, maxima, self.rules)
            points = min(spec["points"] * len(sources), spec["per_turn_max"])
            before = me[gauge] if gauge else None
            if gauge:
                me[gauge] = min(maxima[gauge], me[gauge] + points)
            self.events.append(ev.private(handle, "recovery", player=handle, sources=sources, gauge=gauge,
                                          before=before, after=me[gauge] if gauge else None,
                                          max=maxima[gauge] if gauge else None))

    def end_of_level(self, entries: list) -> None:
        for entry in entries:
            handle = entry["joueur"]
            me = self.chars[handle]
            before = me["light"]
            points = entry["alignement"]
            me["light"] = R.shifted(before, R.LIGHT if points > 0 else R.DARK, abs(points), self.rules)
            self.events.append(ev.private(handle, "end_of_level", player=handle, points=points, before=before,
                                          after=me["light"], level=self.state["level"]))
        self.events.append(ev.gm("level_end", level=self.state["level"]))
        self.state["level"] += 1

    def downs(self) -> None:
        for handle in self.handles:
            me = self.chars[handle]
            if me["pv"] <= 0 and not me["down"]:
                me["down"] = True
                self.events.append(ev.public("down", player=handle, genre=self.sheets[handle].get("genre")))
            elif me["pv"] > 0 and me["down"]:
                me["down"] = False
                self.events.append(ev.public("up", player=handle))
