"""manhunt keeps the common ruleset shape (docs/design.md, "One ruleset shape"): who
imports whom inside the package, read from the source's syntax trees, so an
import hidden in a function counts as much as one at the top."""

import ast
from pathlib import Path

import pbp.rulesets.manhunt as package
from tests.helpers import walk_acyclic

PACKAGE = "pbp.rulesets.manhunt"
FOLDER = Path(package.__file__).parent
INIT = "__init__"

#: the whole graph: __init__ declares and delegates; rules, world import no module of theirs
EXPECTED = {
    INIT: {"balance", "checks", "resolve", "rules", "views", "world"},
    "resolve": {"actions", "rules", "world"},
    "actions": {"rules"},
    "checks": {"rules", "world"},
    "views": {"rules"},
    "balance": {"checks", "rules", "world"},
    "rules": set(),
    "world": set(),
}


def package_imports(path: Path) -> set[str]:
    """The modules of the package a file imports, anywhere in it (INIT for the package itself)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level > 1:
                found.add("<outside>")
                continue
            base = node.module or ""
            if node.level == 0:
                if base != PACKAGE and not base.startswith(PACKAGE + "."):
                    continue
                base = base[len(PACKAGE) + 1:]
            if base:
                found.add(base.split(".")[0])
            else:  # `from . import x` / `from pbp.rulesets.manhunt import x`: x may be a module or a name of __init__
                modules = {p.stem for p in FOLDER.glob("*.py")}
                found |= {a.name if a.name in modules else INIT for a in node.names}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE:
                    found.add(INIT)
                elif alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name[len(PACKAGE) + 1:].split(".")[0])
    return found


def graph() -> dict[str, set[str]]:
    return {path.stem: package_imports(path) for path in sorted(FOLDER.glob("*.py"))}


def test_the_import_graph_is_the_designed_one():
    assert graph() == EXPECTED


def test_no_module_imports_the_package_and_there_is_no_circle():
    edges = graph()
    assert [m for m, deps in edges.items() if m != INIT and INIT in deps] == []
    assert walk_acyclic(edges, sorted(edges)) == set(EXPECTED)


def test_the_reader_finds_hidden_imports(tmp_path):
    """The check sees a function-level import and the package's own name."""
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from pbp.rulesets.manhunt import RULESET\n    from .resolve import Turn\n"
                      "    import pbp.rulesets.manhunt.balance\n", encoding="utf-8")
    assert package_imports(source) == {INIT, "resolve", "balance"}


def test_every_module_is_under_500_lines():
    lengths = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in FOLDER.glob("*.py")}
    assert len(lengths) == len(EXPECTED)
    assert {name: n for name, n in lengths.items() if n >= 500} == {}


def test_the_ruleset_class_lives_in_the_package_init():
    cls = package.RULESET
    assert cls.__module__ == PACKAGE and cls.id == "manhunt"
