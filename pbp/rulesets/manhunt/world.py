"""The labyrinth: cells, exits, doors, traps, and paths through them.

A read-only view of world.yaml built once per campaign; the mutable part
(which doors were opened) lives in the state and is passed in.
"""

from __future__ import annotations

from collections import deque

CLOSABLE = ("porte", "grille", "rideau")


def door_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


class Labyrinth:
    def __init__(self, world: dict, directions: list[str]):
        self.cells: dict[str, dict] = world.get("cells") or {}
        self.directions = directions
        self.traps: dict[str, dict] = {}
        for trap in world.get("traps") or []:
            self.traps[str(trap["cell"])] = trap
        # neighbours in the fixed order of `directions`, for reproducible random picks
        self.exits: dict[str, list[tuple[str, dict]]] = {}
        for cell_id, cell in self.cells.items():
            exits = (cell or {}).get("exits") or {}
            self.exits[cell_id] = [(d, exits[d]) for d in directions if d in exits]

    def name(self, cell_id: str | None) -> str:
        if cell_id is None:
            return ""
        return self.cells[cell_id].get("name", cell_id)

    def neighbour(self, cell_id: str, direction: str) -> tuple[str, dict] | None:
        for d, exit_ in self.exits.get(cell_id, []):
            if d == direction:
                return exit_["to"], exit_
        return None

    def neighbours(self, cell_id: str) -> list[str]:
        return [e["to"] for _, e in self.exits.get(cell_id, [])]

    def is_exit(self, cell_id: str) -> bool:
        return bool(self.cells[cell_id].get("exit"))

    def door_open(self, a: str, exit_: dict, open_doors: set[str]) -> bool:
        door = exit_.get("door", "ouverture")
        if door not in CLOSABLE:
            return True
        return exit_.get("state", "fermee") == "ouverte" or door_key(a, exit_["to"]) in open_doors

    def step_towards(self, start: str, goal: str) -> str | None:
        """The next cell on a shortest path from start to goal (None if none)."""
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
            door = exit_.get("door", "ouverture")
            exits.append({"direction": direction, "door": door,
                          "open": self.door_open(cell_id, exit_, open_doors)})
        return {"name": cell.get("name", cell_id), "orientation": cell.get("orientation", ""),
                "description": cell.get("description", ""), "corridor": bool(cell.get("corridor")),
                "exit": bool(cell.get("exit")), "exits": exits}
