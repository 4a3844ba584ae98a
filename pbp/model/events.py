"""The event record: what happened in a turn, and who may know it.

A ruleset returns events; each carries its audience, one of three types:
- `PUBLIC` (`Public`): the forum thread;
- `Players(h, ...)`: those players' private reports;
- `GM` (`Gm`): the MJ's report only.
The MJ sees every event. The types never compare equal to each other nor to a
string, so no forum handle can ever be taken for the public thread or the MJ
(`Players("gm")` is a player whose handle is gm, never `GM`).

A renderer is only ever handed the events of its own audience: `by_audience`
is the one filter, the one `turn_posts.render_all` uses, so a secret cannot reach the
public post unless a ruleset marks it public.

events.yaml keeps a readable form: `audience: public`, `audience: gm`,
`audience: [lucy, bob]` (a list, even of one handle).
"""

from __future__ import annotations

from pbp.base.record import FrozenRecord


class Audience:
    """Who may read an event, or a post. Subclasses: Public, Gm, Players.

    Each subclass writes itself for events.yaml (`to_yaml`).
    Templates read it through `is_public`, `is_gm` and `handles` (also
    `handle in e.audience`, `e.audience[0]`, iteration over the handles)."""

    __slots__ = ()
    is_public = False
    is_gm = False

    @property
    def handles(self) -> tuple[str, ...]:
        return ()

    def __iter__(self):
        return iter(self.handles)

    def __len__(self) -> int:
        return len(self.handles)

    def __getitem__(self, index):
        return self.handles[index]

    def __contains__(self, handle) -> bool:
        return handle in self.handles


class Public(Audience):
    """The forum thread. One instance: `PUBLIC`."""

    __slots__ = ()
    is_public = True

    def __repr__(self) -> str:
        return "PUBLIC"

    def __reduce__(self):
        return "PUBLIC"  # pickle and deepcopy keep the one instance

    def to_yaml(self) -> str:
        return "public"


class Gm(Audience):
    """The MJ. One instance: `GM`."""

    __slots__ = ()
    is_gm = True

    def __repr__(self) -> str:
        return "GM"

    def __reduce__(self):
        return "GM"

    def to_yaml(self) -> str:
        return "gm"


class Players(Audience):
    """Some players, by forum handle: `Players("lucy")`, `Players("m1", "m2")`.
    The reader of one private report is `Players(handle)`."""

    __slots__ = ("_handles",)

    def __init__(self, *handles: str):
        if not handles:
            raise ValueError("Players() needs at least one handle")
        for h in handles:
            if not isinstance(h, str):
                raise TypeError(f"a player's handle is a str, not {h!r}")
        object.__setattr__(self, "_handles", tuple(handles))

    def __setattr__(self, name, value):
        raise AttributeError("an audience is immutable")

    @property
    def handles(self) -> tuple[str, ...]:
        return self._handles

    def __eq__(self, other) -> bool:
        return type(other) is Players and other._handles == self._handles

    def __hash__(self) -> int:
        return hash(("Players", self._handles))

    def __repr__(self) -> str:
        return "Players(" + ", ".join(map(repr, self._handles)) + ")"

    def __reduce__(self):
        return (Players, self._handles)

    def to_yaml(self) -> list[str]:
        return list(self._handles)


PUBLIC = Public()
GM = Gm()


def audience_from_yaml(raw) -> Audience:
    """The typed audience of events.yaml's readable form; ValueError if it is none."""
    if raw == "public":
        return PUBLIC
    if raw == "gm":
        return GM
    if isinstance(raw, list) and raw and all(isinstance(h, str) for h in raw):
        return Players(*raw)
    raise ValueError(f"not an audience: {raw!r} (public, gm, or a list of handles)")


class Event(FrozenRecord):
    __slots__ = ("kind", "data", "audience")

    def __init__(self, kind: str, data: dict, audience: Audience = GM):
        # a bare string or tuple would bring back handles that can equal "gm"
        if not isinstance(audience, Audience):
            raise TypeError(f"an event's audience is PUBLIC, GM or Players(...), not {audience!r}")
        self.kind = kind
        self.data = data
        self.audience = audience

    def to_dict(self) -> dict:
        return {"kind": self.kind, "audience": self.audience.to_yaml(), "data": self.data}

    @classmethod
    def from_dict(cls, raw: dict) -> "Event":
        return cls(raw["kind"], raw.get("data") or {}, audience_from_yaml(raw["audience"]))


def public(kind: str, **data) -> Event:
    return Event(kind, data, PUBLIC)


_READERS: dict[tuple, Players] = {}  # an audience is immutable: one per set of handles


def _players(handles: tuple) -> Players:
    audience = _READERS.get(handles)
    if audience is None:
        audience = Players(*handles)
        if len(_READERS) < 10_000:
            _READERS[handles] = audience
    return audience


def private(players, kind: str, **data) -> Event:
    """An event for some players (one handle or several); the MJ sees it too."""
    players = (players,) if isinstance(players, str) else tuple(players)
    return Event(kind, data, _players(players))


def gm(kind: str, **data) -> Event:
    return Event(kind, data, GM)


def by_audience(events) -> dict[Audience, list[Event]]:
    """Every reader's events in one pass: `PUBLIC` gets the public events, `GM`
    all of them, and `Players(h)` for each player addressed the events addressed
    to h (the public ones are in the public post). The one audience filter."""
    out: dict[Audience, list[Event]] = {PUBLIC: [], GM: list(events)}
    for e in events:
        if e.audience is PUBLIC:
            out[PUBLIC].append(e)
        elif isinstance(e.audience, Players):
            for handle in e.audience.handles:
                out.setdefault(Players(handle), []).append(e)
    return out


# -- collecting a turn's events ---------------------------------------------------------

class Events(list):
    """A turn's events as a ruleset collects them: a list, with a builder per
    audience (`events.public(kind, ...)`, `.private(handle, kind, ...)`,
    `.gm(kind, ...)`). `collector(quiet)` gives one; a simulated turn's
    (`GmOrders.quiet`) is a `QuietEvents`, which builds nothing."""

    __slots__ = ()
    quiet = False

    def public(self, kind: str, **data) -> None:
        self.append(Event(kind, data, PUBLIC))

    def private(self, players, kind: str, **data) -> None:
        self.append(private(players, kind, **data))

    def gm(self, kind: str, **data) -> None:
        self.append(Event(kind, data, GM))


class QuietEvents(Events):
    """The events of a turn nobody reads (a simulation plays thousands of
    games and reads their states): the builders build nothing, and what is
    appended is dropped, so it stays empty. A ruleset that reads some of its
    own events back in a simulated turn keeps those in a list of its own."""

    __slots__ = ()
    quiet = True

    def public(self, kind: str, **data) -> None:
        pass

    def private(self, players, kind: str, **data) -> None:
        pass

    def gm(self, kind: str, **data) -> None:
        pass

    def append(self, event) -> None:
        pass

    def extend(self, events) -> None:
        pass

    def insert(self, index, event) -> None:
        pass

    def __iadd__(self, events):
        return self


def collector(quiet: bool = False) -> Events:
    """Where a ruleset's resolve puts its events: `collector(gm_orders.quiet)`."""
    return QuietEvents() if quiet else Events()
