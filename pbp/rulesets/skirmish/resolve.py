"""One skirmish turn: orders in order of play -> new state + events.

1. every acting unit's PA are refilled;
2. each unit's actions are queued (a player's in the order written, the MJ's
   creatures' after them), and the units act in initiative order: DEX, highest
   first, then luck, then sheet order (no roll, so nothing to force);
3. an action is planned on the board as it stands now (board.py): what cannot be
   done any more (the target moved away or fell, the PA were taken by a counter)
   is a public `lost` line, nothing spent; a unit downed earlier in the turn does
   not act (`down_skip`);
4. an attack or a spell resolves in the seed's order: spend the PA, roll the
   main d100, let the target defend (dodge, counter-magic), apply the result,
   award XP; every roll, chance, bonus and malus goes to the MJ log, each
   player's own parts to their report, the forum line to the thread (`Outcome`);
5. end of turn: temporary effects wear off, levels are gained, the skirmish may
   end; then the board, the sheets and the MJ's status (views.end_events).

Turn 0 (`setup`) is the state sheets.py reads from the campaign's files.
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.model.ruleset import Resolution

from . import rules as R, sheets, views
from .board import Problem, actor, affordable, plan
from .rules import CHARACTER, alive


def setup(rules: dict, scenario, quiet: bool = False) -> Resolution:
    state = sheets.initial_state(rules, scenario)
    if quiet:  # a simulated game: the state alone
        return Resolution(state, [])
    events = [ev.public("setup", factions=state["factions"], units=views.public_roster(state))]
    return Resolution(state, events + views.end_events(rules, state, scenario.roster))


def turn(rules: dict, state: dict, scenario, orders: dict, creature_orders: dict, dice, quiet: bool = False
         ) -> Resolution:
    """`orders`: handle -> PlayerOrders; `creature_orders`: creature id -> [Action]
    (the MJ's, or the simulated MJ's). A simulated turn (`quiet`) builds no MJ
    log, private sheets nor board."""
    units = state["units"]
    state["turn"] = state.get("turn", 0) + 1
    for u in units.values():
        if alive(u) and "ap_max" in u:
            u["ap"] = u["ap_max"]
    queues: dict[str, list] = {}
    for handle, order in orders.items():
        for action in order.actions:
            queues.setdefault(actor(state, handle, action), []).append((handle, action))
    for uid, acts in creature_orders.items():
        queues.setdefault(uid, []).extend((None, a) for a in acts)
    position = {uid: i for i, uid in enumerate(units)}
    order = sorted(queues, key=lambda uid: (-units[uid]["DEX"], -units[uid]["luck"], position[uid]))
    events = [ev.public("initiative", order=[{"id": uid, "name": units[uid]["name"]} for uid in order])]
    if not quiet:
        events.append(ev.gm("initiative", order=[{"id": uid, "name": units[uid]["name"], "DEX": units[uid]["DEX"],
                                                  "luck": units[uid]["luck"]} for uid in order]))
    for uid in order:
        told = False
        for i, (player, action) in enumerate(queues[uid]):
            if not alive(units[uid]):
                if not told:
                    events.append(ev.public("down_skip", actor=uid, name=units[uid]["name"],
                                            count=len(queues[uid]) - i))
                    told = True
                continue
            events += resolve_action(rules, state, uid, player, action, dice, quiet)
    events += end_turn(rules, state)
    if not quiet:
        told = {h for e in events if e.kind == "defeated" for h in e.audience.handles}
        events += views.end_events(rules, state, scenario.roster, told)
    return Resolution(state, events)


def resolve_action(rules: dict, state: dict, uid: str, player, action, dice, quiet: bool = False) -> list:
    """One action of one unit, from the board as it stands now."""
    me = state["units"][uid]
    try:
        planned = plan(rules, state, uid, action, player)
        affordable(planned, me["name"], me["ap"])
    except Problem as p:
        data = {"actor": uid, "name": me["name"], "action": action.id, "reason": p.key,
                "params": {k: v for k, v in p.params.items() if k not in ("valid", "suggestion")}}
        return [ev.public("lost", **data)]
    me["ap"] -= planned["cost"]
    if planned["kind"] == "move":
        before = list(me["position"])
        me["position"] = planned["to"]
        return [ev.public("move", actor=uid, name=me["name"], start=before, to=planned["to"],
                          squares=len(planned["path"]), cost=planned["cost"])]
    out = Outcome(rules, state, uid)
    if planned["kind"] == "attack":
        attack(rules, state, uid, action, planned, dice, out)
    else:
        spell(rules, state, uid, planned, dice, out)
    return out.events(planned, quiet)


# -- attacks -------------------------------------------------------------------------------

def attack(rules: dict, state: dict, uid: str, action, planned: dict, dice, out: "Outcome") -> None:
    """Attack roll, the target's dodge, damage and reduction, XP."""
    units = state["units"]
    me, target = units[uid], planned["target"]
    foe = units[target]
    spec = rules["actions"][action.id]
    weapon = planned["weapon"]
    out.info.update(action=action.id, target=target, target_name=foe["name"], target_type=foe["type"],
                    distance=R.shown(R.distance(me["position"], foe["position"])))
    if foe.get("gender"):
        out.info["target_gender"] = foe["gender"]
    if weapon:
        w = me["weapons"][weapon]
        out.info["weapon"] = {"id": weapon, "name": w["name"], **({"phrase": w["phrase"]} if w.get("phrase") else {})}
    chance = R.attack_chance(rules, state, uid, spec, weapon, target)
    roll = dice.roll(f"{uid}.attaque", rules["check"]["dice"], f"{action.id} -> {target}")
    hit = R.succeeds(roll.total, chance["chance"])
    perfect = hit and R.is_perfect(rules, roll.total)
    out.info["attack"] = {"roll": roll, "chance": chance["chance"], "hit": hit, "perfect": perfect,
                          **views.public_chance(chance)}
    if perfect:
        out.info["attack"]["perfect_below"] = rules["perfect"]["below"]
    out.detail(uid, "attaque", roll=roll, **chance)
    out.count(uid, "attacks")
    if not hit:
        out.xp(uid, "attack_missed")
        if foe["type"] == CHARACTER:
            out.xp(target, "defender_missed")
        return
    if R.can_dodge(rules, foe) and (not perfect or rules["perfect"]["dodgeable"]):
        dodge = R.dodge_chance(rules, state, target)
        droll = dice.roll(f"{target}.esquive", rules["check"]["dice"], f"{uid} -> {target}")
        dodged = R.succeeds(droll.total, dodge["chance"])
        out.info["dodge"] = {"roll": droll, "chance": dodge["chance"], "success": dodged,
                             **views.public_chance(dodge)}
        out.detail(target, "esquive", roll=droll, **dodge)
        if dodged:
            out.count(target, "dodges")
            out.xp(uid, "attack_dodged")
            out.xp(target, "dodge")
            return
    out.count(uid, "hits")
    if perfect:
        out.count(uid, "perfects")
    terms = R.damage_terms(rules, me, spec, weapon, perfect)
    droll = dice.roll(f"{uid}.degats", R.combine(*(t["dice"] for t in terms)), f"{action.id} -> {target}")
    red = R.reduction(rules, foe)
    final = R.final_damage(rules, droll.total, red["value"])
    out.info["damage"] = {"roll": droll, "terms": views.public_damage(terms, droll), "reduction": red["value"],
                          "reduced_by": views.public_reduction(red), "raw": droll.total - red["value"],
                          "final": final}
    out.detail(uid, "degats", roll=droll, terms=terms)
    out.detail(target, "reduction", value=red["value"], parts=red["parts"])
    out.xp(uid, "hit")
    if perfect:
        out.xp(uid, "perfect_bonus")
    out.hurt(uid, target, final)


# -- spells --------------------------------------------------------------------------------

def spell(rules: dict, state: dict, uid: str, planned: dict, dice, out: "Outcome") -> None:
    """Magic roll, the target's counter-magic (damage spells on a character),
    then the effect on the target and its zone, or on the caster when reflected."""
    units = state["units"]
    me, target = units[uid], planned["target"]
    sid = planned["spell"]
    spec = rules["spells"][sid]
    foe = units[target]
    out.info.update(action="sort", spell=sid, spell_name=spec.get("name") or {}, spell_type=spec["type"],
                    target=target, target_name=foe["name"], target_type=foe["type"],
                    distance=R.shown(R.distance(me["position"], foe["position"])), zone=spec.get("zone"))
    out.count(uid, "spells_cast")
    chance = R.magic_chance(rules, state, uid, spec)
    roll = dice.roll(f"{uid}.magie", rules["check"]["dice"], f"{sid} -> {target}")
    success = R.succeeds(roll.total, chance["chance"])
    out.info["cast"] = {"roll": roll, "chance": chance["chance"], "success": success, **views.public_chance(chance)}
    out.detail(uid, "magie", roll=roll, **chance)
    if not success:
        return
    if spec["type"] == "degats" and foe["type"] == CHARACTER and R.can_counter(rules, foe):
        counter = R.counter_chance(rules, state, target)
        croll = dice.roll(f"{target}.contre", rules["check"]["dice"], f"{sid} <- {uid}")
        blocked = R.succeeds(croll.total, counter["chance"])
        perfect = blocked and R.reflects(rules, croll.total)
        lost = due = 0
        if blocked and "ap" in foe:
            lost = R.counter_ap_loss(rules, spec, foe["ap"])
            due = R.counter_ap_loss(rules, spec, spec["cost"])
            foe["ap"] -= lost
        out.info["counter"] = {"who": target, "name": foe["name"], "roll": croll, "chance": counter["chance"],
                               "success": blocked, "perfect": perfect, "ap_lost": lost,
                               **views.public_chance(counter)}
        if perfect:
            out.info["counter"]["perfect_below"] = rules["counter_magic"]["perfect_below"]
        if lost:
            # the PA a counter costs: the spell's cost / divisor, rounded up, at most what is left
            out.info["counter"].update(ap_due=due, ap_divisor=rules["counter_magic"]["ap_loss_divisor"],
                                       spell_cost=spec["cost"])
        out.detail(target, "contre", roll=croll, **counter)
        if blocked:
            out.count(target, "counters")
            out.xp(target, "counter")
            if perfect:
                out.xp(target, "counter_perfect_bonus")
            if perfect:
                out.info["reflected"] = True
                spell_effect(rules, state, uid, uid, [uid], spec, sid, dice, out, source=target)
            return
    out.xp(uid, "spell_success")
    out.count(uid, "spells_landed")
    spell_effect(rules, state, uid, target, R.spell_targets(state, uid, target, spec), spec, sid, dice, out)


def spell_effect(rules: dict, state: dict, uid: str, target: str, hits: list, spec: dict, sid: str, dice,
                 out: "Outcome", source: str | None = None) -> None:
    """Applies a spell's effect to `hits`; `source` is who deals it when it was
    reflected (the countering target), else the caster."""
    units = state["units"]
    reflected = source is not None
    source = source or uid
    kind = spec["type"]
    effect = {"type": kind, "hits": []}
    if kind in ("degats", "soin"):
        roll = dice.roll(f"{uid}.effet", spec["dice"], f"{sid} -> {target}")
        effect["roll"] = roll
        out.detail(uid, "effet", roll=roll, terms=[{"key": "spell", "dice": str(spec["dice"])}])
        for hit in hits:
            u = units[hit]
            if kind == "degats":
                value = roll.total
                record = {"id": hit, "name": u["name"]}
                if rules["magic"]["reduction_applies"]:
                    red = R.reduction(rules, u)
                    out.detail(hit, "reduction", value=red["value"], parts=red["parts"])
                    value = R.final_damage(rules, value, red["value"])
                    if red["value"]:
                        record["reduced_by"] = views.public_reduction(red)
                else:
                    value = R.final_damage(rules, value)
                record["value"] = value
                if u.get("gender"):
                    record["gender"] = u["gender"]
                record["type"] = u["type"]
                effect["hits"].append(record)
                out.hurt(source, hit, value, effect["hits"][-1])
            else:
                healed = max(0, min(u["hp_max"] - u["hp"], roll.total))
                u["hp"] += healed
                effect["hits"].append({"id": hit, "name": u["name"], "value": healed,
                                       **({"full": True} if healed < roll.total else {})})
                out.touched(hit)
    else:
        value = spec["value"]
        effect.update(stat=spec["stat"], value=value, duration=spec["duration"])
        for hit in hits:
            u = units[hit]
            u["effects"] = [e for e in u["effects"] if e.get("spell") != sid]
            u["effects"].append({"name": sid, "stat": spec["stat"], "value": value, "turns": spec["duration"],
                                "spell": sid, "spell_name": dict(spec.get("name") or {})})
            effect["hits"].append({"id": hit, "name": u["name"], "value": value})
            out.touched(hit)
    out.info["reflect_effect" if reflected else "effect"] = effect


# -- end of turn ------------------------------------------------------------------------------

def end_turn(rules: dict, state: dict) -> list:
    """Effects wear off, levels are gained, and the skirmish may end: when at most
    one faction, or one player, has characters standing (data: `end`)."""
    events = []
    units = state["units"]
    for uid, u in units.items():
        kept, gone = [], []
        for e in u.get("effects", []):
            if "turns" in e:
                e["turns"] -= 1
                if e["turns"] <= 0:
                    gone.append({"name": e["name"], **({"spell_name": e["spell_name"]} if e.get("spell_name") else {})})
                    continue
            kept.append(e)
        u["effects"] = kept
        if gone and alive(u):
            events.append(ev.public("effects_end", actor=uid, name=u["name"], effects=gone))
        if u["type"] == CHARACTER and alive(u):
            level = R.level_for(rules, u["xp"], u["level"])
            if level > u["level"]:
                u["level"] = level
                events.append(ev.public("level_up", actor=uid, name=u["name"], level=level))
    standing = {u["faction"] for u in units.values() if u["type"] == CHARACTER and alive(u)}
    owners = {u["player"] for u in units.values() if u["type"] == CHARACTER and alive(u)}
    end = rules["end"]
    limit = end.get("turn_limit")
    if ((end["last_faction_standing"] and len(standing) <= 1) or (end["last_player_standing"] and len(owners) <= 1)
            or (limit and state["turn"] >= limit)):
        state["over"] = True
        events.append(ev.public("over", winners=views.winners(state)))
    return events


def defeats(state: dict, players) -> list:
    """A private `defeated` event for each of `players` whose last character just
    fell: their report ends there (docs/design.md, "The output")."""
    out = []
    for p in dict.fromkeys(p for p in players if p):
        mine = [u for u in state["units"].values() if u["type"] == CHARACTER and u.get("player") == p]
        if mine and not any(alive(u) for u in mine):
            out.append(ev.private(p, "defeated", names=[u["name"] for u in mine]))
    return out


# -- what one action did -----------------------------------------------------------------------

class Outcome:
    """What one attack or spell did: the public forum line (`info`), the MJ's log
    (`details`), XP (`gains`), the units touched and their PV and PA after it (`after`)."""

    def __init__(self, rules: dict, state: dict, uid: str):
        self.rules, self.state, self.uid = rules, state, uid
        self.units = state["units"]
        self.info = {"actor": uid, "name": self.units[uid]["name"]}
        self.details: list[dict] = []
        self.gains: list[dict] = []
        self.touched_ids: list[str] = [uid]
        self.downed: list[str] = []

    def detail(self, who, what, **data):
        self.touched(who)
        self.details.append({"who": who, "name": self.units[who]["name"], "what": what, **data})

    def count(self, who, stat):
        stats = self.units[who].get("stats")
        if stats is not None and stat in stats:
            stats[stat] += 1

    def xp(self, who, reason):
        u = self.units[who]
        amount = self.rules["xp"][reason]
        if u["type"] != CHARACTER or not amount:
            return
        self.touched(who)
        u["xp"] += amount
        self.gains.append({"who": who, "name": u["name"], "reason": reason, "amount": amount})

    def touched(self, who):
        if who not in self.touched_ids:
            self.touched_ids.append(who)

    def hurt(self, by, who, amount, record=None):
        u = self.units[who]
        self.touched(who)
        u["hp"] = max(0, u["hp"] - amount)
        if "stats" in self.units[by] and "damage_dealt" in self.units[by]["stats"]:
            self.units[by]["stats"]["damage_dealt"] += amount
        if "damage_taken" in u.get("stats", {}):
            u["stats"]["damage_taken"] += amount
        down = u["hp"] == 0
        if record is not None:
            record["down"] = down
        else:
            self.info["down"] = down
        if down:
            self.count(by, "downed")
            self.downed.append(who)

    def events(self, planned: dict, quiet: bool = False) -> list:
        """The public line; unless quiet, the MJ's log and each player's own parts."""
        kind = planned["kind"]
        public = dict(self.info, cost=planned["cost"])
        if quiet:  # a simulation reads the public line only (balance.record)
            return [ev.public(kind, **public)]
        after = {}
        for uid in self.touched_ids:
            u = self.units[uid]
            after[uid] = {"name": u["name"], "hp": u["hp"], "hp_max": u["hp_max"]}
            if "ap" in u:  # doors and objects have none
                after[uid]["ap"] = u["ap"]
        out = [ev.public(kind, **public), ev.gm(kind, **public, details=self.details, xp=self.gains, after=after)]
        players = []
        for uid in self.touched_ids:
            p = self.units[uid].get("player")
            if p and p not in players:
                players.append(p)
        for p in players:
            mine = {uid for uid, u in self.units.items() if u.get("player") == p}
            out.append(ev.private(p, kind, **public,
                                  details=[d for d in self.details if d["who"] in mine],
                                  xp=[g for g in self.gains if g["who"] in mine],
                                  after={uid: v for uid, v in after.items() if uid in mine}))
        out += defeats(self.state, [self.units[u].get("player") for u in self.downed])
        return out
