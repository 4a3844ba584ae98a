"""The murder package keeps the one ruleset shape (docs/design.md, "One ruleset shape"):
each module imports only the modules below it, function-level imports included,
no module but the package's own `__init__` imports the package, and every file
stays small enough to read."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pbp.rulesets.murder as package

PACKAGE = "pbp.rulesets.murder"
FOLDER = Path(package.__file__).parent
MODULES = sorted(p.stem for p in FOLDER.glob("*.py"))
#: module -> the package's modules it may import
ALLOWED = {
    "__init__": {"board", "rules", "checks", "draw", "resolve", "balance"},
    "board": set(),
    "rules": {"board"},
    "checks": {"rules", "board"},
    "resolve": {"rules", "board"},
    "draw": {"rules", "board", "resolve"},
    "balance": {"rules", "checks", "board"},
}
MAX_LINES = 500


def imported(module: str, folder: Path = FOLDER) -> set[str]:
    """The package's modules `module` imports anywhere in its file ("__init__"
    for the package itself), from the syntax tree: a function-level import counts."""
    tree = ast.parse((folder / f"{module}.py").read_text(encoding="utf-8"))
    found = set()

    def target(dotted: str, names=()) -> set[str]:
        if dotted == PACKAGE:
            return {n if n in MODULES else "__init__" for n in names} or {"__init__"}
        if dotted.startswith(PACKAGE + "."):
            return {dotted[len(PACKAGE) + 1:].split(".")[0]}
        return set()

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found |= target(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package (a module of the package is one level down)
                parts = PACKAGE.split(".")[:len(PACKAGE.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found |= target(base, [a.name for a in node.names])
    return found


def test_every_module_is_known():
    assert set(MODULES) == set(ALLOWED)


@pytest.mark.parametrize("module", sorted(ALLOWED))
def test_imports_go_down_only(module):
    assert imported(module) - {module} <= ALLOWED[module], module


def test_no_import_circle():
    """On the imports as found (not as allowed): a depth-first walk meets no
    module twice on one path."""
    graph = {m: imported(m) - {m} for m in MODULES}
    done = set()

    def visit(module, path):
        assert module not in path, " -> ".join(path + (module,))
        if module not in done:
            for other in sorted(graph.get(module, ())):
                visit(other, path + (module,))
            done.add(module)

    for module in MODULES:
        visit(module, ())
    assert done == set(MODULES)


def test_nothing_imports_the_package_init():
    assert [m for m in MODULES if m != "__init__" and "__init__" in imported(m)] == []


def test_the_check_sees_every_kind_of_import(tmp_path):
    """The checker itself: a top-level, a function-level, a relative and a
    from-the-package import are all found; other packages' are not."""
    (tmp_path / "rules.py").write_text(
        "import pbp.rulesets.murder.board\nimport pbp.rulesets.manhunt.world\n"
        "def f():\n    from pbp.rulesets.murder.resolve import Turn\n"
        "def g():\n    from . import checks\n    from .balance import legal_orders\n"
        "from pbp.rulesets.murder import Murder\nfrom pbp.model.orders import Action\n", encoding="utf-8")
    assert imported("rules", tmp_path) == {"board", "resolve", "checks", "balance", "__init__"}


@pytest.mark.parametrize("module", MODULES)
def test_files_stay_small(module):
    lines = (FOLDER / f"{module}.py").read_text(encoding="utf-8").count("\n")
    assert lines < MAX_LINES, (module, lines)
