"""Murder in the lab (seed 000, first part): investigators hunt the murderers
hidden among the witnesses.

Pure rules: a state (plain dict), the orders and a dice roller in; a new state
and events out. No I/O, no printing, and no rules number in this file: every
number comes from `self.rules` (data.yaml merged with the campaign's `rules:`).

Secrecy: roles, scores, sheets, alibis, trap positions and ghost warnings only
ever go into private or gm events, until the rules reveal them (an execution
reveals the sheet; the end of the game reveals every sheet).

A turn, in order (README.md explains every decision):
1. dead innocents haunt a room (private answer, maybe a private warning);
2. the living play in the fixed order: witnesses, then investigators by sheet
   number; each: set a trap (`pieger`), interrogate (`interroger`), then move
   (`deplacer`), checked against the positions of that moment;
3. prisoners plead (released, or executed after the last failed plea);
4. on accusation days, the investigators' vote sends someone to prison;
5. dead murderers possess living innocents and move them;
6. stays and companions are counted, the end of the game is checked.
"""

from __future__ import annotations

import heapq

from pbp import events as ev
from pbp.dice import parse as parse_dice
from pbp.errors import PbpError
from pbp.i18n import closest
from pbp.orders import Action, normalize_id
from pbp.ruleset import ODDS, SIMULATE, Refusal, Resolution, Ruleset
from pbp.schema import Index, show_path

INVESTIGATOR, INNOCENT, MURDERER = "investigator", "innocent", "murderer"
ROLES = (INVESTIGATOR, INNOCENT, MURDERER)
ALIVE, PRISON, DEAD = "alive", "prison", "dead"
#: the scores each role's sheet carries
ROLE_SCORES = {INVESTIGATOR: ("survival",), INNOCENT: ("resilience", "defence"), MURDERER: ("mensonge", "defence")}
#: sheet fields that are text
TEXT_FIELDS = ("story", "job", "seniority")


def _err(key: str, file: str, /, **params) -> PbpError:
    return PbpError(f"murder.{key}", file=file, **params)


# -- the board ------------------------------------------------------------------------

class Board:
    """Rooms joined by passages of a length in squares (world.yaml)."""

    def __init__(self, world: dict):
        self.hall = str(world.get("hall", "hall"))
        self.rooms: dict[str, dict] = {str(k): (v if isinstance(v, dict) else {"name": str(v or k)})
                                       for k, v in (world.get("rooms") or {}).items()}
        self.order = list(self.rooms)
        self.adj: dict[str, dict[str, int]] = {r: {} for r in self.rooms}
        self.problems: list[tuple[str, dict]] = []
        passages = world.get("passages") or []
        for i, raw in enumerate(passages if isinstance(passages, list) else [passages]):
            parsed = self._passage(raw)
            if parsed is None:
                self.problems.append(("world_bad_passage", {"index": i + 1}))
                continue
            a, b, length = parsed
            for room in (a, b):
                if room not in self.rooms:
                    self.problems.append(("world_unknown_room", {"room": room, "index": i + 1,
                                                                 "valid": self.order}))
            if a in self.rooms and b in self.rooms and a != b:
                best = min(length, self.adj[a].get(b, length))
                self.adj[a][b] = self.adj[b][a] = best
        self._paths: dict[str, dict[str, tuple]] = {}
        self._lookup = {}
        for room_id, info in self.rooms.items():
            self._lookup[normalize_id(room_id)] = room_id
            self._lookup.setdefault(normalize_id(info.get("name", room_id)), room_id)

    @staticmethod
    def _passage(raw):
        if isinstance(raw, dict):
            raw = [raw.get("from"), raw.get("to"), raw.get("length")]
        if not isinstance(raw, (list, tuple)) or len(raw) != 3:
            return None
        a, b, length = raw
        if a is None or b is None or isinstance(length, bool) or not isinstance(length, int) or length < 1:
            return None
        return str(a), str(b), length

    def name(self, room: str | None) -> str | None:
        if room is None:
            return None
        return str(self.rooms.get(room, {}).get("name", room))

    def names(self) -> list[str]:
        return [self.name(r) for r in self.order]

    def lookup(self, text) -> str | None:
        """A room id from what a player wrote (its id or its name, any case/accents)."""
        if text is None:
            return None
        return self._lookup.get(normalize_id(text))

    def neighbours(self, room: str) -> list[str]:
        """Adjacent rooms, nearest first (then by id): the deterministic order of forced moves."""
        return sorted(self.adj.get(room, {}), key=lambda r: (self.adj[room][r], r))

    def _from(self, start: str) -> dict[str, tuple]:
        """Shortest paths from `start`: room -> (distance, path). Ties go to the
        lexicographically smallest path, so a move never depends on dict order."""
        cached = self._paths.get(start)
        if cached is not None:
            return cached
        best: dict[str, tuple] = {}
        heap = [(0, (start,))]
        while heap:
            dist, path = heapq.heappop(heap)
            room = path[-1]
            if room in best:
                continue
            best[room] = (dist, path)
            for nxt, length in self.adj[room].items():
                if nxt not in best:
                    heapq.heappush(heap, (dist + length, path + (nxt,)))
        self._paths[start] = best
        return best

    def path(self, start: str, end: str) -> tuple[list[str], list[int]]:
        """The shortest path (rooms, from `start` included) and cumulative lengths."""
        found = self._from(start).get(end)
        if found is None:
            return [start], [0]
        rooms = list(found[1])
        cum, total = [0], 0
        for a, b in zip(rooms, rooms[1:]):
            total += self.adj[a][b]
            cum.append(total)
        return rooms, cum

    def distance(self, a: str, b: str) -> int | None:
        found = self._from(a).get(b)
        return found[0] if found else None

    def connected(self) -> bool:
        return not self.order or len(self._from(self.order[0])) == len(self.order)


# -- the ruleset ----------------------------------------------------------------------------

class Murder(Ruleset):
    id = "murder"
    example = "murder"
    capabilities = frozenset({SIMULATE, ODDS})

    # -- scenario --------------------------------------------------------------------------
    def board(self, scenario) -> Board:
        cache = getattr(self, "_board_cache", None)
        if cache is None or cache[0] is not scenario.world:
            cache = (scenario.world, Board(scenario.world))
            self._board_cache = cache
        return cache[1]

    def _lot(self, scenario, lot: str) -> dict[int, dict]:
        raw = scenario.characters.get(self.rules["lots"][lot]["key"]) or {}
        out = {}
        if isinstance(raw, dict):
            for number, sheet in raw.items():
                if isinstance(number, int) and not isinstance(number, bool) and isinstance(sheet, dict):
                    out[number] = sheet
        return out

    def _sheet(self, scenario, player_state: dict) -> dict:
        return self._lot(scenario, player_state["lot"]).get(player_state["sheet"], {})

    def validate_scenario(self, scenario) -> list[PbpError]:
        """What schema.yaml cannot say about the board and the sheets (passages between
        known rooms, a connected board, enough sheets and rooms...). Safe on any input:
        simulations and tests call it on their own data. Each problem carries `at`,
        its path in its file."""
        problems: list[PbpError] = []
        world = scenario.world if isinstance(scenario.world, dict) else {}
        chars = scenario.characters if isinstance(scenario.characters, dict) else {}
        if not isinstance(world.get("rooms"), dict) or not world["rooms"]:
            problems.append(_err("world_no_rooms", "world.yaml", at=("rooms",)))
            return problems
        board = self.board(scenario)
        for key, params in board.problems:
            problems.append(_err(key, "world.yaml", at=("passages", params["index"] - 1), **params))
        if board.hall not in board.rooms:
            problems.append(_err("world_no_hall", "world.yaml", at=("hall",), room=board.hall, valid=board.order))
        if not board.problems and not board.connected():
            problems.append(_err("world_disconnected", "world.yaml", at=("passages",)))
        start = world.get("start") or {}
        if not isinstance(start, dict):
            problems.append(_err("world_bad_start", "world.yaml", at=("start",), player="start", room="-",
                                 valid=board.order))
            start = {}
        used = {}
        for handle, room in start.items():
            room_id = board.lookup(room)
            at = ("start", handle)
            if str(handle) not in scenario.roster:
                problems.append(_err("world_start_unknown_player", "world.yaml", at=at, player=handle,
                                     valid=list(scenario.roster)))
            elif room_id is None or room_id == board.hall:
                problems.append(_err("world_bad_start", "world.yaml", at=at, player=handle, room=room,
                                     valid=[r for r in board.order if r != board.hall]))
            elif room_id in used:
                problems.append(_err("world_start_twice", "world.yaml", at=at, room=room, first=used[room_id],
                                     player=handle))
            else:
                used[room_id] = handle
        # sheets
        score_min, score_max = self.rules["scores"]["min"], self.rules["scores"]["max"]
        for lot, conf in self.rules["lots"].items():
            raw = chars.get(conf["key"])
            if not isinstance(raw, dict) or not raw:
                problems.append(_err("chars_no_lot", "characters.yaml", at=(conf["key"],), lot=conf["key"]))
                continue
            for number, sheet in raw.items():
                where = f"{conf['key']}.{number}"
                at = (conf["key"], number)
                if isinstance(number, bool) or not isinstance(number, int) or not isinstance(sheet, dict):
                    problems.append(_err("chars_bad_sheet", "characters.yaml", at=at, sheet=where))
                    continue
                role = sheet.get("role", INNOCENT if lot == "innocents" else None)
                allowed = (INNOCENT,) if lot == "innocents" else (MURDERER, INVESTIGATOR)
                if role not in allowed:
                    problems.append(_err("chars_bad_role", "characters.yaml", at=at + ("role",), sheet=where,
                                         role=role, valid=list(allowed)))
                    continue
                fields = list(TEXT_FIELDS) + (["alibi"] if role == INNOCENT else [])
                for name in fields:
                    if not isinstance(sheet.get(name), (str, int)) or str(sheet.get(name)).strip() == "":
                        problems.append(_err("chars_missing_field", "characters.yaml", at=at + (name,), sheet=where,
                                             field=name))
                for score in ROLE_SCORES[role]:
                    value = sheet.get(score)
                    if isinstance(value, bool) or not isinstance(value, int) or not score_min <= value <= score_max:
                        problems.append(_err("chars_bad_score", "characters.yaml", at=at + (score,), sheet=where,
                                             score=score, value=value, low=score_min, high=score_max))
        comp = self.rules["composition"]
        for key in ("murderers", "investigators"):
            value = comp.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.append(_err("composition_bad", "campaign.yaml", at=("rules", "composition", key), key=key,
                                     value=value))
        if not problems:
            wanted = comp["murderers"] + comp["investigators"]
            if len(scenario.roster) <= wanted:
                problems.append(_err("too_few_players", "campaign.yaml", at=("players",), count=len(scenario.roster),
                                     murderers=comp["murderers"], investigators=comp["investigators"],
                                     needed=wanted + 1))
            witnesses = len(scenario.roster) - comp["investigators"]
            free_rooms = len(board.rooms) - 1
            if witnesses > free_rooms:
                problems.append(_err("not_enough_rooms", "world.yaml", witnesses=witnesses, rooms=free_rooms))
            for key in ("draw_order", "witness_order"):
                for handle in self.rules.get(key) or []:
                    if str(handle) not in scenario.roster:
                        problems.append(_err("order_unknown_player", "campaign.yaml", at=("rules", key), key=key,
                                             player=handle, valid=list(scenario.roster)))
            release = self.rules.get("release_room")
            if release is not None and board.lookup(release) is None:
                problems.append(_err("bad_release_room", "campaign.yaml", at=("rules", "release_room"), room=release,
                                     valid=board.order))
        return problems

    def validate_state(self, state, scenario) -> list[PbpError]:
        """What schema.yaml cannot say about a state: its rooms are the board's own
        ids, exactly (the board reads world.yaml's ids as text; a room written `101`
        in state.yaml would not be found)."""
        rooms = self.board(scenario).rooms
        problems = []

        def check(room, at):
            if room is not None and not (isinstance(room, str) and room in rooms):
                problems.append(_err("state_bad_room", "state.yaml", at=at, where=show_path(at), room=room,
                                     valid=list(rooms)))

        for handle, p in state["players"].items():
            check(p["room"], ("players", handle, "room"))
            if p["died"]:
                check(p["died"].get("room"), ("players", handle, "died", "room"))
            for i, room in enumerate(p["warnings"]):
                check(room, ("players", handle, "warnings", Index(i)))
        for room in state["traps"]:
            check(room, ("traps", room))
        return problems

    # -- set-up ------------------------------------------------------------------------------
    def setup(self, scenario, dice) -> Resolution:
        board = self.board(scenario)
        rules = self.rules
        roster = list(scenario.roster)
        comp = rules["composition"]
        need = {MURDERER: comp["murderers"], INVESTIGATOR: comp["investigators"]}

        # Who draws first: the first ones draw in the second lot (murderers and investigators).
        fixed = [h for h in dict.fromkeys(str(h) for h in rules.get("draw_order") or []) if h in scenario.roster]
        rest = [h for h in roster if h not in fixed]
        draw_order = fixed + (dice.shuffled("tirage.ordre", rest, "ordre du tirage des fiches") if len(rest) > 1 else rest)

        lots = {lot: self._lot(scenario, lot) for lot in rules["lots"]}
        reach = {}
        for lot, conf in rules["lots"].items():
            expr = parse_dice(conf["dice"])
            reach[lot] = {n for n in lots[lot] if expr.minimum <= n <= expr.maximum}
        for role, count in need.items():
            have = [n for n in reach["second"] if lots["second"][n].get("role") == role]
            if len(have) < count:
                raise _err("composition_infeasible", "characters.yaml", role=role, count=count, have=len(have))
        innocents_needed = len(roster) - sum(need.values())
        if len(reach["innocents"]) < innocents_needed:
            raise _err("composition_infeasible", "characters.yaml", role=INNOCENT, count=innocents_needed,
                       have=len(reach["innocents"]))

        taken = {lot: set() for lot in lots}
        players: dict[str, dict] = {}
        events = []
        for handle in draw_order:
            lot = "second" if sum(need.values()) > 0 else "innocents"
            rolls = []
            for _ in range(rules["max_draw_attempts"]):
                roll = dice.roll(f"{handle}.fiche", rules["lots"][lot]["dice"], f"fiche de {handle}")
                rolls.append(roll)
                number = roll.total
                sheet = lots[lot].get(number)
                if sheet is None or number in taken[lot]:
                    continue
                role = sheet.get("role", INNOCENT) if lot == "second" else INNOCENT
                if lot == "second" and need.get(role, 0) <= 0:
                    continue
                break
            else:
                raise _err("draw_exhausted", "characters.yaml", player=handle, lot=rules["lots"][lot]["key"],
                           attempts=rules["max_draw_attempts"])
            taken[lot].add(number)
            if lot == "second":
                need[role] -= 1
            players[handle] = {
                "role": role, "lot": lot, "sheet": number,
                "scores": {s: sheet[s] for s in ROLE_SCORES[role]},
                "status": ALIVE, "room": None, "turns_here": 0, "companions": [],
                "prison": None, "died": None, "warnings": [],
            }
            events.append(ev.gm("draw", player=handle, lot=rules["lots"][lot]["key"], rolls=rolls,
                                sheet=number, role=role))
        players = {h: players[h] for h in roster}

        witnesses = [h for h in roster if players[h]["role"] != INVESTIGATOR]
        fixed = [h for h in dict.fromkeys(str(h) for h in rules.get("witness_order") or []) if h in witnesses]
        others = [h for h in witnesses if h not in fixed]
        witness_order = fixed + (dice.shuffled("temoins.ordre", others, "ordre de jeu des témoins")
                                 if len(others) > 1 else others)
        investigators = sorted((h for h in roster if players[h]["role"] == INVESTIGATOR),
                               key=lambda h: players[h]["sheet"])
        play_order = witness_order + investigators

        # Placement: investigators in the hall; the MJ's placements (world.yaml `start`);
        # the others drawn among the free rooms; at most one witness per room.
        start = {str(h): board.lookup(r) for h, r in (scenario.world.get("start") or {}).items()}
        for h in investigators:
            players[h]["room"] = board.hall
        used = {board.hall}
        for h in witnesses:
            room = start.get(h)
            if room and room not in used:
                players[h]["room"] = room
                used.add(room)
        for h in witness_order:
            if players[h]["room"] is None:
                free = [r for r in board.order if r not in used]
                room = dice.choice(f"{h}.placement", free, f"pièce de départ de {h}")
                players[h]["room"] = room
                used.add(room)

        state = {"turn": 0, "over": False, "winner": None, "witness_order": witness_order,
                 "play_order": play_order, "players": players, "traps": {}}
        self._companions(state)
        murderers = [h for h in roster if players[h]["role"] == MURDERER]
        events.append(ev.public("setup", investigators=[{"player": h, "survival": players[h]["scores"]["survival"]}
                                                        for h in investigators],
                                witnesses=witness_order, play_order=play_order, hall=board.name(board.hall),
                                rooms=board.names(), rules=self._public_rules()))
        events.append(ev.public("clock", **self._clock(1)))
        events.append(self._positions(state, board))
        for h in roster:
            p = players[h]
            sheet = self._sheet(scenario, p)
            events.append(ev.private(h, "sheet", **self._sheet_data(scenario, h, p, sheet),
                                     room=board.name(p["room"]),
                                     accomplices=[m for m in murderers if m != h] if p["role"] == MURDERER else [],
                                     position=play_order.index(h) + 1, rules=self._public_rules()))
        events.append(self._summary(state, scenario, board))
        return Resolution(state, events)

    def _public_rules(self) -> dict:
        """The rules numbers the set-up posts quote (not secret)."""
        r = self.rules
        return {"movement": dict(r["movement"]), "witness_room_limit": r["witness_room_limit"],
                "max_stay": r["max_stay"], "accusation_every": r["accusation_every"],
                "hours_per_turn": r["clock"]["hours_per_turn"], "turns_per_day": r["clock"]["turns_per_day"],
                "prison_turns": r["prison"]["turns"]}

    def _sheet_data(self, scenario, handle, p, sheet=None) -> dict:
        sheet = sheet if sheet is not None else self._sheet(scenario, p)
        return {"player": handle, "role": p["role"], "lot": self.rules["lots"][p["lot"]]["key"],
                "sheet": p["sheet"], "scores": dict(p["scores"]),
                "story": str(sheet.get("story", "")).strip(), "job": str(sheet.get("job", "")).strip(),
                "seniority": str(sheet.get("seniority", "")).strip(),
                "alibi": str(sheet.get("alibi", "")).strip() if p["role"] == INNOCENT else None}

    # -- helpers on the state ------------------------------------------------------------------
    def _clock(self, turn: int) -> dict:
        c = self.rules["clock"]
        index = max(turn - 1, 0)
        start = c["first_hour"] + (index % c["turns_per_day"]) * c["hours_per_turn"]
        return {"turn": turn, "day": index // c["turns_per_day"] + 1, "start": start,
                "end": start + c["hours_per_turn"], "accusation_day": self._accusation_day(turn)}

    def _accusation_day(self, turn: int) -> bool:
        return turn > 0 and turn % self.rules["accusation_every"] == 0

    def _next_accusation(self, turn: int) -> int:
        every = self.rules["accusation_every"]
        return ((max(turn, 1) + every - 1) // every) * every

    @staticmethod
    def _occupants(state: dict, room: str, exclude: str | None = None) -> list[str]:
        """Living players on the board in `room`, in the order of play."""
        players = state["players"]
        return [h for h in state["play_order"]
                if h != exclude and players[h]["status"] == ALIVE and players[h]["room"] == room]

    @staticmethod
    def _companions(state: dict) -> None:
        for h in state["play_order"]:
            p = state["players"][h]
            if p["status"] == ALIVE and p["room"] is not None:
                p["companions"] = Murder._occupants(state, p["room"], exclude=h)
            else:
                p["companions"] = []

    def _positions(self, state: dict, board: Board) -> ev.Event:
        players = state["players"]
        rooms = []
        for room in board.order:
            here = self._occupants(state, room)
            if here:
                rooms.append({"room": board.name(room), "players": here})
        prison = [h for h in state["play_order"] if players[h]["status"] == PRISON]
        dead = [{"player": h, "cause": players[h]["died"]["cause"], "turn": players[h]["died"]["turn"]}
                for h in state["play_order"] if players[h]["status"] == DEAD]
        return ev.public("positions", rooms=rooms, prison=prison, dead=dead)

    def _murderers(self, state: dict) -> list[str]:
        return [h for h in state["play_order"] if state["players"][h]["role"] == MURDERER]

    def _summary(self, state: dict, scenario, board: Board) -> ev.Event:
        players = state["players"]
        rows = []
        for h in state["play_order"]:
            p = players[h]
            rows.append({"player": h, "role": p["role"], "lot": self.rules["lots"][p["lot"]]["key"],
                         "sheet": p["sheet"], "scores": dict(p["scores"]), "status": p["status"],
                         "room": board.name(p["room"]), "turns_here": p["turns_here"],
                         "warnings": [board.name(r) for r in p["warnings"]],
                         "prison": dict(p["prison"]) if p["prison"] else None})
        traps = [{"room": board.name(r), "by": t["by"], "turn": t["turn"]} for r, t in sorted(state["traps"].items())]
        return ev.gm("summary", players=rows, traps=traps, over=state["over"], winner=state["winner"])

    # -- turn flow ----------------------------------------------------------------------------
    def players_to_play(self, state, scenario) -> list[str]:
        if state.get("over"):
            return []
        out = []
        for h in scenario.roster:
            p = state["players"].get(h)
            if p is None:
                continue
            if p["status"] == DEAD and p["role"] == INVESTIGATOR:
                continue  # dead investigators have no ghost power
            out.append(h)
        return out

    def is_over(self, state) -> bool:
        return bool(state.get("over"))

    # -- order checks -----------------------------------------------------------------------------
    def check_orders(self, state, scenario, orders) -> list[Refusal]:
        p = state["players"].get(orders.player)
        if p is None:
            return []
        board = self.board(scenario)
        refusals: list[Refusal] = []
        seen: dict[str, int] = {}
        for action in orders.actions:
            if action.id in seen:
                refusals.append(Refusal("duplicate_action", action.at, {"action": action.id}))
                continue
            seen[action.id] = action.index
            refusals += self._check_action(state, scenario, board, orders.player, p, action)
        if (p["status"] == ALIVE and not orders.default and p["turns_here"] >= self.rules["max_stay"]
                and "deplacer" not in seen):
            refusals.append(Refusal("stayed_too_long", ("actions",), {
                "room": board.name(p["room"]), "turns": p["turns_here"], "max": self.rules["max_stay"],
                "valid": [board.name(r) for r in self._destinations(state, board, orders.player)]}))
        return refusals

    def _destinations(self, state: dict, board: Board, handle: str) -> list[str]:
        """Rooms a player may name in `deplacer` this turn (positions at check time)."""
        p = state["players"][handle]
        out = []
        for room in board.order:
            if room == p["room"]:
                continue
            if p["role"] != INVESTIGATOR and len(self._occupants(state, room, handle)) > self.rules["witness_room_limit"]:
                continue
            out.append(room)
        return out

    def _check_action(self, state, scenario, board: Board, handle: str, p: dict, action: Action) -> list[Refusal]:
        at, arg = action.at, action.arg
        players = state["players"]
        turn = state["turn"] + 1
        name = scenario.name
        if p["status"] == PRISON:
            return [Refusal("in_prison", at, {"action": action.id})]
        if p["status"] == DEAD:
            allowed = {INNOCENT: "hanter", MURDERER: "posseder"}.get(p["role"])
            if action.id != allowed:
                return [Refusal("dead_action", at, {"action": action.id, "valid": [allowed] if allowed else []})]
        elif action.id in ("hanter", "posseder"):
            return [Refusal("not_a_ghost", at, {"action": action.id})]

        def room_of(text):
            room = board.lookup(text)
            if room is None:
                return None, Refusal("unknown_room", at, {"value": text, "valid": board.names(),
                                                          "suggestion": closest(str(text), board.names())})
            return room, None

        def required_room():
            """The `salle` field of a ghost's action: (room, None) or (None, refusal)."""
            text = _field(arg, "salle", "room")
            if text is None:
                return None, Refusal("room_missing", at, {"action": action.id, "valid": board.names()})
            return room_of(text)

        if action.id == "deplacer":
            room, bad = room_of(arg)
            if bad:
                return [bad]
            if room == p["room"]:
                return [Refusal("already_there", at, {"room": board.name(room),
                                                      "valid": [board.name(r) for r in self._destinations(state, board, handle)]})]
            here = self._occupants(state, room, handle)
            limit = self.rules["witness_room_limit"]
            if p["role"] != INVESTIGATOR and len(here) > limit:
                return [Refusal("room_full", at, {"room": board.name(room), "count": len(here), "max": limit,
                                                  "valid": [board.name(r) for r in self._destinations(state, board, handle)]})]
            return []
        if action.id == "pieger":
            if p["role"] != MURDERER:
                return [Refusal("not_murderer", at)]
            others = self._occupants(state, p["room"], handle)
            if others:
                return [Refusal("trap_not_alone", at, {"room": board.name(p["room"]),
                                                       "others": [name(h) for h in others]})]
            if p["room"] in state["traps"]:
                return [Refusal("already_trapped", at, {"room": board.name(p["room"])})]
            return []
        if action.id == "interroger":
            if p["role"] != INVESTIGATOR:
                return [Refusal("not_investigator", at, {"action": action.id})]
            here = [h for h in self._occupants(state, p["room"], handle) if players[h]["role"] != INVESTIGATOR]
            valid = [name(h) for h in here]
            target = players.get(arg)
            if arg == handle:
                return [Refusal("interrogate_self", at, {"valid": valid})]
            if target is None or target["status"] != ALIVE:
                return [Refusal("target_not_on_board", at, {"player": name(arg), "valid": valid})]
            if target["role"] == INVESTIGATOR:
                return [Refusal("interrogate_investigator", at, {"player": name(arg), "valid": valid})]
            if target["room"] != p["room"]:
                return [Refusal("interrogate_other_room", at, {
                    "player": name(arg), "their_room": board.name(target["room"]),
                    "room": board.name(p["room"]), "valid": valid})]
            return []
        if action.id == "accuser":
            if p["role"] != INVESTIGATOR:
                return [Refusal("not_investigator", at, {"action": action.id})]
            if not self._accusation_day(turn):
                return [Refusal("accusation_off_day", at, {"turn": turn, "every": self.rules["accusation_every"],
                                                           "next": self._next_accusation(turn)})]
            suspects = [name(h) for h in state["play_order"]
                        if players[h]["status"] == ALIVE and players[h]["role"] != INVESTIGATOR]
            target = players.get(arg)
            if target is None or target["role"] == INVESTIGATOR:
                return [Refusal("accuse_investigator", at, {"player": name(arg), "valid": suspects})]
            if target["status"] != ALIVE:
                return [Refusal("target_not_on_board", at, {"player": name(arg), "valid": suspects})]
            return []
        if action.id == "hanter":
            room, bad = required_room()
            if bad:
                return [bad]
            warn = _field(arg, "avertir", "warn")
            if warn is not None and (warn == handle or (players.get(warn) or {}).get("status") != ALIVE):
                living = [name(h) for h in state["play_order"] if players[h]["status"] == ALIVE]
                return [Refusal("warn_not_on_board", at, {"player": name(warn), "valid": living})]
            return []
        if action.id == "posseder":
            innocents = [h for h in state["play_order"]
                         if players[h]["status"] == ALIVE and players[h]["role"] == INNOCENT]
            target = _field(arg, "cible", "target")
            if target is None or target not in innocents:
                return [Refusal("possess_not_innocent", at, {"player": name(target) if target else "-",
                                                             "valid": [name(h) for h in innocents]})]
            room, bad = required_room()
            if bad:
                return [bad]
            if room == players[target]["room"]:
                return [Refusal("possess_same_room", at, {"player": name(target), "room": board.name(room)})]
            return []
        return []

    def check_gm(self, state, scenario, gm_orders) -> list[Refusal]:
        return [Refusal("unknown_gm_order", (key,), {"key": key}) for key in gm_orders.orders]

    # -- resolution --------------------------------------------------------------------------------
    def resolve(self, state, scenario, orders, gm_orders, dice) -> Resolution:
        turn = _Turn(self, state, scenario, orders, dice)
        turn.run()
        return Resolution(turn.state, turn.events)

    # -- forms, status, bots ---------------------------------------------------------------------
    def order_context(self, state, scenario, player) -> dict:
        p = state["players"].get(player)
        if p is None:
            return {}
        board = self.board(scenario)
        players = state["players"]
        turn = state["turn"] + 1
        ctx = {"role": p["role"], "status": p["status"], "room": board.name(p["room"]),
               "rooms": [{"id": r, "name": board.name(r)} for r in board.order],
               "turn": turn, "accusation_day": self._accusation_day(turn),
               "next_accusation": self._next_accusation(turn), "over": state.get("over", False),
               "max_stay": self.rules["max_stay"]}
        if p["status"] == ALIVE:
            ctx["neighbours"] = [{"name": board.name(r), "length": board.adj[p["room"]][r]}
                                 for r in board.neighbours(p["room"])]
            ctx["here"] = [scenario.name(h) for h in self._occupants(state, p["room"], player)]
            ctx["must_leave"] = p["turns_here"] >= self.rules["max_stay"]
            ctx["destinations"] = [board.name(r) for r in self._destinations(state, board, player)]
            ctx["movement"] = self.rules["movement"]["investigator" if p["role"] == INVESTIGATOR else "witness"]
            ctx["can_trap"] = (p["role"] == MURDERER and not ctx["here"] and p["room"] not in state["traps"])
            ctx["witnesses_here"] = [scenario.name(h) for h in self._occupants(state, p["room"], player)
                                     if players[h]["role"] != INVESTIGATOR]
            ctx["suspects"] = [scenario.name(h) for h in state["play_order"]
                               if players[h]["status"] == ALIVE and players[h]["role"] != INVESTIGATOR]
        if p["status"] == DEAD and p["role"] == MURDERER:
            ctx["innocents"] = [scenario.name(h) for h in state["play_order"]
                                if players[h]["status"] == ALIVE and players[h]["role"] == INNOCENT]
        if p["status"] == DEAD and p["role"] == INNOCENT:
            ctx["living"] = [scenario.name(h) for h in state["play_order"] if players[h]["status"] == ALIVE]
        return ctx

    def status(self, state, scenario) -> list[ev.Event]:
        board = self.board(scenario)
        return [ev.gm("clock", **self._clock(state["turn"] + 1)), self._summary(state, scenario, board),
                self._positions(state, board)]

    # -- balance tools (pbp simulate, pbp odds) ---------------------------------------------------
    def sample_scenario(self, players, rng):
        from pbp.rulesets.murder import balance

        return balance.sample_scenario(self.rules, players, rng)

    def game_summary(self, state, scenario):
        from pbp.rulesets.murder import balance

        return balance.game_summary(state)

    def odds(self):
        from pbp.rulesets.murder import balance

        return balance.calculators(self.rules)

    def legal_orders(self, state, scenario, player) -> list[list[Action]]:
        p = state["players"].get(player)
        if p is None or state.get("over"):
            return [[]]
        board = self.board(scenario)
        players = state["players"]
        turn = state["turn"] + 1

        def build(*pairs):
            return [Action(a, arg, i) for i, (a, arg) in enumerate(pairs)]

        if p["status"] == PRISON:
            return [[]]
        if p["status"] == DEAD:
            out = [[]]
            if p["role"] == INNOCENT:
                living = [h for h in state["play_order"] if players[h]["status"] == ALIVE and h != player]
                for room in board.order:
                    out.append(build(("hanter", {"salle": room, "room": None, "avertir": None, "warn": None})))
                    for h in living:
                        out.append(build(("hanter", {"salle": room, "room": None, "avertir": h, "warn": None})))
            elif p["role"] == MURDERER:
                for h in state["play_order"]:
                    q = players[h]
                    if q["status"] == ALIVE and q["role"] == INNOCENT:
                        for room in board.order:
                            if room != q["room"]:
                                out.append(build(("posseder", {"cible": h, "target": None, "salle": room,
                                                               "room": None})))
            return out
        moves = [None] if p["turns_here"] < self.rules["max_stay"] else []
        moves += self._destinations(state, board, player)
        extras: list[tuple | None] = [None]
        if p["role"] == MURDERER and not self._occupants(state, p["room"], player) and p["room"] not in state["traps"]:
            extras.append(("pieger", None))
        if p["role"] == INVESTIGATOR:
            for h in self._occupants(state, p["room"], player):
                if players[h]["role"] != INVESTIGATOR:
                    extras.append(("interroger", h))
            if self._accusation_day(turn):
                for h in state["play_order"]:
                    if players[h]["status"] == ALIVE and players[h]["role"] != INVESTIGATOR:
                        extras.append(("accuser", h))
        out = []
        for extra in extras:
            for move in moves:
                pairs = ([extra] if extra else []) + ([("deplacer", move)] if move else [])
                out.append(build(*pairs))
        return out


def _field(arg, *names):
    """The first given field of a map argument (French name, then English)."""
    if not isinstance(arg, dict):
        return None
    for n in names:
        if arg.get(n) is not None:
            return arg[n]
    return None


# -- one turn ---------------------------------------------------------------------------------------

class _Turn:
    """The resolution of one turn: mutates a private copy of the state, collects events."""

    def __init__(self, rs: Murder, state: dict, scenario, orders: dict, dice):
        self.rs, self.rules, self.state, self.scenario, self.dice = rs, rs.rules, state, scenario, dice
        self.orders = orders
        self.board = rs.board(scenario)
        self.players = state["players"]
        self.events: list[ev.Event] = []
        self.held: list[ev.Event] | None = None
        self.played: set[str] = set()
        state["turn"] = state["turn"] + 1
        self.turn = state["turn"]
        self.start_rooms = {h: p["room"] for h, p in self.players.items() if p["status"] == ALIVE}

    # -- small helpers
    def name(self, room):
        return self.board.name(room)

    def action(self, handle: str, action_id: str):
        order = self.orders.get(handle)
        if order is None:
            return None
        for a in order.actions:
            if a.id == action_id:
                return a
        return None

    def occupants(self, room, exclude=None):
        return self.rs._occupants(self.state, room, exclude)

    def murderers(self):
        return self.rs._murderers(self.state)

    def emit(self, event):
        (self.held if self.held is not None else self.events).append(event)

    def hold(self):
        """Keep the events of a walk (traps) until the move itself is told."""
        self.held = []

    # -- the turn
    def run(self):
        self.emit(ev.public("clock", **self.rs._clock(self.turn)))
        self.haunting()
        for h in self.state["play_order"]:
            if self.players[h]["status"] == ALIVE:
                self.play(h)
            self.played.add(h)
        self.pleas()
        if self.rs._accusation_day(self.turn):
            self.accusation()
        self.possessions()
        self.finish()

    # -- 1. dead innocents haunt
    def haunting(self):
        for h in self.state["play_order"]:
            p = self.players[h]
            act = self.action(h, "hanter")
            if p["status"] != DEAD or p["role"] != INNOCENT or act is None:
                continue
            room = self.board.lookup(_field(act.arg, "salle", "room"))
            target = _field(act.arg, "avertir", "warn")
            armed = room in self.state["traps"]
            data = {"room": self.name(room), "armed": armed, "target": target, "roll": None, "distance": None,
                    "warned": False, "reason": None}
            if target is not None:
                q = self.players[target]
                if not armed:
                    data["reason"] = "no_trap"
                elif q["status"] != ALIVE:
                    data["reason"] = "target_gone"
                else:
                    roll = self.dice.roll(f"{h}.portee", self.rules["ghosts"]["warning_range"],
                                          f"portée de l'avertissement de {h}")
                    distance = self.board.distance(room, q["room"])
                    data.update(roll=roll, distance=distance)
                    if distance is not None and distance <= roll.total:
                        data["warned"] = True
                        if room not in q["warnings"]:
                            q["warnings"].append(room)
                        self.emit(ev.private(target, "warning", room=self.name(room)))
                    else:
                        data["reason"] = "too_far"
            self.emit(ev.private(h, "haunt", **data))
            self.emit(ev.gm("haunt_gm", ghost=h, **data))

    # -- 2. the living, in the order of play
    def play(self, h: str):
        if self.action(h, "pieger") is not None:
            self.set_trap(h)
        act = self.action(h, "interroger")
        if act is not None:
            self.interrogate(h, act.arg)
        act = self.action(h, "deplacer")
        self.move(h, self.board.lookup(act.arg) if act is not None else None)

    def set_trap(self, h: str):
        p = self.players[h]
        room = p["room"]
        others = self.occupants(room, h)
        if others or room in self.state["traps"]:
            reason = "not_alone" if others else "already_trapped"
            self.emit(ev.private(h, "trap_failed", room=self.name(room), reason=reason, others=others))
            return
        self.state["traps"][room] = {"by": h, "turn": self.turn}
        self.emit(ev.private(self.murderers(), "trap_set", setter=h, room=self.name(room)))

    def interrogate(self, inv: str, w: str):
        pi, pw = self.players[inv], self.players[w]
        if pw["status"] != ALIVE or pw["room"] != pi["room"]:
            self.emit(ev.public("interrogation_missed", investigator=inv, witness=w, room=self.name(pi["room"])))
            return
        others = [x for x in self.occupants(pi["room"]) if x not in (inv, w)
                  and self.players[x]["role"] != INVESTIGATOR]
        roll = None
        if others:
            roll = self.dice.roll(f"{w}.verite", self.rules["truth_dice"], f"interrogatoire de {w}")
        score_name = self.rules["truth_score"]
        score = pw["scores"].get(score_name) if pw["role"] == INNOCENT else None
        if pw["role"] == MURDERER:
            instruction = "free"
        elif roll is not None and roll.total >= score:
            instruction = "no_truth"
        else:
            instruction = "truth"
        room = self.name(pi["room"])
        self.emit(ev.public("interrogation", investigator=inv, witness=w, room=room, others=others))
        self.emit(ev.private(w, "interrogated", investigator=inv, room=room, others=others, roll=roll,
                             instruction=instruction, score_name=score_name if score is not None else None,
                             score=score))
        self.emit(ev.private(inv, "interrogation_report", witness=w, room=room, others=others))
        sheet = self.rs._sheet(self.scenario, pw)
        self.emit(ev.gm("interrogation_gm", investigator=inv, witness=w, role=pw["role"], roll=roll,
                        score_name=score_name if score is not None else None, score=score,
                        instruction=instruction, alibi=str(sheet.get("alibi", "")).strip() or None))

    # movement -------------------------------------------------------------------------------------
    def may_enter(self, h: str, room: str) -> bool:
        if self.players[h]["role"] == INVESTIGATOR:
            return True
        return len(self.occupants(room, h)) <= self.rules["witness_room_limit"]

    def may_stop(self, h: str, room: str) -> bool:
        """The same two players are never together in a room two turns in a row."""
        here = set(self.occupants(room, h))
        return not here.intersection(self.players[h]["companions"])

    def must_leave(self, h: str) -> str | None:
        p = self.players[h]
        if p["turns_here"] >= self.rules["max_stay"]:
            return "stay"
        for c in p["companions"]:
            q = self.players[c]
            if c in self.played and q["status"] == ALIVE and q["room"] == p["room"]:
                return "companion"
        return None

    def move(self, h: str, dest: str | None):
        p = self.players[h]
        start = p["room"]
        obliged = self.must_leave(h)
        roll = None
        detail = {"destination": self.name(dest), "roll": None, "obliged": obliged, "reason": None,
                  "companion": None}
        rooms = [start]
        if dest is not None:
            expr = self.rules["movement"]["investigator" if p["role"] == INVESTIGATOR else "witness"]
            roll = self.dice.roll(f"{h}.deplacement", expr, f"déplacement de {h}")
            detail["roll"] = roll
            rooms, reason = self.plan(h, dest, roll.total)
            detail["reason"] = reason
        if len(rooms) == 1 and obliged:
            step = next((r for r in self.board.neighbours(start) if self.may_enter(h, r) and self.may_stop(h, r)),
                        None)
            if step is None:
                detail["reason"] = "stuck"
                self.emit(ev.gm("stuck", player=h, room=self.name(start), obliged=obliged))
            else:
                rooms = [start, step]
                detail["reason"] = "forced"
        forced = detail["reason"] == "forced"
        self.hold()
        outcome = self.walk(h, rooms[1:], possessed=False)
        held, self.held = self.held, None
        if outcome:
            detail["reason"] = outcome
        end = p["room"] if p["status"] == ALIVE else (p["died"] or {}).get("room")
        walked = rooms[:rooms.index(end) + 1] if end in rooms else [start]
        if len(walked) > 1:
            self.emit(ev.public("moved", player=h, path=[self.name(r) for r in walked], roll=roll,
                                forced=forced))
        else:
            self.emit(ev.public("stayed", player=h, room=self.name(start), roll=roll))
        detail["reached"] = self.name(end)
        if dest is not None or obliged:
            self.emit(ev.private(h, "move_detail", **detail))
        self.events.extend(held)

    def plan(self, h: str, dest: str, budget: int) -> tuple[list[str], str]:
        """The rooms a mover goes through towards `dest` with `budget` squares:
        along the shortest path, as far as the roll allows, never into a room they
        may not enter, stopping in the last room they may stop in."""
        start = self.players[h]["room"]
        rooms, cum = self.board.path(start, dest)
        reach, reason = 0, "arrived"
        for i in range(1, len(rooms)):
            if cum[i] > budget:
                reason = "short"
                break
            if not self.may_enter(h, rooms[i]):
                reason = "blocked"
                break
            reach = i
        stop = reach
        while stop > 0 and not self.may_stop(h, rooms[stop]):
            stop -= 1
            reason = "companion"
        return rooms[:stop + 1], reason

    def walk(self, h: str, rooms: list[str], possessed: bool) -> str | None:
        """Enter `rooms` one after the other; traps fire on the way. Returns
        "trap"/"died"/None."""
        p = self.players[h]
        for room in rooms:
            empty = not self.occupants(room, h)
            p["room"] = room
            if room not in self.state["traps"]:
                continue
            if possessed:
                self.state["traps"].pop(room)
                self.clear_warnings(room)
                self.emit(ev.public("trap_fired", player=h, room=self.name(room), survived=False,
                                    roll=None, score=None))
                self.kill(h, room, "trap")
                return "died"
            if room in p["warnings"]:
                self.state["traps"].pop(room)
                self.clear_warnings(room)
                self.emit(ev.private(h, "disarmed", room=self.name(room)))
                told = [m for m in self.murderers() if m != h]
                if told:
                    self.emit(ev.private(told, "trap_disarmed", room=self.name(room)))
                continue
            if empty:
                return "died" if not self.fire(h, room) else "trap"
        return None

    def fire(self, h: str, room: str) -> bool:
        p = self.players[h]
        trap = self.state["traps"].pop(room)
        self.clear_warnings(room)
        score_name = self.rules["trap_score"][p["role"]]
        score = p["scores"][score_name]
        roll = self.dice.roll(f"{h}.piege", self.rules["trap_dice"], f"piège de {self.name(room)}")
        survived = roll.total >= score
        public_roll = p["role"] == INVESTIGATOR  # only the investigators' survival score is public
        self.emit(ev.public("trap_fired", player=h, room=self.name(room), survived=survived,
                            roll=roll if public_roll else None, score=score if public_roll else None))
        self.emit(ev.private(h, "trap_roll", room=self.name(room), roll=roll, score_name=score_name, score=score,
                             survived=survived))
        self.emit(ev.gm("trap_gm", player=h, room=self.name(room), setter=trap["by"], roll=roll,
                        score_name=score_name, score=score, survived=survived))
        if not survived:
            self.kill(h, room, "trap")
        return survived

    def clear_warnings(self, room: str):
        for p in self.players.values():
            if room in p["warnings"]:
                p["warnings"].remove(room)

    def kill(self, h: str, room: str | None, cause: str):
        p = self.players[h]
        p.update(status=DEAD, room=None, turns_here=0, companions=[], prison=None, warnings=[],
                 died={"turn": self.turn, "room": room, "cause": cause})

    # -- 3. prison
    def pleas(self):
        conf = self.rules["prison"]
        for h in self.state["play_order"]:
            p = self.players[h]
            if p["status"] != PRISON or p["prison"]["since"] >= self.turn:
                continue
            score_name = self.rules["plea_score"][p["role"]]
            score = p["scores"][score_name]
            roll = self.dice.roll(f"{h}.plaidoirie", conf["dice"], f"plaidoirie de {h}")
            p["prison"]["pleas"] += 1
            released = roll.total >= score
            left = conf["turns"] - p["prison"]["pleas"]
            self.emit(ev.private(h, "plea_roll", roll=roll, score_name=score_name, score=score,
                                 released=released, left=left))
            self.emit(ev.gm("plea_gm", player=h, roll=roll, score_name=score_name, score=score,
                            released=released, left=left))
            if released:
                room = self.board.lookup(self.rules.get("release_room")) or self.board.hall
                p.update(status=ALIVE, room=room, turns_here=0, companions=[], prison=None)
                self.emit(ev.public("plea", player=h, released=True, left=left, room=self.name(room)))
            elif left <= 0:
                self.emit(ev.public("plea", player=h, released=False, left=0, room=None))
                self.emit(ev.public("executed", **self.rs._sheet_data(self.scenario, h, p)))
                self.kill(h, None, "executed")
            else:
                self.emit(ev.public("plea", player=h, released=False, left=left, room=None))

    # -- 4. accusation
    def accusation(self):
        votes = {}
        for h in self.state["play_order"]:
            p = self.players[h]
            act = self.action(h, "accuser")
            if p["role"] == INVESTIGATOR and p["status"] == ALIVE and act is not None:
                votes[h] = act.arg
        counts: dict[str, int] = {}
        for target in votes.values():
            if self.players[target]["status"] == ALIVE:
                counts[target] = counts.get(target, 0) + 1
        jailed, tie = None, False
        if counts:
            top = max(counts.values())
            best = [t for t in self.state["play_order"] if counts.get(t) == top]
            if len(best) == 1:
                jailed = best[0]
            else:
                tie = True
        if jailed:
            p = self.players[jailed]
            p.update(status=PRISON, room=None, turns_here=0, companions=[], warnings=[],
                     prison={"since": self.turn, "pleas": 0})
        self.emit(ev.public("accusation", votes=[{"investigator": i, "target": t} for i, t in votes.items()],
                            jailed=jailed, tie=tie, prison_turns=self.rules["prison"]["turns"]))

    # -- 5. dead murderers possess
    def possessions(self):
        for g in self.state["play_order"]:
            p = self.players[g]
            act = self.action(g, "posseder")
            if p["status"] != DEAD or p["role"] != MURDERER or act is None:
                continue
            target = _field(act.arg, "cible", "target")
            dest = self.board.lookup(_field(act.arg, "salle", "room"))
            q = self.players[target]
            data = {"target": target, "room": self.name(dest), "roll": None, "path": [], "died": False,
                    "reason": None}
            if q["status"] != ALIVE or q["room"] == dest:
                data["reason"] = "target_gone" if q["status"] != ALIVE else "already_there"
            else:
                roll = self.dice.roll(f"{g}.possession", self.rules["ghosts"]["possession"], f"possession par {g}")
                data["roll"] = roll
                rooms, reason = self.plan(target, dest, roll.total)
                data["reason"] = reason
                self.hold()
                outcome = self.walk(target, rooms[1:], possessed=True)
                held, self.held = self.held, None
                end = q["room"] if q["status"] == ALIVE else q["died"]["room"]
                walked = rooms[:rooms.index(end) + 1]
                data.update(path=[self.name(r) for r in walked], died=outcome == "died")
                if len(walked) > 1:
                    self.emit(ev.public("sleepwalk", player=target, path=data["path"]))
                    self.emit(ev.private(target, "possessed", path=data["path"], died=data["died"]))
                self.events.extend(held)
            self.emit(ev.private(g, "possession", **data))

    # -- 6. end of turn
    def finish(self):
        state, players = self.state, self.players
        for h in state["play_order"]:
            p = players[h]
            if p["status"] != ALIVE:
                continue
            if self.start_rooms.get(h) == p["room"]:
                p["turns_here"] += 1
            else:
                p["turns_here"] = 1
        self.rs._companions(state)
        for p in players.values():
            p["warnings"] = [r for r in p["warnings"] if r in state["traps"]]
        self.check_end()
        self.emit(self.rs._positions(state, self.board))
        next_turn = self.turn + 1
        if not state["over"]:
            self.emit(ev.public("next", **self.rs._clock(next_turn)))
        murderers = self.murderers()
        for h in state["play_order"]:
            p = players[h]
            data = {"status": p["status"], "role": p["role"], "room": self.name(p["room"]),
                    "turns_here": p["turns_here"], "must_leave": p["status"] == ALIVE
                    and p["turns_here"] >= self.rules["max_stay"],
                    "companions": list(p["companions"]), "warnings": [self.name(r) for r in p["warnings"]],
                    "prison_left": (self.rules["prison"]["turns"] - p["prison"]["pleas"]) if p["prison"] else None,
                    "traps": [], "accomplices": [], "clock": self.rs._clock(next_turn), "over": state["over"]}
            if p["role"] == MURDERER:
                data["traps"] = [self.name(r) for r in self.board.order if r in state["traps"]]
                data["accomplices"] = [m for m in murderers if m != h]
            self.emit(ev.private(h, "situation", **data))
        self.emit(self.rs._summary(state, self.scenario, self.board))

    def check_end(self):
        state, players = self.state, self.players
        order = state["play_order"]
        by_role = {role: [h for h in order if players[h]["role"] == role] for role in ROLES}
        gone = lambda hs: all(players[h]["status"] == DEAD for h in hs)  # noqa: E731
        winner = reason = None
        if gone(by_role[MURDERER]):
            winner, reason = "investigators", "murderers_gone"
        elif gone(by_role[INNOCENT]):
            winner, reason = "murderers", "innocents_gone"
        elif gone(by_role[INVESTIGATOR]):
            winner, reason = "murderers", "investigators_gone"
        if winner is None:
            return
        state["over"], state["winner"] = True, winner
        if winner == "investigators":
            winners = by_role[INVESTIGATOR] + [h for h in by_role[INNOCENT] if players[h]["status"] != DEAD]
        else:
            winners = list(by_role[MURDERER])
        sheets = [self.rs._sheet_data(self.scenario, h, players[h]) for h in order]
        self.emit(ev.public("game_over", winner=winner, reason=reason, winners=winners, sheets=sheets))
