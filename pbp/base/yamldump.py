"""YAML output of plain data, fast: byte for byte what `yamlio.dumps` writes.

A turn writes its state, roll log and events as YAML, and `pbp verify` writes
them again for every archived turn to compare bytes. PyYAML's dumper spends
most of its time in Python before libyaml's C emitter sees anything: a
representer builds a node per value, then the serializer asks the resolver,
twice per scalar, whether the plain text would read back as the same type.
Here one pass turns plain data (dict, list, str, int, float, bool, None) into
the very events that serializer would emit, with the resolver's answer kept per
distinct scalar (keys and short values repeat all through a turn's files), and
libyaml's emitter writes them with the same options: the same bytes, a few
times faster.

Anything else (another type, a subclass of str, a list or dict met twice, which
PyYAML would write as an anchor and an alias) is left to PyYAML itself.
"""

from __future__ import annotations

import yaml
from yaml.events import (DocumentEndEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent, StreamStartEvent)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

#: the options of `yamlio.dumps`
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
OPTIONS = {"allow_unicode": True, "sort_keys": False, "width": 100, "default_flow_style": False}

_STR, _INT, _FLOAT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_BOOL, _NULL = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_RESOLVER = Resolver()
_SCALARS: dict[tuple[str, str], ScalarEvent] = {}
_SCALARS_KEPT = 200_000  # distinct scalars remembered: bounded, for long processes


class _Fallback(Exception):
    """What PyYAML must write itself."""


def _scalar(tag: str, value: str) -> ScalarEvent:
    """The serializer's event for a scalar: its tag is implicit in plain style
    when the resolver reads the plain text back as `tag`, in quoted style when
    a quoted text would be (a string)."""
    key = (tag, value)
    event = _SCALARS.get(key)
    if event is None:
        implicit = (_RESOLVER.resolve(ScalarNode, value, (True, False)) == tag,
                    _RESOLVER.resolve(ScalarNode, value, (False, True)) == tag)
        event = ScalarEvent(None, tag, implicit, value)
        if len(_SCALARS) >= _SCALARS_KEPT:
            _SCALARS.clear()
        _SCALARS[key] = event
    return event


def _float(value: float) -> str:
    """SafeRepresenter.represent_float's text."""
    if value != value:
        return ".nan"
    if value == float("inf"):
        return ".inf"
    if value == float("-inf"):
        return "-.inf"
    text = repr(value).lower()
    if "." not in text and "e" in text:
        text = text.replace("e", ".0e", 1)
    return text


def _events(data) -> list:
    out = [StreamStartEvent(), DocumentStartEvent(explicit=False)]
    append = out.append
    seen: set[int] = set()
    strings = {}  # this document's str events, without the tuple key
    sequence_end, mapping_end = SequenceEndEvent(), MappingEndEvent()
    # an explicit stack rather than recursion: any depth a state may have
    stack = [iter((data,))]
    while stack:
        for value in stack[-1]:
            kind = type(value)
            if kind is str:
                event = strings.get(value)
                if event is None:
                    event = strings[value] = _scalar(_STR, value)
                append(event)
            elif kind is dict or kind is list:
                if id(value) in seen:
                    raise _Fallback
                seen.add(id(value))
                if kind is dict:
                    append(MappingStartEvent(None, None, True, False))
                    stack.append(_pairs(value, mapping_end, append))
                else:
                    append(SequenceStartEvent(None, None, True, False))
                    stack.append(_items(value, sequence_end, append))
                break
            elif kind is bool:
                append(_scalar(_BOOL, "true" if value else "false"))
            elif kind is int:
                append(_scalar(_INT, str(value)))
            elif value is None:
                append(_scalar(_NULL, "null"))
            elif kind is float:
                append(_scalar(_FLOAT, _float(value)))
            else:
                raise _Fallback
        else:
            stack.pop()
    out += [DocumentEndEvent(explicit=False), StreamEndEvent()]
    return out


def _pairs(mapping: dict, end, append):
    for key, value in mapping.items():
        yield key
        yield value
    append(end)


def _items(sequence: list, end, append):
    yield from sequence
    append(end)


def dumps(data) -> str:
    """`data` as `yamlio.dumps` writes it (the same text), faster."""
    try:
        events = _events(data)
    except _Fallback:
        return yaml.dump(data, Dumper=Dumper, **OPTIONS)
    return yaml.emit(events, Dumper=Dumper, allow_unicode=OPTIONS["allow_unicode"], width=OPTIONS["width"])
