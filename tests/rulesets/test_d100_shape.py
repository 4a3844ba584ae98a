"""d100 keeps the common ruleset shape (docs/design.md, "One ruleset shape"): which
module may import which, read from the source's ast (imports inside functions
count), no circle, nothing importing the package's __init__, no module past
~500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pbp.rulesets.d100 as package
from tests.helpers import walk_acyclic

FOLDER = Path(package.__file__).parent
PACKAGE = "pbp.rulesets.d100"
MODULES = sorted(p.stem for p in FOLDER.glob("*.py"))

#: who may import whom inside the package ("__init__" is the package itself)
ALLOWED = {
    "__init__": {"resolve", "checks", "balance", "commands", "rules", "sheets"},
    "resolve": {"rules", "sheets"},
    "checks": {"rules", "sheets"},
    "balance": {"rules", "checks"},
    "commands": {"rules"},
    "rules": set(),
    "sheets": set(),
}


def imports_of(module: str) -> set[str]:
    return imports_in((FOLDER / f"{module}.py").read_text(encoding="utf-8")) - {module}


def imports_in(source: str) -> set[str]:
    """The package's modules a source imports, anywhere in it; a name imported
    from the package itself (not a submodule) counts as "__init__"."""
    tree = ast.parse(source)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE:
                    found.add("__init__")
                elif alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name[len(PACKAGE) + 1:].split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1 or node.module == PACKAGE:
                found |= {a.name if a.name in MODULES else "__init__" for a in node.names}
            elif node.module and node.module.startswith(PACKAGE + "."):
                found.add(node.module[len(PACKAGE) + 1:].split(".")[0])
            elif node.level > 1:
                found.add("outside")  # `from .. import`: the package reaches into its parents
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def test_the_reader_sees_imports_at_any_depth():
    source = ("from .rules import outcome\n"
              "def f():\n"
              "    from . import resolve, D100\n"
              "    if True:\n"
              "        import pbp.rulesets.d100.balance\n"
              "        from pbp.rulesets.d100 import checks, RULESET\n")
    assert imports_in(source) == {"rules", "resolve", "balance", "checks", "__init__"}


def test_every_module_has_its_place_in_the_shape():
    assert set(MODULES) == set(ALLOWED)


@pytest.mark.parametrize("module", MODULES)
def test_imports_follow_the_shape(module):
    assert GRAPH[module] <= ALLOWED[module], GRAPH[module] - ALLOWED[module]


def test_no_import_circle_and_nothing_imports_the_package():
    assert [m for m, deps in GRAPH.items() if "__init__" in deps] == []
    walk_acyclic(GRAPH, MODULES)
    assert GRAPH["__init__"] == ALLOWED["__init__"]  # it delegates to each of them


@pytest.mark.parametrize("module", MODULES)
def test_modules_stay_small(module):
    assert len((FOLDER / f"{module}.py").read_text(encoding="utf-8").splitlines()) <= 500
