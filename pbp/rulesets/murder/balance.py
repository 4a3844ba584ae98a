"""Balance tools of the murder ruleset: a synthetic lab for `pbp simulate murder`,
the summary of a finished game, and exact odds for `pbp odds` (traps, pleas,
moves, ghost warnings). No I/O."""

from __future__ import annotations

from fractions import Fraction

from pbp.odds import Calculator, Param, Table, distribution, pct
from pbp.ruleset import Scenario

#: the synthetic board: a hall, a corridor, and rooms around them
_ROOMS = ["hall", "couloir", "cafeteria", "bibliotheque", "labo_chimie", "labo_bio", "animalerie",
          "chambre_froide", "serre", "archives", "direction", "serveurs", "vestiaires", "conference"]


def sample_scenario(rules: dict, players: int, rng) -> Scenario:
    """A lab with enough rooms for everyone, random passage lengths (2-8 squares)
    and random sheets in both lots."""
    count = max(len(_ROOMS), players + 2)
    rooms = _ROOMS + [f"salle_{i}" for i in range(len(_ROOMS), count)]
    passages = [[rooms[i - 1] if i < 3 else rooms[rng.randrange(1, i)], rooms[i], rng.randint(2, 8)]
                for i in range(1, count)]
    for _ in range(count // 2):  # a few loops
        a, b = rng.sample(rooms, 2)
        passages.append([a, b, rng.randint(3, 9)])
    world = {"hall": "hall", "rooms": {r: {"name": r.replace("_", " ").capitalize()} for r in rooms},
             "passages": passages}
    low, high = rules["scores"]["min"], rules["scores"]["max"]

    def sheet(n, **extra):
        return {"story": f"Histoire {n}", "job": f"Métier {n}", "seniority": f"{n} ans", **extra}

    innocents = {n: sheet(f"T{n}", resilience=rng.randint(low, high), defence=rng.randint(low, high),
                          alibi=f"Alibi {n}") for n in range(1, 19)}
    comp = rules["composition"]
    murderers = max(comp["murderers"], min(4, 9 - comp["investigators"]))
    roles = ["murderer"] * murderers + ["investigator"] * max(9 - murderers, comp["investigators"])
    second = {}
    for n, role in enumerate(roles, start=1):
        scores = ({"mensonge": rng.randint(low, high), "defence": rng.randint(low, high)} if role == "murderer"
                  else {"survival": rng.randint(low, high)})
        second[n] = sheet(f"E{n}", role=role, **scores)
    lots = {rules["lots"]["innocents"]["key"]: innocents, rules["lots"]["second"]["key"]: second}
    return Scenario(world, lots, {f"p{i}": {"character": f"Joueur {i}"} for i in range(1, players + 1)})


def game_summary(state: dict) -> dict:
    players = state["players"].values()
    deaths: dict[str, int] = {}
    for p in players:
        if p["status"] == "dead":
            cause = {"trap": "piège", "executed": "exécution"}.get(p["died"]["cause"], p["died"]["cause"])
            deaths[cause] = deaths.get(cause, 0) + 1
    winner = state.get("winner") or "unfinished"
    return {
        "turns": state["turn"],
        "outcomes": [{"investigators": "victoire des enquêteurs", "murderers": "victoire des meurtriers"}.get(
            winner, "partie non terminée")],
        "deaths": deaths,
        "figures": {
            "tour_de_fin": [state["turn"]],
            "innocents_survivants": [sum(1 for p in players if p["role"] == "innocent" and p["status"] != "dead")],
            "meurtriers_executes": [sum(1 for p in players if p["role"] == "murderer"
                                        and (p["died"] or {}).get("cause") == "executed")],
        },
        "main": "tour_de_fin",
    }


def _p_at_least(expr: str, target: int) -> Fraction:
    return sum((q for v, q in distribution(expr).items() if v >= target), Fraction(0))


def calculators(rules: dict) -> dict[str, Calculator]:
    low, high = rules["scores"]["min"], rules["scores"]["max"]

    def trap(params) -> Table:
        rows = [[str(s), pct(_p_at_least(params["dice"], s)), pct(1 - _p_at_least(params["dice"], s))]
                for s in range(low, high + 1)]
        return Table(f"Piège : {params['dice']} ≥ score (survie ou défense)", ["score", "survit", "meurt"], rows)

    def prison(params) -> Table:
        turns = params["turns"]
        rows = []
        for s in range(low, high + 1):
            ok = _p_at_least(params["dice"], s)
            rows.append([str(s), pct(ok), pct(1 - (1 - ok) ** turns), pct((1 - ok) ** turns)])
        return Table(f"Prison : {params['dice']} ≥ score à chaque tour, exécution après {turns} échecs",
                     ["score", "libéré au 1er tour", f"libéré en {turns} tours", "exécuté"], rows)

    def move(params) -> Table:
        rows = [[str(d), pct(_p_at_least(params["investigator"], d)), pct(_p_at_least(params["witness"], d))]
                for d in range(1, 17)]
        return Table("Déplacement : atteindre une pièce à d cases", ["cases", f"enquêteur {params['investigator']}",
                                                                     f"témoin {params['witness']}"], rows)

    def warning(params) -> Table:
        rows = [[str(d), pct(_p_at_least(params["dice"], d))] for d in range(2, 26, 2)]
        return Table(f"Avertissement d'un fantôme : {params['dice']} ≥ distance", ["cases", "averti"], rows)

    return {
        "piege": Calculator("survivre à un piège, selon le score", {
            "dice": Param(rules["trap_dice"], "dé du jet de survie", "dice")}, trap),
        "prison": Calculator("sortir de prison ou être exécuté, selon le score", {
            "dice": Param(rules["prison"]["dice"], "dé de plaidoirie", "dice"),
            "turns": Param(rules["prison"]["turns"], "plaidoiries avant l'exécution")}, prison),
        "deplacement": Calculator("atteindre une pièce en un tour", {
            "investigator": Param(rules["movement"]["investigator"], "dés des enquêteurs", "dice"),
            "witness": Param(rules["movement"]["witness"], "dés des témoins", "dice")}, move),
        "avertissement": Calculator("la portée d'un avertissement de fantôme", {
            "dice": Param(rules["ghosts"]["warning_range"], "dés de portée", "dice")}, warning),
    }
