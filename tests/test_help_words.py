"""The help an MJ reads at 1 a.m.: every value name in the help's language
(`pbp audit PAQUET`, `--set CLÉ=VALEUR`), the name in the usage line the one
the text explains, and `pbp run`/`pbp status` saying what they read and what is
secret."""

from __future__ import annotations

import re

import pytest

from tests.test_help import env, run, tree  # noqa: F401 (env: the fixture)

ENGLISH_VALUE_NAMES = re.compile(r"\b(BUNDLE|KEY|VALUE|RULESET|RULESET_ID|NAME|FILE|TEXT|INTEGER|PATH)\b")


def test_every_value_name_of_the_french_help_is_french(env):  # noqa: F811
    env.setenv("PBP_LANG", "fr")
    english = []
    for _command, _root, ctx in tree():
        path = ctx.command_path.split()[1:]
        english += [(path, line) for line in run(*path, "--help").output.splitlines()
                    if ENGLISH_VALUE_NAMES.search(line)]
    assert english == []


@pytest.mark.parametrize("lang, usage, text", [
    ("fr", "Utilisation : pbp simulate [OPTIONS] [JEU]", "Avec JEU (un jeu de règles : manhunt"),
    ("en", "Usage: pbp simulate [OPTIONS] [RULESET]", "With RULESET (a ruleset: manhunt"),
])
def test_simulate_explains_the_name_its_usage_line_gives(env, lang, usage, text):  # noqa: F811
    env.setenv("PBP_LANG", lang)
    out = run("simulate", "--help").output
    assert out.splitlines()[0] == usage and text in out
    env.setenv("PBP_LANG", lang)
    assert ("--set CLÉ=VALEUR" if lang == "fr" else "--set KEY=VALUE") in run("odds", "--help").output
    assert ("--rule JEU.NOM" if lang == "fr" else "--rule RULESET.NAME") in run("odds", "--help").output


@pytest.mark.parametrize("lang, words", [
    ("fr", ["turns/NNN/orders/", "turns/NNN/gm.yaml", "--at-deadline).", "pbp run --dry-run, pbp run",
            "pbp post --gm"]),
    ("en", ["turns/NNN/orders/", "turns/NNN/gm.yaml", "--at-deadline).", "pbp run --dry-run, pbp run",
            "pbp post --gm"]),
])
def test_run_says_what_it_reads_and_what_a_turn_is(env, lang, words):  # noqa: F811
    env.setenv("PBP_LANG", lang)
    out = " ".join(run("run", "--help").output.split())  # the words as read, whatever the wrapping
    assert [w for w in words if w not in out] == []
    listed = run("--help").output
    assert ("  run          Résout le prochain tour, écrit ses messages, l'archive." if lang == "fr"
            else "  run          Resolve the next turn, write its outputs, commit.") in listed


def test_status_says_its_page_is_never_for_the_thread(env):  # noqa: F811
    env.setenv("PBP_LANG", "fr")
    assert "Pour vous seul, jamais pour le fil" in " ".join(run("status", "--help").output.split())
    env.setenv("PBP_LANG", "en")
    assert "For you alone, never for the thread" in " ".join(run("status", "--help").output.split())
