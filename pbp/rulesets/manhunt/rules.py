"""La chasse à l'homme (seed 001), with docs/design.md's decisions manhunt 1-16: the
rules as pure functions on plain dicts.

Every number comes from `rules` (data.yaml with the campaign's overrides); no
function here rolls a die, builds an event or changes its arguments. The turn
(resolve.py), the order checks (checks.py) and the balance tools (balance.py)
all ask these, so a rule is written once.
"""

from __future__ import annotations

from pbp.model.dice import parse
from pbp.model.orders import match_names, normalize_id

#: a Péji's `status` in the state
ACTIVE, DEAD, ESCAPED = "active", "dead", "escaped"
#: why a Péji loses a turn (`recover` in the state): what is restored once it is over
PANIC, EXHAUSTION = "panique", "fatigue"

#: the actions that go through doorways: their first direction must be an exit
MOVES = ("deplacement_normal", "deplacement_rapide", "fuite")
#: the moves that cross two cells (fast move, flight), barred from `no_running_level`
RUNS = ("deplacement_rapide", "fuite")

#: the MJ's orders in gm.yaml (`orders: {chasseurs: {h3: {aller: S12}, h7: attendre}}`)
GM_HUNTERS = "chasseurs"
HUNTER_VERBS = ("aller", "placer", "cible", "attaquer")
HUNTER_WAIT = ("attendre", "wait")
HUNTER_REMOVE = ("retirer", "remove")


# -- a Péji's numbers --------------------------------------------------------------

def fatigue_level(rules: dict, fatigue: int) -> int:
    """docs/design.md manhunt 5: level 1 + total // per_level, at most max_level (a total below 0
    counts as 0). Every cost a Péji pays asks it: written with comparisons, which
    cost a fraction of builtin min/max calls."""
    f = rules["fatigue"]
    level = 1 + (fatigue if fatigue > 0 else 0) // f["per_level"]
    return level if level < f["max_level"] else f["max_level"]


def fatigue_at_level(rules: dict, level: int) -> int:
    """The least fatigue total of a level (where a lost turn sets it back, what a
    wound that sets the level brings it to)."""
    return (level - 1) * rules["fatigue"]["per_level"]


def can_run(rules: dict, fatigue: int) -> bool:
    return fatigue_level(rules, fatigue) < rules["fatigue"]["no_running_level"]


def fatigue_malus(rules: dict, fatigue: int) -> int:
    """What fatigue takes off melee and shooting totals."""
    f = rules["fatigue"]
    return f["combat_malus"] if fatigue_level(rules, fatigue) >= f["combat_malus_level"] else 0


def report_limits(rules: dict, peji: dict) -> dict:
    """The thresholds a Péji's report shows beside their gauges: the noise that
    calls the next hunter, the fatigue total of the next level (None at the last),
    the stress of panic."""
    f = rules["fatigue"]
    level = fatigue_level(rules, peji["fatigue"])
    return {"noise_step": rules["noise"]["threshold"],
            "next_noise": (peji.get("noise_mark", 0) + 1) * rules["noise"]["threshold"],
            "next_level": level + 1 if level < f["max_level"] else None,
            "next_fatigue": fatigue_at_level(rules, level + 1) if level < f["max_level"] else None,
            "panic": rules["stress"]["panic"]}


def noise_calls(rules: dict, peji: dict) -> int:
    """How many new multiples of the noise threshold a Péji's noise has reached
    beyond those already counted (`noise_mark`): each calls a hunter (docs/design.md manhunt 4)."""
    return peji["noise"] // rules["noise"]["threshold"] - peji["noise_mark"]


def protection(rules: dict, peji: dict) -> int:
    items = rules["items"]
    return sum(items.get(i, {}).get("protection", 0) for i in peji.get("worn", []))


def weapons(rules: dict, peji: dict, kind: str) -> list[str]:
    """The Péji's weapons of a type (melee | distance), in inventory order."""
    items = rules["items"]
    return [i for i in peji["inventory"] if items.get(i, {}).get("kind") == "arme" and items[i].get("type") == kind]


def best_weapon(rules: dict, peji: dict, kind: str) -> str | None:
    """The weapon of a type with the highest mean damage (the first of equals)."""
    options = weapons(rules, peji, kind)
    if not options:
        return None

    def mean(item):
        expr = parse(rules["items"][item]["damage"])
        return expr.minimum + expr.maximum

    return max(options, key=mean)


def peji_dice(rules: dict, weapon: str | None) -> str:
    """A Péji's melee roll: their weapon's damage, else bare hands (docs/design.md manhunt 8)."""
    return rules["items"][weapon]["damage"] if weapon else rules["combat"]["unarmed"]


def wound_costs(rules: dict, level: int, fatigue: int) -> tuple[int, int]:
    """The fatigue and stress a Péji gains on reaching a wound level (docs/design.md manhunt 7).
    A `fatigue_level` effect raises the total to that level, never lowers it."""
    effect = (rules["wounds"].get("effects") or {}).get(level) or {}
    gained = effect.get("fatigue", 0)
    if "fatigue_level" in effect:
        gained = max(0, fatigue_at_level(rules, effect["fatigue_level"]) - fatigue)
    return gained, effect.get("stress", 0)


def door_cost(rules: dict, door: str) -> tuple[int, int]:
    """Noise and stress of opening a closed doorway (docs/design.md manhunt 2)."""
    cost = rules["doors"][door]
    return cost["noise"], cost["stress"]


def trap_effect(rules: dict, trap: dict) -> dict:
    """A trap's effect: world.yaml's own over the rules' default (docs/design.md manhunt 13)."""
    return {**rules["traps"]["effect"], **(trap.get("effect") or {})}


def search_row(table: list[dict], value: int) -> dict:
    """The row of a search table a roll falls in (`max`: the row's highest roll)."""
    for row in table:
        if value <= row["max"]:
            return row
    return table[-1]


# -- hunters -----------------------------------------------------------------------

def peji_genre(scenario, handle: str) -> str | None:
    """The grammatical gender on a Péji's sheet (f, m, n), None when unknown: the
    templates agree words with it, or use a neutral wording."""
    return (scenario.characters["pejis"].get(handle) or {}).get("genre")


def hunter_sheet(scenario, hunter_id: str) -> dict:
    return scenario.characters["hunters"][hunter_id]


def hunter_protection(scenario, hunter_id: str) -> int:
    return int(hunter_sheet(scenario, hunter_id).get("protection", 0))


def hunter_name(scenario, hunter_id: str) -> str:
    return hunter_sheet(scenario, hunter_id).get("name", hunter_id)


def hunter_dice(rules: dict, scenario, hunter_id: str) -> str:
    weapon = hunter_sheet(scenario, hunter_id).get("weapon") or {}
    return weapon.get("damage", rules["combat"]["unarmed"])


def hunter_defence(rules: dict, scenario, hunter_id: str) -> int:
    return hunter_sheet(scenario, hunter_id).get("defence", rules["shooting"]["default_defence"])


def hunter_genre(scenario, hunter_id: str) -> str | None:
    """The grammatical gender of a hunter's sheet (f, m, n), None when unknown."""
    return hunter_sheet(scenario, hunter_id).get("genre")


def match_hunters(scenario, word, among=None) -> list[str]:
    """The hunters a player's word may mean, in id order, among `among` (default:
    every hunter): its id (h3), else the hunters whose id or whole name it is,
    else those whose name holds it from the start of a word (`Sylas`, `sylvain`,
    `boucher de morn`, `SYL`), case and accents ignored. One hunter: found;
    several: ambiguous; none: unknown."""
    hunters = scenario.characters.get("hunters") or {}
    pool = list(hunters) if among is None else [h for h in among if h in hunters]
    return match_names(word, {h: hunter_name(scenario, h) for h in pool})


def find_hunter(scenario, word, among=None) -> str | None:
    """The one hunter a player's word names (match_hunters), or None."""
    found = match_hunters(scenario, word, among)
    return found[0] if len(found) == 1 else None


def find_item(items, word) -> str | None:
    """The item of `items` a player's word names: itself, else the one whose name
    it is with case and accents ignored (`potion de soins legers`)."""
    if word in items:
        return word
    wanted = normalize_id(word)
    found = [i for i in items if normalize_id(i) == wanted]
    return found[0] if found else None


def engaged_by(state: dict, handle: str) -> list[str]:
    """Hunters on the Péji's cell who track them (FAQ 6)."""
    cell = state["pejis"][handle]["cell"]
    return [hid for hid, h in state["hunters"].items()
            if h["target"] == handle and h["cell"] == cell and not h["out"]]


def hunters_on(state: dict, cells) -> list[str]:
    """Hunters in play on any of these cells, in id order."""
    cells = set(cells)
    return [hid for hid, h in state["hunters"].items() if not h["out"] and h["cell"] in cells]


def free_hunter(state: dict) -> str | None:
    """The hunter a noise calls (docs/design.md manhunt 4): one tracking nobody and in play, first
    among those not yet in the labyrinth, in id order; None when there is none."""
    hunters = state["hunters"]
    free = [h for h in hunters if not hunters[h]["out"] and hunters[h]["target"] is None]
    waiting = [h for h in free if hunters[h]["cell"] is None]
    return (waiting or free or [None])[0]


# -- fights ------------------------------------------------------------------------

def reckoning(roll, terms) -> dict:
    """A total with its parts, for the player to check (docs/design.md, "The output"):
    the dice and their faces, the dice expression's own constant (`bonus`, a
    weapon's +2), then each named term with its sign (`protection`, `fatigue`,
    `bonus`), and the total, which is their sum (it may be negative: README).
    A roll forced to a total has no faces: its expression and total stand for the
    dice (`bonus` None)."""
    expr = parse(roll.expr)
    if roll.faces and all(t.sign > 0 for t in expr.dice):
        dice, faces, bonus = "+".join(str(t) for t in expr.dice), list(roll.faces), expr.constant
    else:
        dice, faces, bonus = roll.expr, [roll.total], None
    return {"dice": dice, "faces": faces, "bonus": bonus,
            "terms": [{"name": name, "value": value} for name, value in terms],
            "total": reckoned_total(roll, terms)}


def reckoned_total(roll, terms) -> int:
    """The total of `reckoning`, without its parts: what a simulated turn, which
    shows nobody the parts, needs."""
    return roll.total + sum(value for _, value in terms)


def assault_winner(peji_total: int, hunter_total: int) -> str | None:
    """docs/design.md manhunt 8: the higher total wins the assault; a tie scores for nobody."""
    return "peji" if peji_total > hunter_total else "hunter" if hunter_total > peji_total else None


def fight_winner(rules: dict, wins: dict[str, int]) -> str | None:
    """The side that won `combat.to_win` assaults, if any."""
    needed = rules["combat"]["to_win"]
    return "peji" if wins["peji"] >= needed else "hunter" if wins["hunter"] >= needed else None


def shot_result(spec: dict, total: int, defence: int) -> tuple[bool, bool]:
    """docs/design.md manhunt 9: hit when the total reaches the defence; knocked out (FAQ 5) when a
    hit reaches the weapon's `ko_on`."""
    hit = total >= defence
    return hit, hit and spec.get("ko_on") is not None and total >= spec["ko_on"]


# -- movement ----------------------------------------------------------------------

def run_direction(lab, here: str, wanted: str, came_from: str | None) -> str | None:
    """Where a fast move or a flight goes next: the wanted direction if the cell
    has it, else the nearest turn (right, then left, in the order of
    `directions`), never straight back; None in a dead end."""
    order = lab.directions
    i = order.index(wanted)
    n = len(order)
    for d in (wanted, order[(i + 1) % n], order[(i - 1) % n], order[(i + 2) % n]):
        found = lab.neighbour(here, d)
        if found is not None and found[0] != came_from:
            return d
    return None


# -- the game ----------------------------------------------------------------------

def initial_state(scenario) -> dict:
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


def players_to_play(state: dict, roster) -> list[str]:
    return [h for h in roster if state["pejis"][h]["status"] == ACTIVE]


def lost_turn(peji: dict) -> str | None:
    """Why a Péji in play cannot act this turn (a key of messages.yaml), or None:
    the turn after a panic or an exhaustion (docs/design.md manhunt 5, 6) is lost."""
    if not peji["lost_turns"]:
        return None
    causes = tuple(c for c in (PANIC, EXHAUSTION) if c in peji["recover"])
    return {(PANIC,): "lost_panic", (EXHAUSTION,): "lost_exhaustion"}.get(causes, "lost_panic_exhaustion")


def event_ends(rules: dict, state: dict, turn: int) -> bool:
    """docs/design.md manhunt 16: every Péji escaped or dead, or the turn limit reached."""
    return all(p["status"] != ACTIVE for p in state["pejis"].values()) or turn >= rules["turn_limit"]


def is_over(state: dict) -> bool:
    return bool(state.get("over"))


def fates(state: dict) -> dict[str, list[str]]:
    """The handles by how they ended: escaped, dead, still in the labyrinth."""
    pejis = state["pejis"]
    return {"escaped": [h for h, p in pejis.items() if p["status"] == ESCAPED],
            "dead": [h for h, p in pejis.items() if p["status"] == DEAD],
            "trapped": [h for h, p in pejis.items() if p["status"] == ACTIVE]}
