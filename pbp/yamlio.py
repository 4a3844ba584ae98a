"""YAML in and out, fast, deterministic, and able to say on which line a value was.

Loading uses libyaml's CSafeLoader when present. Line numbers are only needed
when something is wrong, so `line_of` re-reads the file then, rather than
slowing down every load.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from pbp.errors import PbpError

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def loads(text: str, source: str | Path = "<text>"):
    try:
        return yaml.load(text, Loader=Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise PbpError("yaml_syntax", file=source, line=line, problem=exc.problem or str(exc)) from None
    except yaml.YAMLError as exc:
        raise PbpError("yaml_syntax", file=source, problem=str(exc)) from None


def load_file(path: Path):
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PbpError("file_missing", file=path) from None
    except UnicodeDecodeError:
        raise PbpError("not_utf8", file=path) from None
    except OSError as exc:
        raise PbpError("file_unreadable", file=path, reason=exc.strerror) from None
    return loads(text, path)


def dumps(data) -> str:
    return yaml.dump(data, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100, default_flow_style=False)


def _child(node, step):
    for key_node, value_node in node.value:
        if key_node.value == str(step):
            return key_node, value_node
    return None


def line_of(text: str, path: tuple) -> int | None:
    """1-based line of the node at `path` (keys and list indexes) in a YAML text.

    Falls back to the deepest ancestor found, then to None.
    """
    try:
        node = yaml.compose(text, Loader=Loader)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            found = _child(node, step)
            if found is None and len(node.value) == 1 and isinstance(node.value[0][1], yaml.MappingNode):
                # `- action: {field: ...}`: a field's path skips the action's name
                found = _child(node.value[0][1], step)
            if found is None:
                break
            line, node = found[0].start_mark.line + 1, found[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            break
    return line
