"""Shared test helpers: build a campaign folder in a temporary directory, run
the real CLI on it, resolve a turn in memory with forced dice."""

from __future__ import annotations

import shutil
import textwrap
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


def unsealed(post: str) -> str:
    """A post without the seal block the core adds at its end (templates/common/<lang>/seal.j2:
    the dice commitment on turn 0, the turn's code): for tests that compare a whole post with
    a text, which the codes (a hash of the whole archive) would make change with every byte."""
    import re

    found = re.search(r"\n\n(?:\[b\]|\*\*)?(?:Engagement des dés|Dice commitment|Sceau du tour|Seal of turn)\b", post)
    return post[:found.start()] + "\n" if found else post


#: what a test says when a package it checks with is not installed
INSTALL = "a dependency the tests check with: pip install -e '.[test]'"


def needs(module: str):
    """A package a test checks pbp's output with, or runs pbp's optional parts
    with (the `bbcode` parser, Python-Markdown, markdown-it-py, dyce...): the
    module, else the test is skipped, saying how to install it. Called inside the
    test, so a module's other tests still run where the package is missing."""
    return pytest.importorskip(module, reason=INSTALL)
