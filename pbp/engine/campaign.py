"""The campaign folder: its files, its turns, atomic saving, and the lock.

    campaigns/<name>/
      campaign.yaml        ruleset, lang, format, dialect, roster, rules overrides
      secret.yaml          the dice secret (git ignores it; pbp/engine/secret.py)
      world.yaml           the ruleset's world
      characters.yaml      character sheets (secret)
      templates/           optional: this campaign's own templates
      turns/000/state.yaml initial state (pbp setup)
      turns/NNN/orders/<handle>.yaml, turns/NNN/gm.yaml   inputs of turn NNN
      turns/NNN/...        outputs of turn NNN (pbp run)

A turn is resolved when its state.yaml exists; it is written last.
"""

from __future__ import annotations

import errno
import os
import stat
from functools import cached_property
from pathlib import Path

from pbp.base import i18n, yamlio
from pbp.base.errors import ErrorList, InputError, PbpError, UnknownRuleError, UnknownRulesetError
from pbp.base.files import handle_file, read_at_most, read_bytes, read_member, refuse_kind
from pbp.base.memtree import MemoryPath
from pbp.base.record import Record
from pbp.engine import campaign_config, campaign_lock
from pbp.model import ruleset as rulesets, schema
from pbp.model.defaults import defaults, limits
from pbp.render import formats

CAMPAIGN_FILE = "campaign.yaml"
#: the dice secret, in a file git ignores (pbp/engine/secret.py says why)
SECRET_FILE = "secret.yaml"
LOCK_FILE = ".pbp.lock"
FORMATS = formats.EXTENSIONS  # format name -> post file extension; the formats are in pbp/render/formats.py


#: every file this process has written, so that a failure can say what is already on disk
WRITTEN: list[Path] = []


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write a file so that a reader sees the old content or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    import tempfile  # here: the commands that only read do not need it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
        WRITTEN.append(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def set_yaml_key(path: Path, key: str, value) -> None:
    """Set one top-level key of a YAML mapping file, atomically. A new key is
    appended to the text, so the MJ's comments and layout stay as written."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    existing = (yamlio.loads(text, path.name) if text.strip() else None) or {}
    if not isinstance(existing, dict):
        raise PbpError("file_not_mapping", file=path.name)
    wanted = {**existing, key: value}
    new_text = None
    if key not in existing:
        new_text = text if text.endswith("\n") or not text else text + "\n"
        new_text += ("\n" if existing else "") + yamlio.dumps({key: value})
        if yamlio.loads(new_text, path.name) != wanted:  # e.g. a flow-style `{}` file
            new_text = None
    atomic_write(path, new_text if new_text is not None else yamlio.dumps(wanted))


def read_text(path: Path, name: str) -> str:
    """An MJ's file as text (see `read_bytes`), refused when it is not UTF-8."""
    data = read_bytes(path, name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not_utf8", file=name) from None


def read_secret(root: Path) -> str | None:
    """The dice secret secret.yaml holds, or None without the file; a file that
    holds none is refused on its line."""
    path = root / SECRET_FILE
    if not path.exists():
        return None
    text = read_text(path, SECRET_FILE)
    data = yamlio.loads(text, SECRET_FILE, remember=True)
    value = data.get("secret") if isinstance(data, dict) else None
    if not isinstance(value, (str, int)) or isinstance(value, bool) or not str(value).strip():
        raise InputError("secret_file_bad", file=SECRET_FILE, line=yamlio.line_of(text, ("secret",)))
    return str(value)


def place(problem: PbpError, texts: dict[str, str | None], file: str | None = None) -> PbpError:
    """A ruleset's problem in an MJ's file, placed on its line: the ruleset knows the
    path (`at`, a tuple, or a dotted `where`), the core knows the text."""
    text = texts.get(problem.file or "")
    if problem.line is None and text:
        at = problem.params.get("at")
        if at is None and isinstance(problem.params.get("where"), str):
            at = tuple(problem.params["where"].split("."))
        if isinstance(at, tuple):
            problem.line = yamlio.line_of(text, at)
    if file is not None:
        problem.file = file
    return problem


def turn_name(n: int) -> str:
    return f"{n:03d}"


class Campaign(Record):
    # no __slots__: the cached properties below keep their values in the instance's __dict__
    FIELDS = ("root", "config", "text", "recorded")

    def __init__(self, root: Path, config: dict, text: str = "", recorded=None):
        self.root = root
        self.config = config
        #: campaign.yaml as written, to name the line of a problem found later
        self.text = text
        #: the rules files a past turn was played with (pbp.engine.rules_record.Recorded), for
        #: its replay; None: the campaign's own files
        self.recorded = recorded

    # -- configuration ------------------------------------------------------
    @property
    def lang(self) -> str:
        return self.config.get("lang", "fr")

    @property
    def format(self) -> str:
        return self.config.get("format", formats.DEFAULT)

    @property
    def dialect(self) -> str:
        return self.config.get("dialect", "phpbb")

    @cached_property
    def secret(self) -> str:
        """The dice secret: secret.yaml's (git ignores it), else campaign.yaml's in a
        campaign made before (pbp/engine/secret.py); both and different, or neither, is refused."""
        in_file = read_secret(self.root)
        in_config = None if self.config.get("secret") is None else str(self.config["secret"])
        if in_file is not None and in_config is not None and in_file != in_config:
            raise InputError("secret_twice", file=SECRET_FILE)
        found = in_file if in_file is not None else in_config
        if not found:
            raise InputError("secret_missing", file=SECRET_FILE)
        return found

    @property
    def title(self) -> str:
        return self.config.get("title", self.root.name)

    @cached_property
    def roster(self) -> dict[str, dict]:
        return {str(h): (v if isinstance(v, dict) else {"character": str(v)})
                for h, v in (self.config.get("players") or {}).items()}

    @cached_property
    def names(self) -> dict[str, str]:
        """Forum handle -> character name (public: the forum knows who plays whom)."""
        return {h: v.get("character", h) for h, v in self.roster.items()}

    @cached_property
    def ruleset(self) -> rulesets.Ruleset:
        cls = rulesets.load_class(self.config["ruleset"])
        if self.recorded is not None:  # a turn replayed with the rules files it was played with
            return cls.from_sources(self.recorded.files(self), self.config.get("rules") or {}, self.lang,
                                    self.recorded.shown(self))
        return cls.for_campaign(self.root, self.config.get("rules") or {}, self.lang)

    @cached_property
    def scenario(self) -> rulesets.Scenario:
        """world.yaml and characters.yaml, held to the ruleset's schemas, then to its
        own checks (validate_scenario sees well-typed files)."""
        errors: list[PbpError] = []
        world, world_text = self._mj_file("world.yaml", errors)
        characters, characters_text = self._mj_file("characters.yaml", errors)
        if errors:
            raise ErrorList(errors)
        schemas = type(self.ruleset).schema()
        context = self.schema_context(world, characters)
        errors += schema.check(schemas.get("world"), world, file="world.yaml", text=world_text, context=context)
        errors += schema.check(schemas.get("characters"), characters, file="characters.yaml", text=characters_text,
                               context=context)
        if errors:
            raise ErrorList(errors)
        scenario = rulesets.Scenario(self.ruleset.world_in(world, self.lang), characters, self.roster)
        problems = self.ruleset.validate_scenario(scenario)
        if problems:
            texts = {"world.yaml": world_text, "characters.yaml": characters_text, CAMPAIGN_FILE: self.text}
            raise ErrorList([place(p, texts) for p in problems])
        return scenario

    def schema_context(self, world: dict, characters: dict, **more) -> dict:
        """What the references of a schema point into (pbp/model/schema.py)."""
        return {"world": world, "characters": characters, "roster": list(self.roster), "rules": self.ruleset.rules,
                "campaign": self.config, **more}

    def _mj_file(self, name: str, errors: list) -> tuple[dict, str | None]:
        """An optional file of the MJ's, loaded (a missing or empty one is {}) with its text."""
        path = self.root / name
        if not path.exists():
            return {}, None
        text = read_text(path, name)
        data = yamlio.loads(text, name, remember=True)
        if data is None:
            return {}, text
        if not isinstance(data, dict):
            errors.append(PbpError("file_not_mapping", file=name, line=yamlio.line_of(text, ())))
            return {}, text
        return data, text

    # -- turns ---------------------------------------------------------------
    def turn_dir(self, n: int) -> Path:
        return self.root / "turns" / turn_name(n)

    def resolved_turns(self) -> list[int]:
        return list(self.resolved_states())

    def resolved_states(self) -> dict[int, os.stat_result]:
        """Each resolved turn's state.yaml as os.stat gives it, by turn in order
        (the seal chain kept between commands is checked against it: pbp/seal.py)."""
        if isinstance(self.root, MemoryPath):  # an audited bundle: a handful of members, no Path cost
            return self._memory_resolved_states()
        found = {}
        for name in self._turn_names():
            try:
                found[int(name)] = os.stat(os.path.join(self.root, "turns", name, "state.yaml"))
            except OSError:  # as Path.exists: none, or none to be read
                continue
        return found

    def last_resolved(self, count: int) -> list[int]:
        """The last `count` resolved turns, in order: the turn folders' names, and
        the state.yaml of the last ones only (a stat of every turn's, 4 ms of CPU at
        500 turns, is for the seal chain, which needs each one: `resolved_states`)."""
        if isinstance(self.root, MemoryPath):
            return self.resolved_turns()[-count:] if count > 0 else []
        found: list[int] = []
        for name in reversed(self._turn_names()):
            if len(found) >= count:
                break
            if os.path.exists(os.path.join(self.root, "turns", name, "state.yaml")):
                found.append(int(name))
        return found[::-1]

    def _turn_names(self) -> list[str]:
        """The names of the turn folders, by turn in order. Strings and os.listdir,
        no Path nor int per entry: every command lists the turns, hundreds of them
        in a long campaign. A folder named like a turn is one (`turns/³` is a digit
        to str.isdigit but no number; `turns/0002` beside `turns/002` would be turn
        2 twice): its name is `turn_name`'s (3 digits, or more without a leading 0),
        or it is refused."""
        try:
            names = [name for name in os.listdir(os.path.join(self.root, "turns")) if name.isdigit()]
        except (FileNotFoundError, NotADirectoryError):
            return []
        for name in names:  # notes, a backup folder...: not a turn, left out above
            if not name.isascii() or not (len(name) == 3 or (len(name) > 3 and name[0] != "0")):
                expected = turn_name(int(name)) if name.isascii() else "NNN"
                raise InputError("turn_folder_name", file=self.rel(self.root / "turns" / name), expected=expected)
        return sorted(names, key=lambda name: (len(name), name))

    def _memory_resolved_states(self) -> dict:
        """`resolved_states` of a campaign held in memory (pbp.base.memtree)."""
        turns = self.root / "turns"
        found = {}
        for p in turns.iterdir() if turns.is_dir() else ():
            if not p.name.isdigit():
                continue
            if not p.name.isascii() or p.name != turn_name(int(p.name)):
                expected = turn_name(int(p.name)) if p.name.isascii() else "NNN"
                raise InputError("turn_folder_name", file=self.rel(p), expected=expected)
            if (p / "state.yaml").is_file():
                found[int(p.name)] = (p / "state.yaml").stat()
        return dict(sorted(found.items()))

    def last_turn(self) -> int | None:
        """The last resolved turn (0 = set up only), or None before set-up."""
        done = self.last_resolved(1)
        return done[-1] if done else None

    def state(self, n: int, remember: bool = True) -> dict:
        """Turn n's state.yaml, held to the ruleset's schema and its `validate_state`
        (the MJ may have edited it by hand). `remember`: its parsed value kept in
        the user's cache (yamlio.loads); not for a pass over every turn (`pbp
        verify`), whose hundreds of states would push out what the everyday
        commands read."""
        path = self.turn_dir(n) / "state.yaml"
        if not path.exists():
            raise PbpError("turn_not_resolved", turn=n)
        rel = self.rel(path)
        text = read_text(path, rel)
        data = yamlio.loads(text, rel, remember=remember)
        if data is None:
            data = {}
        node = type(self.ruleset).schema().get("state")
        if node is not None:
            errors = schema.check(node, data, file=rel, text=text,
                                  context=self.schema_context(self.scenario.world, self.scenario.characters,
                                                              state=data))
            if errors:
                raise ErrorList(errors)
        if not isinstance(data, dict):
            raise PbpError("file_not_mapping", file=rel, line=yamlio.line_of(text, ()))
        problems = self.ruleset.validate_state(data, self.scenario)
        if problems:
            raise ErrorList([place(p, {"state.yaml": text}, file=rel) for p in problems])
        return data

    @property
    def limits(self) -> dict:
        return limits(self.config.get("limits"))

    @property
    def post_limit(self) -> int:
        """The longest post the campaign's forum takes: campaign.yaml's
        `limits: post_chars`, else the forum's default (defaults.yaml)."""
        own = (self.config.get("limits") or {}).get("post_chars")
        if own is not None:
            return own
        forum = "markdown" if self.format == "markdown" else self.dialect
        return defaults().get("post_chars_by_forum", {}).get(forum, self.limits["post_chars"])

    @property
    def nmr(self) -> dict:
        """The missed-orders policy: after `flag_after` turns in a row without
        orders the MJ is told; after `inactive_after` (None: never) the player
        no longer counts as expected (reminders, missing lists)."""
        return {**defaults()["nmr"], **(self.config.get("nmr") or {})}

    def handle(self, typed) -> str:
        """A handle as someone typed it, in any case (`--player Lucy`), as the
        roster spells it; an unknown one is refused with the closest."""
        text = str(typed)
        if text in self.roster:
            return text
        by_fold = {h.casefold(): h for h in self.roster}
        if text.casefold() in by_fold:
            return by_fold[text.casefold()]
        raise InputError("unknown_player", player=text, valid=list(self.roster),
                         suggestion=i18n.closest(text, self.roster))

    def order_files(self, n: int) -> list[tuple[str, Path]]:
        """Every entry of turn n's orders/ folder but hidden ones, each with
        the handle it is for: `lucy.yaml`, `Lucy.yml` -> lucy (the roster's
        spelling); any other name as it is, for the caller to refuse. Two files
        may claim one handle: the caller refuses both. Nothing is opened here:
        see `read_input`."""
        folder = self.turn_dir(n) / "orders"
        if not folder.is_dir():
            return {}
        try:
            entries = sorted(folder.iterdir())
        except OSError as exc:
            raise InputError("file_unreadable", file=self.rel(folder), reason=exc.strerror) from None
        by_fold = {handle_file(h).casefold(): h for h in self.roster}
        files = []
        for path in entries:
            if path.name.startswith("."):
                continue
            if path.suffix in (".yaml", ".yml"):
                files.append((by_fold.get(path.stem.casefold(), path.stem), path))
            else:
                files.append((path.name, path))
        return files

    def has_input(self, path: Path) -> bool:
        """Whether a name exists at all, a broken or looping link included (it
        is then refused by name, not taken as absent)."""
        return path.exists() if isinstance(path, MemoryPath) else os.path.lexists(path)

    def check_input(self, path: Path) -> Path:
        """The real path of an input file, if pbp may read it: a regular file
        inside the campaign folder (through symlinks that stay inside). Else an
        InputError naming it and saying what it is. Opens nothing."""
        rel = self.rel(path)
        if isinstance(path, MemoryPath):  # no links in memory: a member is a file or a folder
            if not path.exists():
                raise InputError("file_missing", file=rel)
            refuse_kind(path.stat().st_mode, rel)
            return path
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            raise InputError("file_missing", file=rel) from None
        except OSError as exc:
            raise InputError("file_unreadable", file=rel, reason=exc.strerror) from None
        if stat.S_ISLNK(mode):
            try:
                mode = os.stat(path).st_mode
            except OSError as exc:
                key = {errno.ELOOP: "symlink_loop", errno.ENOENT: "symlink_broken"}.get(exc.errno)
                if key:
                    raise InputError(key, file=rel) from None
                raise InputError("file_unreadable", file=rel, reason=exc.strerror) from None
        real = Path(os.path.realpath(path))
        if not real.is_relative_to(self.root):  # a link, or a linked folder on the way
            raise InputError("symlink_outside", file=rel)
        refuse_kind(mode, rel)
        return real

    def read_input(self, path: Path, limit: int, limit_key: str) -> bytes:
        """The bytes of an input file (an order file, gm.yaml) read without ever
        blocking: checked first (`check_input`), opened non-blocking and without
        following a link, checked again on the open file (it may have been
        swapped), at most `limit` bytes read."""
        rel = self.rel(path)
        real = self.check_input(path)
        if isinstance(real, MemoryPath):
            return read_member(real, rel, limit, limit_key)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(real, flags)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise InputError("symlink_loop", file=rel) from None
            raise InputError("file_unreadable", file=rel, reason=exc.strerror) from None
        try:
            info = os.fstat(fd)
            refuse_kind(info.st_mode, rel)
            if info.st_size > limit:
                raise InputError("file_too_large", file=rel, size=info.st_size, limit=limit, limit_key=limit_key)
            data = read_at_most(fd, limit)
        except OSError as exc:
            raise InputError("file_unreadable", file=rel, reason=exc.strerror) from None
        finally:
            os.close(fd)
        if len(data) > limit:  # it grew while read
            raise InputError("file_too_large", file=rel, size=len(data), limit=limit, limit_key=limit_key)
        return data

    def gm_file(self, n: int) -> Path:
        return self.turn_dir(n) / "gm.yaml"

    def rel(self, path: Path) -> str:
        """A path as the MJ sees it: relative to the campaign folder."""
        try:
            if isinstance(path, MemoryPath):
                return str(path.relative_to(self.root))
            return str(Path(path).relative_to(self.root))
        except ValueError:
            return str(path)

    # -- lock ----------------------------------------------------------------
    def lock(self):
        """Two `pbp run` on one campaign cannot interleave: the second is refused
        (pbp/engine/campaign_lock.py)."""
        path = self.root / LOCK_FILE
        return campaign_lock.held(path, self.rel(path))


def open_campaign(path: str | Path | MemoryPath) -> Campaign:
    """The campaign folder at `path`, its campaign.yaml checked: on disk, or held
    in memory (an audited bundle, pbp.base.memtree)."""
    root = path if isinstance(path, MemoryPath) else Path(path).resolve()
    config_path = root / CAMPAIGN_FILE
    if not config_path.exists():
        above = next((folder for folder in root.parents if (folder / CAMPAIGN_FILE).is_file()), None)
        if above is not None:  # run from inside a campaign (turns/006/): say where it is, do not guess
            raise PbpError("no_campaign_but_above", file=Path(path) / CAMPAIGN_FILE, folder=str(above))
        raise PbpError("no_campaign", file=Path(path) / CAMPAIGN_FILE)
    text = read_text(config_path, CAMPAIGN_FILE)
    config = yamlio.loads(text, CAMPAIGN_FILE, remember=True)
    if not isinstance(config, dict):
        raise PbpError("file_not_mapping", file=CAMPAIGN_FILE)

    def bad(key, at, /, **params):
        return PbpError(key, file=CAMPAIGN_FILE, line=yamlio.line_of(text, at), **params)

    campaign_config.check_keys(config, bad)
    campaign_config.check_players(config["players"], bad)
    if config.get("rules") is not None and not isinstance(config["rules"], dict):
        raise bad("file_not_mapping", ("rules",))
    campaign_config.check_limits(config.get("limits"), bad)
    errors = schema.check(campaign_config.campaign_schema(), config, file=CAMPAIGN_FILE, text=text)
    if errors:
        raise ErrorList(errors)
    campaign = Campaign(root, config, text)
    try:
        campaign.ruleset
    except UnknownRuleError as exc:
        exc.line = yamlio.line_of(text, ("rules", *exc.params["rule"].split(".")))
        raise
    except UnknownRulesetError as exc:
        raise exc.located(CAMPAIGN_FILE, yamlio.line_of(text, ("ruleset",)))
    campaign_config.check_overrides(campaign, config.get("rules"), CAMPAIGN_FILE, text)
    return campaign
