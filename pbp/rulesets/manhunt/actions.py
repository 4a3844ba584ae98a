"""What each action of Annexe 1 does, one function each, and the fights.

A module of its own because the turn (resolve.py) would otherwise pass 500 lines:
resolve.py owns the order of play and a Péji's condition; this module owns the
effect of each action on the `Turn` it is handed (`turn.costs`, `turn.wound`,
`turn.cross`...), including melee, which hunters fight too. An action returns
False when it was not carried out (no target left, too tired): it then costs
nothing. Its costs from data.yaml are paid by the turn, not here.
"""

from __future__ import annotations

from . import rules as r


# -- movement -------------------------------------------------------------------------

def deplacement_normal(turn, handle, action):
    peji = turn.peji(handle)
    to, exit_ = turn.lab.neighbour(peji["cell"], action.arg)
    src = peji["cell"]
    peji["cell"] = to
    crossed = turn.cross(handle, src, exit_)
    if not turn.quiet:
        turn.tell(handle, "deplacement", direction=action.arg, cell=turn.lab.name(to), doors=[crossed])
        turn.note("deplacement_gm", player=handle, src=turn.lab.name(src), dst=turn.lab.name(to), src_id=src,
                  dst_id=to)


def _run(turn, handle, action, kind):
    """Fast move and flight: through one cell to the next (Annexe 4.2)."""
    peji = turn.peji(handle)
    if not r.can_run(turn.rules, peji["fatigue"]):
        turn.tell(handle, "action_annulee", action=action.id, reason="fatigue")
        return False
    path = [action.arg] if isinstance(action.arg, str) else list(action.arg)
    src = peji["cell"]
    steps, doors = [], []
    for n in range(turn.rules["fast_move_cells"]):
        here = peji["cell"]
        direction = r.run_direction(turn.lab, here, path[min(n, len(path) - 1)],
                                    came_from=steps[-1][1] if steps else None)
        if direction is None:
            break
        to, exit_ = turn.lab.neighbour(here, direction)
        peji["cell"] = to
        doors.append(turn.cross(handle, here, exit_))
        steps.append((direction, here))
        if peji["status"] != r.ACTIVE or peji["lost_turns"]:
            break
    for cell in [c for _, c in steps[1:]]:  # FAQ 3: no attack, but the hunter picks up the trace
        for hid in r.hunters_on(turn.state, [cell]):
            hunter = turn.hunter(hid)
            hunter["target"], hunter["trace"] = handle, peji["cell"]
            if not turn.quiet:
                turn.note("trace_reprise", hunter=hid, player=handle)
                turn.tell(handle, "chasseur_croise", hunter=r.hunter_name(turn.scenario, hid),
                          hunter_genre=r.hunter_genre(turn.scenario, hid))
    if not turn.quiet:
        turn.tell(handle, kind, path=[d for d, _ in steps], cell=turn.lab.name(peji["cell"]), doors=doors)
        turn.note("deplacement_gm", player=handle, src=turn.lab.name(src), dst=turn.lab.name(peji["cell"]),
                  src_id=src, dst_id=peji["cell"])


def deplacement_rapide(turn, handle, action):
    return _run(turn, handle, action, "deplacement_rapide")


def fuite(turn, handle, action):
    return _run(turn, handle, action, "fuite")


# -- staying actions ----------------------------------------------------------------------

def repos(turn, handle, action):
    turn.tell(handle, "repos")


def se_cacher(turn, handle, action):
    """docs/design.md manhunt 12: hunters on adjacent cells lose the Péji's trace this turn."""
    peji = turn.peji(handle)
    lost = turn.blind_hunters(handle, turn.lab.neighbours(peji["cell"]))
    if not turn.quiet:
        turn.tell(handle, "cache", turns=peji["hidden_turns"] + 1)
        turn.note("cache_gm", player=handle, hunters=[r.hunter_name(turn.scenario, h) for h in lost])


def recherche_pieges(turn, handle, action):
    peji = turn.peji(handle)
    cell = peji["cell"]
    found = cell in turn.lab.traps
    if found and cell not in peji["traps_found"]:
        peji["traps_found"].append(cell)
    if not turn.quiet:
        turn.tell(handle, "recherche_pieges", found=found, cell=turn.lab.name(cell))


def fouille(turn, handle, action):
    """docs/design.md manhunt 14: d20 on the table, d20 on the sub-table; one find per cell; the
    neighbouring cells are described."""
    peji = turn.peji(handle)
    cell = peji["cell"]
    search = turn.rules["search"]
    if not turn.quiet:  # for the report only
        turn.reports[handle]["adjacent"] = [{"direction": d, **turn.lab.describe(e["to"], turn.open_doors)}
                                            for d, e in turn.lab.exits[cell]]
    if cell in turn.searched:
        turn.tell(handle, "fouille", already=True, table=None, sub=None, find="rien", item=None)
        return
    table = turn.dice.roll(f"{handle}.fouille.table", search["die"], "table de fouille")
    row = r.search_row(search["table"], table.total)
    find, sub, item = row["find"], None, row.get("item")
    if find in search["subtables"]:
        sub = turn.dice.roll(f"{handle}.fouille.{find}", search["die"], f"table {find}")
        item = r.search_row(search["subtables"][find], sub.total)["item"]
    if item:
        peji["inventory"].append(item)
        turn.searched.add(cell)
        turn.reports[handle]["finds"].append(item)
    turn.tell(handle, "fouille", already=False, table=table, sub=sub, find=find, item=item,
              article=turn.rules["items"].get(item, {}).get("article") if item else None)


def utilisation_equipement(turn, handle, action):
    peji = turn.peji(handle)
    item = r.find_item(peji["inventory"], action.arg)  # the player may write it without accents
    if item is None:  # checked when the orders were read; gone since (nothing takes it before)
        turn.tell(handle, "action_annulee", action=action.id, reason="objet")
        return False
    spec = turn.rules["items"][item]
    effects = spec.get("effects") or {}
    if not spec.get("reusable"):
        peji["inventory"].remove(item)
    if effects.get("combat_bonus"):
        turn.combat_bonus[handle] = turn.combat_bonus.get(handle, 0) + effects["combat_bonus"]
    if effects.get("wounds"):
        peji["wounds"] = max(1, peji["wounds"] + effects["wounds"])
    if effects.get("hide"):
        turn.blind_hunters(handle, [peji["cell"], *turn.lab.neighbours(peji["cell"])])
    if effects.get("lose_all_traces"):
        turn.lose_all_traces(handle)
    turn.tell(handle, "utilisation", item=item, effects=effects)
    turn.costs(handle, fatigue=effects.get("fatigue", 0), stress=effects.get("stress", 0),
               noise=effects.get("noise", 0), cause=("objet", item))


def revetir_armure(turn, handle, action):
    peji = turn.peji(handle)
    item = r.find_item(peji["inventory"], action.arg)
    if item is None:
        turn.tell(handle, "action_annulee", action=action.id, reason="objet")
        return False
    peji["worn"].append(item)
    turn.tell(handle, "armure", item=item, protection=r.protection(turn.rules, peji))


def jeter(turn, handle, action):
    return False  # only names what a forced drop takes (docs/design.md manhunt 5); costs nothing


# -- fights ---------------------------------------------------------------------------------

def _pick_target(turn, handle, wanted, present: list[str]) -> str | None:
    """The hunter an order names (by id or by name, r.match_hunters) if still
    there; unnamed: the one tracking the Péji, else the first present. None when
    nobody is left."""
    if wanted is not None:
        return r.find_hunter(turn.scenario, wanted, among=present)
    tracking = [h for h in present if turn.hunter(h)["target"] == handle]
    return (tracking or present or [None])[0]


def _malus(turn, handle) -> int:
    return r.fatigue_malus(turn.rules, turn.peji(handle)["fatigue"])


def _wound_hunter(turn, hid):
    hunter = turn.hunter(hid)
    hunter["wounds"] += 1
    if hunter["wounds"] >= turn.rules["wounds"]["dead_level"]:
        hunter["out"] = True


def combat(turn, handle, action):
    peji = turn.peji(handle)
    hid = _pick_target(turn, handle, action.arg.get("chasseur"), r.hunters_on(turn.state, [peji["cell"]]))
    if hid is None:
        turn.tell(handle, "action_annulee", action="combat", reason="cible")
        return False
    weapon = action.arg.get("arme")
    if weapon is not None:
        weapon = r.find_item(r.weapons(turn.rules, peji, "melee"), weapon)
    melee(turn, handle, hid, weapon, attacker="peji")


def melee(turn, handle, hid, weapon, attacker):
    """docs/design.md manhunt 8: 3 assaults; each side rolls its weapon, minus the other's
    protection and its own fatigue malus; 2 assaults won win the fight. The
    fight is told before what it caused (wounds, death)."""
    rules, scenario, peji, hunter = turn.rules, turn.scenario, turn.peji(handle), turn.hunter(hid)
    weapon = weapon or r.best_weapon(rules, peji, "melee")
    peji_dice, hunter_dice = r.peji_dice(rules, weapon), r.hunter_dice(rules, scenario, hid)
    fatigue, bonus = _malus(turn, handle), turn.combat_bonus.get(handle, 0)
    hunter_protection = r.hunter_protection(scenario, hid)
    wins = {"peji": 0, "hunter": 0}
    assaults = []
    start = len(turn.events)
    turn.fighting = True
    turn.acted.add(hid)
    peji_terms = [("protection", -hunter_protection), ("fatigue", -fatigue), ("bonus", bonus)]
    for n in range(1, rules["combat"]["assaults"] + 1):
        if peji["status"] != r.ACTIVE or hunter["out"]:
            break
        p = turn.dice.roll(f"{handle}.combat.{hid}.{n}", peji_dice, f"assaut {n} contre {hid}")
        h = turn.dice.roll(f"{hid}.combat.{handle}.{n}", hunter_dice, f"assaut {n} contre {handle}")
        # each side's total with its parts (docs/design.md manhunt 8): the Péji's roll minus the hunter's
        # protection and their own fatigue malus, plus a potion's bonus; the hunter's
        # roll minus the Péji's protection (asked again: a wound's forced drop may take armour)
        hunter_terms = [("protection", -r.protection(rules, peji))]
        pt, ht = r.reckoned_total(p, peji_terms), r.reckoned_total(h, hunter_terms)
        winner = r.assault_winner(pt, ht)
        if not turn.quiet:
            assaults.append({"n": n, "peji_roll": p, "hunter_roll": h, "peji_total": pt, "hunter_total": ht,
                             "peji_sum": r.reckoning(p, peji_terms), "hunter_sum": r.reckoning(h, hunter_terms),
                             "winner": winner})
        if winner == "peji":
            wins["peji"] += 1
            _wound_hunter(turn, hid)
        elif winner == "hunter":
            wins["hunter"] += 1
            turn.wound(handle, "combat")
    outcome = r.fight_winner(rules, wins)
    if outcome == "peji":
        hunter["out"] = True
    if outcome == "hunter" and peji["status"] == r.ACTIVE:
        turn.die(handle, "combat")
    if hunter["out"]:
        hunter["target"], hunter["trace"] = None, None
    if not turn.quiet:
        data = dict(player=handle, genre=r.peji_genre(scenario, handle), hunter=r.hunter_name(scenario, hid),
                    hunter_genre=r.hunter_genre(scenario, hid), attacker=attacker, assaults=assaults,
                    to_win=rules["combat"]["to_win"], outcome=outcome, dead=peji["status"] == r.DEAD,
                    hunter_out=hunter["out"])
        caused = turn.events[start:]
        del turn.events[start:]
        turn.shout("combat", **data)
        turn.tell(handle, "combat_prive", weapon=weapon, protection=r.protection(rules, peji),
                  hunter_protection=hunter_protection, fatigue_malus=fatigue, bonus=bonus, **data)
        turn.note("combat_gm", hunter_id=hid, weapon=weapon, **data)
        turn.events += caused
    turn.fighting = False
    turn.check_stress(handle)
    return True


def tir(turn, handle, action):
    """docs/design.md manhunt 9: one roll minus protection (and fatigue malus) against the
    hunter's defence; a hit wounds; `ko_on` knocks out (FAQ 5)."""
    peji = turn.peji(handle)
    present = r.hunters_on(turn.state, [peji["cell"], *turn.lab.neighbours(peji["cell"])])
    hid = _pick_target(turn, handle, action.arg.get("chasseur"), present)
    weapon = action.arg.get("arme")
    if weapon is not None:
        weapon = r.find_item(r.weapons(turn.rules, peji, "distance"), weapon)
    weapon = weapon or r.best_weapon(turn.rules, peji, "distance")
    if hid is None or weapon is None:
        turn.tell(handle, "action_annulee", action="tir", reason="cible")
        return False
    spec = turn.rules["items"][weapon]
    hunter = turn.hunter(hid)
    defence = r.hunter_defence(turn.rules, turn.scenario, hid)
    roll = turn.dice.roll(f"{handle}.tir", spec["damage"], f"tir sur {hid}")
    terms = [("protection", -r.hunter_protection(turn.scenario, hid)), ("fatigue", -_malus(turn, handle)),
             ("bonus", turn.combat_bonus.get(handle, 0))]
    total = r.reckoned_total(roll, terms)
    hit, knocked = r.shot_result(spec, total, defence)
    if hit:
        _wound_hunter(turn, hid)
    if knocked:
        hunter["out"] = True
    if hunter["out"]:
        hunter["target"] = None
    if spec.get("single_use"):
        peji["inventory"].remove(weapon)
    if turn.quiet:
        return
    data = dict(player=handle, genre=r.peji_genre(turn.scenario, handle), hunter=r.hunter_name(turn.scenario, hid),
                hunter_genre=r.hunter_genre(turn.scenario, hid), roll=roll, sum=r.reckoning(roll, terms),
                total=total, defence=defence, ko_on=spec.get("ko_on"), hit=hit, knocked=knocked,
                hunter_out=hunter["out"])
    turn.shout("tir", **data)
    turn.tell(handle, "tir_prive", weapon=weapon, **data)
    turn.note("tir_gm", hunter_id=hid, weapon=weapon, **data)


#: action id -> what it does (every action of data.yaml has one)
HANDLERS = {f.__name__: f for f in (deplacement_normal, deplacement_rapide, fuite, repos, se_cacher,
                                    recherche_pieges, fouille, utilisation_equipement, revetir_armure, jeter,
                                    combat, tir)}
