"""skirmish's package keeps the common ruleset shape (docs/design.md, "One ruleset
shape"), read off the source's syntax trees: which module may import which
(function-level imports count), no import circle, nobody inside imports the
package's __init__, no private name of another module, every file under 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pbp.rulesets.skirmish as package
from tests.helpers import walk_acyclic

FOLDER = Path(package.__file__).parent
PACKAGE = "pbp.rulesets.skirmish"
MODULES = sorted(p.stem for p in FOLDER.glob("*.py"))

#: what each module may import from the package (the __init__ imports them all)
ALLOWED = {
    "rules": set(),
    "board": {"rules"},
    "sheets": {"rules"},
    "views": {"rules"},
    "checks": {"rules", "board", "views"},
    "resolve": {"rules", "board", "sheets", "views"},
    "bots": {"rules", "board", "checks"},
    "balance": {"rules"},
    "odds": {"rules", "sheets"},
}


def tree(module: str) -> ast.Module:
    return ast.parse((FOLDER / f"{module}.py").read_text(encoding="utf-8"))


def imports(module: str) -> list[tuple[str, str]]:
    """(package module imported, name) for every import anywhere in the file: a
    submodule, or "__init__" for a name taken from the package itself."""
    found = []
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = node.module
            elif node.module and (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
                base = node.module[len(PACKAGE) + 1:] or None
            else:
                continue
            for alias in node.names:
                if base is None:  # from . import x: a submodule, or a name of the __init__
                    found.append((alias.name if alias.name in MODULES else "__init__", alias.name))
                else:
                    found.append((base, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE:
                    found.append(("__init__", alias.name))
                elif alias.name.startswith(PACKAGE + "."):
                    found.append((alias.name[len(PACKAGE) + 1:], alias.name))
    return found


def test_the_package_has_the_common_layout():
    assert set(MODULES) == {"__init__", *ALLOWED}
    for name in ("data.yaml", "messages.yaml", "schema.yaml", "README.md", "skeleton/campaign.yaml"):
        assert (FOLDER / name).is_file(), name


@pytest.mark.parametrize("module", sorted(ALLOWED))
def test_each_module_imports_only_the_layers_below_it(module):
    used = {target for target, _ in imports(module)}
    assert "__init__" not in used, f"{module} imports the package's __init__"
    assert used <= ALLOWED[module], (module, used - ALLOWED[module])


def test_the_init_declares_and_delegates():
    used = {target for target, _ in imports("__init__")}
    assert {"resolve", "checks", "balance", "bots", "odds"} <= used <= set(ALLOWED)
    classes = [n for n in tree("__init__").body if isinstance(n, ast.ClassDef)]
    assert [c.name for c in classes] == ["Skirmish"]
    for method in (n for n in classes[0].body if isinstance(n, ast.FunctionDef)):
        statements = [s for s in method.body if not isinstance(s, ast.Expr) or not isinstance(s.value, ast.Constant)]
        assert len(statements) <= 6, f"{method.name} does more than delegate"


def test_no_import_circle():
    graph = {m: {t for t, _ in imports(m)} for m in MODULES}
    assert walk_acyclic(graph, MODULES) == set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_no_private_name_of_another_module(module):
    """Neither `from x import _y` nor `x._y` on an imported module (pbp's or the package's)."""
    t = tree(module)
    aliases = set()
    for node in ast.walk(t):
        if isinstance(node, ast.ImportFrom):
            assert not [a.name for a in node.names if a.name.startswith("_")], (module, node.module)
            if node.level or (node.module or "").startswith("pbp"):
                aliases |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            aliases |= {(a.asname or a.name).split(".")[0] for a in node.names}
    private = [f"{n.value.id}.{n.attr}" for n in ast.walk(t)
               if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in aliases
               and n.attr.startswith("_") and not n.attr.startswith("__")]
    assert private == [], module


@pytest.mark.parametrize("module", MODULES)
def test_every_module_is_under_500_lines(module):
    assert len((FOLDER / f"{module}.py").read_text(encoding="utf-8").splitlines()) < 500, module
