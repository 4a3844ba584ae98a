"""La chasse à l'homme (seed 001), with DESIGN.md's decisions manhunt 1-16.

One `TurnResolver` plays one turn: the Péjis in roster order, action after
action (costs, then the thresholds noise, fatigue, stress), then the trap and
exit of the cell where each stops, then the hunters. It only reads and writes
plain dicts and returns events; every number comes from `rules` (data.yaml).
"""

from __future__ import annotations

from pbp import events as ev
from pbp.ruleset import Refusal

from .world import Labyrinth, door_key

ACTIVE, DEAD, ESCAPED = "active", "dead", "escaped"


# -- helpers on one Péji's numbers ----------------------------------------------

def fatigue_level(rules: dict, fatigue: int) -> int:
    f = rules["fatigue"]
    return min(f["max_level"], 1 + max(0, fatigue) // f["per_level"])


def protection(rules: dict, peji: dict) -> int:
    items = rules["items"]
    return sum(items.get(i, {}).get("protection", 0) for i in peji.get("worn", []))


def weapons(rules: dict, peji: dict, kind: str) -> list[str]:
    items = rules["items"]
    return [i for i in peji["inventory"] if items.get(i, {}).get("kind") == "arme" and items[i].get("type") == kind]


def hunter_protection(scenario, hunter_id: str) -> int:
    return int(scenario.characters["hunters"][hunter_id].get("protection", 0))


def hunter_name(scenario, hunter_id: str) -> str:
    return scenario.characters["hunters"][hunter_id].get("name", hunter_id)


def find_hunter(scenario, word) -> str | None:
    """A hunter by id (h3) or by name, case and accents ignored."""
    from pbp.orders import normalize_id

    hunters = scenario.characters.get("hunters") or {}
    if word in hunters:
        return word
    wanted = normalize_id(word)
    for hid, sheet in hunters.items():
        if normalize_id(hid) == wanted or normalize_id(sheet.get("name", "")) == wanted:
            return hid
    return None


def engaged_by(state: dict, handle: str) -> list[str]:
    """Hunters on the Péji's cell who track them (FAQ 6)."""
    cell = state["pejis"][handle]["cell"]
    return [hid for hid, h in state["hunters"].items()
            if not h["out"] and h["cell"] == cell and h["target"] == handle]


def hunters_on(state: dict, cells) -> list[str]:
    cells = set(cells)
    return [hid for hid, h in state["hunters"].items() if not h["out"] and h["cell"] in cells]


# -- set-up ----------------------------------------------------------------------

def initial_state(rules: dict, scenario) -> dict:
    pejis = {}
    for handle in scenario.roster:
        sheet = scenario.characters["pejis"][handle]
        pejis[handle] = {
            "cell": sheet["start"], "status": ACTIVE, "noise": 0, "noise_mark": 0, "fatigue": 0,
            "stress": 0, "wounds": 1, "inventory": list(sheet.get("inventory") or []),
            "worn": list(sheet.get("worn") or []), "traps_found": [], "lost_turns": 0,
            "recover": [], "hidden_turns": 0, "dropped": False, "death": None,
        }
    hunters = {}
    for hid, sheet in (scenario.characters.get("hunters") or {}).items():
        hunters[hid] = {"cell": sheet.get("start"), "target": None, "trace": None, "wounds": 1, "out": False}
    return {"turn": 0, "over": False, "open_doors": [], "searched": [], "pejis": pejis, "hunters": hunters}


# -- order checks ------------------------------------------------------------------

def check_orders(rules: dict, lab: Labyrinth, state: dict, scenario, orders) -> list[Refusal]:
    out: list[Refusal] = []
    me = state["pejis"][orders.player]
    actions = rules["actions"]
    if me["lost_turns"] and orders.actions:
        return [Refusal("turn_lost", orders.actions[0].at)]
    points = sum(actions[a.id]["points"] for a in orders.actions)
    if points > rules["max_points"]:
        out.append(Refusal("too_many_points", orders.actions[-1].at,
                           {"points": points, "max": rules["max_points"]}))
    seen = set()
    engaged = engaged_by(state, orders.player)
    level = fatigue_level(rules, me["fatigue"])
    for a in orders.actions:
        if a.id in seen:
            out.append(Refusal("twice", a.at, {"action": a.id}))
        seen.add(a.id)
        if engaged and a.id not in rules["engaged_actions"]:
            out.append(Refusal("engaged", a.at, {"hunter": hunter_name(scenario, engaged[0]),
                                                 "valid": rules["engaged_actions"]}))
            continue
        if a.id in ("deplacement_normal", "deplacement_rapide", "fuite"):
            first = a.arg if isinstance(a.arg, str) else a.arg[0]
            if lab.neighbour(me["cell"], first) is None:
                valid = [d for d, _ in lab.exits[me["cell"]]]
                out.append(Refusal("no_exit", a.at, {"direction": first, "valid": valid}))
            if a.id != "deplacement_normal" and level >= rules["fatigue"]["no_running_level"]:
                out.append(Refusal("too_tired_to_run", a.at, {"level": level}))
        elif a.id == "combat":
            hid = a.arg.get("chasseur")
            here = hunters_on(state, [me["cell"]])
            out += _check_target(scenario, a, hid, here, "no_hunter_here")
            out += _check_weapon(rules, me, a, "melee")
        elif a.id == "tir":
            reach = [me["cell"], *lab.neighbours(me["cell"])]
            out += _check_target(scenario, a, a.arg.get("chasseur"), hunters_on(state, reach), "no_hunter_in_range")
            if not weapons(rules, me, "distance"):
                out.append(Refusal("no_ranged_weapon", a.at))
            else:
                out += _check_weapon(rules, me, a, "distance")
        elif a.id == "utilisation_equipement":
            out += _check_item(rules, me, a, a.arg, ("potion", "objet"), "not_usable")
        elif a.id == "revetir_armure":
            out += _check_item(rules, me, a, a.arg, ("armure",), "not_armour")
            if a.arg in me["worn"]:
                out.append(Refusal("already_worn", a.at, {"item": a.arg}))
        elif a.id == "jeter":
            for i, item in enumerate(a.arg):
                if item not in me["inventory"]:
                    out.append(Refusal("not_carried", a.at + (i,), {"item": item, "valid": me["inventory"] or ["-"]}))
    return out


def _check_target(scenario, action, hid, present: list[str], none_key: str) -> list[Refusal]:
    names = [hunter_name(scenario, h) for h in present]
    if not present:
        return [Refusal(none_key, action.at)]
    if hid is None:
        if len(present) > 1:
            return [Refusal("which_hunter", action.at, {"valid": names})]
        return []
    found = find_hunter(scenario, hid)
    if found not in present:
        from pbp.i18n import closest

        return [Refusal("hunter_not_there", action.at, {"hunter": hid, "valid": names,
                                                         "suggestion": closest(str(hid), names)})]
    return []


def _check_weapon(rules, me, action, kind) -> list[Refusal]:
    weapon = action.arg.get("arme")
    if weapon is None:
        return []
    valid = weapons(rules, me, kind)
    if weapon not in valid:
        return [Refusal("no_such_weapon", action.at, {"item": weapon, "valid": valid or ["-"]})]
    return []


def _check_item(rules, me, action, item, kinds, key) -> list[Refusal]:
    if item not in me["inventory"]:
        return [Refusal("not_carried", action.at, {"item": item, "valid": me["inventory"] or ["-"]})]
    if rules["items"].get(item, {}).get("kind") not in kinds:
        return [Refusal(key, action.at, {"item": item})]
    return []


# -- resolution -------------------------------------------------------------------

class TurnResolver:
    def __init__(self, rules: dict, lab: Labyrinth, scenario, state: dict, dice, turn: int):
        self.rules, self.lab, self.scenario, self.state, self.dice = rules, lab, scenario, state, dice
        self.turn = turn
        self.events: list[ev.Event] = []
        self.open_doors = set(state["open_doors"])
        self.searched = set(state["searched"])
        self.blind: dict[str, set[str]] = {}  # hunter -> Péjis whose trace it lost this turn
        self.combat_bonus: dict[str, int] = {}
        self.fighting = False  # panic waits for the end of a fight's 3 assaults
        # Hunters that already acted this turn: those just called by the noise
        # (they arrive next to the Péji) and those a Péji fought.
        self.acted: set[str] = set()
        self.reports: dict[str, dict] = {}  # what each Péji's report says beyond the actions

    # -- events shortcuts
    def tell(self, handle, kind, **data):
        self.events.append(ev.private(handle, kind, **data))

    def shout(self, kind, **data):
        self.events.append(ev.public(kind, **data))

    def note(self, kind, **data):
        self.events.append(ev.gm(kind, **data))

    def name(self, handle) -> str:
        return self.scenario.name(handle)

    # -- the turn
    def play(self, orders: dict, gm_orders) -> None:
        self.state["turn"] = self.turn
        for handle, order in orders.items():
            peji = self.state["pejis"][handle]
            if peji["status"] != ACTIVE:
                continue
            self.reports[handle] = {"finds": [], "adjacent": None, "drop": list(self._dropping(order))}
            if peji["lost_turns"]:
                self._lost_turn(handle)
            else:
                self._play_actions(handle, order)
            if peji["status"] == ACTIVE:
                self._end_of_peji_turn(handle, hid=order.has("se_cacher"))
        self._hunters_phase((gm_orders.orders or {}).get("chasseurs") or {})
        self.state["open_doors"] = sorted(self.open_doors)
        self.state["searched"] = sorted(self.searched)
        if not gm_orders.quiet:  # a simulation reads no reports
            for handle in orders:
                self._report(handle)
        self._end_of_event()

    def _dropping(self, order):
        for a in order.actions:
            if a.id == "jeter":
                yield from a.arg

    def _lost_turn(self, handle):
        peji = self.state["pejis"][handle]
        peji["lost_turns"] -= 1
        self.tell(handle, "tour_perdu", reasons=list(peji["recover"]))
        self.shout("tour_perdu", player=handle)
        if peji["lost_turns"] == 0:
            if "panique" in peji["recover"]:
                peji["stress"] = self.rules["stress"]["after_panic"]
            if "fatigue" in peji["recover"]:
                f = self.rules["fatigue"]
                peji["fatigue"] = (f["recover_to_level"] - 1) * f["per_level"]
            peji["recover"] = []
        peji["hidden_turns"] = 0

    def _play_actions(self, handle, order):
        peji = self.state["pejis"][handle]
        self.shout("actions", player=handle, actions=[a.id for a in order.actions if a.id != "jeter"])
        for action in order.actions:
            if peji["status"] != ACTIVE or peji["lost_turns"]:
                self.tell(handle, "action_annulee", action=action.id, reason="controle" if peji["lost_turns"] else "fin")
                continue
            spec = self.rules["actions"][action.id]
            performed = getattr(self, "_do_" + action.id)(handle, action)
            if performed is False:
                continue
            if peji["status"] == ACTIVE:
                self._costs(handle, spec["noise"], spec["fatigue"], spec["stress"])

    # -- costs and thresholds (DESIGN 3: noise, then fatigue, then stress)
    def _costs(self, handle, noise=0, fatigue=0, stress=0):
        peji = self.state["pejis"][handle]
        peji["noise"] = max(0, peji["noise"] + noise)
        before = fatigue_level(self.rules, peji["fatigue"])
        peji["fatigue"] = max(0, peji["fatigue"] + fatigue)
        peji["stress"] = max(0, peji["stress"] + stress)
        self._check_noise(handle)
        self._check_fatigue(handle, before)
        self._check_stress(handle)

    def _check_noise(self, handle):
        peji = self.state["pejis"][handle]
        step = self.rules["noise"]["threshold"]
        while peji["noise"] // step > peji["noise_mark"]:
            peji["noise_mark"] += 1
            peji["stress"] += self.rules["noise"]["stress"]
            self._spot(handle)

    def _spot(self, handle):
        """DESIGN 4: a free hunter appears on a random adjacent cell and tracks the Péji."""
        peji = self.state["pejis"][handle]
        hunters = self.state["hunters"]
        free = [h for h in hunters if not hunters[h]["out"] and hunters[h]["target"] is None]
        waiting = [h for h in free if hunters[h]["cell"] is None]
        hid = (waiting or free or [None])[0]
        self.tell(handle, "repere", noise=peji["noise"], hunter=hid is not None)
        if hid is None:
            self.note("repere_sans_chasseur", player=handle, noise=peji["noise"])
            return
        around = self.lab.neighbours(peji["cell"]) or [peji["cell"]]
        cell = self.dice.choice(f"{handle}.bruit.case", around, "case du chasseur repérant le bruit")
        hunters[hid].update(cell=cell, target=handle, trace=peji["cell"])
        self.acted.add(hid)
        self.note("chasseur_arrive", hunter=hid, name=hunter_name(self.scenario, hid), cell=self.lab.name(cell),
                  target=handle, noise=peji["noise"])
        self.shout("chasseur_en_chasse", name=hunter_name(self.scenario, hid))

    def _check_fatigue(self, handle, before):
        peji = self.state["pejis"][handle]
        f = self.rules["fatigue"]
        level = fatigue_level(self.rules, peji["fatigue"])
        if level != before:
            self.tell(handle, "niveau_fatigue", level=level, before=before)
        if level < f["drop_level"]:
            peji["dropped"] = False
        elif not peji["dropped"]:
            peji["dropped"] = True
            self._forced_drop(handle)
        if level >= f["lost_turn_level"] and before < f["lost_turn_level"]:
            peji["lost_turns"] = 1
            if "fatigue" not in peji["recover"]:
                peji["recover"].append("fatigue")
            self.tell(handle, "epuise")

    def _forced_drop(self, handle):
        """DESIGN 5: the items the order names (`jeter`), else the last found."""
        peji = self.state["pejis"][handle]
        count = self.rules["fatigue"]["drop_count"]
        named = [i for i in self.reports.get(handle, {}).get("drop", []) if i in peji["inventory"]]
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

    def _check_stress(self, handle):
        peji = self.state["pejis"][handle]
        s = self.rules["stress"]
        if peji["stress"] < s["panic"] or "panique" in peji["recover"] or peji["status"] != ACTIVE \
                or self.fighting:
            return
        # DESIGN 6: moved 2 random steps, noise and fatigue up, next turn lost.
        peji["recover"].append("panique")
        peji["lost_turns"] = 1
        path = []
        for n in range(1, s["panic_steps"] + 1):
            options = self.lab.exits[peji["cell"]]
            if not options:
                break
            direction, exit_ = self.dice.choice(f"{handle}.panique.{n}", options, "fuite de panique")
            self._cross(handle, peji["cell"], exit_, pay=False)  # a panicking Péji bursts doors open
            peji["cell"] = exit_["to"]
            path.append(direction)
        self.tell(handle, "panique", path=path)
        self.shout("panique", player=handle)
        self.note("panique_gm", player=handle, cell=self.lab.name(peji["cell"]))
        self._costs(handle, noise=s["panic_noise"], fatigue=s["panic_fatigue"])

    # -- wounds (DESIGN 7)
    def _wound(self, handle, cause: str, levels: int = 1):
        peji = self.state["pejis"][handle]
        w = self.rules["wounds"]
        for _ in range(levels):
            if peji["status"] != ACTIVE:
                return
            peji["wounds"] += 1
            self.tell(handle, "blessure", level=peji["wounds"], cause=cause)
            if peji["wounds"] >= w["dead_level"]:
                self._die(handle, cause)
                return
            effect = (w.get("effects") or {}).get(peji["wounds"]) or {}
            fatigue = effect.get("fatigue", 0)
            if "fatigue_level" in effect:
                target = (effect["fatigue_level"] - 1) * self.rules["fatigue"]["per_level"]
                fatigue = max(0, target - peji["fatigue"])
            self._costs(handle, fatigue=fatigue, stress=effect.get("stress", 0))

    def _die(self, handle, cause):
        peji = self.state["pejis"][handle]
        peji["status"] = DEAD
        peji["death"] = {"turn": self.turn, "cause": cause, "noise": peji["noise"]}
        for h in self.state["hunters"].values():
            if h["target"] == handle:
                h["target"], h["trace"] = None, None
        self.shout("mort", player=handle, cause=cause)
        self.tell(handle, "mort_privee", cause=cause)

    # -- movement
    def _cross(self, handle, src, exit_, pay=True) -> dict:
        door = exit_.get("door", "ouverture")
        was_open = self.lab.door_open(src, exit_, self.open_doors)
        if not was_open:
            self.open_doors.add(door_key(src, exit_["to"]))
            if pay:
                cost = self.rules["doors"][door]
                self._costs(handle, noise=cost["noise"], stress=cost["stress"])
        return {"door": door, "opened": not was_open}

    def _do_deplacement_normal(self, handle, action):
        peji = self.state["pejis"][handle]
        to, exit_ = self.lab.neighbour(peji["cell"], action.arg)
        src = peji["cell"]
        peji["cell"] = to
        crossed = self._cross(handle, src, exit_)
        self.tell(handle, "deplacement", direction=action.arg, cell=self.lab.name(to), doors=[crossed])
        self.note("deplacement_gm", player=handle, src=self.lab.name(src), dst=self.lab.name(to))

    def _run(self, handle, action, kind):
        """Fast move and flight: through one cell to the next (Annexe 4.2)."""
        peji = self.state["pejis"][handle]
        if fatigue_level(self.rules, peji["fatigue"]) >= self.rules["fatigue"]["no_running_level"]:
            self.tell(handle, "action_annulee", action=action.id, reason="fatigue")
            return False
        path = [action.arg] if isinstance(action.arg, str) else list(action.arg)
        src = peji["cell"]
        steps, doors, crossed_cells = [], [], []
        for n in range(self.rules["fast_move_cells"]):
            here = peji["cell"]
            direction = self._choose_direction(here, path[min(n, len(path) - 1)], came_from=steps[-1][1] if steps else None)
            if direction is None:
                break
            to, exit_ = self.lab.neighbour(here, direction)
            peji["cell"] = to
            doors.append(self._cross(handle, here, exit_))
            steps.append((direction, here))
            if peji["status"] != ACTIVE or peji["lost_turns"]:
                break
        crossed_cells = [c for _, c in steps[1:]]
        for cell in crossed_cells:  # FAQ 3: no attack, but the hunter picks up the trace
            for hid in hunters_on(self.state, [cell]):
                hunter = self.state["hunters"][hid]
                hunter["target"], hunter["trace"] = handle, peji["cell"]
                self.note("trace_reprise", hunter=hid, player=handle)
                self.tell(handle, "chasseur_croise", hunter=hunter_name(self.scenario, hid))
        self.tell(handle, kind, path=[d for d, _ in steps], cell=self.lab.name(peji["cell"]), doors=doors)
        self.note("deplacement_gm", player=handle, src=self.lab.name(src), dst=self.lab.name(peji["cell"]))

    def _choose_direction(self, here, wanted, came_from):
        """The wanted direction if the cell has it, else the nearest turn
        (right, then left), never straight back; None in a dead end."""
        order = self.lab.directions
        i = order.index(wanted)
        n = len(order)
        candidates = [wanted, order[(i + 1) % n], order[(i - 1) % n], order[(i + 2) % n]]
        for d in candidates:
            found = self.lab.neighbour(here, d)
            if found is not None and found[0] != came_from:
                return d
        return None

    def _do_deplacement_rapide(self, handle, action):
        return self._run(handle, action, "deplacement_rapide")

    def _do_fuite(self, handle, action):
        return self._run(handle, action, "fuite")

    # -- staying actions
    def _do_repos(self, handle, action):
        self.tell(handle, "repos")

    def _do_se_cacher(self, handle, action):
        """DESIGN 12: hunters on adjacent cells lose the Péji's trace this turn."""
        peji = self.state["pejis"][handle]
        lost = self._blind_hunters(handle, self.lab.neighbours(peji["cell"]))
        self.tell(handle, "cache", turns=peji["hidden_turns"] + 1)
        self.note("cache_gm", player=handle, hunters=lost)

    def _blind_hunters(self, handle, cells) -> list[str]:
        lost = []
        for hid in hunters_on(self.state, cells):
            if self.state["hunters"][hid]["target"] == handle:
                self.blind.setdefault(hid, set()).add(handle)
                lost.append(hid)
        return lost

    def _do_recherche_pieges(self, handle, action):
        peji = self.state["pejis"][handle]
        cell = peji["cell"]
        found = cell in self.lab.traps
        if found and cell not in peji["traps_found"]:
            peji["traps_found"].append(cell)
        self.tell(handle, "recherche_pieges", found=found, cell=self.lab.name(cell))

    def _do_fouille(self, handle, action):
        """DESIGN 14: d20 on the table, d20 on the sub-table; one find per cell."""
        peji = self.state["pejis"][handle]
        cell = peji["cell"]
        search = self.rules["search"]
        adjacent = [{"direction": d, **self.lab.describe(e["to"], self.open_doors)} for d, e in self.lab.exits[cell]]
        self.reports[handle]["adjacent"] = adjacent
        if cell in self.searched:
            self.tell(handle, "fouille", already=True, table=None, sub=None, find="rien", item=None)
            return
        table = self.dice.roll(f"{handle}.fouille.table", search["die"], "table de fouille")
        find = _lookup(search["table"], table.total)["find"]
        sub, item = None, None
        if find in search["subtables"]:
            sub = self.dice.roll(f"{handle}.fouille.{find}", search["die"], f"table {find}")
            item = _lookup(search["subtables"][find], sub.total)["item"]
        elif find == "pierre":
            item = "pierre précieuse"
        if item:
            peji["inventory"].append(item)
            self.searched.add(cell)
            self.reports[handle]["finds"].append(item)
        self.tell(handle, "fouille", already=False, table=table, sub=sub, find=find, item=item)

    def _do_utilisation_equipement(self, handle, action):
        peji = self.state["pejis"][handle]
        item = action.arg
        spec = self.rules["items"][item]
        effects = spec.get("effects") or {}
        if not spec.get("reusable"):
            peji["inventory"].remove(item)
        if effects.get("combat_bonus"):
            self.combat_bonus[handle] = self.combat_bonus.get(handle, 0) + effects["combat_bonus"]
        if effects.get("wounds"):
            peji["wounds"] = max(1, peji["wounds"] + effects["wounds"])
        if effects.get("hide"):
            self._blind_hunters(handle, [peji["cell"], *self.lab.neighbours(peji["cell"])])
        if effects.get("lose_all_traces"):
            self._lose_all_traces(handle)
        self.tell(handle, "utilisation", item=item, effects=effects)
        self._costs(handle, fatigue=effects.get("fatigue", 0), stress=effects.get("stress", 0),
                    noise=effects.get("noise", 0))

    def _do_revetir_armure(self, handle, action):
        peji = self.state["pejis"][handle]
        peji["worn"].append(action.arg)
        self.tell(handle, "armure", item=action.arg, protection=protection(self.rules, peji))

    def _do_jeter(self, handle, action):
        return False  # only names what a forced drop takes (DESIGN 5); costs nothing

    def _lose_all_traces(self, handle):
        peji = self.state["pejis"][handle]
        for hid, hunter in self.state["hunters"].items():
            if hunter["target"] == handle:
                hunter["target"], hunter["trace"] = None, None
                self.note("trace_perdue", hunter=hid, player=handle)
        peji["noise"], peji["noise_mark"] = 0, 0

    # -- fights
    def _do_combat(self, handle, action):
        peji = self.state["pejis"][handle]
        here = hunters_on(self.state, [peji["cell"]])
        hid = self._pick_target(handle, action.arg.get("chasseur"), here)
        if hid is None:
            self.tell(handle, "action_annulee", action="combat", reason="cible")
            return False
        self._melee(handle, hid, action.arg.get("arme"), attacker="peji")

    def _melee(self, handle, hid, weapon, attacker):
        """DESIGN 8: 3 assaults; each side rolls its weapon, minus the other's
        protection and its own fatigue malus; 2 assaults won win the fight."""
        rules, peji, hunter = self.rules, self.state["pejis"][handle], self.state["hunters"][hid]
        sheet = self.scenario.characters["hunters"][hid]
        c = rules["combat"]
        weapon = weapon or self._best_weapon(peji, "melee")
        peji_dice = rules["items"][weapon]["damage"] if weapon else c["unarmed"]
        hunter_weapon = sheet.get("weapon") or {}
        hunter_dice = hunter_weapon.get("damage", c["unarmed"])
        peji_malus = self._fatigue_malus(handle) - self.combat_bonus.get(handle, 0)
        wins = {"peji": 0, "hunter": 0}
        assaults = []
        start = len(self.events)  # the fight is told before what it caused
        self.fighting = True
        self.acted.add(hid)
        for n in range(1, c["assaults"] + 1):
            if peji["status"] != ACTIVE or hunter["out"]:
                break
            p = self.dice.roll(f"{handle}.combat.{hid}.{n}", peji_dice, f"assaut {n} contre {hid}")
            h = self.dice.roll(f"{hid}.combat.{handle}.{n}", hunter_dice, f"assaut {n} contre {handle}")
            pt = p.total - hunter_protection(self.scenario, hid) - peji_malus
            ht = h.total - protection(rules, peji)
            winner = "peji" if pt > ht else "hunter" if ht > pt else None
            assaults.append({"n": n, "peji_roll": p, "hunter_roll": h, "peji_total": pt, "hunter_total": ht,
                             "winner": winner})
            if winner == "peji":
                wins["peji"] += 1
                self._wound_hunter(hid)
            elif winner == "hunter":
                wins["hunter"] += 1
                self._wound(handle, "combat")
        outcome = "peji" if wins["peji"] >= c["to_win"] else "hunter" if wins["hunter"] >= c["to_win"] else None
        if outcome == "peji" and not hunter["out"]:
            hunter["out"] = True
        if outcome == "hunter" and peji["status"] == ACTIVE:
            self._die(handle, "combat")
        if hunter["out"]:
            hunter["target"], hunter["trace"] = None, None
        data = dict(player=handle, hunter=hunter_name(self.scenario, hid), attacker=attacker, assaults=assaults,
                    outcome=outcome, dead=peji["status"] == DEAD, hunter_out=hunter["out"])
        caused = self.events[start:]
        del self.events[start:]
        self.shout("combat", **data)
        self.tell(handle, "combat_prive", weapon=weapon, protection=protection(rules, peji),
                  hunter_protection=hunter_protection(self.scenario, hid), malus=peji_malus, **data)
        self.note("combat_gm", hunter_id=hid, weapon=weapon, **data)
        self.events += caused
        self.fighting = False
        self._check_stress(handle)
        return True

    def _pick_target(self, handle, wanted, present: list[str]) -> str | None:
        """The hunter an order names if still there; unnamed: the one tracking
        the Péji, else the first present. None when nobody is left."""
        if wanted is not None:
            hid = find_hunter(self.scenario, wanted)
            return hid if hid in present else None
        tracking = [h for h in present if self.state["hunters"][h]["target"] == handle]
        return (tracking or present or [None])[0]

    def _best_weapon(self, peji, kind):
        from pbp.dice import parse

        options = weapons(self.rules, peji, kind)
        if not options:
            return None

        def mean(item):
            expr = parse(self.rules["items"][item]["damage"])
            return expr.minimum + expr.maximum

        return max(options, key=mean)

    def _fatigue_malus(self, handle) -> int:
        f = self.rules["fatigue"]
        level = fatigue_level(self.rules, self.state["pejis"][handle]["fatigue"])
        return f["combat_malus"] if level >= f["combat_malus_level"] else 0

    def _wound_hunter(self, hid):
        hunter = self.state["hunters"][hid]
        hunter["wounds"] += 1
        if hunter["wounds"] >= self.rules["wounds"]["dead_level"]:
            hunter["out"] = True

    def _do_tir(self, handle, action):
        """DESIGN 9: one roll minus protection (and fatigue malus) against the
        hunter's defence; a hit wounds; `ko_on` knocks out (FAQ 5)."""
        peji = self.state["pejis"][handle]
        reach = [peji["cell"], *self.lab.neighbours(peji["cell"])]
        present = hunters_on(self.state, reach)
        hid = self._pick_target(handle, action.arg.get("chasseur"), present)
        weapon = action.arg.get("arme") or self._best_weapon(peji, "distance")
        if hid is None or weapon is None:
            self.tell(handle, "action_annulee", action="tir", reason="cible")
            return False
        spec = self.rules["items"][weapon]
        sheet = self.scenario.characters["hunters"][hid]
        defence = sheet.get("defence", self.rules["shooting"]["default_defence"])
        roll = self.dice.roll(f"{handle}.tir", spec["damage"], f"tir sur {hid}")
        total = roll.total - hunter_protection(self.scenario, hid) - self._fatigue_malus(handle) \
            + self.combat_bonus.get(handle, 0)
        hit = total >= defence
        knocked = hit and spec.get("ko_on") is not None and total >= spec["ko_on"]
        if hit:
            self._wound_hunter(hid)
        if knocked:
            self.state["hunters"][hid]["out"] = True
        if self.state["hunters"][hid]["out"]:
            self.state["hunters"][hid]["target"] = None
        if spec.get("single_use"):
            peji["inventory"].remove(weapon)
        data = dict(player=handle, hunter=hunter_name(self.scenario, hid), roll=roll, total=total, defence=defence,
                    hit=hit, knocked=knocked, hunter_out=self.state["hunters"][hid]["out"])
        self.shout("tir", **data)
        self.tell(handle, "tir_prive", weapon=weapon, **data)
        self.note("tir_gm", hunter_id=hid, weapon=weapon, **data)

    # -- end of a Péji's turn: exit, trap, hiding streak
    def _end_of_peji_turn(self, handle, hid: bool):
        peji = self.state["pejis"][handle]
        cell = peji["cell"]
        if self.lab.is_exit(cell):
            peji["status"] = ESCAPED
            peji["escaped_turn"] = self.turn
            for h in self.state["hunters"].values():
                if h["target"] == handle:
                    h["target"], h["trace"] = None, None
            self.shout("evasion", player=handle)
            self.tell(handle, "evasion_privee")
            return
        if cell in self.lab.traps and cell not in peji["traps_found"]:
            self._trap(handle, cell)
        if peji["status"] != ACTIVE:
            return
        peji["hidden_turns"] = peji["hidden_turns"] + 1 if hid else 0
        if peji["hidden_turns"] >= self.rules["noise"]["hidden_turns_reset"]:
            self._lose_all_traces(handle)
            self.tell(handle, "traces_perdues", turns=peji["hidden_turns"])

    def _trap(self, handle, cell):
        """DESIGN 13: the trap fires on a Péji stopping here who did not find it;
        they know it afterwards."""
        peji = self.state["pejis"][handle]
        effect = {**self.rules["traps"]["effect"], **(self.lab.traps[cell].get("effect") or {})}
        peji["traps_found"].append(cell)
        self.tell(handle, "piege", effect=effect, description=self.lab.traps[cell].get("description", ""))
        self.shout("piege_public", player=handle)
        self.note("piege_gm", player=handle, cell=self.lab.name(cell))
        if effect.get("stress"):
            self._costs(handle, stress=effect["stress"])
        if effect.get("wounds"):
            self._wound(handle, "piege", effect["wounds"])

    # -- hunters (DESIGN 10)
    def _hunters_phase(self, dictated: dict):
        for hid in self.state["hunters"]:
            hunter = self.state["hunters"][hid]
            if hunter["out"]:
                continue
            order = dictated.get(hid)
            if hid in self.acted and order is None:
                continue
            if order is not None:
                if self._dictated(hid, order):
                    continue
            if hunter["cell"] is None:
                continue
            target = hunter["target"]
            if target is not None and self.state["pejis"][target]["status"] != ACTIVE:
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
            peji = self.state["pejis"][target]
            hunter["trace"] = peji["cell"]
            if peji["cell"] == hunter["cell"]:
                self._melee(target, hid, None, attacker="hunter")
                if self.rules["combat"]["defender_pays_costs"] and self.state["pejis"][target]["status"] == ACTIVE:
                    spec = self.rules["actions"]["combat"]
                    self._costs(target, spec["noise"], spec["fatigue"], spec["stress"])
            else:
                self._hunter_step(hid, self.lab.step_towards(hunter["cell"], hunter["trace"]))

    def _prey_on_cell(self, hid):
        if not self.rules["hunters"]["take_prey_on_cell"]:
            return None
        cell = self.state["hunters"][hid]["cell"]
        for handle, peji in self.state["pejis"].items():
            if peji["status"] == ACTIVE and peji["cell"] == cell and handle not in self.blind.get(hid, ()):
                return handle
        return None

    def _hunter_step(self, hid, to):
        hunter = self.state["hunters"][hid]
        if to is None:
            return
        for _, exit_ in self.lab.exits[hunter["cell"]]:
            if exit_["to"] == to and exit_.get("door", "ouverture") != "ouverture":
                self.open_doors.add(door_key(hunter["cell"], to))
        self.note("chasseur_bouge", hunter=hid, src=self.lab.name(hunter["cell"]), dst=self.lab.name(to),
                  target=hunter["target"])
        hunter["cell"] = to

    def _dictated(self, hid, order) -> bool:
        """The MJ's orders for a hunter (gm.yaml); True when they replace its move."""
        hunter = self.state["hunters"][hid]
        if order in ("attendre", "wait"):
            self.note("chasseur_attend", hunter=hid)
            return True
        if order in ("retirer", "remove"):
            hunter.update(out=True, target=None, trace=None)
            self.note("chasseur_retire", hunter=hid)
            return True
        if "placer" in order:
            hunter["cell"] = order["placer"]
            self.note("chasseur_place", hunter=hid, cell=self.lab.name(order["placer"]))
        if "cible" in order:
            target = order["cible"]
            hunter["target"] = target
            hunter["trace"] = self.state["pejis"][target]["cell"] if target else None
            self.note("chasseur_cible", hunter=hid, player=target)
        if "aller" in order:
            self._hunter_step(hid, order["aller"])
            return True
        if "attaquer" in order:
            hunter["target"] = order["attaquer"]
            self._melee(order["attaquer"], hid, None, attacker="hunter")
            return True
        return "placer" in order

    # -- reports
    def _pejis_by_cell(self) -> dict[str, list[str]]:
        """Active Péjis per cell, computed once the turn is played (reports only)."""
        if getattr(self, "_by_cell", None) is None:
            self._by_cell = {}
            for h, p in self.state["pejis"].items():
                if p["status"] == ACTIVE:
                    self._by_cell.setdefault(p["cell"], []).append(h)
        return self._by_cell

    def _report(self, handle):
        peji = self.state["pejis"][handle]
        cell = peji["cell"]
        report = self.reports.get(handle, {"finds": [], "adjacent": None})
        seen_here = [hunter_name(self.scenario, h) for h in hunters_on(self.state, [cell])]
        heard = []
        for direction, exit_ in self.lab.exits.get(cell, []):
            for h in hunters_on(self.state, [exit_["to"]]):
                heard.append({"direction": direction, "hunter": hunter_name(self.scenario, h)})
        others = [self.name(h) for h in self._pejis_by_cell().get(cell, []) if h != handle]
        self.tell(handle, "rapport", status=peji["status"], place=self.lab.describe(cell, self.open_doors),
                  noise=peji["noise"], fatigue=peji["fatigue"], fatigue_level=fatigue_level(self.rules, peji["fatigue"]),
                  stress=peji["stress"], wounds=peji["wounds"], inventory=list(peji["inventory"]),
                  worn=list(peji["worn"]), protection=protection(self.rules, peji), finds=report["finds"],
                  adjacent=report["adjacent"], hunters_here=seen_here, hunters_near=heard, pejis_here=others,
                  lost_turns=peji["lost_turns"], traps_known=[self.lab.name(c) for c in peji["traps_found"]])

    def _end_of_event(self):
        pejis = self.state["pejis"].values()
        if all(p["status"] != ACTIVE for p in pejis) or self.turn >= self.rules["turn_limit"]:
            self.state["over"] = True
            self.shout("fin", escaped=[h for h, p in self.state["pejis"].items() if p["status"] == ESCAPED],
                       dead=[h for h, p in self.state["pejis"].items() if p["status"] == DEAD],
                       trapped=[h for h, p in self.state["pejis"].items() if p["status"] == ACTIVE])


def _lookup(table: list[dict], value: int) -> dict:
    for row in table:
        if value <= row["max"]:
            return row
    return table[-1]
