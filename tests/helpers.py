"""Shared test helpers: build a campaign folder in a temporary directory, run
the real CLI on it, resolve a turn in memory with forced dice."""

from __future__ import annotations

import shutil
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.base import yamlio
from pbp.cli import main
from pbp.render.render import package_dir

REPO = Path(__file__).resolve().parent.parent


def write(root: Path, rel: str, content) -> Path:
    """Write a file of a campaign: a str is dedented, anything else dumped as YAML."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    text = textwrap.dedent(content).lstrip() if isinstance(content, str) else yamlio.dumps(content)
    path.write_text(text, encoding="utf-8")
    return path


def copy_example(name: str, dest: Path) -> Path:
    """A scratch copy of a bundled example campaign, its secret in secret.yaml as
    `pbp init --example` lays it out (pbp/engine/secret.py)."""
    from pbp.engine import secret

    target = dest / name
    shutil.copytree(package_dir("campaigns") / name, target, ignore=shutil.ignore_patterns(".pbp.lock"))
    secret.move(target, yamlio.load_file(target / "campaign.yaml").get("lang", "fr"))
    return target


def simulate_json(*args, cwd: Path | None = None) -> dict:
    """`pbp simulate ... --json`, parsed (the progress bar goes to stderr)."""
    import json

    r = pbp("simulate", *args, "--json", cwd=cwd)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def pbp(*args, cwd: Path | None = None):
    """Run the pbp CLI in-process; returns click's Result (exit_code, output, stderr)."""
    runner = CliRunner()
    argv = (["-C", str(cwd)] if cwd is not None else []) + [str(a) for a in args]
    return runner.invoke(main, argv, catch_exceptions=False)


def rules_campaign(tmp_path: Path, rules: str, name: str, characters: dict | None = None,
                   players: dict | None = None) -> Path:
    """A data campaign, set up, in tmp_path/name: its rules.yaml the text `rules`
    (`pbp init --rules`), campaign.yaml's players `players` (None: init's joueur1 and
    joueur2), its characters.yaml `characters` if given, then `pbp setup`."""
    write(tmp_path, "rules.yaml", rules)
    root = tmp_path / name
    r = pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git")
    assert r.exit_code == 0, r.output
    if players is not None:
        campaign = yamlio.load_file(root / "campaign.yaml")
        campaign["players"] = dict(players)
        write(root, "campaign.yaml", campaign)
    if characters is not None:
        write(root, "characters.yaml", characters)
    r = pbp("setup", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    return root


def rules_check(folder: Path, rules: str) -> tuple[int, str]:
    """`pbp rules check` of the text `rules` written as folder/rules.yaml: its exit code
    and what it says, no-break spaces as plain ones."""
    write(folder, "rules.yaml", rules)
    r = pbp("rules", "check", folder / "rules.yaml")
    return r.exit_code, r.output.replace("\xa0", " ")


def play_turn(root: Path, n: int, orders: dict, gm: dict | None = None, *options: str) -> dict:
    """Turn n played by `pbp run --no-commit [options]`: each player's list of actions
    written as their order file, gm.yaml if given; the state the turn led to."""
    for handle, actions in orders.items():
        write(root, f"turns/{n:03d}/orders/{handle}.yaml", {"actions": actions})
    if gm:
        write(root, f"turns/{n:03d}/gm.yaml", gm)
    r = pbp("run", "--no-commit", *options, cwd=root)
    assert r.exit_code == 0, r.output
    return yamlio.load_file(root / f"turns/{n:03d}/state.yaml")


def turn_post(root: Path, n: int, who: str = "public", ext: str = "bbcode") -> str:
    """A post turn n wrote: the public one, a player's private report (their handle) or
    the MJ's ("gm"); no-break spaces as plain ones, without the word joiners that keep
    a name such as `cible.force` from being read as a link."""
    name = f"public.{ext}" if who == "public" else f"gm.{ext}" if who == "gm" else f"private/{who}.{ext}"
    return (root / f"turns/{n:03d}" / name).read_text(encoding="utf-8").replace("\xa0", " ").replace("\u2060", "")


def reference_rules(heading: str):
    """The rules of the first YAML example under `heading` in docs/rules-format.md, loaded."""
    from pbp.datarules import load

    text = (REPO / "docs" / "rules-format.md").read_text(encoding="utf-8")
    section = text[text.index(heading):]
    start = section.index("```yaml\n") + 8
    return load.parse(section[start:section.index("```\n", start)])


def stored(value):
    """A value as events.yaml stores it and the templates get it: plain YAML values (a
    roll becomes its dict, a tuple a list), by the archive's own conversion."""
    from pbp.engine import turn

    return turn._plain(value)


def as_stored(events) -> list:
    """Events as events.yaml stores them (see `stored`)."""
    from pbp.model.events import Event

    return [Event.from_dict(stored(e.to_dict())) for e in events]


def walk_acyclic(graph: dict, starts) -> set:
    """Every node reached from `starts` along `graph` ({node: what it imports}); a
    circle fails the test, naming its path."""
    done, path = set(), []

    def visit(node):
        assert node not in path, " -> ".join(path + [node])
        if node in done:
            return
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            visit(dep)
        path.pop()
        done.add(node)

    for node in starts:
        visit(node)
    return done


def unsealed(post: str) -> str:
    """A post without the seal block the core adds at its end (templates/common/<lang>/seal.j2:
    the dice commitment on turn 0, the turn's code): for tests that compare a whole post with
    a text, which the codes (a hash of the whole archive) would make change with every byte."""
    import re

    found = re.search(r"\n\n(?:\[b\]|\*\*)?(?:Engagement des dés|Dice commitment|Sceau du tour|Seal of turn)\b", post)
    return post[:found.start()] + "\n" if found else post


class HtmlTags(HTMLParser):
    """What an independent parser's HTML of a post holds: how many of each element
    (`count`), the text of each paragraph (`paragraphs`), how many lists stand in a
    list item (`nested`)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.count: dict[str, int] = {}
        self.stack: list[str] = []
        self.paragraphs: list[str] = []
        self.nested = 0

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        if tag == "ul" and "li" in self.stack:
            self.nested += 1
        if tag == "p":
            self.paragraphs.append("")
        if tag not in ("br", "img", "hr"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]

    def handle_data(self, data):
        if "p" in self.stack[-2:]:
            self.paragraphs[-1] += data


def html_tags(html: str) -> HtmlTags:
    """An HTML text read by HtmlTags."""
    tags = HtmlTags()
    tags.feed(html)
    tags.close()
    return tags


#: what a test says when a package it checks with is not installed
INSTALL = "a dependency the tests check with: pip install -e '.[test]'"


def needs(module: str):
    """A package a test checks pbp's output with, or runs pbp's optional parts
    with (the `bbcode` parser, Python-Markdown, markdown-it-py, dyce...): the
    module, else the test is skipped, saying how to install it. Called inside the
    test, so a module's other tests still run where the package is missing."""
    return pytest.importorskip(module, reason=INSTALL)
