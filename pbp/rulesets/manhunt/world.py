"""The labyrinth: cells, exits, doors, traps, and paths through them.

A module of its own because the labyrinth is a concern every other module
shares (checks, the turn, the bots, the reports) and none owns: a read-only
view of world.yaml, built once per scenario (`labyrinth`), while the mutable
part (which doors were opened) lives in the state and is passed in.
"""

from __future__ import annotations

from collections import deque

#: the doorway of an exit that names none, and the state of a closable doorway
#: that says none (world.yaml's format: schema.yaml gives the same default)
DEFAULT_DOOR = "ouverture"
CLOSED, OPEN = "fermee", "ouverte"
DEFAULT_DOOR_STATE = CLOSED


def door_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def labyrinth(scenario, rules: dict) -> "Labyrinth":
    """The scenario's labyrinth, built on first use. The key holds the rules it is
    built from: a simulation may play one scenario under two sets of rules."""
    directions = list(rules["directions"])
    closable = sorted(d for d, spec in rules["doors"].items() if spec.get("closable"))
    key = f"manhunt.labyrinth:{','.join(directions)}:{','.join(closable)}"
    return scenario.derived(key, lambda: Labyrinth(scenario.world, directions, closable))


class Labyrinth:
    def __init__(self, world: dict, directions: list[str], closable=()):
        self.cells: dict[str, dict] = world.get("cells") or {}
        self.directions = directions
        self.closable = frozenset(closable)
        self.traps: dict[str, dict] = {}
        for trap in world.get("traps") or []:
            self.traps[str(trap["cell"])] = trap
        # neighbours in the fixed order of `directions`, for reproducible random picks
        self.exits: dict[str, list[tuple[str, dict]]] = {}
        for cell_id, cell in self.cells.items():
            exits = (cell or {}).get("exits") or {}
            self.exits[cell_id] = [(d, exits[d]) for d in directions if d in exits]
        # what the turn and the bots ask again and again, worked out once: the
        # labyrinth is read-only (the doors opened live in the state, and no
        # path below depends on them)
        self._by_direction = {cell_id: {d: (e["to"], e) for d, e in exits}
                              for cell_id, exits in self.exits.items()}
        self._neighbours = {cell_id: tuple(e["to"] for _, e in exits) for cell_id, exits in self.exits.items()}
        self._directions = {cell_id: tuple(d for d, _ in exits) for cell_id, exits in self.exits.items()}
        self._next_step: dict[tuple[str, str], str | None] = {}  # (start, goal) -> step_towards
        self._exit_cells = frozenset(cell_id for cell_id, cell in self.cells.items() if (cell or {}).get("exit"))

    def name(self, cell_id: str | None) -> str:
        if cell_id is None:
            return ""
        return self.cells[cell_id].get("name", cell_id)

    def neighbour(self, cell_id: str, direction: str) -> tuple[str, dict] | None:
        by_direction = self._by_direction.get(cell_id)
        return by_direction.get(direction) if by_direction else None

    def neighbours(self, cell_id: str) -> list[str]:
        return list(self._neighbours.get(cell_id, ()))

    def exit_directions(self, cell_id: str) -> tuple[str, ...]:
        """The directions out of a cell, in the order of `directions`."""
        return self._directions.get(cell_id, ())

    def is_exit(self, cell_id: str) -> bool:
        return cell_id in self._exit_cells

    @staticmethod
    def door(exit_: dict) -> str:
        return exit_.get("door", DEFAULT_DOOR)

    def door_open(self, a: str, exit_: dict, open_doors: set[str]) -> bool:
        if self.door(exit_) not in self.closable:
            return True
        return exit_.get("state", DEFAULT_DOOR_STATE) == OPEN or door_key(a, exit_["to"]) in open_doors

    def closable_doorways(self) -> list[tuple[str, str, dict]]:
        """Each doorway that can be closed, once (from the first of its two cells
        in world order): (cell, direction, exit)."""
        out, seen = [], set()
        for cell, exits in self.exits.items():
            for direction, exit_ in exits:
                key = door_key(cell, exit_["to"])
                if self.door(exit_) in self.closable and key not in seen:
                    seen.add(key)
                    out.append((cell, direction, exit_))
        return out

    def step_towards(self, start: str, goal: str) -> str | None:
        """The next cell on a shortest path from start to goal (None if none)."""
        key = (start, goal)
        if key not in self._next_step:
            self._next_step[key] = self._first_step(start, goal)
        return self._next_step[key]

    def _first_step(self, start: str, goal: str) -> str | None:
        if start == goal:
            return None
        first: dict[str, str] = {}
        queue = deque()
        for n in self.neighbours(start):
            if n not in first:
                first[n] = n
                queue.append(n)
        seen = {start}
        while queue:
            cell = queue.popleft()
            if cell == goal:
                return first[cell]
            if cell in seen:
                continue
            seen.add(cell)
            for n in self.neighbours(cell):
                if n not in first and n != start:
                    first[n] = first[cell]
                    queue.append(n)
        return None

    def describe(self, cell_id: str, open_doors: set[str]) -> dict:
        """What a Péji standing in a cell sees (Annexe 3): name, orientation,
        description, and each exit by cardinal point with its door and state."""
        cell = self.cells[cell_id]
        exits = []
        for direction, exit_ in self.exits[cell_id]:
            exits.append({"direction": direction, "door": self.door(exit_),
                          "open": self.door_open(cell_id, exit_, open_doors)})
        return {"name": cell.get("name", cell_id), "orientation": cell.get("orientation", ""),
                "description": cell.get("description", ""), "corridor": bool(cell.get("corridor")),
                "exit": bool(cell.get("exit")), "exits": exits}
