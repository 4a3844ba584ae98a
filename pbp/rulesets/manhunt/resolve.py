"""The turn: orders in order of play -> new state + events.

One `Turn` plays one turn: the Péjis in roster order, action after action
(actions.py says what each does; their costs follow, then the thresholds in the
order noise, fatigue, stress, docs/design.md manhunt 3), then the exit and the trap of the cell
where each stops, then the hunters (docs/design.md manhunt 10), then the reports. This module
owns the order of play and a Péji's condition (costs, thresholds, wounds,
death), which every action, trap and fight goes through.
"""

from __future__ import annotations

from pbp.model import events as ev

from . import actions, rules as r
from .world import door_key, labyrinth

#: a Péji's gauges whose every change a private report explains
GAUGES = ("noise", "fatigue", "stress")


def setup(rules: dict, scenario, quiet: bool = False) -> tuple[dict, list[ev.Event]]:
    """Turn 0: every Péji on their starting cell, the hunters where their sheets say.
    `quiet` (a simulated game): the state alone, no events (a twentieth of a game's time)."""
    state = r.initial_state(scenario)
    if quiet:
        return state, []
    lab = labyrinth(scenario, rules)
    events = [ev.public("debut", players=list(scenario.roster), hunters=len(state["hunters"]))]
    for handle, peji in state["pejis"].items():
        events.append(ev.private(handle, "rapport", status=r.ACTIVE, genre=r.peji_genre(scenario, handle),
                                 place=lab.describe(peji["cell"], set()), start=None,
                                 noise=0, fatigue=0, fatigue_level=1, stress=0, wounds=1,
                                 changes=[], limits=r.report_limits(rules, peji),
                                 inventory=peji["inventory"], worn=peji["worn"],
                                 protection=r.protection(rules, peji), finds=[], adjacent=None,
                                 hunters_here=[r.hunter_name(scenario, h) for h in r.hunters_on(state, [peji["cell"]])],
                                 hunters_near=[], lost_turns=0, traps_known=[],
                                 # who starts on the same cell: they know each other from the start
                                 pejis_here=[scenario.name(other) for other, p in state["pejis"].items()
                                             if other != handle and p["cell"] == peji["cell"]]))
        events.append(ev.gm("depart", player=handle, cell=lab.name(peji["cell"]), cell_id=peji["cell"]))
    for hid, hunter in state["hunters"].items():
        events.append(ev.gm("chasseur", hunter=hid, name=r.hunter_name(scenario, hid),
                            cell=lab.name(hunter["cell"]), cell_id=hunter["cell"]))
    for cell in lab.traps:
        events.append(ev.gm("piege_pose", cell=lab.name(cell), cell_id=cell))
    return state, events


def play(rules: dict, scenario, state: dict, orders: dict, gm_orders, dice, lab=None) -> tuple[dict, list[ev.Event]]:
    """One turn from validated orders (`state` is the caller's copy: it is changed).
    `lab`: the scenario's labyrinth under these rules, when the caller has it."""
    turn = Turn(rules, scenario, state, dice, gm_orders.turn, quiet=gm_orders.quiet, lab=lab)
    turn.play(orders, gm_orders)
    return turn.state, turn.events


class Turn:
    """What one turn knows while it is played, beyond the state: the doors opened
    and cells searched so far, the hunters blinded by a hiding Péji or already
    done acting, and what each report will say.

    A quiet turn (a simulated one, `GmOrders.quiet`) is played exactly as a
    real one but tells nobody: its events are a `QuietEvents` that keeps
    nothing, and what only an event would show (names, breakdowns of totals,
    descriptions) is not worked out (`if not self.quiet`)."""

    def __init__(self, rules: dict, scenario, state: dict, dice, turn: int, quiet: bool = False, lab=None):
        self.rules, self.scenario, self.state, self.dice = rules, scenario, state, dice
        self.lab = lab if lab is not None else labyrinth(scenario, rules)
        self.turn = turn
        self.quiet = quiet
        self.events: list[ev.Event] = ev.collector(quiet)
        self.open_doors = set(state["open_doors"])
        self.searched = set(state["searched"])
        self.blind: dict[str, set[str]] = {}  # hunter -> Péjis whose trace it lost this turn
        self.combat_bonus: dict[str, int] = {}
        self.fighting = False  # panic waits for the end of a fight's 3 assaults
        # Hunters that already acted this turn: those just called by the noise
        # (they arrive next to the Péji) and those a Péji fought.
        self.acted: set[str] = set()
        self.reports: dict[str, dict] = {}  # what each Péji's report says beyond the actions

    # -- events
    def tell(self, handle, kind, **data):
        if not self.quiet:
            self.events.private(handle, kind, **data)

    def shout(self, kind, **data):
        if not self.quiet:
            self.events.public(kind, **data)

    def note(self, kind, **data):
        """An event for the MJ; one naming a hunter by id (`hunter: h3`) also names it."""
        if self.quiet:
            return
        if data.get("hunter") in self.state["hunters"] and "name" not in data:
            data["name"] = r.hunter_name(self.scenario, data["hunter"])
        self.events.gm(kind, **data)

    def peji(self, handle) -> dict:
        return self.state["pejis"][handle]

    def hunter(self, hid) -> dict:
        return self.state["hunters"][hid]

    # -- the order of play
    def play(self, orders: dict, gm_orders) -> None:
        self.state["turn"] = self.turn
        for handle, order in orders.items():
            peji = self.peji(handle)
            if peji["status"] != r.ACTIVE:
                continue
            # a lost turn plays no action: the core gives none (lost_turn), and any a
            # caller passes is ignored as well (no hiding streak, no named drop)
            lost = bool(peji["lost_turns"])
            dropping = [] if lost else [item for a in order.actions if a.id == "jeter" for item in a.arg]
            start = None if self.quiet else {k: peji[k] for k in ("noise", "fatigue", "stress")}  # for the report
            self.reports[handle] = {"finds": [], "adjacent": None, "drop": dropping, "start": start, "changes": []}
            if lost:
                self._lost_turn(handle)
            else:
                self._play_actions(handle, order)
            if peji["status"] == r.ACTIVE:
                self._end_of_peji_turn(handle, hid=not lost and order.has("se_cacher"))
        self._hunters_phase((gm_orders.orders or {}).get(r.GM_HUNTERS) or {})
        self.state["open_doors"] = sorted(self.open_doors)
        self.state["searched"] = sorted(self.searched)
        if not gm_orders.quiet:  # a simulation reads no reports
            by_cell = self._pejis_by_cell()
            for handle in orders:
                self._report(handle, by_cell)
        self._end_of_event()

    def _lost_turn(self, handle):
        peji = self.peji(handle)
        peji["lost_turns"] -= 1
        self.tell(handle, "tour_perdu", reasons=list(peji["recover"]))
        self.shout("tour_perdu", player=handle)
        if peji["lost_turns"] == 0:
            if r.PANIC in peji["recover"]:
                self._set(handle, "stress", self.rules["stress"]["after_panic"], ("recuperation", r.PANIC))
            if r.EXHAUSTION in peji["recover"]:
                self._set(handle, "fatigue", r.fatigue_at_level(self.rules, self.rules["fatigue"]["recover_to_level"]),
                          ("recuperation", r.EXHAUSTION))
            peji["recover"] = []
        peji["hidden_turns"] = 0

    def _play_actions(self, handle, order):
        peji = self.peji(handle)
        if not self.quiet:
            self.shout("actions", player=handle, actions=[a.id for a in order.actions if a.id != "jeter"])
        for action in order.actions:
            if peji["status"] != r.ACTIVE or peji["lost_turns"]:
                self.tell(handle, "action_annulee", action=action.id, reason="controle" if peji["lost_turns"] else "fin")
                continue
            spec = self.rules["actions"][action.id]
            if actions.HANDLERS[action.id](self, handle, action) is False:
                continue  # not carried out: it costs nothing
            if peji["status"] == r.ACTIVE:
                self.costs(handle, spec["noise"], spec["fatigue"], spec["stress"], cause=("action", action.id))

    # -- a Péji's condition: costs and thresholds (docs/design.md manhunt 3: noise, then fatigue, then stress)
    def costs(self, handle, noise=0, fatigue=0, stress=0, cause=("action", None)):
        """Pay, then what the thresholds bring; `cause` (kind, what): for the report (_log)."""
        peji = self.peji(handle)
        was = {gauge: peji[gauge] for gauge in GAUGES}
        peji["noise"] = max(0, peji["noise"] + noise)
        before = r.fatigue_level(self.rules, peji["fatigue"])
        peji["fatigue"] = max(0, peji["fatigue"] + fatigue)
        # the level after paying: the same when no fatigue is paid (a level counts a
        # total below 0 as 0), and the noise checked first never changes the fatigue
        level = r.fatigue_level(self.rules, peji["fatigue"]) if fatigue else before
        peji["stress"] = max(0, peji["stress"] + stress)
        self._log(handle, cause, {gauge: peji[gauge] - was[gauge] for gauge in GAUGES})
        self._check_noise(handle)
        self._check_fatigue(handle, before, level)
        self.check_stress(handle)

    def _set(self, handle, gauge, value, cause):
        """A gauge set to a value by a rule (back from a lost turn, traces lost)."""
        peji = self.peji(handle)
        delta, peji[gauge] = value - peji[gauge], value
        self._log(handle, cause, {gauge: delta})

    def _log(self, handle, cause, deltas):
        """Each change of a gauge with its cause, for the report; one cause in a row adds up."""
        report = None if self.quiet else self.reports.get(handle)
        moved = {gauge: delta for gauge, delta in deltas.items() if delta}
        if report is None or not moved:
            return
        kind, what = cause
        changes = report.setdefault("changes", [])
        if changes and (changes[-1]["cause"], changes[-1]["what"]) == (kind, what):
            for gauge, delta in moved.items():
                changes[-1][gauge] = changes[-1].get(gauge, 0) + delta
        else:
            changes.append({"cause": kind, "what": what, **moved})

    def _check_noise(self, handle):
        peji = self.peji(handle)
        while r.noise_calls(self.rules, peji) > 0:
            peji["noise_mark"] += 1
            self._spot(handle)

    def _spot(self, handle):
        """docs/design.md manhunt 4: a free hunter appears on a random adjacent cell and tracks the
        Péji, whose stress rises. No free hunter: nothing happens, no stress (FAQ 9)."""
        peji = self.peji(handle)
        hid = r.free_hunter(self.state)
        self.tell(handle, "repere", noise=peji["noise"], hunter=hid is not None,
                  threshold=self.rules["noise"]["threshold"], stress=self.rules["noise"]["stress"])
        if hid is None:
            self.note("repere_sans_chasseur", player=handle, noise=peji["noise"])
            return
        peji["stress"] += self.rules["noise"]["stress"]
        self._log(handle, ("repere", None), {"stress": self.rules["noise"]["stress"]})
        around = self.lab.neighbours(peji["cell"]) or [peji["cell"]]
        cell = self.dice.choice(f"{handle}.bruit.case", around, "case du chasseur repérant le bruit")
        self.hunter(hid).update(cell=cell, target=handle, trace=peji["cell"])
        self.acted.add(hid)
        if not self.quiet:
            self.note("chasseur_arrive", hunter=hid, name=r.hunter_name(self.scenario, hid),
                      cell=self.lab.name(cell), cell_id=cell, target=handle, noise=peji["noise"])
            self.shout("chasseur_en_chasse", name=r.hunter_name(self.scenario, hid),
                       genre=r.hunter_genre(self.scenario, hid))

    def _check_fatigue(self, handle, before, level):
        peji = self.peji(handle)
        f = self.rules["fatigue"]
        if level != before:
            self.tell(handle, "niveau_fatigue", level=level, before=before)
        if level < f["drop_level"]:
            peji["dropped"] = False
        elif not peji["dropped"]:
            peji["dropped"] = True
            self._forced_drop(handle)
        if level >= f["lost_turn_level"] and before < f["lost_turn_level"]:
            peji["lost_turns"] = 1
            if r.EXHAUSTION not in peji["recover"]:
                peji["recover"].append(r.EXHAUSTION)
            self.tell(handle, "epuise")

    def _forced_drop(self, handle):
        """docs/design.md manhunt 5: the items the order names (`jeter`), else the last found."""
        peji = self.peji(handle)
        count = self.rules["fatigue"]["drop_count"]
        # the items a `jeter` names, as the player wrote them (accents may be missing)
        named = [i for i in (r.find_item(peji["inventory"], w) for w in self.reports.get(handle, {}).get("drop", []))
                 if i is not None]
        chosen = named[:count]
        for item in reversed(peji["inventory"]):
            if len(chosen) >= count:
                break
            if item not in chosen:
                chosen.append(item)
        for item in chosen:
            peji["inventory"].remove(item)
            if item in peji["worn"]:
                peji["worn"].remove(item)
        self.tell(handle, "abandon", dropped=chosen)

    def check_stress(self, handle):
        peji = self.peji(handle)
        s = self.rules["stress"]
        if peji["stress"] < s["panic"] or r.PANIC in peji["recover"] or peji["status"] != r.ACTIVE \
                or self.fighting:
            return
        # docs/design.md manhunt 6: moved 2 random steps, noise and fatigue up, next turn lost.
        peji["recover"].append(r.PANIC)
        peji["lost_turns"] = 1
        path = []
        for n in range(1, s["panic_steps"] + 1):
            options = self.lab.exits[peji["cell"]]
            if not options:
                break
            direction, exit_ = self.dice.choice(f"{handle}.panique.{n}", options, "fuite de panique")
            self.cross(handle, peji["cell"], exit_, pay=False)  # a panicking Péji bursts doors open
            peji["cell"] = exit_["to"]
            path.append(direction)
        self.tell(handle, "panique", path=path, noise=s["panic_noise"], fatigue=s["panic_fatigue"], threshold=s["panic"])
        self.shout("panique", player=handle)
        self.note("panique_gm", player=handle, cell=self.lab.name(peji["cell"]), cell_id=peji["cell"])
        self.costs(handle, noise=s["panic_noise"], fatigue=s["panic_fatigue"], cause=("panique", None))

    def wound(self, handle, cause: str, levels: int = 1):
        """docs/design.md manhunt 7: each level reached applies its effect once; the dead level kills."""
        peji = self.peji(handle)
        for _ in range(levels):
            if peji["status"] != r.ACTIVE:
                return
            peji["wounds"] += 1
            dead = peji["wounds"] >= self.rules["wounds"]["dead_level"]
            # the level's effect, told with the wound (docs/design.md manhunt 7): "+1 fatigue" has its cause
            fatigue, stress = (0, 0) if dead else r.wound_costs(self.rules, peji["wounds"], peji["fatigue"])
            self.tell(handle, "blessure", level=peji["wounds"], cause=cause, fatigue=fatigue, stress=stress)
            if dead:
                self.die(handle, cause)
                return
            self.costs(handle, fatigue=fatigue, stress=stress, cause=("blessure", peji["wounds"]))

    def die(self, handle, cause):
        peji = self.peji(handle)
        peji["status"] = r.DEAD
        peji["death"] = {"turn": self.turn, "cause": cause, "noise": peji["noise"]}
        self._forget(handle)
        self.shout("mort", player=handle, genre=r.peji_genre(self.scenario, handle), cause=cause)
        self.tell(handle, "mort_privee", cause=cause)

    def _forget(self, handle):
        """Every hunter tracking a Péji who left the game stops."""
        for h in self.state["hunters"].values():
            if h["target"] == handle:
                h["target"], h["trace"] = None, None

    def cross(self, handle, src, exit_, pay=True) -> dict:
        """Through a doorway (docs/design.md manhunt 2): a closed one opens, and costs unless `pay` is False."""
        door = self.lab.door(exit_)
        was_open = self.lab.door_open(src, exit_, self.open_doors)
        if not was_open:
            self.open_doors.add(door_key(src, exit_["to"]))
            if pay:
                noise, stress = r.door_cost(self.rules, door)
                self.costs(handle, noise=noise, stress=stress, cause=("porte", door))
        return {"door": door, "opened": not was_open}

    def blind_hunters(self, handle, cells) -> list[str]:
        """docs/design.md manhunt 12: the hunters on these cells tracking the Péji lose the trace this turn."""
        lost = []
        for hid in r.hunters_on(self.state, cells):
            if self.hunter(hid)["target"] == handle:
                self.blind.setdefault(hid, set()).add(handle)
                lost.append(hid)
        return lost

    def lose_all_traces(self, handle):
        """Every hunter loses the Péji's trace, and their noise is back to 0."""
        peji = self.peji(handle)
        for hid, hunter in self.state["hunters"].items():
            if hunter["target"] == handle:
                hunter["target"], hunter["trace"] = None, None
                self.note("trace_perdue", hunter=hid, player=handle)
        self._set(handle, "noise", 0, ("traces_perdues", None))
        peji["noise_mark"] = 0

    # -- end of a Péji's turn: exit, trap, hiding streak
    def _end_of_peji_turn(self, handle, hid: bool):
        peji = self.peji(handle)
        cell = peji["cell"]
        if self.lab.is_exit(cell):
            peji["status"] = r.ESCAPED
            peji["escaped_turn"] = self.turn
            self._forget(handle)
            self.shout("evasion", player=handle, genre=r.peji_genre(self.scenario, handle))
            self.tell(handle, "evasion_privee")
            return
        if cell in self.lab.traps and cell not in peji["traps_found"]:
            self._trap(handle, cell)
        if peji["status"] != r.ACTIVE:
            return
        peji["hidden_turns"] = peji["hidden_turns"] + 1 if hid else 0
        if peji["hidden_turns"] >= self.rules["noise"]["hidden_turns_reset"]:
            self.lose_all_traces(handle)
            self.tell(handle, "traces_perdues", turns=peji["hidden_turns"])

    def _trap(self, handle, cell):
        """docs/design.md manhunt 13: the trap fires on a Péji stopping here who did not find it;
        they know it afterwards."""
        peji = self.peji(handle)
        effect = r.trap_effect(self.rules, self.lab.traps[cell])
        peji["traps_found"].append(cell)
        self.tell(handle, "piege", effect=effect, description=self.lab.traps[cell].get("description", ""))
        self.shout("piege_public", player=handle, genre=r.peji_genre(self.scenario, handle))
        self.note("piege_gm", player=handle, cell=self.lab.name(cell), cell_id=cell)
        if effect.get("stress"):
            self.costs(handle, stress=effect["stress"], cause=("piege", None))
        if effect.get("wounds"):
            self.wound(handle, "piege", effect["wounds"])

    # -- hunters (docs/design.md manhunt 10)
    def _hunters_phase(self, dictated: dict):
        for hid in self.state["hunters"]:
            hunter = self.hunter(hid)
            if hunter["out"]:
                continue
            order = dictated.get(hid)
            if hid in self.acted and order is None:
                continue
            if order is not None and self._dictated(hid, order):
                continue
            if hunter["cell"] is None:
                continue
            target = hunter["target"]
            if target is not None and self.peji(target)["status"] != r.ACTIVE:
                hunter["target"] = target = None
            if target is None:
                prey = self._prey_on_cell(hid)
                if prey is None:
                    continue
                hunter["target"] = target = prey
                self.note("proie", hunter=hid, player=prey)
            if target in self.blind.get(hid, ()):
                self.note("chasseur_perdu", hunter=hid, player=target)
                continue
            peji = self.peji(target)
            hunter["trace"] = peji["cell"]
            if peji["cell"] == hunter["cell"]:
                actions.melee(self, target, hid, None, attacker="hunter")
                if self.rules["combat"]["defender_pays_costs"] and self.peji(target)["status"] == r.ACTIVE:
                    spec = self.rules["actions"]["combat"]
                    self.costs(target, spec["noise"], spec["fatigue"], spec["stress"], cause=("defense", None))
            else:
                self._hunter_step(hid, self.lab.step_towards(hunter["cell"], hunter["trace"]))

    def _prey_on_cell(self, hid):
        if not self.rules["hunters"]["take_prey_on_cell"]:
            return None
        cell = self.hunter(hid)["cell"]
        for handle, peji in self.state["pejis"].items():
            if peji["status"] == r.ACTIVE and peji["cell"] == cell and handle not in self.blind.get(hid, ()):
                return handle
        return None

    def _hunter_step(self, hid, to):
        """One cell; a hunter opens the closable doorways it goes through."""
        hunter = self.hunter(hid)
        if to is None:
            return
        for _, exit_ in self.lab.exits[hunter["cell"]]:
            if exit_["to"] == to and self.lab.door(exit_) in self.lab.closable:
                self.open_doors.add(door_key(hunter["cell"], to))
        if not self.quiet:
            self.note("chasseur_bouge", hunter=hid, src=self.lab.name(hunter["cell"]), dst=self.lab.name(to),
                      src_id=hunter["cell"], dst_id=to, target=hunter["target"])
        hunter["cell"] = to

    def _dictated(self, hid, order) -> bool:
        """The MJ's orders for a hunter (gm.yaml); True when they replace its move."""
        hunter = self.hunter(hid)
        if order in r.HUNTER_WAIT:
            self.note("chasseur_attend", hunter=hid)
            return True
        if order in r.HUNTER_REMOVE:
            hunter.update(out=True, target=None, trace=None)
            self.note("chasseur_retire", hunter=hid)
            return True
        if "placer" in order:
            hunter["cell"] = order["placer"]
            self.note("chasseur_place", hunter=hid, cell=self.lab.name(order["placer"]), cell_id=order["placer"])
        if "cible" in order:
            target = order["cible"]
            hunter["target"] = target
            hunter["trace"] = self.peji(target)["cell"] if target else None
            self.note("chasseur_cible", hunter=hid, player=target)
        if "aller" in order:
            self._hunter_step(hid, order["aller"])
            return True
        if "attaquer" in order:
            hunter["target"] = order["attaquer"]
            actions.melee(self, order["attaquer"], hid, None, attacker="hunter")
            return True
        return "placer" in order

    # -- reports
    def _pejis_by_cell(self) -> dict[str, list[str]]:
        """Active Péjis per cell, once the turn is played."""
        by_cell: dict[str, list[str]] = {}
        for h, p in self.state["pejis"].items():
            if p["status"] == r.ACTIVE:
                by_cell.setdefault(p["cell"], []).append(h)
        return by_cell

    def _report(self, handle, by_cell):
        """What a Péji perceives at the end of the turn (Annexe 3)."""
        peji = self.peji(handle)
        cell = peji["cell"]
        report = self.reports.get(handle, {"finds": [], "adjacent": None, "start": None})
        seen_here = [r.hunter_name(self.scenario, h) for h in r.hunters_on(self.state, [cell])]
        heard = []
        for direction, exit_ in self.lab.exits.get(cell, []):
            for h in r.hunters_on(self.state, [exit_["to"]]):
                heard.append({"direction": direction, "hunter": r.hunter_name(self.scenario, h)})
        others = [self.scenario.name(h) for h in by_cell.get(cell, []) if h != handle]
        self.tell(handle, "rapport", status=peji["status"], genre=r.peji_genre(self.scenario, handle),
                  place=self.lab.describe(cell, self.open_doors), start=report.get("start"),
                  changes=report.get("changes", []), limits=r.report_limits(self.rules, peji),
                  noise=peji["noise"], fatigue=peji["fatigue"],
                  fatigue_level=r.fatigue_level(self.rules, peji["fatigue"]), stress=peji["stress"],
                  wounds=peji["wounds"], inventory=list(peji["inventory"]), worn=list(peji["worn"]),
                  protection=r.protection(self.rules, peji), finds=report["finds"], adjacent=report["adjacent"],
                  hunters_here=seen_here, hunters_near=heard, pejis_here=others, lost_turns=peji["lost_turns"],
                  traps_known=[self.lab.name(c) for c in peji["traps_found"]])

    def _end_of_event(self):
        if r.event_ends(self.rules, self.state, self.turn):
            self.state["over"] = True
            self.shout("fin", **r.fates(self.state))
