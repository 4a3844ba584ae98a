"""The rules of murder in the lab (seed 000, first part), as pure functions.

Each takes the rules (`Murder.rules`: data.yaml merged with the campaign's
`rules:`), a state (a plain dict) and the board, and returns a value: no I/O,
no printing, no events (resolve.py and draw.py tell what happens), and no rules
number in this file: every number comes from the rules.

README.md explains every decision; docs/design.md "murder 1-10" is the source.
"""

from __future__ import annotations

from pbp.rulesets.murder.board import Board

INVESTIGATOR, INNOCENT, MURDERER = "investigator", "innocent", "murderer"
ROLES = (INVESTIGATOR, INNOCENT, MURDERER)
ALIVE, PRISON, DEAD = "alive", "prison", "dead"
#: the scores each role's sheet carries
ROLE_SCORES = {INVESTIGATOR: ("survival",), INNOCENT: ("resilience", "defence"), MURDERER: ("lying", "defence")}
#: sheet fields that are text
TEXT_FIELDS = ("story", "job", "seniority")


# -- sheets ----------------------------------------------------------------------------------

def lot(rules: dict, scenario, name: str) -> dict[int, dict]:
    """The numbered sheets of a lot (`innocents` or `second`) in characters.yaml."""
    raw = scenario.characters.get(rules["lots"][name]["key"]) or {}
    out = {}
    if isinstance(raw, dict):
        for number, sheet in raw.items():
            if isinstance(number, int) and not isinstance(number, bool) and isinstance(sheet, dict):
                out[number] = sheet
    return out


def sheet(rules: dict, scenario, p: dict) -> dict:
    """The sheet a player drew."""
    return lot(rules, scenario, p["lot"]).get(p["sheet"], {})


def sheet_data(rules: dict, scenario, handle: str, p: dict, drawn: dict | None = None) -> dict:
    """A player's whole sheet as the posts show it (private, or revealed)."""
    drawn = drawn if drawn is not None else sheet(rules, scenario, p)
    return {"player": handle, "role": p["role"], "lot": rules["lots"][p["lot"]]["key"],
            "sheet": p["sheet"], "scores": dict(p["scores"]),
            "story": str(drawn.get("story", "")).strip(), "job": str(drawn.get("job", "")).strip(),
            "seniority": str(drawn.get("seniority", "")).strip(),
            "alibi": str(drawn.get("alibi", "")).strip() if p["role"] == INNOCENT else None}


def public_rules(rules: dict) -> dict:
    """The rules numbers the set-up posts quote (not secret)."""
    return {"movement": dict(rules["movement"]), "witness_room_limit": rules["witness_room_limit"],
            "max_stay": rules["max_stay"], "accusation_every": rules["accusation_every"],
            "hours_per_turn": rules["clock"]["hours_per_turn"], "turns_per_day": rules["clock"]["turns_per_day"],
            "prison_turns": rules["prison"]["turns"], "majority": rules["majority"],
            "vote_count": rules["vote_count"]}


# -- grammar -------------------------------------------------------------------------------

GENRES = ("f", "m", "n")
MAJORITIES = ("plurality", "absolute")
VOTE_COUNTS = ("public", "gm")


def genres(scenario) -> dict[str, str | None]:
    """Each player's grammatical gender as the thread knows it: the roster's `genre`
    (campaign.yaml, chosen with the character's name), None when absent (the posts
    then use a neutral wording). Never a sheet's: a sheet is secret, and the lot a
    sheet comes from must not show through an agreement."""
    return {h: (entry.get("genre") if isinstance(entry, dict) and entry.get("genre") in GENRES else None)
            for h, entry in scenario.roster.items()}


def own_genres(rules: dict, scenario, state: dict, handle: str) -> dict[str, str | None]:
    """The genders a player's own report uses: the public ones, and for the player
    themself the drawn sheet's `genre` when the roster gives none."""
    out = genres(scenario)
    p = state["players"].get(handle)
    if out.get(handle) is None and p is not None:
        drawn = sheet(rules, scenario, p).get("genre")
        out[handle] = drawn if drawn in GENRES else None
    return out


# -- time ------------------------------------------------------------------------------------

def clock(rules: dict, turn: int) -> dict:
    """Turn t is day (t-1)//turns_per_day + 1, from first_hour, hours_per_turn a turn."""
    c = rules["clock"]
    index = max(turn - 1, 0)
    start = c["first_hour"] + (index % c["turns_per_day"]) * c["hours_per_turn"]
    return {"turn": turn, "day": index // c["turns_per_day"] + 1, "start": start,
            "end": start + c["hours_per_turn"], "accusation_day": accusation_day(rules, turn)}


def accusation_day(rules: dict, turn: int) -> bool:
    return turn > 0 and turn % rules["accusation_every"] == 0


def next_accusation(rules: dict, turn: int) -> int:
    every = rules["accusation_every"]
    return ((max(turn, 1) + every - 1) // every) * every


# -- who is where ------------------------------------------------------------------------------

def occupants(state: dict, room: str, exclude: str | None = None) -> list[str]:
    """Living players on the board in `room`, in the order of play."""
    players = state["players"]
    return [h for h in state["play_order"]
            if h != exclude and players[h]["status"] == ALIVE and players[h]["room"] == room]


def update_companions(state: dict) -> None:
    """Who shares each living player's room now (the pair rule reads it next turn)."""
    for h in state["play_order"]:
        p = state["players"][h]
        if p["status"] == ALIVE and p["room"] is not None:
            p["companions"] = occupants(state, p["room"], exclude=h)
        else:
            p["companions"] = []


def murderers(state: dict) -> list[str]:
    """Every murderer, alive or not (they are told of each other's traps)."""
    return [h for h in state["play_order"] if state["players"][h]["role"] == MURDERER]


def living(state: dict, role: str | None = None, exclude: str | None = None) -> list[str]:
    """Living players on the board (of `role`, if given), in the order of play."""
    players = state["players"]
    return [h for h in state["play_order"] if h != exclude and players[h]["status"] == ALIVE
            and (role is None or players[h]["role"] == role)]


def vote_count(rules: dict, state: dict, votes: dict[str, str]) -> dict:
    """The forum's vote count of an accusation (`votes`: investigator -> accused):
    each suspect with their votes and voters (most votes first, then the order of
    play), the living investigators who did not vote, the votes for someone no
    longer on the board (they count for nobody), the majority needed (`absolute`:
    more than half the living investigators; `plurality`: None, the most votes
    without a tie), and who goes to prison."""
    players, order = state["players"], state["play_order"]
    voters = [h for h in order if players[h]["role"] == INVESTIGATOR and players[h]["status"] == ALIVE]
    tally: dict[str, list[str]] = {}
    void = []
    for h in voters:
        target = votes.get(h)
        if target is None:
            continue
        if players[target]["status"] == ALIVE:
            tally.setdefault(target, []).append(h)
        else:
            void.append({"investigator": h, "target": target})
    rows = sorted(({"target": t, "votes": len(v), "voters": v} for t, v in tally.items()),
                  key=lambda r: (-r["votes"], order.index(r["target"])))
    needed = len(voters) // 2 + 1 if rules["majority"] == "absolute" else None
    top = rows[0]["votes"] if rows else 0
    leaders = [r["target"] for r in rows if r["votes"] == top]
    tie = len(leaders) > 1
    jailed = leaders[0] if len(leaders) == 1 and (needed is None or top >= needed) else None
    return {"tally": rows, "not_voting": [h for h in voters if h not in votes], "void": void,
            "investigators": len(voters), "majority": rules["majority"], "needed": needed,
            "jailed": jailed, "tie": tie}


def standing(state: dict, scenario) -> list[dict]:
    """Who is still in the game, as the thread knows it: alive, in prison, dead
    (killed: how is on the board, never the role) or executed (the sheet was
    revealed), in the order of play."""
    out, gender = [], genres(scenario)
    for h in state["play_order"]:
        p = state["players"][h]
        status = p["status"]
        if status == DEAD:
            cause = (p["died"] or {}).get("cause")
            status = {"trap": "trap", "executed": "executed"}.get(cause, "dead")
            if status != "trap" and gender.get(h) in ("f", "m"):
                status += "_" + gender[h]  # "exécutée" agrees; unknown gender: a neutral wording
        out.append({"name": scenario.name(h), "handle": h, "status": f"murder.standing_{status}"})
    return out


def suspects(state: dict) -> list[str]:
    """Who an investigator may accuse: the living witnesses."""
    return [h for h in living(state) if state["players"][h]["role"] != INVESTIGATOR]


# -- movement --------------------------------------------------------------------------------

def movement_dice(rules: dict, role: str) -> str:
    return rules["movement"]["investigator" if role == INVESTIGATOR else "witness"]


def may_enter(rules: dict, state: dict, h: str, room: str) -> bool:
    """A witness may not enter a room holding more than `witness_room_limit` players."""
    if state["players"][h]["role"] == INVESTIGATOR:
        return True
    return len(occupants(state, room, h)) <= rules["witness_room_limit"]


def may_stop(state: dict, h: str, room: str) -> bool:
    """The same two players are never together in a room two turns in a row."""
    here = set(occupants(state, room, h))
    return not here.intersection(state["players"][h]["companions"])


def destinations(rules: dict, state: dict, board: Board, handle: str) -> list[str]:
    """Rooms a player may name in `deplacer` (positions at check time)."""
    p = state["players"][handle]
    return [room for room in board.order if room != p["room"]
            and (p["role"] == INVESTIGATOR or len(occupants(state, room, handle)) <= rules["witness_room_limit"])]


def plan(rules: dict, state: dict, board: Board, h: str, dest: str, budget: int) -> tuple[list[str], str]:
    """The rooms a mover goes through towards `dest` with `budget` squares, and
    why they stop: along the shortest path, as far as the roll allows, never
    into a room they may not enter, stopping in the last room they may stop in."""
    start = state["players"][h]["room"]
    rooms, cum = board.path(start, dest)
    reach, reason = 0, "arrived"
    for i in range(1, len(rooms)):
        if cum[i] > budget:
            reason = "short"
            break
        if not may_enter(rules, state, h, rooms[i]):
            reason = "blocked"
            break
        reach = i
    stop = reach
    while stop > 0 and not may_stop(state, h, rooms[stop]):
        stop -= 1
        reason = "companion"
    return rooms[:stop + 1], reason


def forced_step(rules: dict, state: dict, board: Board, h: str) -> str | None:
    """Where a player who must leave goes with no roll: the nearest adjacent room
    they may enter and stop in (None: nowhere)."""
    start = state["players"][h]["room"]
    return next((r for r in board.neighbours(start) if may_enter(rules, state, h, r) and may_stop(state, h, r)),
                None)


# -- the end of the game --------------------------------------------------------------------

def outcome(state: dict) -> tuple[str | None, str | None]:
    """(winning side, reason), or (None, None) while the game goes on. Both sides
    done in one turn: the investigators win."""
    players, order = state["players"], state["play_order"]
    by_role = {role: [h for h in order if players[h]["role"] == role] for role in ROLES}

    def gone(role):
        return all(players[h]["status"] == DEAD for h in by_role[role])

    if gone(MURDERER):
        return "investigators", "murderers_gone"
    if gone(INNOCENT):
        return "murderers", "innocents_gone"
    if gone(INVESTIGATOR):
        return "murderers", "investigators_gone"
    return None, None


def winners(state: dict, side: str) -> list[str]:
    """The investigators and the surviving innocents, or every murderer."""
    players, order = state["players"], state["play_order"]
    if side == "investigators":
        return ([h for h in order if players[h]["role"] == INVESTIGATOR]
                + [h for h in order if players[h]["role"] == INNOCENT and players[h]["status"] != DEAD])
    return [h for h in order if players[h]["role"] == MURDERER]


# -- secrecy ---------------------------------------------------------------------------------

def is_ghost(state: dict, handle: str) -> bool:
    p = state["players"].get(handle)
    return p is not None and p["status"] == DEAD


def secret_values(rules: dict, state: dict, scenario, board: Board) -> set[str]:
    """Every sheet the rules have not revealed (an execution reveals the executed
    player's sheet, the end of the game every sheet): its story, job and alibi,
    its number, its scores (but an investigator's survival, public from the
    set-up); and every armed room: each in the forms the posts print them
    (`secret_forms`), so that a leak is found as whole words."""
    if state.get("over"):
        return set()
    forms = rules["secret_forms"]
    players = state["players"]
    revealed = {h for h, p in players.items() if (p.get("died") or {}).get("cause") == "executed"}

    def sheet_values(h):
        p = players[h]
        drawn = sheet(rules, scenario, p)
        out = {str(drawn.get(k, "")).strip() for k in ("story", "job", "alibi")}
        out |= {form.replace("{n}", str(p["sheet"])) for form in forms["sheet"]}
        for score, value in p["scores"].items():
            if not (p["role"] == INVESTIGATOR and score == "survival"):
                out |= {f"{label} {value}" for label in forms["scores"].get(score, [score])}
        return out

    hidden = set().union(*(sheet_values(h) for h in players if h not in revealed))
    shown = set().union(*(sheet_values(h) for h in revealed))
    traps = {form.replace("{room}", board.name(room)) for room in state.get("traps", {}) for form in forms["trap"]}
    # a revealed sheet may share a job or a number with a hidden one: showing it is no leak
    return {v for v in hidden - shown if v} | traps
