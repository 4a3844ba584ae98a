"""What a ruleset is, and how pbp finds one.

A ruleset is a package: `pbp/rulesets/<id>/` for the built-in ones, or any
package registered under the entry-point group `pbp.rulesets`. It holds:

- `__init__.py` exposing `RULESET`, a `Ruleset` subclass;
- `data.yaml`: every rules number (costs, thresholds, tables, dice) and the
  order schema (`actions`, `arg_types`, `default_orders`); a campaign's
  `rules:` section overrides any of it;
- `messages.yaml`: its refusal messages in fr and en;
- `schema.yaml` (optional): the shapes of world.yaml, characters.yaml and
  state.yaml, checked when the campaign loads them (pbp/model/schema.py);
- `README.md`: the rules decisions taken where the seed is silent.

A ruleset does no I/O and no printing: it gets a state, the turn's orders and a
dice roller, and returns a new state and events. Adding a ruleset means copying
a folder; nothing in the core names one.
"""

from __future__ import annotations

import importlib
import marshal
from abc import ABC, abstractmethod
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from pbp.base import i18n, yamlio
from pbp.base.errors import PbpError, UnknownRuleError, UnknownRulesetError
from pbp.base.record import Record
from pbp.model.events import GM, PUBLIC, Audience, Event

if TYPE_CHECKING:  # imported where they are used: most commands need neither
    from pbp.model import vocabulary
    from pbp.model.commands import Command

ENTRY_POINT_GROUP = "pbp.rulesets"


class Scenario(Record):
    """What a campaign fixes once for all its turns."""

    __slots__ = ("world", "characters", "roster", "_derived")
    FIELDS = ("world", "characters", "roster")  # `_derived` is a cache: not compared, not shown

    def __init__(self, world: dict, characters: dict, roster: dict[str, dict]):
        self.world = world
        self.characters = characters
        self.roster = roster  # forum handle -> {"character": name, ...}
        self._derived = {}  # what `derived` built, by key

    def name(self, handle: str) -> str:
        """The character name a player's handle plays."""
        return (self.roster.get(handle) or {}).get("character", handle)

    def derived(self, key: str, build):
        """What a ruleset computes once from this scenario (a labyrinth graph,
        parsed sheets...): `build()` on first use, the same object after. A
        scenario is never changed once made, so nothing can go stale."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]


class Refusal(Record):
    """An order the rules refuse. `at` is the path of the offending value in its
    file (e.g. ("actions", 1)), so the core can name the line."""

    __slots__ = ("key", "at", "params")

    def __init__(self, key: str, at: tuple = (), params: dict | None = None):
        self.key = key
        self.at = at
        self.params = {} if params is None else params


class Refusals(list):
    """The one collector of refusals, for the core's order checks and the
    rulesets' own: a list of Refusal with `add(key, at, **params)`. The core
    places each on its line (pbp.model.orders.place)."""

    def add(self, key: str, at: tuple = (), /, **params) -> None:
        self.append(Refusal(key, tuple(at), params))


class Resolution(Record):
    __slots__ = ("state", "events")

    def __init__(self, state: dict, events: list[Event]):
        self.state = state
        self.events = events


# -- capabilities: what a ruleset provides beyond playing turns ------------------------
#: `sample_scenario`, `bot_orders` (or `legal_orders`) and `game_summary`: `pbp simulate`
SIMULATE = "simulate"
#: `odds()`: `pbp odds --rule <id>.<name>`
ODDS = "odds"
#: `commands`: `pbp <id> <command>` (pbp.model.commands declares them)
COMMANDS = "commands"
CAPABILITIES = (SIMULATE, ODDS, COMMANDS)


class Ruleset(ABC):
    """Base class: override the hooks below. `self.rules` is the data file with
    the campaign's overrides merged in."""

    id: ClassVar[str] = ""
    #: folder name of the bundled example under campaigns/ (None: no example)
    example: ClassVar[str | None] = None
    #: what it provides beyond playing turns (SIMULATE, ODDS, COMMANDS): the
    #: core asks this, never "try and see if it raises"
    capabilities: ClassVar[frozenset[str]] = frozenset()
    #: its own commands, reachable as `pbp <id> <command>` (capability COMMANDS)
    commands: ClassVar[tuple[Command, ...]] = ()

    def __init__(self, overrides: dict | None = None):
        self.rules = merge_overrides(self.default_data(), overrides or {})

    # -- data --------------------------------------------------------------
    @classmethod
    def folder(cls) -> Path:
        import sys

        return Path(sys.modules[cls.__module__].__file__).parent

    @classmethod
    def for_campaign(cls, root: Path, overrides: dict | None = None, lang: str = "fr") -> "Ruleset":
        """The ruleset a campaign at `root` plays, with its `rules:` overrides: most
        are the data file's; the data ruleset reads the campaign's own rules.yaml."""
        return cls(overrides)

    #: the campaign files its rules were read from (name -> bytes), recorded with
    #: every turn (pbp/engine/rules_record.py); a built-in ruleset's rules are its code
    #: and data.yaml, and campaign.yaml's `rules:` (recorded too): none
    sources: dict[str, bytes] = MappingProxyType({})

    @classmethod
    def from_sources(cls, sources: dict[str, bytes], overrides: dict | None = None, lang: str = "fr",
                     shown: dict[str, str] | None = None) -> "Ruleset":
        """The ruleset as a turn was played with it: from the bytes of its rules
        files as the turn recorded them (`sources`, as `sources` gave them),
        `shown` naming where each file was read (a turn folder's copy)."""
        return cls(overrides)

    @classmethod
    def shared_data(cls) -> dict:
        """data.yaml as read once for the process (its messages registered with
        it), shared: to read, never to change (`default_data` is a copy)."""
        cached = cls.__dict__.get("_default_data")
        if cached is None:
            cached = yamlio.load_data_file(cls.folder() / "data.yaml") or {}
            cls._default_data = cached
            messages = cls.folder() / "messages.yaml"
            if messages.exists():
                i18n.register_file(messages, cls.id)
        return cached

    @classmethod
    def default_data(cls) -> dict:
        """A copy of data.yaml of the caller's own."""
        return plain_copy(cls.shared_data())

    @classmethod
    def schema(cls) -> dict:
        """The schemas of the campaign's files (`world`, `characters`, `state`: compiled
        nodes of pbp.model.schema) from `schema.yaml` in the ruleset's folder, read once.
        A ruleset without a schema.yaml gets {}: its files are not checked."""
        cached = cls.__dict__.get("_schema")
        if cached is None:
            from pbp.model import schema

            path = cls.folder() / "schema.yaml"
            cached = schema.load(path) if path.exists() else {}
            cls._schema = cached
        return cached

    @classmethod
    def phrasings(cls) -> dict:
        """How players write this ruleset's orders in plain text (`phrasings.yaml` in
        its folder, read once; {} without one): per action and language the phrasings
        it accepts, and where the names of argument values come from. Read by
        `pbp orders import` (pbp/plaintext/importer.py) and `import_names`."""
        cached = cls.__dict__.get("_phrasings")
        if cached is None:
            path = cls.folder() / "phrasings.yaml"
            cached = (yamlio.load_data_file(path) or {}) if path.exists() else {}
            cls._phrasings = cached
        return cached

    @property
    def actions(self) -> dict:
        """The order schema: action id -> {arg, en, aliases, ...rules numbers}."""
        return self.rules.get("actions", {})

    # -- hooks ---------------------------------------------------------------
    def world_in(self, world: dict, lang: str) -> dict:
        """world.yaml as a campaign in `lang` names it: the names the MJ kept from
        the ruleset's own data (a French example copied into an English campaign)
        in that language, where the data has them. Default: as written."""
        return world

    def validate_scenario(self, scenario: Scenario) -> list[PbpError]:
        """Consistency errors in world.yaml / characters.yaml (with file names)."""
        return []

    def validate_state(self, state: dict, scenario: Scenario) -> list[PbpError]:
        """What the schema of state.yaml cannot say about a state the MJ may have edited
        (a position off the grid, a status without its details...). It has passed the
        schema when the ruleset has one. Errors name "state.yaml"; the core places them."""
        return []

    @abstractmethod
    def setup(self, scenario: Scenario, dice, quiet: bool = False) -> Resolution:
        """Turn 0: the initial state (sheet draw, placement) and its events.
        `quiet`: a simulated game (`pbp simulate`), whose events nobody reads:
        the ruleset may build none; the state and the dice drawn are the same."""

    def players_to_play(self, state: dict, scenario: Scenario) -> list[str]:
        """Handles still in play this turn (their characters get orders: theirs,
        or the default ones). A file from anyone else is ignored, with a note."""
        return list(scenario.roster)

    def lost_turn(self, state: dict, scenario: Scenario, player: str) -> str | None:
        """Why `player`, still in play, cannot act this turn (a message key of
        this ruleset, e.g. "panic"), or None. Orders sent for a lost turn are
        accepted and their actions ignored, and the player and the MJ are told;
        the roleplay still counts. The player gets no actions at all."""
        return None

    def check_orders(self, state: dict, scenario: Scenario, orders) -> list[Refusal]:
        """Rules checks of one player's orders against the state (legal move, costs...)."""
        return []

    def check_gm(self, state: dict, scenario: Scenario, gm_orders) -> list[Refusal]:
        """Rules checks of the MJ's orders in gm.yaml (`at` is relative to `orders`)."""
        return []

    @abstractmethod
    def resolve(self, state: dict, scenario: Scenario, orders: dict, gm_orders, dice) -> Resolution:
        """One turn: the new state and the events, from validated orders and dice."""

    def is_over(self, state: dict) -> bool:
        return False

    def standing(self, state: dict, scenario: Scenario) -> list[dict]:
        """Where each character stands, for the last lines of the public post
        (one line each, "Lucy : en jeu"): `{"name": character, "handle": handle,
        "status": key}` in roster order, `status` a message key of this ruleset's
        messages.yaml ("standing_escaped" or "<id>.standing_escaped") or of the
        core's (standing_playing, standing_dead, standing_escaped, standing_out),
        optionally with `"params"` for it; words said of the character, one key
        per genre where they must agree. It is public: only what the thread may
        know. Default: still playing or out, from `players_to_play`; nothing once
        the game is over (its last post says how it ended)."""
        if self.is_over(state):
            return []
        playing = set(self.players_to_play(state, scenario))
        return [{"name": scenario.name(h), "handle": h, "status": "standing_playing" if h in playing else "standing_out"}
                for h in scenario.roster]

    def order_context(self, state: dict, scenario: Scenario, player: str) -> dict:
        """What a player's blank order form lists (exits, items, targets...)."""
        return {}

    def arg_context(self, state: dict, scenario: Scenario, player: str) -> dict:
        """What the argument types need to know of the game for `player` now
        (pbp.model.argcontext.ArgContext: `characters`, `alive`, `in_sight`, `places`,
        `adjacent`, `items`, `carried`, each optional). The order form lists these
        as the player's choices and the import reads names among them. Default:
        nothing beyond the roster (the ruleset's checks judge the names)."""
        return {}

    def status(self, state: dict, scenario: Scenario) -> list[Event]:
        """The MJ's overview of a state, as gm events for the `status` template."""
        return []

    def closed_actions(self, state: dict, scenario: Scenario, player: str) -> set[str]:
        """The actions `player` cannot take in their state whatever they name (a ghost's
        action for the living): `pbp orders import` never reads a message's words as
        one of them. The default: none (the checks refuse what does not fit)."""
        return set()

    def import_names(self, state: dict, scenario: Scenario, player: str) -> dict[str, list[vocabulary.Entry]]:
        """The values `player` may name in a plain-text message (`pbp orders import`), by
        vocabulary: an argument type of data.yaml (`direction`, `chasseur`) or
        `action.field` for an inline one; each an `Entry(value, names)`, `value` being
        what the order file gets. The default reads the order schema (choice values and
        their aliases, the roster for `player` arguments) and the `values:` of
        phrasings.yaml, whose `from:` paths look into the player's view
        (`order_context`), the scenario's world and roster, the state and the rules.
        Only what `player` may know: the importer completes a word to these names and
        lists them in its questions, which go back to the player. Whatever is theirs
        alone (their sheet, what they carry, whom they see) must come from their view,
        never from everyone's sheets or the whole catalogue (the default cannot read
        characters.yaml). Override it when a ruleset knows better (names that depend on
        the state in ways a path cannot say), with the same view as its checks."""
        from pbp.model import vocabulary
        from pbp.model.argcontext import ArgContext

        view = self.order_context(state, scenario, player)
        context = ArgContext(scenario, actor=player, facts=self.arg_context(state, scenario, player))
        return vocabulary.default_names(self.rules, self.phrasings(), view, scenario, state, context)

    # -- secrecy ---------------------------------------------------------------------
    def roleplay_audience(self, state: dict, scenario: Scenario, handle: str) -> Audience:
        """Who reads a player's roleplay this turn (`state`: the state the turn is
        played from): PUBLIC, GM, or Players(handle) for their own report (the MJ
        reads every event). Default: the public thread for a player who is playing,
        the MJ alone for anyone else (the safe side)."""
        return PUBLIC if handle in self.players_to_play(state, scenario) else GM

    def secret_values(self, state: dict, scenario: Scenario) -> set[str]:
        """The strings no public post may show while the game is in `state` (in
        particular the post of the turn that led to `state`): what the state still
        hides, e.g. sheets not yet revealed, hidden scores, secret places, other
        players' belongings. The players' and the MJ's own words aside (roleplay and
        narration say what their authors choose), pbp never prints one of them in
        a public post; the core's secrecy test checks it on every public post
        rendered through the production path (tests/test_secrecy.py).

        Leave out what a public post shows legitimately in that state (what the
        rules revealed, what happened in public), and give each value in a form
        specific enough to be searched as a whole word in a post: a bare "1" or
        "nord" would raise false alarms, "résilience 7" does not."""
        return set()

    # -- balance tools (pbp simulate, pbp odds) ------------------------------------
    def legal_orders(self, state: dict, scenario: Scenario, player: str) -> list[list]:
        """Every legal set of actions (lists of pbp.model.orders.Action) for a player:
        what a bot picks from. Each must pass `check_orders`."""
        return [[]]

    def bot_orders(self, state: dict, scenario: Scenario, player: str, rng) -> list:
        """A bot's legal actions for this turn, picked with the bot's own
        `random.Random`. Override with a quicker or smarter policy."""
        return rng.choice(self.legal_orders(state, scenario, player))

    def sample_scenario(self, players: int, rng) -> Scenario:
        """A synthetic world and sheets for `players` players (pbp simulate
        without a campaign). Declare SIMULATE when you provide it."""
        raise PbpError("no_simulation", ruleset=self.id)

    def game_summary(self, state: dict, scenario: Scenario) -> dict:
        """What a finished game says, for the statistics of `pbp simulate`:

        - `turns`: how many turns it lasted;
        - `outcomes`: one label per counted unit (the winning side for a game
          won by a side, or each character's fate), rated with confidence intervals;
        - `deaths`: cause -> count;
        - `figures`: name -> list of values (noise at death, turns survived...);
        - `main`: the figure charted in the SVG.
        """
        return {"turns": state.get("turn", 0), "outcomes": [], "deaths": {}, "figures": {}, "main": None}

    def odds(self) -> dict:
        """Exact-odds calculators for `pbp odds --rule <id>.<name>`: name ->
        pbp.balance.odds.Calculator."""
        return {}


def plain_copy(data):
    """A deep copy of plain data (what a YAML file holds): through marshal, many
    times quicker than copy.deepcopy, which stays for anything else (a date)."""
    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:
        import copy

        return copy.deepcopy(data)


def merge_overrides(base: dict, overrides: dict, path: tuple = ()) -> dict:
    """Deep-merge a campaign's `rules:` into the ruleset's data.

    A key the data does not have is refused (a typo would otherwise be silently
    ignored), unless written with a leading `+` to add it on purpose.
    """
    out = dict(base)
    for key, value in overrides.items():
        key = str(key)
        if key.startswith("+"):
            out[key[1:]] = value
            continue
        if key not in base:
            where = ".".join(map(str, path + (key,)))
            raise UnknownRuleError("unknown_rule", file="campaign.yaml", rule=where,
                           suggestion=i18n.closest(key, base), hint_key=f"+{key}")
        if isinstance(value, dict) and isinstance(base[key], dict):
            out[key] = merge_overrides(base[key], value, path + (key,))
        else:
            out[key] = value
    return out


_loaded: dict[str, type[Ruleset]] = {}


def _builtin_ids() -> list[str]:
    """Built-in ruleset folders, found without importing them (a broken one
    must not break the others)."""
    import pkgutil

    import pbp.rulesets as package

    return [m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg and not m.name.startswith("_")]


def _is_builtin(ruleset_id: str) -> bool:
    """Whether `ruleset_id` names a built-in ruleset folder (one stat, where
    `_builtin_ids` lists the package: every command loads its campaign's ruleset)."""
    import pbp.rulesets as package

    if not ruleset_id.isidentifier() or ruleset_id.startswith("_"):
        return False
    try:
        return (Path(package.__path__[0]) / ruleset_id / "__init__.py").is_file()
    except OSError:  # longer than a file name may be (ENAMETOOLONG): no folder has that name
        return False


def _entry_points():
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def ids() -> list[str]:
    """Every ruleset id: built-in, registered, and third-party (entry points)."""
    return sorted(set(_builtin_ids()) | set(_loaded) | set(_entry_points()))


def register(cls: type[Ruleset]) -> None:
    """Make a ruleset available without packaging it (tests, scripts)."""
    _loaded[cls.id] = cls


def get(ruleset_id: str, overrides: dict | None = None) -> Ruleset:
    return load_class(ruleset_id)(overrides)


def with_commands(ruleset_id: str) -> type[Ruleset] | None:
    """The ruleset `ruleset_id` if it declares commands of its own, else None."""
    if ruleset_id not in ids():
        return None
    cls = load_class(ruleset_id)
    return cls if COMMANDS in cls.capabilities else None


def load_class(ruleset_id: str) -> type[Ruleset]:
    cls = _loaded.get(ruleset_id)
    if cls is None and _is_builtin(ruleset_id):
        cls = importlib.import_module(f"pbp.rulesets.{ruleset_id}").RULESET
    if cls is None:
        ep = _entry_points().get(ruleset_id)
        cls = ep.load() if ep is not None else None
    if cls is None:
        valid = ids()
        raise UnknownRulesetError("unknown_ruleset", ruleset=ruleset_id, valid=valid, suggestion=i18n.closest(ruleset_id, valid))
    _loaded[ruleset_id] = cls
    return cls
