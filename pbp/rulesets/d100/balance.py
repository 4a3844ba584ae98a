"""d100 for the balance tools (pbp simulate, pbp odds): a synthetic party, the
bots (every legal order, and a quicker policy), the simulated MJ, a game's
summary and the exact odds of a check, of a rupture and of an alignment event.

A simulated game (GmOrders.quiet) keeps its tally in the state, under
`simulation` (a key a real campaign's state never has): the turn, the checks'
outcomes, the failures the simulated MJ answers next turn, when each gauge first
hit 0, the stable states broken, the causes of the characters down.
"""

from __future__ import annotations

from fractions import Fraction

from pbp.balance.odds import Calculator, Param, Table, distribution, pct, versus
from pbp.model.dice import FreeDice
from pbp.model.orders import Action, PlayerOrders
from pbp.model.ruleset import Scenario

from . import checks, rules as R

#: the forum's words for a check's outcome
LABELS = {"critical_success": "réussite critique", "success": "réussite", "failure": "échec",
          "critical_failure": "échec critique"}
UNKNOWN_CAUSE = "inconnue"


# -- the synthetic party -------------------------------------------------------------------

def sample_scenario(rules: dict, players: int, rng) -> Scenario:
    """`players` characters drawn with the generation rules (rules.generate_sheet),
    skills within each category's budget, the items and the 2 factions of
    `simulation`, a starting trust with each faction."""
    sim = rules["simulation"]
    gen = sim["generation"]
    dice = FreeDice(rng.getrandbits(64))
    factions = {fid: dict(f) for fid, f in sim["factions"].items()}
    characters, roster = {}, {}
    for i in range(players):
        handle, name = f"p{i + 1}", f"PJ {i + 1}"
        counts = {c: rng.randint(gen["count"]["min"], gen["count"]["max"]) for c in rules["characteristics"]}
        force = rng.random() * 100 < gen["force"]["chance"]
        gauges = dict(gen["gauges"], force=gen["force"]["gauge"] if force else 0)
        sheet, _ = R.generate_sheet(rules, dice, handle, name, counts, gauges)
        sheet["competences"] = _skills(rules, rng, force)
        for slot, items in sim["items"].items():
            sheet[slot] = [dict(x) if isinstance(x, dict) else x for x in items]
        t = sim["trust"]
        sheet["confiance"] = {fid: rng.randint(t["min"], t["max"]) for fid in factions}
        characters[handle] = sheet
        roster[handle] = {"character": name}
    return Scenario({"factions": factions}, characters, roster)


def _skills(rules: dict, rng, force: bool) -> dict:
    """Skills per category: at most the budget in bonus points, sometimes one
    malus with fewer points than the bonuses (`more_bonus_than_malus`)."""
    spec, sk = rules["simulation"]["skills"], rules["skills"]
    out = {}
    for cat in sk["categories"]:
        budget = (sk.get("budget") or {}).get(cat, sk["level_max"])
        pool = list(spec["names"].get(cat) or [])
        rng.shuffle(pool)
        skills: dict = {}
        if force and cat == sk["categories"][0] and spec.get("force_powers"):
            pool.insert(0, rng.choice(spec["force_powers"]))
        wanted = rng.randint(spec["per_category"]["min"], spec["per_category"]["max"])
        left = budget
        for name in pool[:wanted]:
            if left <= 0:
                break
            level = rng.randint(1, min(sk["level_max"], left))
            left -= level
            skills[name] = {"niveau": level, "force": True} if name in (spec.get("force_powers") or []) else level
        bonus = budget - left
        rest = [n for n in pool if n not in skills]
        if rest and bonus >= 2 and rng.random() * 100 < spec["malus"]:
            skills[rest.pop(0)] = -rng.randint(1, min(-sk["level_min"], bonus - 1, budget))
        if cat == spec["die_category"] and rest and rng.random() * 100 < spec["die"]:
            skills[rest.pop(0)] = dict(spec["situation_die"])
        if cat == spec["passive_category"] and rest and left >= 1 and rng.random() * 100 < spec["passive"]:
            skills[rest.pop(0)] = {"niveau": 1, "passif": True}
        out[cat] = skills
    return out


# -- the bot ------------------------------------------------------------------------------------

def _pct(rng, chance) -> bool:
    return rng.random() * 100 < chance


def legal_orders(rules: dict, sheet: dict, me: dict, factions: dict, state: dict, player: str) -> list[list[Action]]:
    """Every order of one action a player may give this turn (nothing, sleep,
    a check per characteristic, per active skill and per faction, each item),
    those `checks.check_orders` refuses left out."""
    side = R.stable_side(me["light"], rules)
    candidates = [[Action("rien", None, 0)], [Action("dormir", None, 0)]]
    if sheet["gauges"]["force"] > 0:
        candidates.append([Action("dormir", "force", 0)])
    for carac in rules["characteristics"]:
        candidates.append([Action("jet", _full_arg(rules, "jet", carac=carac, intention=side), 0)])
    best = max(rules["characteristics"], key=lambda c: sheet["characteristics"][c])
    for skill in sheet["skills"].values():
        if not skill["passive"]:
            candidates.append([Action("jet", _full_arg(rules, "jet", carac=skill["carac"] or best,
                                                       competence=skill["name"], intention=side), 0)])
    for faction in factions:
        candidates.append([Action("jet", _full_arg(rules, "jet", carac="mental", faction=faction), 0)])
    for item in sheet["items"].values():
        candidates.append([Action("utiliser", _full_arg(rules, "utiliser", objet=item["name"]), 0)])
    combat = state.get("combat")
    return [c for c in candidates
            if not checks.check_orders(rules, sheet, me, factions, combat, PlayerOrders(player, 0, c))]


def _full_arg(rules: dict, action_id: str, **values) -> dict:
    """An action's argument with every field, as the core's parsing gives it (defaults filled in)."""
    fields = rules["actions"][action_id]["arg"]["fields"]
    out = {}
    for name, spec in fields.items():
        spec = rules["arg_types"].get(spec, {}) if isinstance(spec, str) else spec
        out[name] = values.get(name, (spec or {}).get("default"))
    return out


def bot_view(rules: dict, sheets: dict) -> dict:
    """What the bot reads of each sheet, computed once per scenario: the skills
    a player may name, with what a simple check with each costs."""
    return {h: [(s, R.check_cost(rules, sheet, None, s["id"])) for s in sheet["skills"].values() if not s["passive"]]
            for h, sheet in sheets.items()}


def bot_orders(rules: dict, sheets: dict, view: dict, factions: dict, state: dict, player: str, me: dict,
               rng) -> list[Action]:
    """A quick legal policy: mostly one check (sometimes two) with a random
    characteristic, skill, faction, type and intention, respecting the stable
    state and the gauges; a healing item on a hurt character, a gauge item on an
    empty gauge; sometimes sleep or nothing. Never an order `check_orders` refuses."""
    bot = rules["simulation"]["bot"]
    sheet = sheets[player]
    roll = rng.random() * 100
    if roll < bot["sleep"]:
        has_force = sheet["gauges"]["force"] > 0
        return [Action("dormir", "force" if has_force and me["force"] < sheet["gauges"]["force"] else None, 0)]
    if roll < bot["sleep"] + bot["nothing"]:
        return [Action("rien", None, 0)]
    spent: dict[str, int] = {}
    item = _item_to_use(rules, sheets, state, player, me, rng)
    if item is not None:
        item_id, target = item
        used = sheet["items"][item_id]
        if used["check"]:
            cost = R.check_cost(rules, sheet, None, used["check"]["competence"])
            if not _affordable(cost, me, spent):
                return [Action("rien", None, 0)]
            _spend(cost, spent)
        side = R.stable_side(me["light"], rules)
        intent = side if side and _pct(rng, bot["intent"]) else None
        return [Action("utiliser", {"objet": used["name"], "cible": target, "intention": intent, "but": None}, 0)]
    actions = []
    for index in range(2 if _pct(rng, bot["second_check"]) else 1):
        arg = _check(rules, view[player], me, factions, spent, rng)
        if arg is not None:
            actions.append(Action("jet", arg, index))
    return actions or [Action("rien", None, 0)]


def _affordable(cost: dict, me: dict, spent: dict) -> bool:
    return all(spent.get(g, 0) + p <= me[g] for g, p in cost.items() if p)


def _spend(cost: dict, spent: dict) -> None:
    for g, p in cost.items():
        spent[g] = spent.get(g, 0) + p


def _item_to_use(rules, sheets, state, player, me, rng) -> tuple[str, str | None] | None:
    """(item id, target) for a healing item on the character missing the most of
    its effect (self or ally, down or not), or a gauge item on an empty gauge."""
    bot = rules["simulation"]["bot"]
    sheet = sheets[player]
    combat = state.get("combat")
    for item_id, item in sheet["items"].items():
        effect = item["effect"]
        if not effect or (combat and item["slot"] == "inventaire"):
            continue
        if item["uses"] is not None and me["uses"].get(item_id, item["uses"]) <= 0:
            continue
        heal = effect.get("pv", 0)
        if heal > 0:
            hurt = [(sheets[h]["gauges"]["pv"] - c["pv"], h) for h, c in state["characters"].items()
                    if h in sheets and sheets[h]["gauges"]["pv"] - c["pv"] >= heal]
            if hurt and _pct(rng, bot["heal"]):
                target = max(hurt)[1]
                return item_id, None if target == player else target
        elif any(effect.get(g, 0) > 0 and me[g] == 0 for g in rules["gauges"]) and _pct(rng, bot["stimulant"]):
            return item_id, None
    return None


def _check(rules, skills, me, factions, spent, rng) -> dict | None:
    bot = rules["simulation"]["bot"]
    skill, cost = None, {}
    if skills and _pct(rng, bot["skill"]):
        usable = [(s, c) for s, c in skills if _affordable(c, me, spent)]
        if usable:
            skill, cost = rng.choice(usable)
    check_type = None
    roll = rng.random() * 100
    if roll < bot["complex"] + bot["instinct"]:
        check_type = "complexe" if roll < bot["complex"] else "instinct"
        with_type = dict(cost)
        for g, p in (rules["check"]["types"].get(check_type) or {}).items():
            with_type[g] = with_type.get(g, 0) + p
        if _affordable(with_type, me, spent):
            cost = with_type
        else:
            check_type = None
    if not _affordable(cost, me, spent):
        return None
    _spend(cost, spent)
    faction = rng.choice(list(factions)) if factions and _pct(rng, bot["social"]) else None
    side = R.stable_side(me["light"], rules)
    intent = None
    if _pct(rng, bot["intent"]):
        intent = side or rng.choice((R.LIGHT, R.DARK))
    carac = (skill and skill["carac"]) or rng.choice(rules["characteristics"])
    return {"carac": carac, "competence": skill["name"] if skill else None,
            "modificateur": rng.choice(bot["modifiers"]), "intention": intent, "faction": faction,
            "type": check_type, "but": None}


# -- the simulated MJ ------------------------------------------------------------------------------

def simulated_gm(rules: dict, state: dict, scenario, dice) -> dict:
    """The MJ's orders of a simulated turn, as `checks.gm_orders` gives them
    (normalised): PV lost for last turn's failed checks, alignment events for
    oscillating characters, grave events for stable ones (`simulation.mj`)."""
    mj = rules["simulation"]["mj"]
    percent = R.dice_expr(mj["die"])
    tally = state.get("simulation") or {}
    chars = state["characters"]
    orders: dict[str, list] = {}

    def add(order_id: str, **values) -> None:
        orders.setdefault(order_id, []).append(_gm_entry(rules, order_id, values))

    for handle, outcome in tally.get("failed", ()):
        spec = mj["damage"].get(outcome)
        if not spec or chars[handle]["down"] or dice.roll("mj.simulation", percent).total > spec["chance"]:
            continue
        damage = dice.roll("mj.degats", R.dice_expr(spec["dice"])).total
        if damage > 0:
            add("jauge", joueur=handle, pv=-damage, raison=LABELS[outcome])
    for handle in scenario.roster:
        me = chars.get(handle)
        if me is None or me["down"] or me["light"] is None:
            continue
        side = R.stable_side(me["light"], rules)
        if side is None:
            if dice.roll("mj.simulation", percent).total <= mj["alignment_event"]:
                light = dice.roll("mj.simulation", percent).total <= mj["light_reaction"]
                add("alignement", joueur=handle, reaction=R.LIGHT if light else R.DARK)
        elif dice.roll("mj.simulation", percent).total <= mj["grave_event"]:
            add("evenement_grave", joueur=handle)
    return orders


def _gm_entry(rules: dict, order_id: str, values: dict) -> dict:
    """An MJ order entry with every field of its spec (defaults filled in)."""
    fields = rules["gm_orders"][order_id]["arg"]["of"]["fields"]
    out = dict(values)
    for name, spec in fields.items():
        if name not in out:
            spec = rules["arg_types"].get(spec, {}) if isinstance(spec, str) else spec
            out[name] = (spec or {}).get("default")
    return out


def record(rules: dict, turn, number: int) -> None:
    """A simulated turn's tally, in the state (lean: counts and a few turns).
    `turn`: the resolve.Turn just played (its checks, PV losses, who was down)."""
    state = turn.state
    tally = state.setdefault("simulation", {"turn": 0, "outcomes": {}, "failed": [], "zero": {}, "ruptures": 0,
                                            "causes": {}})
    tally["turn"] = number
    outcomes = tally["outcomes"]
    failed = []
    for handle, origin, result in turn.results:
        outcomes[result] = outcomes.get(result, 0) + 1
        if origin != "gm" and result in ("failure", "critical_failure"):
            failed.append([handle, result])
    tally["failed"] = failed
    for handle in turn.handles:
        me, maxima = state["characters"][handle], turn.sheets[handle]["gauges"]
        zero = tally["zero"].setdefault(handle, {})
        for gauge in rules["gauges"]:
            if maxima[gauge] > 0 and me[gauge] <= 0 and gauge not in zero:
                zero[gauge] = number
        before = turn.light_start.get(handle)
        if R.stable_side(before, rules) is not None and R.stable_side(me["light"], rules) is None:
            tally["ruptures"] += 1
        if me["down"] and not turn.down_before.get(handle):
            tally["causes"][handle] = turn.pv_cause.get(handle) or UNKNOWN_CAUSE
        elif not me["down"]:
            tally["causes"].pop(handle, None)


def is_over(rules: dict, state: dict) -> bool:
    """A simulated game ends after `simulation.turns` turns."""
    tally = state.get("simulation")
    limit = rules["simulation"].get("turns")
    return bool(tally) and limit is not None and tally["turn"] >= limit


def game_summary(rules: dict, state: dict, sheets: dict, factions: dict) -> dict:
    tally = state.get("simulation") or {"turn": 0, "outcomes": {}, "zero": {}, "ruptures": 0, "causes": {}}
    chars = state["characters"]
    outcomes = [LABELS[o] for o in R.OUTCOMES for _ in range(tally["outcomes"].get(o, 0))]
    deaths: dict[str, int] = {}
    for handle, me in chars.items():
        if me["down"]:
            cause = tally["causes"].get(handle, UNKNOWN_CAUSE)
            deaths[cause] = deaths.get(cause, 0) + 1
    figures: dict[str, list] = {"confiance_finale": [me["trust"].get(f, 0) for me in chars.values() for f in factions]}
    for f in factions:
        figures[f"confiance_{f}"] = [me["trust"].get(f, 0) for me in chars.values()]
    for gauge in rules["gauges"]:
        figures[f"tour_{gauge}_a_0"] = [z[gauge] for z in tally["zero"].values() if gauge in z]
    figures["ruptures"] = [tally["ruptures"]]
    figures["points_clairs_finaux"] = [me["light"] for me in chars.values() if me["light"] is not None]
    figures["personnages_a_terre"] = [sum(me["down"] for me in chars.values())]
    return {"turns": tally["turn"], "outcomes": outcomes, "deaths": deaths, "figures": figures,
            "main": "confiance_finale"}


# -- exact odds --------------------------------------------------------------------------------------

def check_chance(rules: dict, params: dict) -> int:
    """The chance of a check without a situational die (README "The check")."""
    group = [params["confiance"]] * rules["trust"]["group_min_characters"] if params["groupe"] else []
    effective, _ = R.effective_trust(params["confiance"], group, rules)
    stable = rules["alignment"]["stable_bonus"] if params["stable"] else 0
    return (params["carac"] + R.skill_points(params["niveau"], rules) + params["modificateur"]
            + R.trust_bonus(effective, rules) + stable)


def check_odds(rules: dict, params: dict) -> dict[str, Fraction]:
    """P(each outcome) of a check, exactly: the d100 (data `check.dice`), and the
    situational die spread over -plage..+plage points when `plage` > 0."""
    base = check_chance(rules, params)
    shifts = {0: Fraction(1)}
    if params.get("plage"):
        shifts = {}
        for total, p in distribution(params["de"]).items():
            points = R.situation_modifier(total, params["de"], params["plage"])
            shifts[points] = shifts.get(points, Fraction(0)) + p
    faces = distribution(rules["check"]["dice"])
    out = {o: Fraction(0) for o in R.OUTCOMES}
    for points, p_shift in shifts.items():
        chance = base + R.skill_points(points, rules)
        for face, p_face in faces.items():
            out[R.outcome(face, chance, rules)] += p_shift * p_face
    return out


def rupture_odds(params: dict) -> Fraction:
    """P(the MJ's die <= the player's reference): the stable state breaks."""
    player_wins, tie, _ = versus(params["joueur"], params["mj"])
    return player_wins + tie


def alignment_odds(params: dict) -> Fraction:
    """P(the player's d20 <= the MJ's): the reaction is accepted."""
    gm_wins, tie, _ = versus(params["mj"], params["joueur"])
    return gm_wins + tie


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def calculators(rules: dict) -> dict[str, Calculator]:
    c, a = rules["check"], rules["alignment"]

    def jet(params) -> Table:
        odds = check_odds(rules, params)
        chance = check_chance(rules, params)
        parts = [f"caractéristique {params['carac']}", f"compétence {_signed(params['niveau'])} "
                 f"({_signed(R.skill_points(params['niveau'], rules))} %)"]
        if params["modificateur"]:
            parts.append(f"modificateur {_signed(params['modificateur'])} %")
        if params["confiance"]:
            parts.append(f"confiance {_signed(params['confiance'])}" + (" (groupe : doublée)" if params["groupe"]
                                                                       else ""))
        if params["stable"]:
            parts.append(f"état stable {_signed(a['stable_bonus'])} %")
        if params["plage"]:
            parts.append(f"dé de situation {params['de']} (±{params['plage']} points)")
        success = odds["critical_success"] + odds["success"]
        cs, cf = c["critical_success"], c["critical_failure"]
        title = f"Jet de {c['dice']} : " + ", ".join(parts) + f" → chance {chance} %"
        if params["plage"]:
            title += " avant le dé de situation"
        return Table(title, ["", "probabilité"], [
            [LABELS["critical_success"], pct(odds["critical_success"])], [LABELS["success"], pct(odds["success"])],
            [LABELS["failure"], pct(odds["failure"])], [LABELS["critical_failure"], pct(odds["critical_failure"])],
            ["réussite (critique comprise)", pct(success)], ["échec (critique compris)", pct(1 - success)]],
            [f"{cs['min']}–{cs['max']} : réussite critique, {cf['min']}–{cf['max']} : échec critique, quelle que "
             "soit la chance."])

    def rupture(params) -> Table:
        broken = rupture_odds(params)
        return Table(f"Rupture de l'état stable : le joueur lance {params['joueur']}, le MJ {params['mj']}",
                     ["", "probabilité"], [
                         [f"état stable rompu ({params['mj']} ≤ {params['joueur']})", pct(broken)],
                         [f"état stable maintenu ({params['mj']} > {params['joueur']})", pct(1 - broken)]],
                     [f"Rompu, l'alignement perd {a['rupture']['shift']} point de son côté."])

    def alignement(params) -> Table:
        accepted = alignment_odds(params)
        return Table(f"Évènement d'alignement : le MJ lance {params['mj']}, puis le joueur {params['joueur']}",
                     ["", "probabilité"], [
                         ["réaction acceptée (joueur ≤ MJ)", pct(accepted)],
                         ["réaction inversée (joueur > MJ)", pct(1 - accepted)]],
                     ["Hors live ; un état stable ne se rompt pas ainsi."])

    return {
        "jet": Calculator("un jet de d100 (réussite critique, réussite, échec, échec critique)", {
            "carac": Param(50, "caractéristique (physique, logique ou mental)"),
            "niveau": Param(0, f"niveau de compétence ({rules['skills']['level_min']} à "
                               f"{rules['skills']['level_max']}, {c['points_per_skill_level']} % par point)"),
            "modificateur": Param(0, "modificateur de situation du MJ, en %"),
            "confiance": Param(0, f"confiance envers la faction ({rules['trust']['min']} à {rules['trust']['max']})"),
            "groupe": Param(0, "1 : tout le groupe a une confiance du même signe (doublée)"),
            "stable": Param(0, f"1 : état stable et intention conforme (+{a['stable_bonus']} %)"),
            "de": Param(rules["simulation"]["skills"]["situation_die"]["de"],
                        "dé de situation (compétence « notée avec un dé »)", "dice"),
            "plage": Param(0, "plage du dé de situation en points (0 : pas de dé)"),
        }, jet),
        "rupture": Calculator("rupture de l'état stable (évènement personnel grave)", {
            "joueur": Param(a["rupture"]["player_dice"], "dés du joueur (score de référence)", "dice"),
            "mj": Param(a["rupture"]["gm_die"], "dé du MJ", "dice"),
        }, rupture),
        "alignement": Calculator("évènement d'alignement (réaction acceptée ou inversée)", {
            "mj": Param(a["event"]["gm_die"], "dé du MJ", "dice"),
            "joueur": Param(a["event"]["player_die"], "dé du joueur", "dice"),
        }, alignement),
    }
