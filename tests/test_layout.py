"""The code's shape, held by a test: the data flows one way, so no module of
pbp imports its way back in a circle (function-level imports included: a lazy
import only hides a circle), and every ruleset has the same layout (docs/design.md,
"One ruleset shape"; pbp/rulesets/README.md): a newcomer who knows one knows all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pbp import ruleset

ROOT = Path(__file__).resolve().parent.parent / "pbp"
RULESETS = ROOT / "rulesets"
REQUIRED = ("__init__.py", "rules.py", "resolve.py", "checks.py", "balance.py", "data.yaml", "messages.yaml",
            "schema.yaml", "README.md", "skeleton/campaign.yaml")
#: modules a ruleset must not import: a ruleset does no I/O, no printing and
#: knows nothing of the command line or the archive
FORBIDDEN = {"click", "subprocess", "socket", "shutil", "pbp.cli", "pbp.campaign", "pbp.archive", "pbp.turn",
             "pbp.loop", "pbp.yamlio"}
MAX_LINES = 500


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(name: str) -> set[str]:
    """Every module `name` imports, anywhere in its code, resolved to a module
    name (`from pbp.x import y` is pbp.x.y when that is a module, else pbp.x)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in MODULES else target)
    found.discard(name)
    return found


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


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_a_rulesets_modules_stay_readable_in_one_sitting(rid):
    long = {p.name: n for p in (RULESETS / rid).glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_layout_check_sees_a_forbidden_import(tmp_path, monkeypatch):
    # The checks above must be able to fail: a module importing click is seen.
    fake = ROOT / "rulesets" / "__layout_probe__.py"
    monkeypatch.setitem(MODULES, "pbp.rulesets.__layout_probe__", fake)
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: "import click\nfrom pbp import cli\n")
    assert imports("pbp.rulesets.__layout_probe__") == {"click", "pbp.cli"}
