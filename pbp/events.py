"""The event record: what happened in a turn, and who may know it.

A ruleset returns events; each carries its audience:
- `PUBLIC`: the forum thread;
- a tuple of player handles: those players' private reports;
- `GM`: the MJ's report only.
The MJ sees every event. A renderer is only ever handed the events of its own
audience (`for_audience`), so a secret cannot reach the public post unless a
ruleset marks it public.
"""

from __future__ import annotations

from dataclasses import dataclass

PUBLIC = "public"
GM = "gm"


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: dict
    audience: str | tuple[str, ...] = GM

    def to_dict(self) -> dict:
        audience = list(self.audience) if isinstance(self.audience, tuple) else self.audience
        return {"kind": self.kind, "audience": audience, "data": self.data}

    @classmethod
    def from_dict(cls, raw: dict) -> "Event":
        audience = raw["audience"]
        return cls(raw["kind"], raw.get("data") or {}, tuple(audience) if isinstance(audience, list) else audience)


def public(kind: str, **data) -> Event:
    return Event(kind, data, PUBLIC)


def private(players, kind: str, **data) -> Event:
    """An event for some players (one handle or several); the MJ sees it too."""
    players = (players,) if isinstance(players, str) else tuple(players)
    return Event(kind, data, players)


def gm(kind: str, **data) -> Event:
    return Event(kind, data, GM)


def by_audience(events) -> dict[str, list[Event]]:
    """Every audience's events in one pass: `PUBLIC`, `GM` and each player
    addressed (same filtering as `for_audience`, for many readers at once)."""
    out: dict[str, list[Event]] = {PUBLIC: [], GM: list(events)}
    for e in events:
        if e.audience == PUBLIC:
            out[PUBLIC].append(e)
        elif isinstance(e.audience, tuple):
            for player in e.audience:
                out.setdefault(player, []).append(e)
    return out


def for_audience(events, audience: str) -> list[Event]:
    """The events one renderer may see.

    `PUBLIC` -> public events; `GM` -> all events; a handle -> the events
    addressed to that player (public ones are in the public post).
    """
    if audience == GM:
        return list(events)
    if audience == PUBLIC:
        return [e for e in events if e.audience == PUBLIC]
    return [e for e in events if isinstance(e.audience, tuple) and audience in e.audience]
