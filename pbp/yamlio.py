"""YAML in and out, fast, deterministic, and able to say on which line a value was.

Two ways in:

- `loads` / `load_file`, for the MJ's own files (campaign.yaml, world.yaml,
  characters.yaml, state.yaml): the same one-pass reader over libyaml's
  events, with room (see `loads`); with `remember=True`, a text read before
  is not parsed again (its value is kept in the user's cache). Line numbers
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

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from pbp.errors import InputError, PbpError

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

BOM = b"\xef\xbb\xbf"


#: The MJ's files nest a few levels (world -> cells -> cell -> exits -> exit); far
#: deeper is a pasted accident, and past some thousands libyaml's C composer
#: would crash the process: the same one-pass reader as for strangers, with room.
MJ_MAX_DEPTH = 64
MJ_MAX_INT_DIGITS = 18


#: how long a text must be for its value to be remembered (`loads`): a shorter
#: one is parsed about as fast as its entry is read back
REMEMBER_FROM = 256
#: how many values are remembered (the user's cache, pbp.usercache)
REMEMBERED = 256


def loads(text: str, source: str | Path = "<text>", remember: bool = False):
    """The MJ's own YAML (campaign.yaml, world.yaml, characters.yaml, state.yaml,
    data files): every YAML the safe loader reads but anchors, aliases, tags and
    duplicate keys (each refused on its line, never silently resolved), read in
    one pass that cannot recurse.

    `remember`: the value of a text read before (the same text, by its BLAKE2
    digest) is read back from the user's cache: every command reads the
    campaign's files, which change once a turn."""
    if remember and len(text) >= REMEMBER_FROM:
        return _remembered(text, source)
    value, _ = _walk(text, source, strict=True, max_depth=MJ_MAX_DEPTH, max_int_digits=MJ_MAX_INT_DIGITS,
                     alias_key="yaml_alias_mj", index=False)
    return value


def _remembered(text: str, source):
    from hashlib import blake2b

    from pbp import usercache

    key = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
    tag = usercache.data_tag()
    found = usercache.read_entry("yaml", tag, key)
    if isinstance(found, tuple) and len(found) == 2 and found[0] == key:
        return found[1]
    value = loads(text, source)
    try:
        usercache.write_entry("yaml", tag, key, (key, value), keep=REMEMBERED)
    except ValueError:  # not plain data (a date): parsed each time
        pass
    return value


def load_file(path: Path):
    with _reading(path):
        text = Path(path).read_text(encoding="utf-8")
    return loads(text, path)


def load_data_file(path: Path):
    """A data file of pbp or of an installed ruleset (data.yaml, schema.yaml,
    defaults.yaml...; never a campaign's file): read as `load_file` reads, and
    kept parsed in the user's cache folder for the next commands
    (pbp.usercache)."""
    from pbp import usercache

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
    return yaml.dump(data, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100, default_flow_style=False)


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
        #: how a caller spells keys (pbp.orders.normalize_id): a path may name
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
    except (PbpError, yaml.YAMLError):
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

def decode(data: bytes | str, source) -> str:
    """An input's text: UTF-8, an optional BOM dropped; else a clear refusal
    naming the line of the first bad byte."""
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError("not_utf8", file=source, line=data[:exc.start].count(b"\n") + 1) from None


def load_untrusted(data: bytes | str, source, *, max_depth: int = 20, max_int_digits: int = 18,
                   normalize: Callable[[object], str] | None = None) -> tuple[object, Lines]:
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
    value, lines = _walk(text, source, strict=True, max_depth=max_depth, max_int_digits=max_int_digits)
    lines._normalize = normalize
    return value, lines


_resolver = Resolver()
_constructor = SafeConstructor()
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BUILD = {
    "tag:yaml.org,2002:null": _constructor.construct_yaml_null,
    "tag:yaml.org,2002:bool": _constructor.construct_yaml_bool,
    _INT: _constructor.construct_yaml_int,
    "tag:yaml.org,2002:float": _constructor.construct_yaml_float,
    "tag:yaml.org,2002:timestamp": _constructor.construct_yaml_timestamp,
}
_NO_KEY = object()  # a mapping waiting for its next key


def _digits(text: str) -> int:
    """How many digits an integer scalar is written with (sign, base prefix,
    `_` and `:` not counted)."""
    body = text.lstrip("+-")
    if body[:2] in ("0b", "0x"):
        body = body[2:]
    return sum(c.isalnum() for c in body)


#: first characters a plain scalar may resolve from (`1`, `-`, `t`rue, `n`ull...):
#: a scalar starting otherwise is text, known without trying the resolver's patterns
_RESOLVABLE = frozenset(k for k in _resolver.yaml_implicit_resolvers if k)
#: plain scalar text -> (tag, value): a file repeats its numbers, booleans and
#: nulls, and resolving one is a run of regular expressions
_plain_cache: dict[str, tuple[str, object]] = {}
_PLAIN_CACHE_SIZE = 4096
_PLAIN_CACHE_TEXT = 40  # longer scalars are not kept


def _scalar(event, line: int, source, max_int_digits: int | None):
    value = event.value
    if not event.implicit[0] or (value and value[0] not in _RESOLVABLE):
        return value  # quoted, block, or a plain scalar no pattern can match: text
    found = _plain_cache.get(value)
    tag = found[0] if found is not None else _resolver.resolve(yaml.ScalarNode, value, (True, False))
    build = _BUILD.get(tag)
    if build is None:  # str, and the merge `<<` / value `=` keys the safe loader cannot build
        return value
    if tag == _INT and max_int_digits is not None and len(value) > max_int_digits:
        digits = _digits(value)  # counted before building: a huge integer is refused, never built
        if digits > max_int_digits:
            raise InputError("integer_too_long", file=source, line=line, digits=digits, limit=max_int_digits)
    if found is not None:
        return found[1]
    try:
        built = build(yaml.ScalarNode(tag, value))
    except ValueError:  # `0x_`, `2024-13-01`: the safe loader would crash; it is text
        built = value
    if len(value) <= _PLAIN_CACHE_TEXT:  # a file's numbers, booleans and nulls repeat
        if len(_plain_cache) >= _PLAIN_CACHE_SIZE:
            _plain_cache.clear()
        _plain_cache[value] = (tag, built)
    return built


class _Frame:
    __slots__ = ("container", "path", "key", "first", "count", "only", "is_map", "key_frame")

    def __init__(self, container, path, is_map, key_frame=False):
        self.container, self.path, self.is_map, self.key_frame = container, path, is_map, key_frame
        self.key = _NO_KEY
        self.first: dict = {}  # key -> line of its first occurrence (duplicates)
        self.count = 0  # entries (mapping) or items (list) so far
        self.only = _NO_KEY  # the first key, when its value is a mapping


def _walk(text: str, source, *, strict: bool, max_depth: int | None = None,
          max_int_digits: int | None = None, alias_key: str = "yaml_alias",
          index: bool = True) -> tuple[object, Lines]:
    """One pass over libyaml's events: the value (strict mode only) and the line
    index (empty with `index=False`: `loads` wants the value alone, and
    `line_of` indexes a text when a line is asked for). The loose mode (trusted
    text) accepts every YAML the safe loader reads and only indexes it."""
    lines: dict = {}
    single: dict = {}
    stack: list[_Frame] = []
    root = None
    documents = 0
    events = yaml.parse(text, Loader=Loader)
    try:
        for event in events:
            kind = type(event)
            if kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    if strict:
                        raise InputError("yaml_documents", file=source, line=event.start_mark.line + 1)
                    break
                continue
            if kind in (yaml.MappingEndEvent, yaml.SequenceEndEvent):
                frame = stack.pop()
                if frame.is_map and frame.count == 1 and frame.only is not _NO_KEY and frame.path is not None:
                    single[frame.path] = frame.only
                if frame.key_frame:  # a list or mapping used as a key (loose mode): it matches no path
                    _attach(stack, object(), None, event, lines, strict, source, is_map=False)
                continue
            if kind not in (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent):
                continue  # stream start/end, document end
            line = event.start_mark.line + 1
            if strict:
                if kind is yaml.AliasEvent or event.anchor is not None:
                    raise InputError(alias_key, file=source, line=line)
                if event.tag is not None:
                    raise InputError("yaml_tag", file=source, line=line, tag=event.tag)
            parent = stack[-1] if stack else None
            as_key = parent is not None and parent.is_map and parent.key is _NO_KEY
            if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                value = _scalar(event, line, source, max_int_digits) if kind is yaml.ScalarEvent else None
                if parent is None:
                    root = value
                    if index:
                        lines[()] = line
                else:
                    _attach(stack, value, line, event, lines, strict, source, is_map=False)
                continue
            # a list or a mapping starts
            is_map = kind is yaml.MappingStartEvent
            if as_key:
                if strict:
                    raise InputError("key_not_scalar", file=source, line=line)
                stack.append(_Frame(None, None, is_map, key_frame=True))
                continue
            if max_depth is not None and len(stack) >= max_depth:
                raise InputError("yaml_too_deep", file=source, line=line, limit=max_depth)
            container = ({} if is_map else []) if strict else None
            if parent is None:
                root, path = container, (() if index else None)  # path None: nothing under it is indexed
                if index:
                    lines[()] = line
            else:
                path = _attach(stack, container, line, event, lines, strict, source, is_map=is_map)
            stack.append(_Frame(container, path, is_map))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise InputError(_hint(exc.problem or str(exc), text, line), file=source, line=line,
                         problem=exc.problem or str(exc)) from None
    except yaml.reader.ReaderError as exc:
        raise InputError("yaml_syntax", file=source, line=text[:exc.position].count("\n") + 1,
                         problem=f"{exc.reason} (#x{exc.character:04x})" if isinstance(exc.character, int)
                         else exc.reason) from None
    except yaml.YAMLError as exc:
        raise InputError("yaml_syntax", file=source, problem=str(exc)) from None
    return root, Lines(lines, single)


def _hint(problem: str, text: str, line: int | None) -> str:
    """The message key that explains a YAML syntax error the way a player or an
    MJ can act on it: libyaml's own words (`did not find expected key`) say
    nothing to someone who does not know YAML."""
    rows = text.split("\n")
    here = rows[line - 1] if line and line <= len(rows) else ""
    above = next((r for r in reversed(rows[:line - 1]) if r.strip() and not r.lstrip().startswith("#")), "") \
        if line else ""
    if "\t" in here[:len(here) - len(here.lstrip())] or "cannot start any token" in problem and "\t" in here:
        return "yaml_hint_tab"
    if here.lstrip().startswith("-") and above.rstrip().endswith(("[]", "{}")):
        return "yaml_hint_flow_then_block"
    if "mapping values are not allowed" in problem:
        return "yaml_hint_colon"
    if "end of stream" in problem and ('"' in text or "'" in text):
        return "yaml_hint_quote"
    if "expected key" in problem or "block end" in problem or "expected <block" in problem:
        return "yaml_hint_indent"
    return "yaml_syntax"


def _attach(stack, value, line, event, lines, strict, source, *, is_map) -> tuple | None:
    """Put a node in its parent (a list item, a mapping key or a mapping value);
    returns the node's path (None: not indexed)."""
    parent = stack[-1]
    base = parent.path
    if not parent.is_map:
        index = parent.count
        parent.count += 1
        if strict:
            parent.container.append(value)
        if base is None:
            return None
        path = base + (index,)
        lines[path] = line
        return path
    if parent.key is _NO_KEY:  # this scalar is a key
        key = value
        if key in parent.first:
            if strict:
                raise InputError("duplicate_key", file=source, line=line, key=key, first=parent.first[key])
        else:
            parent.first[key] = line
            if base is not None and line is not None:
                lines.setdefault(base + (key,), line)
                if not isinstance(key, str):
                    # the old index compared a key's text: ("rules", "3") finds `3:`
                    lines.setdefault(base + (str(key),), line)
        parent.key = key
        return None
    key, parent.key = parent.key, _NO_KEY
    parent.count += 1
    if parent.count == 1 and is_map:
        parent.only = key
    if strict:
        parent.container[key] = value
    return None if base is None else base + (key,)
