"""Balance tools of the murder ruleset: the bots' legal orders, a synthetic lab
for `pbp simulate murder`, the summary of a finished game, and exact odds for
`pbp odds` (traps, pleas, moves, ghost warnings). No I/O."""

from __future__ import annotations

from fractions import Fraction

from pbp.balance.odds import Calculator, Param, Table, distribution, pct
from pbp.model.dice import parse as parse_dice
from pbp.model.orders import Action
from pbp.model.ruleset import Scenario
from pbp.rulesets.murder.board import board_of
from pbp.rulesets.murder.rules import (DEAD, INNOCENT, INVESTIGATOR, MURDERER, PRISON, accusation_day,
                                       destinations, living, occupants, suspects)


# -- bots ------------------------------------------------------------------------------------

def legal_orders(rules: dict, state: dict, scenario, player: str) -> list[list[Action]]:
    """Every legal set of actions of a player this turn (each passes check_orders):
    a ghost's every haunting or possession, a living player's every move (or
    `rester`, when they may stay) with at most one trap, interrogation or accusation."""
    p = state["players"].get(player)
    if p is None or state.get("over") or p["status"] == PRISON:
        return [[]]
    board = board_of(scenario)
    players = state["players"]

    def build(*pairs):
        return [Action(a, arg, i) for i, (a, arg) in enumerate(pairs)]

    if p["status"] == DEAD:
        out = [[]]
        if p["role"] == INNOCENT:
            others = living(state, exclude=player)
            for room in board.order:
                out.append(build(("hanter", {"salle": room, "avertir": None})))
                for h in others:
                    out.append(build(("hanter", {"salle": room, "avertir": h})))
        elif p["role"] == MURDERER:
            for h in living(state, INNOCENT):
                for room in board.order:
                    if room != players[h]["room"]:
                        out.append(build(("posseder", {"cible": h, "salle": room})))
        return out
    moves = [None] if p["turns_here"] < rules["max_stay"] else []
    moves += destinations(rules, state, board, player)
    here = occupants(state, p["room"], player)
    extras: list[tuple | None] = [None]
    if p["role"] == MURDERER and not here and p["room"] not in state["traps"]:
        extras.append(("pieger", None))
    if p["role"] == INVESTIGATOR:
        extras += [("interroger", h) for h in here if players[h]["role"] != INVESTIGATOR]
        if accusation_day(rules, state["turn"] + 1):
            extras += [("accuser", h) for h in suspects(state)]
    out = []
    for extra in extras:
        for move in moves:
            pairs = ([extra] if extra else []) + ([("deplacer", move)] if move else [("rester", None)])
            out.append(build(*pairs))
    return out


# -- pbp simulate ------------------------------------------------------------------------------

def sample_scenario(rules: dict, players: int, rng) -> Scenario:
    """A lab with enough rooms for everyone (`simulation`), random passage lengths
    and random sheets in both lots."""
    sim = rules["simulation"]
    count = max(len(sim["rooms"]), players + sim["spare_rooms"])
    rooms = list(sim["rooms"]) + [f"salle_{i}" for i in range(len(sim["rooms"]), count)]
    # a tree: the hall leads to the second room, which leads to the third; every
    # other room hangs off a room before it (never the hall); then the loops
    passages = [[rooms[i - 1] if i < 3 else rooms[rng.randrange(1, i)], rooms[i], rng.randint(*sim["passage_length"])]
                for i in range(1, count)]
    for _ in range(count // sim["rooms_per_loop"]):
        a, b = rng.sample(rooms, 2)
        passages.append([a, b, rng.randint(*sim["loop_length"])])
    world = {"hall": rooms[0], "rooms": {r: {"name": r.replace("_", " ").capitalize()} for r in rooms},
             "passages": passages}
    low, high = rules["scores"]["min"], rules["scores"]["max"]
    size = {name: parse_dice(conf["dice"]).maximum for name, conf in rules["lots"].items()}

    def sheet(n, **extra):
        return {"story": f"Histoire {n}", "job": f"Métier {n}", "seniority": f"{n} ans", **extra}

    innocents = {n: sheet(f"T{n}", resilience=rng.randint(low, high), defence=rng.randint(low, high),
                          alibi=f"Alibi {n}") for n in range(1, size["innocents"] + 1)}
    comp = rules["composition"]
    murderers = max(comp["murderers"], min(sim["max_murderers"], size["second"] - comp["investigators"]))
    roles = [MURDERER] * murderers + [INVESTIGATOR] * max(size["second"] - murderers, comp["investigators"])
    second = {}
    for n, role in enumerate(roles, start=1):
        scores = ({"lying": rng.randint(low, high), "defence": rng.randint(low, high)} if role == MURDERER
                  else {"survival": rng.randint(low, high)})
        second[n] = sheet(f"E{n}", role=role, **scores)
    lots = {rules["lots"]["innocents"]["key"]: innocents, rules["lots"]["second"]["key"]: second}
    return Scenario(world, lots, {f"p{i}": {"character": f"Joueur {i}"} for i in range(1, players + 1)})


def game_summary(state: dict) -> dict:
    """The winning side, deaths by cause, surviving innocents, executed murderers."""
    players = state["players"].values()
    deaths: dict[str, int] = {}
    for p in players:
        if p["status"] == DEAD:
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
            "innocents_survivants": [sum(1 for p in players if p["role"] == INNOCENT and p["status"] != DEAD)],
            "meurtriers_executes": [sum(1 for p in players if p["role"] == MURDERER
                                        and (p["died"] or {}).get("cause") == "executed")],
        },
        "main": "tour_de_fin",
    }


# -- pbp odds ----------------------------------------------------------------------------------

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
        # every distance one of the rolls can cover
        farthest = max(parse_dice(params["investigator"]).maximum, parse_dice(params["witness"]).maximum)
        rows = [[str(d), pct(_p_at_least(params["investigator"], d)), pct(_p_at_least(params["witness"], d))]
                for d in range(1, farthest + 1)]
        return Table("Déplacement : atteindre une pièce à d cases", ["cases", f"enquêteur {params['investigator']}",
                                                                     f"témoin {params['witness']}"], rows)

    def warning(params) -> Table:
        # every other square, up to the roll's reach
        rows = [[str(d), pct(_p_at_least(params["dice"], d))]
                for d in range(2, parse_dice(params["dice"]).maximum + 1, 2)]
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
