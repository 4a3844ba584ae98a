"""d100: the base system of seed 000 (from "Caractéristiques de base"), a Star
Wars forum campaign. Every action is a d100 check against Physique, Logique or
Mental, with skills, trust towards factions and the light/dark alignment
changing the odds. See README.md for the rules as implemented."""

from __future__ import annotations


from pbp import events as ev, i18n
from pbp.orders import Action, PlayerOrders, action_index, check_arg, normalize_id
from pbp.ruleset import COMMANDS, ODDS, SIMULATE, Refusal, Refusals, Resolution, Ruleset

from . import balance, rules as R
from .commands import COMMANDS as COMMANDS_DECLARED
from .resolve import Turn, check_cost, find_faction, summary_event
from .sheets import factions as read_factions, read_all


#: how the reports name each gauge, in French and English (secret_values' forms)
GAUGE_LABELS = {"pv": ("PV", "HP"), "force": ("Force",), "action": ("Action",)}


class D100(Ruleset):
    id = "d100"
    example = "d100"
    capabilities = frozenset({SIMULATE, ODDS, COMMANDS})
    commands = COMMANDS_DECLARED

    # -- scenario --------------------------------------------------------------------
    def _read(self, scenario) -> tuple[dict, list, dict]:
        """(sheets, their problems, factions), read once per scenario: a scenario
        is fixed for a campaign's life (the cache holds it, so its id stays its own)."""
        cache = self.__dict__.setdefault("_sheet_cache", {})
        key = (id(scenario), id(scenario.characters), id(scenario.world), tuple(scenario.roster))
        if key not in cache:
            cache.clear()
            sheets, problems = read_all(scenario, self.rules)
            cache[key] = (scenario, (sheets, problems, read_factions(scenario.world)))
        return cache[key][1]

    def sheets(self, scenario) -> dict:
        return self._read(scenario)[0]

    def factions(self, scenario) -> dict:
        return self._read(scenario)[2]

    def validate_scenario(self, scenario):
        return self._read(scenario)[1]

    # -- set-up ----------------------------------------------------------------------
    def setup(self, scenario, dice):
        sheets, factions = self.sheets(scenario), self.factions(scenario)
        state = {"characters": {}, "combat": False, "level": 1}
        events = [ev.public("cast", players=list(scenario.roster))]
        for handle in scenario.roster:
            events += self._enter(state, handle, sheets[handle], dice)
        for handle in scenario.roster:
            events.append(summary_event(handle, state, sheets[handle], factions, self.rules))
        events.append(ev.gm("factions", factions=list(factions.values())))
        return Resolution(state, events)

    def _initial(self, sheet: dict, light: int) -> dict:
        """A character's state when they enter the game: full gauges."""
        return {**{g: sheet["gauges"][g] for g in self.rules["gauges"]}, "light": light,
                "trust": dict(sheet["trust"]),
                "uses": {i: item["uses"] for i, item in sheet["items"].items() if item["uses"] is not None},
                "down": sheet["gauges"]["pv"] <= 0, "no_sleep_heal": False}

    def _enter(self, state: dict, handle: str, sheet: dict, dice) -> list:
        """Put a character in the state (set-up, or a player added to the roster
        later), drawing their alignment if the sheet has none."""
        total = self.rules["alignment"]["points"]
        light, drawn = sheet["alignment"], None
        if light is None:
            drawn = dice.roll(f"{handle}.alignement", self.rules["alignment"]["draw"], "alignment draw")
            light = max(0, min(total, drawn.total))
        state["characters"][handle] = self._initial(sheet, light)
        events = [ev.private(handle, "sheet", player=handle, **sheet_data(sheet, self.rules))]
        if drawn is not None:
            events.append(ev.private(handle, "alignment_draw", player=handle, roll=drawn, light=light,
                                     dark=total - light))
        return events

    def _char(self, state: dict, scenario, handle: str) -> dict:
        """A character's state; a player joining this turn gets their starting one
        (an alignment still to draw counts as not stable)."""
        me = state["characters"].get(handle)
        if me is None:
            sheet = self.sheets(scenario)[handle]
            light = sheet["alignment"]
            me = self._initial(sheet, light)  # None: drawn when they join; not stable until then
        return me

    # -- turns -------------------------------------------------------------------------
    def players_to_play(self, state, scenario):
        return [h for h in scenario.roster if not self._char(state, scenario, h)["down"]]

    def is_over(self, state):
        chars = state.get("characters") or {}
        if self.rules["all_down_ends_game"] and chars and all(c["down"] for c in chars.values()):
            return True
        return balance.is_over(self.rules, state)  # a simulated game: after `simulation.turns`

    def check_orders(self, state, scenario, orders):
        handle = orders.player
        sheet = self.sheets(scenario)[handle]
        me = self._char(state, scenario, handle)
        factions = self.factions(scenario)
        refusals: list[Refusal] = []
        spent = {g: 0 for g in self.rules["gauges"]}
        used: dict[str, int] = {}
        count = 0
        limit = self.rules["check"].get("max_per_turn")
        for action in orders.actions:
            spec = self.actions.get(action.id) or {}
            if action.id in ("dormir", "rien") and len(orders.actions) > 1:
                refusals.append(Refusal("alone_action", action.at, {"action": action.id}))
            if spec.get("is_action"):
                count += 1
                if limit is not None and count > limit:
                    refusals.append(Refusal("too_many_actions", action.at, {"max": limit}))
            if action.id == "jet":
                refusals += self._check_check(handle, sheet, me, factions, action.arg, action.at, spent,
                                              player=True)
            elif action.id == "utiliser":
                refusals += self._check_use(handle, sheet, me, state, action, spent, used)
            elif action.id in ("dormir", "rien") and action.arg == "force" and sheet["gauges"]["force"] <= 0:
                refusals.append(Refusal("no_force", action.at, {"valid": ["action"]}))
        return refusals

    def _check_check(self, handle, sheet, me, factions, arg, at, spent, *, player) -> list[Refusal]:
        out = []
        skill_id = None
        if arg.get("competence"):
            skill_id = normalize_id(arg["competence"])
            skill = sheet["skills"].get(skill_id)
            names = [s["name"] for s in sheet["skills"].values() if not (player and s["passive"])]
            if skill is None:
                out.append(Refusal("unknown_skill", at + ("competence",),
                                   {"skill": arg["competence"], "player": handle, "valid": names,
                                    "suggestion": i18n.closest(skill_id, [normalize_id(n) for n in names])}))
                skill_id = None
            elif player and skill["passive"]:
                out.append(Refusal("passive_skill", at + ("competence",), {"skill": skill["name"], "valid": names}))
        if arg.get("faction") and find_faction(factions, arg["faction"]) is None:
            out.append(Refusal("unknown_faction", at + ("faction",),
                               {"faction": arg["faction"], "valid": list(factions),
                                "suggestion": i18n.closest(normalize_id(arg["faction"]), factions)}))
        out += self._check_intent(handle, me, arg.get("intention"), at, player)
        if spent is not None:
            out += self._spend(handle, sheet, me, check_cost(self.rules, sheet, arg.get("type"), skill_id),
                               spent, at, arg.get("type") or self.rules["check"]["default_type"], skill_id)
        return out

    def _check_intent(self, handle, me, intent, at, player) -> list[Refusal]:
        if not player:
            return []
        side = R.stable_side(me["light"], self.rules)
        if side is not None and intent is not None and intent != side:
            return [Refusal("stable_refuses", at + ("intention",),
                            {"player": handle, "side": side, "intent": intent, "valid": [side]})]
        return []

    def _spend(self, handle, sheet, me, cost, spent, at, check_type, skill_id) -> list[Refusal]:
        out = []
        for gauge, points in cost.items():
            if not points:
                continue
            spent[gauge] = spent.get(gauge, 0) + points
            if spent[gauge] > me[gauge]:
                if gauge == "force" and sheet["gauges"]["force"] <= 0:
                    out.append(Refusal("no_force_power", at + ("competence",),
                                       {"player": handle, "skill": sheet["skills"][skill_id]["name"]}))
                else:
                    valid = ["dormir", "rien"]
                    if gauge == "action":
                        valid = ["type: simple"] + valid
                    out.append(Refusal("gauge_empty", at, {"player": handle, "gauge": gauge, "have": me[gauge],
                                                           "need": spent[gauge], "valid": valid}))
        return out

    def _check_use(self, handle, sheet, me, state, action, spent, used) -> list[Refusal]:
        arg = action.arg
        item_id = normalize_id(arg["objet"])
        item = sheet["items"].get(item_id)
        if item is None:
            names = [i["name"] for i in sheet["items"].values()]
            return [Refusal("unknown_item", action.at + ("objet",),
                            {"item": arg["objet"], "player": handle, "valid": names,
                             "suggestion": i18n.closest(item_id, sheet["items"])})]
        out = []
        if item["uses"] is not None:
            used[item_id] = used.get(item_id, 0) + 1
            left = me["uses"].get(item_id, item["uses"])
            if used[item_id] > left:
                out.append(Refusal("item_used_up", action.at + ("objet",), {"item": item["name"], "left": left}))
        if item["slot"] == "inventaire" and state.get("combat"):
            reachable = [i["name"] for i in sheet["items"].values() if i["slot"] != "inventaire"]
            out.append(Refusal("inventory_in_combat", action.at + ("objet",),
                               {"item": item["name"], "valid": reachable}))
        out += self._check_intent(handle, me, arg.get("intention"), action.at, True)
        if item["check"]:
            skill_id = item["check"]["competence"]
            out += self._spend(handle, sheet, me, check_cost(self.rules, sheet, None, skill_id), spent, action.at,
                               self.rules["check"]["default_type"], skill_id)
        return out

    # -- MJ orders -----------------------------------------------------------------------
    def gm_orders(self, scenario, raw: dict, state: dict | None = None) -> tuple[dict, list[Refusal]]:
        """gm.yaml's `orders:` normalised (ids, aliases, defaults), and what is wrong."""
        specs = self.rules.get("gm_orders") or {}
        index = action_index(specs)
        collect = Refusals()
        out: dict = {}
        for key, value in (raw or {}).items():
            order_id = index.get(normalize_id(key))
            if order_id is None:
                collect.add("unknown_gm_order", (key,), order=key, valid=list(specs),
                            suggestion=i18n.closest(normalize_id(key), index))
                continue
            before = len(collect)
            parsed = check_arg(value, specs[order_id].get("arg"), self, scenario, (key,), collect)
            if len(collect) == before:
                out[order_id] = parsed
                self._check_gm_entries(order_id, key, parsed, scenario, state, collect)
        return out, collect

    def _check_gm_entries(self, order_id, key, parsed, scenario, state, collect) -> None:
        factions = self.factions(scenario)
        sheets = self.sheets(scenario)
        if not isinstance(parsed, list):
            return
        seen = set()
        for i, entry in enumerate(parsed):
            at = (key, i)
            if order_id == "confiance":
                if find_faction(factions, entry["faction"]) is None:
                    collect.add("unknown_faction", at + ("faction",), faction=entry["faction"],
                                valid=list(factions),
                                suggestion=i18n.closest(normalize_id(entry["faction"]), factions))
                t = self.rules["trust"]
                if not t["min"] <= entry["niveau"] <= t["max"]:
                    collect.add("arg_range", at + ("niveau",), value=entry["niveau"], low=t["min"], high=t["max"])
            elif order_id == "situation":
                from pbp.dice import parse
                from pbp.errors import PbpError

                try:
                    parse(entry["de"])
                except PbpError:
                    collect.add("bad_dice", at + ("de",), expr=entry["de"])
                high = self.rules["situation"]["range_max"]
                if (entry.get("plage") or 0) > high:
                    collect.add("arg_range", at + ("plage",), value=entry["plage"], low=0, high=high)
            elif order_id == "jet":
                handle = entry["joueur"]
                self._gm_check_fields(handle, sheets[handle], entry, at, factions, collect)
            elif order_id == "alignement":
                self._gm_stable_reaction(state, entry, at, collect)
            elif order_id in ("evenement_grave", "manipulation"):
                self._gm_needs_stable(state, entry, at, collect)
                if order_id == "manipulation":
                    if entry.get("chance") is None and not (entry.get("par") and entry.get("carac")):
                        collect.add("manipulation_needs", at)
                    elif entry.get("chance") is None and entry.get("competence"):
                        by = entry["par"]
                        if normalize_id(entry["competence"]) not in sheets[by]["skills"]:
                            names = [s["name"] for s in sheets[by]["skills"].values()]
                            collect.add("unknown_skill", at + ("competence",), skill=entry["competence"], player=by,
                                        valid=names)
            elif order_id == "fin_de_niveau":
                limit = self.rules["alignment"]["end_of_level_max"]
                if abs(entry["alignement"]) > limit:
                    collect.add("end_of_level_limit", at + ("alignement",), value=entry["alignement"], max=limit)
                if entry["joueur"] in seen:
                    collect.add("duplicate_player", at + ("joueur",), player=entry["joueur"])
                seen.add(entry["joueur"])

    def _gm_check_fields(self, handle, sheet, entry, at, factions, collect) -> None:
        collect += self._check_check(handle, sheet, None, factions, entry, at, None, player=False)

    def _gm_stable_reaction(self, state, entry, at, collect) -> None:
        if state is None:
            return
        side = R.stable_side(state["characters"][entry["joueur"]]["light"], self.rules) \
            if entry["joueur"] in state["characters"] else None
        if side is not None and entry["reaction"] != side:
            collect.add("reaction_refused_stable", at + ("reaction",), player=entry["joueur"], side=side,
                        valid=[side])

    def _gm_needs_stable(self, state, entry, at, collect) -> None:
        if state is None:
            return
        me = state["characters"].get(entry["joueur"])
        if me is None or R.stable_side(me["light"], self.rules) is None:
            collect.add("not_stable", at + ("joueur",), player=entry["joueur"])

    def check_gm(self, state, scenario, gm_orders):
        return self.gm_orders(scenario, gm_orders.orders, state)[1]

    def resolve(self, state, scenario, orders, gm_orders, dice):
        if gm_orders.quiet and not gm_orders.orders:  # a simulated turn: the simulated MJ's orders
            gm = balance.simulated_gm(self.rules, state, scenario, dice)
        else:
            gm, _ = self.gm_orders(scenario, gm_orders.orders)
        sheets = self.sheets(scenario)
        joined = []
        for handle in scenario.roster:
            if handle not in state["characters"]:
                joined.append(ev.public("joined", player=handle))
                joined += self._enter(state, handle, sheets[handle], dice)
        down_before = {h: c["down"] for h, c in state["characters"].items()}
        turn = Turn(self.rules, state, scenario, sheets, self.factions(scenario), dice, quiet=gm_orders.quiet)
        events = turn.run(orders, gm)
        if gm_orders.quiet:
            balance.record(self.rules, turn.state, turn, gm_orders.turn, down_before)
        return Resolution(turn.state, joined + events)

    # -- forms, status, bots -------------------------------------------------------------
    def order_context(self, state, scenario, player):
        sheet = self.sheets(scenario)[player]
        me = self._char(state, scenario, player)
        if player not in state["characters"]:
            state = {**state, "characters": {**state["characters"], player: me}}
        summary = summary_event(player, state, sheet, self.factions(scenario), self.rules).data
        return {**sheet_data(sheet, self.rules), **summary,
                "factions": list(self.factions(scenario).values()),
                "costs": self.rules["check"]["types"], "force_power_cost": self.rules["check"]["force_power_cost"],
                "stable_bonus": self.rules["alignment"]["stable_bonus"], "down": me["down"]}

    def status(self, state, scenario):
        sheets, factions = self.sheets(scenario), self.factions(scenario)
        out = [ev.gm("scene", combat=state.get("combat", False), level=state.get("level", 1))]
        for handle in [h for h in scenario.roster if h in state["characters"]]:
            out.append(ev.gm("summary", **summary_event(handle, state, sheets[handle], factions, self.rules).data))
        return out

    # -- secrecy -----------------------------------------------------------------------
    def secret_values(self, state, scenario) -> set[str]:
        """What only a sheet's player and the MJ know (README, Secrecy): the flaw,
        the characteristics, the gauges, the alignment and the trust of every
        character in the state, each as the reports print it (a bare 45 or +2
        would match anything): "Physique 45", "PV 11/15", "4 clair(s), 6 obscur(s)",
        "Empire +2". (Items become public when used, skills are common words a
        check's purpose may use: the audiences alone keep them secret.)"""
        sheets, factions = self.sheets(scenario), self.factions(scenario)
        total = self.rules["alignment"]["points"]
        out = set()
        for handle, me in (state.get("characters") or {}).items():
            sheet = sheets.get(handle)
            if sheet is None:
                continue
            out.add(sheet.get("flaw") or "")
            out |= {f"{carac.capitalize()} {value}" for carac, value in sheet["characteristics"].items()}
            for gauge in self.rules["gauges"]:
                labels = GAUGE_LABELS.get(gauge, (gauge.capitalize(),))
                out |= {f"{label} {me[gauge]}/{sheet['gauges'][gauge]}" for label in labels}
            light = me.get("light")
            if light is not None:
                out |= {f"{light} clair(s), {total - light} obscur(s)", f"{light} light, {total - light} dark",
                        f"{light} point(s) clair(s)", f"{light} light point(s)"}
            for fid, level in (me.get("trust") or {}).items():
                name = factions[fid]["name"] if fid in factions else fid
                out.add(f"{name} {level:+d}")
        return {v.strip() for v in out if v and v.strip()}

    def _full_arg(self, action_id: str, **values) -> dict:
        fields = self.actions[action_id]["arg"]["fields"]
        out = {}
        for name, spec in fields.items():
            spec = self.rules["arg_types"].get(spec, {}) if isinstance(spec, str) else spec
            out[name] = values.get(name, (spec or {}).get("default"))
        return out

    # -- balance tools (pbp simulate, pbp odds; balance.py) -----------------------------------
    def sample_scenario(self, players, rng):
        return balance.sample_scenario(self.rules, players, rng)

    def bot_orders(self, state, scenario, player, rng):
        me = self._char(state, scenario, player)
        sheets = self.sheets(scenario)
        view = self.__dict__.get("_bot_view")
        if view is None or view[0] is not sheets:  # once per scenario
            view = self._bot_view = (sheets, balance.bot_view(self.rules, sheets))
        return balance.bot_orders(self.rules, sheets, view[1], self.factions(scenario), state, player, me, rng)

    def game_summary(self, state, scenario):
        return balance.game_summary(self.rules, state, self.sheets(scenario), self.factions(scenario))

    def odds(self):
        return balance.calculators(self.rules)

    def legal_orders(self, state, scenario, player):
        sheet = self.sheets(scenario)[player]
        me = self._char(state, scenario, player)
        side = R.stable_side(me["light"], self.rules)
        candidates = [[Action("rien", None, 0)], [Action("dormir", None, 0)]]
        if sheet["gauges"]["force"] > 0:
            candidates.append([Action("dormir", "force", 0)])
        for carac in self.rules["characteristics"]:
            candidates.append([Action("jet", self._full_arg("jet", carac=carac, intention=side), 0)])
        best = max(self.rules["characteristics"], key=lambda c: sheet["characteristics"][c])
        for skill in sheet["skills"].values():
            if not skill["passive"]:
                candidates.append([Action("jet", self._full_arg("jet", carac=skill["carac"] or best,
                                                                competence=skill["name"], intention=side), 0)])
        for faction in self.factions(scenario):
            candidates.append([Action("jet", self._full_arg("jet", carac="mental", faction=faction), 0)])
        for item in sheet["items"].values():
            candidates.append([Action("utiliser", self._full_arg("utiliser", objet=item["name"]), 0)])
        orders = lambda actions: PlayerOrders(player, 0, actions)
        return [c for c in candidates if not self.check_orders(state, scenario, orders(c))]


def sheet_data(sheet: dict, rules: dict) -> dict:
    """A sheet as event data: what its player (and the MJ) may read."""
    total = rules["alignment"]["points"]
    skills = [{k: s[k] for k in ("name", "category", "level", "passive", "force", "die", "range")}
              for s in sheet["skills"].values()]
    skills.sort(key=lambda s: rules["skills"]["categories"].index(s["category"]))
    items = [{"name": i["name"], "slot": i["slot"], "uses": i["uses"], "effect": i["effect"]}
             for i in sheet["items"].values()]
    return {"name": sheet["name"], "characteristics": sheet["characteristics"], "max_gauges": sheet["gauges"],
            "skills": skills, "items": items, "flaw": sheet["flaw"],
            "alignment": sheet["alignment"], "total": total}


RULESET = D100
