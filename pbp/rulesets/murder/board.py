"""The lab's board: rooms joined by passages of a length in squares (world.yaml),
and the shortest paths through them.

A module of its own because every other part needs it (checks name rooms, the
turn walks paths, the bots list destinations, the secrecy hook names trapped
rooms): a read-only view of world.yaml, built once per scenario (`board_of`). The
mutable part of the game (who is where, the traps) lives in the state.
"""

from __future__ import annotations

import heapq

from pbp.model.orders import normalize_id
from pbp.model.vocabulary import split_article


def bare(name) -> str:
    """A room's name without its article: "Serre" for "la Serre", "Main Hall" for
    "the Main Hall" (what a player may type, what a list of values to type shows)."""
    text = split_article(str(name))[1]
    return text[4:] if text.lower().startswith("the ") else text


class Board:
    """Rooms joined by passages of a length in squares (world.yaml)."""

    def __init__(self, world: dict):
        self.hall = str(world.get("hall", "hall"))
        self.rooms: dict[str, dict] = {str(k): (v if isinstance(v, dict) else {"name": str(v or k)})
                                       for k, v in (world.get("rooms") or {}).items()}
        self.order = list(self.rooms)
        self.adj: dict[str, dict[str, int]] = {r: {} for r in self.rooms}
        #: what is wrong with the passages: (message key, params), for validate_scenario
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
        # shortest paths from a room, computed on first use: the board never changes
        self._paths: dict[str, dict[str, tuple]] = {}
        self._lookup = {}
        for room_id, info in self.rooms.items():
            self._lookup[normalize_id(room_id)] = room_id
            name = str(info.get("name", room_id))
            self._lookup.setdefault(normalize_id(name), room_id)
        for room_id, info in self.rooms.items():
            # a name carries its article ("la Serre"): a player may write it without
            self._lookup.setdefault(normalize_id(bare(info.get("name", room_id))), room_id)
            for other in info.get("also") or ():  # the name world.yaml wrote, when shown in another language
                self._lookup.setdefault(normalize_id(other), room_id)
                self._lookup.setdefault(normalize_id(bare(other)), room_id)

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

    def label(self, room: str | None) -> str | None:
        """A room's name without its article: what a player types, what refusals
        and lists of values show ("Serre expérimentale")."""
        return None if room is None else bare(self.name(room))

    def labels(self) -> list[str]:
        return [self.label(r) for r in self.order]

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


def world_in(world: dict, lang: str, names: dict) -> dict:
    """world.yaml with each room named as data.yaml's `room_names` says in `lang`
    where world.yaml keeps the name the data gives in French (the bundled board,
    copied into an English campaign); the name as written stays one a player may
    type (`also`). A room the MJ named themselves keeps its name."""
    if lang == "fr" or not isinstance(world.get("rooms"), dict):
        return world
    rooms = {}
    for room_id, info in world["rooms"].items():
        own = info if isinstance(info, dict) else {"name": info}  # `serre: la Serre` is a name too
        written = own.get("name")
        known = names.get(written) if isinstance(written, str) else None
        shown = known.get(lang) if isinstance(known, dict) else None
        rooms[room_id] = {**own, "name": shown, "also": [written]} if shown else info
    return {**world, "rooms": rooms}


def board_of(scenario) -> Board:
    """The board of a scenario's world, built once per scenario."""
    return scenario.derived("murder.board", lambda: Board(scenario.world))
