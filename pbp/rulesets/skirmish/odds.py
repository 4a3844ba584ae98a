"""Exact odds for `pbp odds --rule skirmish.<name>`: an attack (`touche`, `tir`,
`bagarre`), a hit's damage (`degats`) and a counter-magic (`contre`), as exact
fractions (dyce for the dice), in the forum's words.

The calculators build their attacker and defender with the sheet reader
(sheets.unit) and call the rules' own chance functions (`attack_chance_of`,
`dodge_chance_of`, `magic_chance_of`, `counter_chance_of`, `reduction`,
`damage_terms`), so a campaign's `rules:` reach them and the odds cannot drift
from what a turn does. A module of its own: it serves its own command, and its
tests compare it with brute force and with the real resolver. No I/O.
"""

from __future__ import annotations

import math
from fractions import Fraction

from pbp.balance.odds import Calculator, Param, Table, distribution, pct

from . import rules as R, sheets

#: what the calculators call an attack action, in the forum's words
ACTION_NAMES = {"melee": "Mêlée", "tir": "Tir", "bagarre": "Bagarre"}
#: calculator name of an attack action (the others keep their id)
CALCULATOR_OF = {"melee": "touche"}
#: default numbers: Aria (épée) against Dag, Bran's bow, as in the example campaign
SKILL_DEFAULTS = {"bagarre": 30, "melee": 45, "distance": 40}
SKILL_NAMES = {"melee": "mêlée"}
PART_NAMES = {"mastery": "maîtrise", "faction": "faction", "hindrance": "gêne", "range": "distance",
              "effects": "effets", "armour": "armure", "legendary_armour": "armure légendaire",
              "natural_armour": "armure naturelle",
              "luck": "chance", "difficulty": "difficulté", "spell_bonus": "bonus du sort"}


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def describe_chance(chance: dict) -> str:
    """`mêlée 45 + maîtrise 10 + FOR +6 = 61 (plafond 95)`."""
    out = []
    for i, p in enumerate(chance["parts"]):
        if p["key"] == "skill":
            label = f"{SKILL_NAMES.get(p['skill'], p['skill'])} {p['value']}"
        elif p["key"] == "characteristic":
            label = f"{p['stat']} {_signed(p['value'])}"
        else:
            label = f"{PART_NAMES.get(p['key'], p['key'])} {_signed(p['value'])}"
        out.append(label if i == 0 else f"+ {label}")
    total = f"= {chance['raw']}"
    if chance["raw"] != chance["chance"]:
        total += f" → {chance['chance']}"
    return f"{' '.join(out)} {total} (plafond {chance['cap']})"


def _faction(rules: dict, allies: int) -> dict:
    allies = max(0, allies)
    return {"key": "faction", "value": R.faction_bonus(rules, allies),
            "allies": [f"allié {i + 1}" for i in range(allies)]}


def _p_roll(rules: dict, chance: int, below: int | None = None) -> Fraction:
    """P(the check die succeeds against `chance` [with a roll < below])."""
    return sum((p for v, p in distribution(rules["check"]["dice"]).items()
                if R.succeeds(v, chance) and (below is None or v < below)), Fraction(0))


def _unit(rules: dict, sheet: dict) -> dict:
    """A character built from bare numbers by the rules' own sheet reader."""
    sheet = dict(sheet, position=[0, 0], pv=max(1, sheet.get("pv", 1)))
    return sheets.unit(rules, "calcul", sheet, R.CHARACTER, set())


def _effects(**values) -> list[dict]:
    return [{"nom": stat, "stat": stat, "valeur": v} for stat, v in values.items() if v]


def attacker_unit(rules: dict, spec: dict, params: dict) -> tuple[dict, str | None]:
    """The attacking character of an attack calculator, and its weapon id."""
    skill = spec["skill"]
    sheet = {"TAI": params.get("TAI", 10), "FOR": params.get("FOR", 10), "DEX": params.get("DEX", 10),
             "competences": {skill: params["competence"]},
             "effets": _effects(attaque=params.get("attaque_bonus", 0), degats=params.get("degats_bonus", 0))}
    weapon = None
    if spec.get("weapon_type"):
        weapon = "arme"
        sheet["equipement"] = {"armes": {weapon: {"nom": "arme", "type": spec["weapon_type"],
                                                  "degats": params["arme"]}}}
        sheet["maitrises"] = {weapon: params.get("maitrise", 0)}
    return _unit(rules, sheet), weapon


def defender_unit(rules: dict, params: dict) -> dict:
    return _unit(rules, {"DEF": params["DEF"], "chance": params.get("chance", 0), "pv": params.get("pv", 1),
                      "competences": {rules["dodge"]["skill"]: params["esquive"]},
                      "equipement": {"armure": params.get("armure", 0)},
                      "effets": _effects(esquive=params.get("esquive_bonus", 0),
                                         reduction=params.get("reduction_bonus", 0))})


def damage_distribution(rules: dict, attacker: dict, spec: dict, weapon, perfect: bool, reduction: int):
    """The dice rolled for a hit (rules.damage_terms) and the exact distribution of
    the damage after reduction."""
    expr = R.combine(*(t["dice"] for t in R.damage_terms(rules, attacker, spec, weapon, perfect)))
    out: dict[int, Fraction] = {}
    for value, p in distribution(str(expr)).items():
        final = R.final_damage(rules, value, reduction)
        out[final] = out.get(final, Fraction(0)) + p
    return str(expr), dict(sorted(out.items()))


def _mean(dist: dict) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def _at_least(dist: dict, n: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= n), Fraction(0))


def attack_odds(rules: dict, action_id: str, params: dict) -> dict:
    """Exact odds of one attack: the chances (parts), P(perfect), P(hit),
    P(dodged), P(hit and not dodged) (of which perfect), the damage of a hit that
    lands and the chance that it downs a target of `pv` PV."""
    spec = rules["actions"][action_id]
    attacker, weapon = attacker_unit(rules, spec, params)
    defender = defender_unit(rules, params)
    gene = max(0, params.get("gene", 0))
    d = math.hypot(params.get("dx", 1), params.get("dy", 0))
    chance = R.attack_chance_of(rules, attacker, spec, weapon,
                                faction=lambda: _faction(rules, params.get("allies", 0)),
                                 hindrance=lambda: [{"nom": "gêne", "value": gene}] if gene else [],
                                 distance=lambda: d)
    dodge = R.dodge_chance_of(rules, defender, faction=lambda: _faction(rules, params.get("allies_cible", 0)))
    perfect_rules = rules["perfect"]
    p_hit = _p_roll(rules, chance["chance"])
    p_perfect = _p_roll(rules, chance["chance"], perfect_rules["below"])
    q = _p_roll(rules, dodge["chance"]) if R.can_dodge(rules, defender) else Fraction(0)
    q_perfect = q if perfect_rules["dodgeable"] else Fraction(0)
    p_dodged = (p_hit - p_perfect) * q + p_perfect * q_perfect
    landed_perfect = p_perfect * (1 - q_perfect)
    landed = p_hit - p_dodged
    reduction = R.reduction(rules, defender)["value"]
    expr, normal = damage_distribution(rules, attacker, spec, weapon, False, reduction)
    expr_perfect, perfect = damage_distribution(rules, attacker, spec, weapon, True, reduction)
    landed_normal = landed - landed_perfect
    pv = params.get("pv", 1)
    return {
        "chance": chance, "dodge": dodge, "distance": d, "reduction": reduction,
        "perfect": p_perfect, "hit": p_hit, "dodged": p_dodged, "landed": landed, "landed_perfect": landed_perfect,
        "damage_expr": expr, "damage_expr_perfect": expr_perfect, "damage": normal, "damage_perfect": perfect,
        "mean_landed": ((landed_normal * _mean(normal) + landed_perfect * _mean(perfect)) / landed
                        if landed else Fraction(0)),
        "mean_attack": landed_normal * _mean(normal) + landed_perfect * _mean(perfect),
        "downs": landed_normal * _at_least(normal, pv) + landed_perfect * _at_least(perfect, pv),
    }


def counter_odds(rules: dict, params: dict) -> dict:
    """Exact odds of a damage spell against a character who may counter it."""
    m = rules["magic"]
    caster = _unit(rules, {"INT": params["INT"], "DEX": params["DEX"], "competences": {m["skill"]: params["magie"]},
                        "effets": _effects(magie=params.get("magie_bonus", 0))})
    target = _unit(rules, {"INT": params["cible_INT"],
                        "competences": {rules["counter_magic"]["skill"]: params["cible_magie"]}})
    cast = R.magic_chance_of(rules, caster, {}, faction=lambda: _faction(rules, params.get("allies", 0)))
    counter = R.counter_chance_of(rules, target, faction=lambda: _faction(rules, params.get("allies_cible", 0)))
    can = R.can_counter(rules, target)
    p_cast = _p_roll(rules, cast["chance"])
    p_counter = _p_roll(rules, counter["chance"]) if can else Fraction(0)
    p_reflect = _p_roll(rules, counter["chance"], rules["counter_magic"]["perfect_below"]) if can else Fraction(0)
    return {"cast": cast, "counter": counter, "can_counter": can, "p_cast": p_cast, "p_counter": p_counter,
            "p_reflect": p_reflect, "lands": p_cast * (1 - p_counter), "countered": p_cast * p_counter,
            "reflected": p_cast * p_reflect}


def _number(x: Fraction) -> str:
    return f"{float(x):.2f}"


def calculators(rules: dict) -> dict[str, Calculator]:
    out: dict[str, Calculator] = {}
    for aid, spec in rules["actions"].items():
        if spec.get("kind") == "attack":
            out[CALCULATOR_OF.get(aid, aid)] = _attack_calculator(rules, aid, spec)
    out["degats"] = _damage_calculator(rules)
    out["contre"] = _counter_calculator(rules)
    return out


def _attack_calculator(rules: dict, aid: str, spec: dict) -> Calculator:
    name = ACTION_NAMES.get(aid, aid.replace("_", " ").capitalize())
    skill = spec["skill"]
    params = {"competence": Param(SKILL_DEFAULTS.get(skill, 40),
                                  f"compétence {SKILL_NAMES.get(skill, skill)} de l'attaquant")}
    if spec.get("mastery"):
        params["maitrise"] = Param(10, "maîtrise de l'arme")
    stats = list(dict.fromkeys(([spec["characteristic"]] if spec.get("characteristic") else [])
                               + list(spec.get("damage_base") or [])))
    for stat in stats:
        params[stat] = Param({"FOR": 16, "DEX": 16, "TAI": 12}.get(stat, 10), f"{stat} de l'attaquant")
    if spec.get("weapon_type"):
        params["arme"] = Param("1d8", "dés de dégâts de l'arme", "dice")
    if spec.get("faction"):
        params["allies"] = Param(0, "alliés de faction présents autour de l'attaquant")
    if spec.get("hindrance"):
        params["gene"] = Param(0, "gêne des autres personnages du joueur (5 à 1 case, 4 à 2... 1 à 5)")
    if spec.get("range_malus"):
        params["dx"] = Param(3, "écart en colonnes jusqu'à la cible")
        params["dy"] = Param(0, "écart en lignes jusqu'à la cible")
    params.update({
        "attaque_bonus": Param(0, "effets sur l'attaque (bénédiction : 10)"),
        "degats_bonus": Param(0, "effets sur les dégâts"),
        "esquive": Param(25, "compétence esquive du défenseur"),
        "DEF": Param(16, "DEF du défenseur"),
        "chance": Param(8, "chance du défenseur"),
        "allies_cible": Param(1, "alliés de faction présents autour du défenseur"),
        "esquive_bonus": Param(0, "effets sur l'esquive du défenseur (malédiction : -15)"),
        "armure": Param(2, "réduction des armures du défenseur"),
        "reduction_bonus": Param(0, "effets sur la réduction (peau de pierre : 2)"),
        "pv": Param(28, "PV du défenseur"),
    })

    def compute(p) -> Table:
        o = attack_odds(rules, aid, p)
        rows = [["chance d'attaque", f"{o['chance']['chance']} %"], ["chance d'esquive", f"{o['dodge']['chance']} %"],
                [f"attaque parfaite (jet de 1 à {rules['perfect']['below'] - 1})", pct(o["perfect"])],
                ["touche (jet ≤ chance)", pct(o["hit"])], ["touche esquivée", pct(o["dodged"])],
                ["touche non esquivée", pct(o["landed"])], ["… dont parfaite", pct(o["landed_perfect"])],
                ["dégâts moyens d'une touche non esquivée", _number(o["mean_landed"])],
                ["dégâts moyens par attaque", _number(o["mean_attack"])],
                [f"défenseur hors de combat en une attaque ({p['pv']} PV)", pct(o["downs"])]]
        title = f"{name} : chance d'attaque {o['chance']['chance']} % contre esquive {o['dodge']['chance']} %"
        notes = [f"Attaque : {describe_chance(o['chance'])}.", f"Esquive : {describe_chance(o['dodge'])}.",
                 f"Dégâts : {o['damage_expr']} − réduction {o['reduction']} "
                 f"(parfaite : {o['damage_expr_perfect']}), jamais sous {rules['reduction']['min_damage']}."]
        if spec.get("range_malus"):
            notes.insert(0, f"Distance {o['distance']:.2f} cases.")
            if spec.get("max_distance") and o["distance"] > spec["max_distance"]:
                notes.insert(1, f"Hors de portée ({spec['max_distance']} cases au plus) : ce tir serait refusé.")
        if not rules["perfect"]["dodgeable"]:
            notes.append("Une attaque parfaite ne s'esquive pas.")
        return Table(title, ["", "valeur"], rows, notes)

    return Calculator(f"{name.lower()} : toucher, être esquivé, dégâts (une attaque)", params, compute)


def _damage_calculator(rules: dict) -> Calculator:
    spec = rules["actions"].get("melee") or next(s for s in rules["actions"].values() if s.get("kind") == "attack")
    params = {
        "arme": Param("1d8", "dés de dégâts de l'arme (mains nues : 1d3)", "dice"),
        "TAI": Param(12, "TAI de l'attaquant"),
        "FOR": Param(16, "FOR de l'attaquant (sa DEX pour un tir)"),
        "degats_bonus": Param(0, "effets sur les dégâts"),
        "DEF": Param(16, "DEF du défenseur"),
        "armure": Param(2, "réduction des armures du défenseur"),
        "reduction_bonus": Param(0, "effets sur la réduction (peau de pierre : 2)"),
    }

    def compute(p) -> Table:
        melee = dict(spec, weapon_type=spec.get("weapon_type") or "melee")
        attacker, weapon = attacker_unit(rules, melee, dict(p, competence=0, DEX=p["FOR"]))
        defender = defender_unit(rules, dict(p, esquive=0))
        reduction = R.reduction(rules, defender)["value"]
        expr, normal = damage_distribution(rules, attacker, melee, weapon, False, reduction)
        expr_perfect, perfect = damage_distribution(rules, attacker, melee, weapon, True, reduction)
        rows = [[str(k), pct(normal.get(k, 0)), pct(perfect.get(k, 0)), pct(_at_least(normal, k)),
                 pct(_at_least(perfect, k))] for k in range(min(normal), max(perfect) + 1)]
        parts = " + ".join(f"{PART_NAMES.get(x['key'], x['key'])} {x['value']}"
                           for x in R.reduction(rules, defender)["parts"])
        return Table(f"Dégâts d'une touche : {expr} − réduction {reduction}",
                     ["dégâts", "touche", "parfaite", "au moins (touche)", "au moins (parfaite)"], rows,
                     [f"Moyenne : {_number(_mean(normal))} (parfaite, {expr_perfect} : {_number(_mean(perfect))}).",
                      f"Réduction : {parts} = {reduction}."])

    return Calculator("les dégâts d'une touche après réduction", params, compute)


def _counter_calculator(rules: dict) -> Calculator:
    cm = rules["counter_magic"]
    params = {
        "magie": Param(45, "compétence magie du lanceur"), "INT": Param(17, "INT du lanceur"),
        "DEX": Param(13, "DEX du lanceur"), "allies": Param(0, "alliés de faction autour du lanceur"),
        "magie_bonus": Param(0, "effets sur la magie du lanceur (anneaux...)"),
        "cible_magie": Param(50, "compétence magie de la cible"), "cible_INT": Param(16, "INT de la cible"),
        "allies_cible": Param(0, "alliés de faction autour de la cible"),
    }

    def compute(p) -> Table:
        o = counter_odds(rules, p)
        rows = [["chance de réussir le sort", f"{o['cast']['chance']} %"],
                ["chance de contre", f"{o['counter']['chance']} %" if o["can_counter"] else "pas de contre"],
                ["sort réussi", pct(o["p_cast"])],
                ["contré, si le sort réussit", pct(o["p_counter"])],
                [f"contre parfait (jet de 1 à {cm['perfect_below'] - 1}) : renvoyé, si le sort réussit",
                 pct(o["p_reflect"])],
                ["en tout : le sort porte", pct(o["lands"])],
                ["en tout : le sort est contré", pct(o["countered"])],
                ["en tout : le sort est renvoyé sur le lanceur", pct(o["reflected"])]]
        notes = [f"Sort : {describe_chance(o['cast'])}.", f"Contre : {describe_chance(o['counter'])}."]
        if not o["can_counter"]:
            notes.append("Sans compétence magie, la cible ne contre pas.")
        lost = [f"{(s.get('name') or {}).get('fr', sid)} ({s['cost']} PA) : {R.counter_ap_loss(rules, s, math.inf)}"
                for sid, s in rules["spells"].items() if s["type"] == "degats"]
        notes.append("PA perdus par la cible qui contre : " + ", ".join(lost) + " (au plus ce qui lui reste).")
        return Table(f"Contre-magie : sort à {o['cast']['chance']} %, contre à {o['counter']['chance']} %",
                     ["", "valeur"], rows, notes)

    return Calculator("la contre-magie d'un sort de dégâts (contré, renvoyé)", params, compute)
