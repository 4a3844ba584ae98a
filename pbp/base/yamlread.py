"""The one-pass reader under pbp.base.yamlio: libyaml's events turned into plain
values and line numbers, with no recursion and no alias expansion.

pbp.base.yamlio imports it the first time a text must be parsed: an everyday
command whose files are all remembered in the user's cache (`loads(...,
remember=True)`) never loads PyYAML, whose import costs about half of
`import click`.
"""

from __future__ import annotations

import re

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from pbp.base.errors import InputError

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

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


def walk(text: str, source, *, strict: bool, max_depth: int | None = None,
         max_int_digits: int | None = None, alias_key: str = "yaml_alias",
         index: bool = True) -> tuple[object, dict, dict]:
    """One pass over libyaml's events: the value (strict mode only), the line of
    each node's path and, for each mapping with a single key whose value is a
    mapping, that key (what pbp.base.yamlio's `Lines` is made of; both empty with
    `index=False`: `loads` wants the value alone, and `line_of` indexes a text
    when a line is asked for). The loose mode (trusted text) accepts every
    YAML the safe loader reads and only indexes it. Every YAML error is an
    InputError naming the line."""
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
                _close(stack, single, event, lines, strict, source)
                continue
            if kind not in (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent):
                continue  # stream start/end, document end
            line = event.start_mark.line + 1
            parent = stack[-1] if stack else None
            as_key = parent is not None and parent.is_map and parent.key is _NO_KEY
            if strict:
                _refuse_unread(event, line, source, alias_key, as_key)
            if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                value = _scalar(event, line, source, max_int_digits) if kind is yaml.ScalarEvent else None
                if parent is None:
                    root = value
                    if index:
                        lines[()] = line
                else:
                    _attach(stack, value, line, event, lines, strict, source, is_map=False)
                continue
            opened = _open(stack, event, line, as_key, lines, strict, source, max_depth, index)
            if parent is None:
                root = opened
    except yaml.YAMLError as exc:
        raise _input_error(exc, text, source) from None
    return root, lines, single


def _open(stack, event, line, as_key, lines, strict, source, max_depth, index):
    """A list or a mapping starts: its frame pushed (a key's, in loose mode, matches
    no path); returns the new container (None in loose mode)."""
    is_map = type(event) is yaml.MappingStartEvent
    if as_key:
        if strict:
            raise InputError("key_not_scalar", file=source, line=line)
        stack.append(_Frame(None, None, is_map, key_frame=True))
        return None
    if max_depth is not None and len(stack) >= max_depth:
        raise InputError("yaml_too_deep", file=source, line=line, limit=max_depth)
    container = ({} if is_map else []) if strict else None
    if not stack:
        path = () if index else None  # path None: nothing under it is indexed
        if index:
            lines[()] = line
    else:
        path = _attach(stack, container, line, event, lines, strict, source, is_map=is_map)
    stack.append(_Frame(container, path, is_map))
    return container


def _close(stack, single, event, lines, strict, source) -> None:
    """A list or a mapping ends: a mapping of one key is noted (`single`)."""
    frame = stack.pop()
    if frame.is_map and frame.count == 1 and frame.only is not _NO_KEY and frame.path is not None:
        single[frame.path] = frame.only
    if frame.key_frame:  # a list or mapping used as a key (loose mode): it matches no path
        _attach(stack, object(), None, event, lines, strict, source, is_map=False)


def _refuse_unread(event, line: int, source, alias_key: str, as_key: bool) -> None:
    """What the strict reader refuses on its line: anchors and aliases, tags, and
    a plain `<<` key (the safe loader merges the mapping given there into this
    one, as with aliases: pbp reads no such indirection)."""
    if type(event) is yaml.AliasEvent or event.anchor is not None:
        raise InputError(alias_key, file=source, line=line)
    if event.tag is not None:
        raise InputError("yaml_tag", file=source, line=line, tag=event.tag)
    if as_key and type(event) is yaml.ScalarEvent and event.value == "<<" and event.implicit[0]:
        raise InputError("yaml_merge_key", file=source, line=line)


def _input_error(exc: yaml.YAMLError, text: str, source) -> InputError:
    """A YAML error said on its line, in words a player or an MJ can act on."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or str(exc)
        key, line = _diagnose(problem, text, line)
        return InputError(key, file=source, line=line, problem=problem)
    if isinstance(exc, yaml.reader.ReaderError):
        return InputError("yaml_syntax", file=source, line=text[:exc.position].count("\n") + 1,
                          problem=f"{exc.reason} (#x{exc.character:04x})" if isinstance(exc.character, int)
                          else exc.reason)
    return InputError("yaml_syntax", file=source, problem=str(exc))


#: a block text's key line: `roleplay: |`, `roleplay: >-`
_BLOCK_KEY = re.compile(r"^(\s*)(?:- )?[^\s:#][^:#]*:\s*[|>][+-]?[0-9]?\s*(?:#.*)?$")
#: a value starting with a character YAML reads as syntax: `roleplay: *nervously* …`
_SYNTAX_START = re.compile(r"^\s*(?:- +)?(?:[^\s:#'\"][^:#'\"]*:\s+)?([*&!%@`|>])")


def _diagnose(problem: str, text: str, line: int | None) -> tuple[str, int | None]:
    """The message key and the line of a YAML syntax error, the way a player or an MJ
    can act on it: the two common mistakes (a block text not indented under its
    `roleplay: |`, a text starting with `*` or `&`) found where they are, and never a
    line past the file's last one (libyaml's mark sits at the end of the stream)."""
    rows = text.split("\n")
    last = max((i + 1 for i, r in enumerate(rows) if r.strip()), default=1)
    unindented = _unindented_block(rows)
    if unindented is not None and (line is None or line >= unindented):
        return "yaml_hint_block_indent", unindented
    if line is not None:
        line = min(line, last)
        found = _SYNTAX_START.match(rows[line - 1]) if line <= len(rows) else None
        if found and ("alphabetic or numeric" in problem or "cannot start any token" in problem
                      or "found undefined" in problem):
            return "yaml_hint_quote_start", line
    return _hint(problem, text, line), line


def _unindented_block(rows: list[str]) -> int | None:
    """The line of the first text under a `key: |` that is not indented deeper than its key."""
    for i, row in enumerate(rows):
        found = _BLOCK_KEY.match(row)
        if not found:
            continue
        nxt = next((j for j in range(i + 1, len(rows)) if rows[j].strip()), None)
        if nxt is None:
            continue
        indent = len(rows[nxt]) - len(rows[nxt].lstrip(" "))
        if indent <= len(found.group(1)) and not re.match(r"^\s*[A-Za-z_]+\s*:(\s|$)", rows[nxt]):
            return nxt + 1
    return None


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
