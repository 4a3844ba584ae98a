"""YAML in and out, fast, deterministic, and able to say on which line a value was.

Two ways in:

- `loads` / `load_file`, for the MJ's own files (campaign.yaml, world.yaml,
  characters.yaml, state.yaml): the same one-pass reader over libyaml's
  events (pbp.base.yamlread, imported when a text is parsed), with room (see
  `loads`); with `remember=True`, a text read before is not parsed again (its
  value is kept in the user's cache). Line numbers
  are only needed when something is wrong, so `line_of` builds a text's line
  index the first time it is asked and reuses it.
- `load_untrusted`, for what a stranger wrote (order files, and gm.yaml the same
  way): built from libyaml's event stream in one linear pass, with no recursion
  and no alias expansion, refusing what a player has no use for (anchors,
  aliases, tags, several documents) and what could hang or crash pbp (nesting
  too deep, integers too long). It returns the plain value and its `Lines`.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from pbp.base.errors import InputError, PbpError

BOM = b"\xef\xbb\xbf"


#: The MJ's files nest a few levels (world -> cells -> cell -> exits -> exit); far
#: deeper is a pasted accident, and past some thousands libyaml's C composer
#: would crash the process: the same one-pass reader as for strangers, with room.
MJ_MAX_DEPTH = 64
MJ_MAX_INT_DIGITS = 18


#: how many values are remembered (the user's cache, pbp.base.usercache)
REMEMBERED = 256


def loads(text: str, source: str | Path = "<text>", remember: bool = False):
    """The MJ's own YAML (campaign.yaml, world.yaml, characters.yaml, state.yaml,
    data files): every YAML the safe loader reads but anchors, aliases, tags and
    duplicate keys (each refused on its line, never silently resolved), read in
    one pass that cannot recurse.

    `remember`: the value of a text read before (the same text, by its BLAKE2
    digest) is read back from the user's cache: every command reads the
    campaign's files, which change once a turn. However short the text: a
    command whose files are all remembered never imports PyYAML (pbp.base.yamlread)."""
    if remember:
        return _remembered(text, source)
    value, _ = _walk(text, source, strict=True, max_depth=MJ_MAX_DEPTH, max_int_digits=MJ_MAX_INT_DIGITS,
                     alias_key="yaml_alias_mj", index=False)
    return value


def _remembered(text: str, source):
    from hashlib import blake2b

    from pbp.base import usercache

    key = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
    tag = usercache.data_tag()
    found = usercache.read_entry("yaml", tag, key)
    if isinstance(found, tuple) and len(found) == 3 and found[0] == key:
        return _with_dates(found[1]) if found[2] else found[1]
    value = loads(text, source)
    try:
        usercache.write_entry("yaml", tag, key, (key, value, False), keep=REMEMBERED)
    except ValueError:  # dates (a deadline), which marshal does not write
        try:
            usercache.write_entry("yaml", tag, key, (key, _without_dates(value), True), keep=REMEMBERED)
        except ValueError:  # anything else marshal refuses: parsed each time (a cache is never an error)
            pass
    return value


#: how a date or a datetime is kept in the cache: a tuple, which no YAML value
#: read by `loads` holds (lists and mappings only), with its ISO text
_DATE, _DATETIME = "\0date", "\0datetime"


def _without_dates(value):
    """`value` with each date and datetime (a key too) as a tagged tuple."""
    import datetime as dt

    if isinstance(value, dict):
        return {_without_dates(k): _without_dates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_dates(v) for v in value]
    if isinstance(value, dt.datetime):
        return (_DATETIME, value.isoformat())
    if isinstance(value, dt.date):
        return (_DATE, value.isoformat())
    return value


def _with_dates(value):
    """The value `_without_dates` was given."""
    import datetime as dt

    if isinstance(value, dict):
        return {_with_dates(k): _with_dates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_dates(v) for v in value]
    if isinstance(value, tuple):
        kind, text = value
        return dt.datetime.fromisoformat(text) if kind == _DATETIME else dt.date.fromisoformat(text)
    return value


def load_file(path: Path):
    with _reading(path):
        text = Path(path).read_text(encoding="utf-8")
    return loads(text, path)


def load_data_file(path: Path):
    """A data file of pbp or of an installed ruleset (data.yaml, schema.yaml,
    defaults.yaml...; never a campaign's file): read as `load_file` reads, and
    kept parsed in the user's cache folder for the next commands
    (pbp.base.usercache)."""
    from pbp.base import usercache

    with _reading(path):
        return usercache.load_data(Path(path), lambda text: loads(text, path))


@contextmanager
def _reading(path):
    """What goes wrong reading a file, said naming it."""
    try:
        yield
    except FileNotFoundError:
        raise PbpError("file_missing", file=path) from None
    except UnicodeDecodeError:
        raise PbpError("not_utf8", file=path) from None
    except OSError as exc:
        raise PbpError("file_unreadable", file=path, reason=exc.strerror) from None


def dumps(data) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=100, default_flow_style=False)


# -- where values are ----------------------------------------------------------------

class Lines:
    """The line of every node of one YAML file: path tuple (mapping keys and list
    indexes, e.g. ("actions", 1, "cible")) -> 1-based line. A mapping entry's line
    is its key's; a list item's is where the item starts.

    `line(path)` is O(len(path)): a refusal is placed without re-reading the file.
    """

    __slots__ = ("_lines", "_single", "_normalize", "_spellings")

    def __init__(self, lines: dict | None = None, single: dict | None = None,
                 normalize: Callable[[object], str] | None = None):
        self._lines = lines or {}
        #: path of a mapping with one key whose value is a mapping -> that key
        #: (`- jet: {carac: ...}`: a field's path skips the action's name)
        self._single = single or {}
        #: how a caller spells keys (pbp.model.orders.normalize_id): a path may name
        #: a field by its id where the file wrote `Compétence`
        self._normalize = normalize
        self._spellings: dict[tuple, dict] | None = None

    def __bool__(self) -> bool:
        return bool(self._lines)

    def under(self, key) -> "Lines":
        """The same lines with every path one level down, under `key`: a bare
        list of actions read as if it were written under `actions:`."""
        lines = {(key,) + path: line for path, line in self._lines.items()}
        if () in self._lines:
            lines[()] = self._lines[()]
        return Lines(lines, {(key,) + path: first for path, first in self._single.items()}, self._normalize)

    def line(self, path: tuple) -> int | None:
        """The line of `path`, else of its deepest ancestor found, else None."""
        lines = self._lines
        here: tuple = ()
        line = lines.get(here)
        for step in path:
            found = None
            if here in self._single:  # `- sort: {sort: soin}`: the field before the action's name
                found = self._step(here + (self._single[here],), step)
            if found is None:
                found = self._step(here, step)
            if found is None:
                break
            here = found
            line = lines[here]
        return line

    def _step(self, here: tuple, step) -> tuple | None:
        try:
            candidate = here + (step,)
            if candidate in self._lines:
                return candidate
        except TypeError:  # an unhashable step
            return None
        if self._normalize is None or not isinstance(step, str):
            return None
        if self._spellings is None:  # built once, on the first miss: O(file)
            self._spellings = {}
            for path in self._lines:
                if path and isinstance(path[-1], str):
                    self._spellings.setdefault(path[:-1], {}).setdefault(self._normalize(path[-1]), path)
        return self._spellings.get(here, {}).get(self._normalize(step))


_index_cache: OrderedDict[str, Lines] = OrderedDict()
_INDEX_CACHE_SIZE = 16


def lines_of(text: str) -> Lines:
    """The line index of a trusted text (any YAML the safe loader reads), built
    once per text and kept for the next calls."""
    found = _index_cache.get(text)
    if found is not None:
        _index_cache.move_to_end(text)
        return found
    try:
        _, found = _walk(text, None, strict=False)
    except PbpError:  # the reader says every YAML error as an InputError
        found = Lines()
    _index_cache[text] = found
    if len(_index_cache) > _INDEX_CACHE_SIZE:
        _index_cache.popitem(last=False)
    return found


def line_of(text: str, path: tuple) -> int | None:
    """1-based line of the node at `path` (keys and list indexes) in a YAML text.

    Falls back to the deepest ancestor found, then to None. The text's index is
    built on the first call and reused, so calling it per refusal is cheap.
    """
    return lines_of(text).line(tuple(path))


# -- untrusted input -------------------------------------------------------------------

def decode(data: bytes | str, source, notes: list | None = None) -> str:
    """An input's text: UTF-8, an optional BOM dropped; else (given a `notes` list to
    say so in) Windows-1252 where that is unambiguous; else a clear refusal naming
    the line of the first bad byte."""
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = windows_1252(data) if notes is not None else None
        if text is None:
            raise InputError("not_utf8", file=source, line=data[:exc.start].count(b"\n") + 1) from None
        notes.append(InputError("read_as_windows_1252", file=source, line=data[:exc.start].count(b"\n") + 1))
        return text


def windows_1252(data: bytes) -> str | None:
    """A text saved as Windows-1252 (Notepad's "ANSI", a French Windows' default), when
    that is the one reading: no byte UTF-8 would read as a character of its own (a
    file half UTF-8 is a broken file, not another encoding), none Windows-1252 leaves
    undefined, and no control character but tabs and line ends."""
    if any(0xC2 <= data[i] <= 0xF4 and 0x80 <= data[i + 1] <= 0xBF for i in range(len(data) - 1)
           if data[i] >= 0x80):
        return None
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    if any(c < " " and c not in "\t\n\r" for c in text):
        return None
    return text


def load_untrusted(data: bytes | str, source, *, max_depth: int = 20, max_int_digits: int = 18,
                   normalize: Callable[[object], str] | None = None,
                   alias_key: str = "yaml_alias") -> tuple[object, Lines]:
    """A stranger's YAML: (plain value, Lines), or an InputError naming the line.

    Scalars are resolved as the safe loader resolves them (int, float, bool,
    null, timestamps, str). Refused: anchors, aliases and tags (no player needs
    them, and an alias is how a 1 KB file expands to gigabytes), more than one
    document, nesting deeper than `max_depth` (seen as the events arrive, before
    libyaml reads further), integers of more than `max_int_digits` digits,
    duplicate keys, and keys that are lists or mappings. A text with no
    document at all (empty, or only comments) gives (None, an empty Lines).
    """
    text = decode(data, source)
    value, lines = _walk(text, source, strict=True, max_depth=max_depth, max_int_digits=max_int_digits,
                         alias_key=alias_key)
    lines._normalize = normalize
    return value, lines


def _walk(text: str, source, **options) -> tuple[object, Lines]:
    """The value and the `Lines` of a text, read by pbp.base.yamlread (see its `walk`
    for the options): imported here, the first time a text is parsed."""
    from pbp.base import yamlread

    value, lines, single = yamlread.walk(text, source, **options)
    return value, Lines(lines, single)
