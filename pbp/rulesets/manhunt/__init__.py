"""manhunt: « La chasse à l'homme » (seed 001). See README.md."""

from __future__ import annotations

from pbp import events as ev
from pbp.errors import PbpError
from pbp.orders import Action
from pbp.ruleset import ODDS, SIMULATE, Refusal, Resolution, Ruleset

from . import balance, rules as r
from .world import Labyrinth


class Manhunt(Ruleset):
    id = "manhunt"
    example = "manhunt"
    capabilities = frozenset({SIMULATE, ODDS})

    def lab(self, scenario) -> Labyrinth:
        cached = getattr(self, "_lab", None)
        if cached is None or cached[0] is not scenario.world:
            self._lab = (scenario.world, Labyrinth(scenario.world, self.rules["directions"]))
        return self._lab[1]

    # -- scenario -------------------------------------------------------------------
    def validate_scenario(self, scenario) -> list[PbpError]:
        """What schema.yaml cannot say about world.yaml and characters.yaml (exits
        both ways, a sheet per player...). Safe on any input: the schema has passed
        when the campaign loads the files, but simulations and tests call this on
        their own data. Each problem carries `at`, its path in its file."""
        errors = []
        world = scenario.world if isinstance(scenario.world, dict) else {}
        characters = scenario.characters if isinstance(scenario.characters, dict) else {}
        cells = world.get("cells")

        def bad(file, key, at, **params):
            errors.append(PbpError(f"manhunt.{key}", file=file, at=at, **params))

        if not isinstance(cells, dict) or not cells:
            bad("world.yaml", "world_no_cells", ("cells",))
            return errors
        directions = self.rules["directions"]
        doors = self.rules["doors"]

        def exits_of(cell) -> dict:
            exits = cell.get("exits") if isinstance(cell, dict) else None
            return exits if isinstance(exits, dict) else {}

        def known(value, table) -> bool:
            return isinstance(value, (str, int)) and not isinstance(value, bool) and value in table

        for cid, cell in cells.items():
            for d, exit_ in exits_of(cell).items():
                at = ("cells", cid, "exits", d)
                to = exit_.get("to") if isinstance(exit_, dict) else exit_
                if not known(d, directions):
                    bad("world.yaml", "world_bad_direction", at, cell=cid, direction=d, valid=directions)
                elif not isinstance(exit_, dict) or not known(to, cells):
                    bad("world.yaml", "world_bad_exit", at, cell=cid, direction=d, to=to)
                else:
                    door = exit_.get("door", "ouverture")
                    if not known(door, doors):
                        bad("world.yaml", "world_bad_door", at + ("door",), cell=cid, direction=d, door=door,
                            valid=list(doors))
                    if not any(isinstance(e, dict) and e.get("to") == cid for e in exits_of(cells[to]).values()):
                        bad("world.yaml", "world_one_way", at, cell=cid, to=to)
        traps = world.get("traps") or []
        for i, trap in enumerate(traps if isinstance(traps, list) else [traps]):
            cell = trap.get("cell") if isinstance(trap, dict) else trap
            if not isinstance(trap, dict) or not known(cell, cells):
                bad("world.yaml", "world_bad_trap", ("traps", i), cell=cell)
        pejis = characters.get("pejis")
        pejis = pejis if isinstance(pejis, dict) else {}
        items = self.rules["items"]
        for handle in scenario.roster:
            sheet = pejis.get(handle)
            at = ("pejis", handle)
            if not isinstance(sheet, dict):
                bad("characters.yaml", "no_sheet", at if handle in pejis else ("pejis",), player=handle)
            elif not known(sheet.get("start"), cells):
                bad("characters.yaml", "bad_start", at + ("start",), player=handle, cell=sheet.get("start"))
            else:
                for key in ("inventory", "worn"):
                    carried = sheet.get(key) or []
                    for i, item in enumerate(carried if isinstance(carried, list) else [carried]):
                        if not known(item, items):
                            bad("characters.yaml", "unknown_item", at + (key, i), player=handle, item=item)
        hunters = characters.get("hunters") or {}
        for hid, sheet in (hunters.items() if isinstance(hunters, dict) else []):
            at = ("hunters", hid)
            if not isinstance(sheet, dict):
                bad("characters.yaml", "bad_hunter", at, hunter=hid)
            elif sheet.get("start") is not None and not known(sheet["start"], cells):
                bad("characters.yaml", "bad_start", at + ("start",), player=hid, cell=sheet["start"])
        return errors

    def validate_state(self, state, scenario) -> list[PbpError]:
        """What schema.yaml cannot say about a state the MJ may have edited: wound levels
        within the rules' scale, and no noise that would call more hunters at once than
        there are (each call is played: a typo such as 1000000 would never end)."""
        errors = []
        dead, step = self.rules["wounds"]["dead_level"], self.rules["noise"]["threshold"]
        hunters = len(state["hunters"])
        for handle, peji in state["pejis"].items():
            at = ("pejis", handle)
            calls = peji["noise"] // step - peji["noise_mark"]
            if calls > hunters:
                errors.append(PbpError("manhunt.state_noise", file="state.yaml", at=at + ("noise",),
                                       where=f"pejis.{handle}.noise", noise=peji["noise"], mark=peji["noise_mark"],
                                       calls=calls, hunters=hunters))
            if peji["wounds"] > dead or (peji["status"] == r.ACTIVE and peji["wounds"] >= dead):
                errors.append(PbpError("manhunt.state_wounds_active" if peji["wounds"] == dead else
                                       "manhunt.state_wounds", file="state.yaml", at=at + ("wounds",),
                                       where=f"pejis.{handle}.wounds", value=peji["wounds"], dead=dead, high=dead - 1))
        for hid, hunter in state["hunters"].items():
            if hunter["wounds"] > dead:
                errors.append(PbpError("manhunt.state_wounds", file="state.yaml", at=("hunters", hid, "wounds"),
                                       where=f"hunters.{hid}.wounds", value=hunter["wounds"], dead=dead))
        return errors

    # -- turns -----------------------------------------------------------------------
    def setup(self, scenario, dice) -> Resolution:
        state = r.initial_state(self.rules, scenario)
        lab = self.lab(scenario)
        events = [ev.public("debut", players=list(scenario.roster), hunters=len(state["hunters"]))]
        for handle, peji in state["pejis"].items():
            events.append(ev.private(handle, "rapport", status=r.ACTIVE, place=lab.describe(peji["cell"], set()),
                                     noise=0, fatigue=0, fatigue_level=1, stress=0, wounds=1,
                                     inventory=peji["inventory"], worn=peji["worn"],
                                     protection=r.protection(self.rules, peji), finds=[], adjacent=None,
                                     hunters_here=[], hunters_near=[], pejis_here=[], lost_turns=0, traps_known=[]))
            events.append(ev.gm("depart", player=handle, cell=lab.name(peji["cell"])))
        for hid, hunter in state["hunters"].items():
            events.append(ev.gm("chasseur", hunter=hid, name=r.hunter_name(scenario, hid),
                                cell=lab.name(hunter["cell"])))
        for cell in lab.traps:
            events.append(ev.gm("piege_pose", cell=lab.name(cell)))
        return Resolution(state, events)

    def players_to_play(self, state, scenario) -> list[str]:
        return [h for h in scenario.roster if state["pejis"][h]["status"] == r.ACTIVE]

    def check_orders(self, state, scenario, orders) -> list[Refusal]:
        return r.check_orders(self.rules, self.lab(scenario), state, scenario, orders)

    def check_gm(self, state, scenario, gm_orders) -> list[Refusal]:
        out = []
        raw = gm_orders.orders
        for key in raw:
            if key != "chasseurs":
                out.append(Refusal("gm_unknown", (key,), {"key": key, "valid": ["chasseurs"]}))
        hunters = raw.get("chasseurs") or {}
        if not isinstance(hunters, dict):
            return out + [Refusal("gm_hunters_shape", ("chasseurs",))]
        lab = self.lab(scenario)
        verbs = ["aller", "placer", "cible", "attaquer"]
        for hid, order in hunters.items():
            at = ("chasseurs", hid)
            if hid not in state["hunters"]:
                out.append(Refusal("gm_no_hunter", at, {"hunter": hid, "valid": list(state["hunters"])}))
                continue
            if order in ("attendre", "wait", "retirer", "remove"):
                continue
            if not isinstance(order, dict) or not order or any(k not in verbs for k in order):
                out.append(Refusal("gm_hunter_order", at, {"valid": verbs + ["attendre", "retirer"]}))
                continue
            hunter = state["hunters"][hid]
            cell = order.get("placer", hunter["cell"])
            if "placer" in order and order["placer"] not in lab.cells:
                out.append(Refusal("gm_bad_cell", at + ("placer",), {"cell": order["placer"]}))
            if "aller" in order and order["aller"] not in lab.neighbours(cell):
                out.append(Refusal("gm_not_adjacent", at + ("aller",),
                                   {"cell": order["aller"], "valid": lab.neighbours(cell) if cell else []}))
            for verb in ("cible", "attaquer"):
                if verb in order and (order[verb] not in state["pejis"]
                                      or state["pejis"][order[verb]]["status"] != r.ACTIVE):
                    out.append(Refusal("gm_bad_target", at + (verb,), {"player": order[verb],
                                                                       "valid": self.players_to_play(state, scenario)}))
            if "attaquer" in order and order["attaquer"] in state["pejis"] and \
                    state["pejis"][order["attaquer"]]["cell"] != cell:
                out.append(Refusal("gm_not_same_cell", at + ("attaquer",), {"player": order["attaquer"]}))
            if "aller" in order and "attaquer" in order:
                out.append(Refusal("gm_move_and_attack", at))
        return out

    def resolve(self, state, scenario, orders, gm_orders, dice) -> Resolution:
        turn = r.TurnResolver(self.rules, self.lab(scenario), scenario, state, dice, gm_orders.turn)
        turn.play(orders, gm_orders)
        return Resolution(turn.state, turn.events)

    def is_over(self, state) -> bool:
        return bool(state.get("over"))

    # -- helpers for the MJ and the players ---------------------------------------------
    def order_context(self, state, scenario, player) -> dict:
        peji = state["pejis"][player]
        lab = self.lab(scenario)
        return {"place": lab.describe(peji["cell"], set(state["open_doors"])),
                "inventory": peji["inventory"], "lost_turns": peji["lost_turns"],
                "engaged": [r.hunter_name(scenario, h) for h in r.engaged_by(state, player)],
                "points": self.rules["max_points"], "door": self.rules["doors"]["porte"],
                "costs": {a: {k: spec[k] for k in ("points", "noise", "fatigue", "stress")}
                          for a, spec in self.actions.items()}}

    def status(self, state, scenario) -> list:
        lab = self.lab(scenario)
        out = []
        for handle, p in state["pejis"].items():
            out.append(ev.gm("peji", player=handle, name=scenario.name(handle), status=p["status"],
                             cell=lab.name(p["cell"]), noise=p["noise"], fatigue=p["fatigue"],
                             fatigue_level=r.fatigue_level(self.rules, p["fatigue"]), stress=p["stress"],
                             wounds=p["wounds"], inventory=p["inventory"], lost_turns=p["lost_turns"]))
        for hid, h in state["hunters"].items():
            out.append(ev.gm("chasseur", hunter=hid, name=r.hunter_name(scenario, hid), cell=lab.name(h["cell"]),
                             target=h["target"], out=h["out"], wounds=h["wounds"]))
        return out

    # -- secrecy -----------------------------------------------------------------------
    def secret_values(self, state, scenario) -> set[str]:
        """The public post names no place, no item and no hunter's weapon (it tells
        who did what kind of action, fights, shots, panics, traps sprung, deaths,
        escapes): every cell (id, name, description) — so every trap's cell and
        every position, a hunter's included — every trap's description, every item
        a Péji may carry or find, and the hunters' weapons are secret in any state.
        (Whom a hunter tracks is a player's name, public as such: the audiences
        alone keep it secret.)"""
        lab = self.lab(scenario)
        out = set()
        for cid, cell in lab.cells.items():
            cell = cell or {}
            out |= {str(cid), str(cell.get("name") or ""), str(cell.get("description") or "")}
        out |= {str(trap.get("description") or "") for trap in lab.traps.values()}
        out |= set(self.rules["items"])
        for peji in state["pejis"].values():
            out |= set(peji["inventory"]) | set(peji["worn"])
        for sheet in (scenario.characters.get("hunters") or {}).values():
            weapon = (sheet or {}).get("weapon") or {}
            out.add(str(weapon.get("name") or ""))
        return {v.strip() for v in out if v.strip()}

    # -- balance tools -------------------------------------------------------------------
    def sample_scenario(self, players, rng):
        return balance.sample_scenario(self.rules, players, rng)

    def bot_orders(self, state, scenario, player, rng):
        return balance.bot_orders(self.rules, self.lab(scenario), state, player, rng)

    def game_summary(self, state, scenario):
        return balance.game_summary(state)

    def odds(self):
        return balance.calculators(self.rules)

    def legal_orders(self, state, scenario, player) -> list[list[Action]]:
        """Legal order sets for a bot: single actions and pairs within 2 points."""
        from pbp.orders import PlayerOrders

        peji = state["pejis"][player]
        lab = self.lab(scenario)
        singles: list[tuple[str, object]] = [("repos", None), ("fouille", None), ("se_cacher", None),
                                             ("recherche_pieges", None)]
        for d, _ in lab.exits[peji["cell"]]:
            singles += [("deplacement_normal", d), ("deplacement_rapide", [d]), ("fuite", [d])]
        here = r.hunters_on(state, [peji["cell"]])
        if here:
            singles.append(("combat", {"chasseur": here[0], "arme": None}))
        for item in peji["inventory"]:
            kind = self.rules["items"].get(item, {}).get("kind")
            if kind in ("potion", "objet"):
                singles.append(("utilisation_equipement", item))
            elif kind == "armure" and item not in peji["worn"]:
                singles.append(("revetir_armure", item))
        options = [[]] + [[s] for s in singles]
        cheap = [s for s in singles if self.actions[s[0]]["points"] == 1]
        options += [[a, b] for i, a in enumerate(cheap) for b in cheap[i + 1:] if a[0] != b[0]]
        legal = []
        for option in options:
            actions = [Action(a, arg, i) for i, (a, arg) in enumerate(option)]
            if not self.check_orders(state, scenario, PlayerOrders(player, state["turn"] + 1, actions)):
                legal.append(actions)
        return legal or [[]]


RULESET = Manhunt
