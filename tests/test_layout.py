"""The code's shape, held by a test: the data flows one way, so no module of
pbp imports its way back in a circle (function-level imports included: a lazy
import only hides a circle), each layer imports only the layers below it
(docs/architecture.md, "The layers"), and every ruleset has the same layout
(docs/design.md, "One ruleset shape"; pbp/rulesets/README.md): a newcomer who
knows one knows all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pbp.model import ruleset

ROOT = Path(__file__).resolve().parent.parent / "pbp"
RULESETS = ROOT / "rulesets"
REQUIRED = ("__init__.py", "rules.py", "resolve.py", "checks.py", "balance.py", "data.yaml", "messages.yaml",
            "schema.yaml", "README.md", "skeleton/campaign.yaml")
#: modules a ruleset must not import: a ruleset does no I/O, no printing and
#: knows nothing of the command line or the archive (the layers keep it off
#: pbp.engine and pbp.cli; these are the rest)
FORBIDDEN = {"click", "subprocess", "socket", "shutil", "pbp.base.yamlio"}
MAX_LINES = 500


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def import_sites(name: str) -> list[tuple[int, str]]:
    """Every import of module `name`, anywhere in its code, as (line, module):
    `from pbp.x import y` is pbp.x.y when that is a module, else pbp.x."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.append((node.lineno, full if full in MODULES else target))
    return [(line, module) for line, module in found if module != name]


def imports(name: str) -> set[str]:
    """Every module `name` imports, anywhere in its code."""
    return {module for _, module in import_sites(name)}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_pbp_imports_its_way_back():
    graph = {name: {i for i in imports(name) if i in MODULES} for name in MODULES}
    assert cycles(graph) == []


RULESET_IDS = [p.name for p in sorted(RULESETS.iterdir()) if (p / "__init__.py").is_file()]


def test_every_builtin_ruleset_is_found():
    assert RULESET_IDS and set(RULESET_IDS) <= set(ruleset.ids())


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_every_ruleset_has_the_common_layout(rid):
    folder = RULESETS / rid
    assert [f for f in REQUIRED if not (folder / f).is_file()] == []
    assert (ROOT.parent / "templates" / rid / "fr" / "public.j2").is_file()
    assert (ROOT.parent / "templates" / rid / "en" / "public.j2").is_file()


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_a_ruleset_imports_one_way_and_does_no_io(rid):
    package = f"pbp.rulesets.{rid}"
    own = sorted(m for m in MODULES if m.startswith(package + "."))
    problems = []
    for name in own:
        found = imports(name)
        if package in found:
            problems.append(f"{name} imports the package's __init__")
        if name == f"{package}.rules":
            problems += [f"rules imports {m}" for m in sorted(found)
                         if m in {f"{package}.{x}" for x in ("resolve", "checks", "balance", "commands")}]
        problems += [f"{name} imports {m}" for m in sorted(found)
                     if m in FORBIDDEN or m.split(".")[0] in FORBIDDEN]
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        problems += [f"{name}:{node.lineno} calls {node.func.id}()" for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                     and node.func.id in ("print", "open", "input")]
    assert problems == []


def too_long(paths) -> list[str]:
    """`pbp/x.py: 612 lines (at most 500)` for each module over MAX_LINES."""
    out = []
    for path in paths:
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            shown = path.relative_to(ROOT.parent) if path.is_relative_to(ROOT.parent) else path
            out.append(f"{shown}: {n} lines (at most {MAX_LINES}): split it by concern")
    return out


def test_every_module_of_pbp_stays_readable_in_one_sitting():
    long = too_long(MODULES.values())
    assert not long, "\n".join(long)


def test_the_size_check_names_the_module_and_its_size(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    fits = tmp_path / "fits.py"
    fits.write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert too_long([probe, fits]) == [f"{probe}: {MAX_LINES + 1} lines (at most {MAX_LINES}): split it by concern"]


def test_the_layout_check_sees_a_forbidden_import(tmp_path, monkeypatch):
    # The checks above must be able to fail: a module importing click is seen.
    fake = ROOT / "rulesets" / "__layout_probe__.py"
    monkeypatch.setitem(MODULES, "pbp.rulesets.__layout_probe__", fake)
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: "import click\nfrom pbp import cli\n")
    assert imports("pbp.rulesets.__layout_probe__") == {"click", "pbp.cli"}


# -- the layers ------------------------------------------------------------------------

BELOW = {  # each layer and the layers it may import besides its own
    "base": set(),
    "model": {"base"},
    "datarules": {"base", "model"},  # the rules-as-data compiler: model level
    "rulesets": {"base", "model", "datarules"},
    "render": {"base", "model", "datarules"},
    "engine": {"base", "model", "datarules", "render"},
    "plaintext": {"base", "model", "datarules", "render", "engine"},
    "trust": {"base", "model", "datarules", "render", "engine"},
    "balance": {"base", "model", "datarules", "render", "engine"},
    "cli": {"base", "model", "datarules", "render", "engine", "plaintext", "trust", "balance", "rulesets"},
}
#: modules outside the layer their folder says
LAYER_OF = {
    "pbp": "base",  # the package itself: its version
    "pbp.__main__": "cli",  # `python -m pbp`
    "pbp.rulesets": "model",  # the namespace the built-in rulesets are found in (pbp.model.ruleset), empty
}
#: modules that may import one layer more than their own: the exact odds a ruleset
#: gives `pbp odds` and `pbp balance` (its balance.py, skirmish's odds.py) and the
#: odds `pbp rules explain` shows beside a rules file
ODDS = {"balance"}


def layer(name: str) -> str:
    if name in LAYER_OF:
        return LAYER_OF[name]
    return name.split(".")[1]


def may_import(name: str) -> set[str]:
    allowed = {layer(name)} | BELOW[layer(name)]
    a_rulesets_odds = layer(name) == "rulesets" and name.rpartition(".")[2] in ("balance", "odds")
    if a_rulesets_odds or name == "pbp.datarules.explain":
        allowed |= ODDS
    return allowed


def backward_imports(names) -> list[str]:
    """Each import of a pbp module against the layers' direction, as
    `file:line: module imports target (layer may import ...)`."""
    found = []
    for name in names:
        allowed = may_import(name)
        for line, target in import_sites(name):
            if target in MODULES and layer(target) not in allowed:
                where = MODULES[name].relative_to(ROOT.parent)
                found.append(f"{where}:{line}: {name} imports {target} "
                             f"({layer(name)} may import {', '.join(sorted(allowed))})")
    return found


def test_every_module_has_a_layer():
    assert {name: layer(name) for name in MODULES if layer(name) not in BELOW} == {}


def test_each_layer_imports_only_the_layers_below_it():
    assert backward_imports(sorted(MODULES)) == []


def test_the_layer_check_sees_a_backward_import(monkeypatch):
    # A model module importing the engine, deep in a function, is named with its line.
    fake = ROOT / "model" / "__layer_probe__.py"
    monkeypatch.setitem(MODULES, "pbp.model.__layer_probe__", fake)
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None:
                        "from pbp.base import i18n\n\ndef f():\n    from pbp.engine import campaign\n")
    assert backward_imports(["pbp.model.__layer_probe__"]) == [
        "pbp/model/__layer_probe__.py:4: pbp.model.__layer_probe__ imports pbp.engine.campaign "
        "(model may import base, model)"]
