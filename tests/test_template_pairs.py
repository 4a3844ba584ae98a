"""A post's French and English templates keep one structure: the same blocks,
loops, conditions, macros, includes and variables set, in the same order; only
their words differ (what they write, in each language's order). Every change
to a post is made twice (issue 25): this test says where the two copies drift.

Each fr/en pair of templates/ is parsed with jinja2's own parser (the options
pbp renders with) and reduced to its control structure (`structure`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment, nodes

from pbp.render.render import ENV_OPTIONS, package_dir

TEMPLATES = package_dir("templates")
PAIRS = sorted(path.relative_to(TEMPLATES) for path in TEMPLATES.rglob("*.j2")
               if path.parent.name == "fr" and (path.parent.parent / "en" / path.name).is_file())
#: node fields that hold names, operators, numbers: the structure (text is left out)
KEPT = ("name", "attr", "op", "ops", "template", "with_context", "recursive", "scoped", "required", "ignore_missing")
#: statements whose expressions are the structure (what a loop goes over, what a condition tests)
CONTROL = (nodes.For, nodes.If, nodes.Macro, nodes.CallBlock, nodes.FilterBlock, nodes.Include, nodes.Import,
           nodes.FromImport, nodes.Block, nodes.Extends, nodes.With)
#: what one language's grammar needs and the other's does not (or in another form): variables
#: set and macros by these names are words (French genders and elisions, English names of ids,
#: pronouns; a cause of death said with a table in French, a macro in English)
GRAMMAR_ONLY = frozenset({"gen", "de_b", "perished", "died_how", "noun,genre", "en_ids", "en", "TYPES", "pronoun"})
#: macros that are a table of words, written with the grammar of each language (a French wound
#: agrees with the character's gender): their arguments are structure, their bodies words
WORD_MACROS = frozenset({"wound"})
#: a comparison that says whether to write a plural: French from 2 (`n > 1`, `n >= 2`), English
#: but for 1 (`n != 1`)
PLURAL = {("gt", 1), ("gteq", 2), ("ne", 1), ("eq", 1), ("lteq", 1), ("lt", 2)}


def _plural(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Compare) and len(node.ops) == 1 and isinstance(node.ops[0].expr, nodes.Const) \
        and (node.ops[0].op, node.ops[0].expr.value) in PLURAL


def structure(source: str) -> list[str]:
    """The template's control structure as lines, depth first: its blocks, loops,
    conditions, macros, includes and the variables it sets, each with its
    expressions (names, calls, filters, operators, numbers); not what it writes
    (`{{ ... }}` and the text between tags: its words, in each language's order)."""
    tree = Environment(**ENV_OPTIONS).parse(source)
    out: list[str] = []

    def expression(node: nodes.Node, depth: int) -> None:
        if isinstance(node, nodes.TemplateData) or _grammar(node):
            return
        if _plural(node):
            out.append("  " * depth + "Plural")
            expression(node.expr, depth + 1)
            return
        label = type(node).__name__
        if isinstance(node, nodes.Const) and not isinstance(node.value, str):
            label += f" {node.value!r}"  # a number, True, None: structure; a quoted text is words
        for name in KEPT:
            value = getattr(node, name, None)
            if isinstance(value, (str, bool, int)) and name in node.fields:
                label += f" {name}={value}"
        out.append("  " * depth + label)
        for child in node.iter_child_nodes():
            expression(child, depth + 1)

    def statement(node: nodes.Node, depth: int) -> None:
        if _words(node):
            return
        if isinstance(node, (nodes.Assign, nodes.AssignBlock)):
            out.append("  " * depth + f"{type(node).__name__} {_target(node)}")
            return
        out.append("  " * depth + type(node).__name__)
        for field in node.fields:
            value = getattr(node, field)
            if field == "body" and isinstance(node, nodes.Macro) and node.name in WORD_MACROS:
                continue
            if isinstance(value, list) and value and isinstance(value[0], nodes.Stmt):
                kept = [child for child in value if not _words(child)]
                if kept:  # a branch that only writes words (`ally`/`allies`) is words
                    out.append("  " * (depth + 1) + field)
                for child in kept:
                    statement(child, depth + 2)
            elif field == "template" and isinstance(value, nodes.Const):
                out.append("  " * (depth + 1) + f"template={value.value}")  # a part's name is structure
            elif isinstance(value, nodes.Node) and isinstance(node, CONTROL):
                expression(value, depth + 1)
            elif isinstance(value, list) and isinstance(node, CONTROL):
                for child in value:
                    if isinstance(child, nodes.Node):
                        expression(child, depth + 1)
            elif isinstance(value, (str, bool)) and field in KEPT:
                out.append("  " * (depth + 1) + f"{field}={value}")

    statement(tree, 0)
    return out


def _words(node: nodes.Node) -> bool:
    """A statement that is words: what is written, a grammar helper (GRAMMAR_ONLY), or a loop
    or a call that only fills one (`{% set _ = en_ids.append(...) %}`)."""
    if isinstance(node, nodes.Output) or _target(node) in GRAMMAR_ONLY:
        return True
    if isinstance(node, nodes.Assign) and isinstance(node.node, nodes.Call):
        method = node.node.node
        return isinstance(method, nodes.Getattr) and _target(method.node) in GRAMMAR_ONLY
    if isinstance(node, nodes.For):
        return all(_words(child) and not isinstance(child, nodes.Output) for child in node.body)
    return False


def _target(node: nodes.Node) -> str:
    """What a statement names: the variable it sets, the macro it defines."""
    if isinstance(node, (nodes.Assign, nodes.AssignBlock)):
        return _target(node.target)
    if isinstance(node, nodes.Macro):
        return node.name
    if isinstance(node, nodes.NSRef):
        return f"{node.name}.{node.attr}"
    if isinstance(node, nodes.Tuple):
        return ",".join(_target(n) for n in node.items)
    return getattr(node, "name", type(node).__name__)


def _grammar(node: nodes.Node) -> bool:
    """`g.colon`, `g.e(...)`: the language's typography and grammar (pbp/grammar.py), its words."""
    while isinstance(node, (nodes.Call, nodes.Filter)) and node.node is not None:
        node = node.node
    return isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name == "g"


def _drift(fr: list[str], en: list[str]) -> str:
    import difflib

    return "\n".join(list(difflib.unified_diff(fr, en, "fr", "en", lineterm="", n=2))[:40])


def test_every_french_template_has_its_english_pair():
    french = {p.relative_to(TEMPLATES) for p in TEMPLATES.rglob("fr/*.j2")}
    english = {p.relative_to(TEMPLATES) for p in TEMPLATES.rglob("en/*.j2")}
    assert {Path(str(p).replace("/fr/", "/en/")) for p in french} == english


@pytest.mark.parametrize("french", PAIRS, ids=str)
def test_a_french_template_and_its_english_copy_keep_one_structure(french):
    english = Path(str(french).replace("/fr/", "/en/"))
    fr = structure((TEMPLATES / french).read_text(encoding="utf-8"))
    en = structure((TEMPLATES / english).read_text(encoding="utf-8"))
    assert fr == en, f"{french} and {english} drift apart:\n{_drift(fr, en)}"


@pytest.mark.parametrize("planted", [
    ("{% if e.hit %}x{% endif %}", "{% if e.hit and e.loud %}x{% endif %}"),  # a condition changed in one language
    ("{% for p in players %}x{% endfor %}", "{% for p in players | sort %}x{% endfor %}"),  # a loop's order
    ("{% if a %}x{% endif %}", "{% if a %}x{% elif b %}y{% endif %}"),  # a case added
    ("{% include 'a.j2' %}", "{% include 'b.j2' %}"),  # another part
    ("{% set n = events | length %}", "{% set count = events | length %}"),  # a variable renamed
    ("{% macro f(a) %}x{% endmacro %}", "{% macro f(a, b) %}x{% endmacro %}"),  # a macro's arguments
])
def test_a_planted_drift_is_found(planted):
    before, after = planted
    words = "Bonjour {} et merci.\n"
    assert structure(words.format(before)) != structure("Hello {} and thanks.\n".format(after))
    assert structure(words.format(before)) == structure("Hello {} and thanks.\n".format(before))
