"""In English the game master is the GM, never the MJ (French's "meneur de
jeu"): every English message of every catalogue, every English template's
words, every English help page and `pbp rules explain` in English. Game ids
(`mj` in a roll's label, a French rules file's keys) are not words and stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbp.base import yamlio
from tests.helpers import REPO, copy_example, pbp
from tests.test_help import run, tree

MJ = re.compile(r"\bMJs?\b")
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)


def _english_texts(node, path=""):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "en" and isinstance(value, str):
                yield path, value
            else:
                yield from _english_texts(value, f"{path}.{key}")


def test_no_english_message_says_mj():
    said = [(str(p.relative_to(REPO)), key, text) for p in sorted((REPO / "pbp").rglob("messages.yaml"))
            for key, text in _english_texts(yamlio.load_file(p)) if MJ.search(text)]
    assert said == []


def test_no_english_template_says_mj():
    said = [str(p.relative_to(REPO)) for p in sorted(REPO.glob("templates/**/en/**/*.j2"))
            if MJ.search(JINJA_COMMENT.sub("", p.read_text(encoding="utf-8")))]
    assert said == []


def test_no_english_help_page_says_mj(monkeypatch, tmp_path):
    monkeypatch.setenv("PBP_LANG", "en")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    said = []
    for _command, _root, ctx in tree():
        path = ctx.command_path.split()[1:]
        out = run(*path, "--help").output
        said += [(path, line) for line in out.splitlines() if MJ.search(line)]
    assert said == []


# (d100-data is left out: its rules file names an input "MJ's situational die" in its own words)
@pytest.mark.parametrize("example", ["manhunt-data", "village-vote", "investigation-event"])
def test_the_rules_explained_in_english_say_gm(tmp_path, example):
    root = copy_example(example, tmp_path / example)
    config = root / "campaign.yaml"
    config.write_text(re.sub(r"(?m)^lang: fr$", "lang: en", config.read_text(encoding="utf-8")), encoding="utf-8")
    r = pbp("rules", "explain", cwd=root)
    assert r.exit_code == 0, r.output
    assert [line for line in r.output.splitlines() if MJ.search(line)] == []
