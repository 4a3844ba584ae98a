"""Property: a player's private message cannot freeze the MJ's machine (issue 24).
Strings built to be worst cases for each part of `pbp orders import` (a word
repeated to the size limit, a bracket or a condition on one line, notes never
closed...), up to `order_file_bytes` (64 KiB), read by the real importer on every
bundled example: it ends, with a clean answer (a file to write or questions, never
an exception). The typo matcher, alone, on words of any length; the YAML
diagnosis of a player's order file, on any line. How long they take is measured
in bench/bench_hostile_import.py, not here: speed is no test."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbp.base import i18n, yamlread
from pbp.base.errors import InputError
from pbp.engine.campaign import open_campaign
from pbp.plaintext import import_orders, importer, wording
from tests.helpers import REPO, pbp

LIMIT = 65536
PLAYERS = {"manhunt": "lucy", "murder": "alice", "skirmish": "alice", "d100": "kira"}
#: the pieces a worst case is made of: what opens a span and never closes it, what
#: each pass of the reading stops at, words of the rules' vocabularies, long runs
PIECES = ["si(", "si je ", "(HRP ", "[HRP] [/", "(", "[", "«", '"', "1) ", "1. ", "puis ", ", ", "je fouille ",
          "Je me cache. ", "de la ", "Sylas ", "Bruno ", "RP : ", "fouile ", "cahce ", "\n", "\n\n", "+-1 ", "l'",
          "\u0301", "é", "roleplay: |", "- ", "#", "*", "&", "?", "!", "…", "rien ", "je reste ", "abcdefghij",
          "e", "a", " "]
hostile = st.builds(lambda parts, size: _fill("".join(parts), size),
                    st.lists(st.sampled_from(PIECES), min_size=1, max_size=4),
                    st.sampled_from([64, 4096, LIMIT]))


def _fill(unit: str, limit: int) -> str:
    size = len(unit.encode("utf-8"))
    return unit * max(1, limit // size)


@pytest.fixture(scope="module")
def campaigns():
    return {rid: open_campaign(REPO / "campaigns" / rid) for rid in PLAYERS}


@pytest.mark.parametrize("rid", list(PLAYERS))
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile)
def test_any_worst_case_message_is_read_to_a_clean_answer(campaigns, rid, text):
    assert len(text.encode("utf-8")) <= LIMIT
    result = import_orders.import_message(campaigns[rid], PLAYERS[rid], text)
    reading = result.reading
    assert len(reading.questions) <= importer.MAX_QUESTIONS + 1
    assert len(reading.actions) <= importer.MAX_ACTIONS
    if reading.questions:
        assert result.text is None and all(q.text("fr") and q.text("en") for q in reading.questions)
    else:
        assert result.text.startswith("# ") and result.receipt is not None


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(word=st.one_of(st.text(min_size=0, max_size=40),
                      st.builds(lambda w, n: (w * (LIMIT // max(1, len(w))))[:n],
                                st.text(min_size=1, max_size=26), st.integers(1, LIMIT))))
def test_the_typo_matcher_answers_known_words_only(word):
    known = ["fouille", "cacher", "deplacement", "recherche", "hanter", "interroger", "a" * 7]
    fuzzy = wording.Fuzzy(known, prefixes=True)
    found = fuzzy(word)
    assert found <= set(known)
    assert all(w == word or wording.one_edit(word, w) or w.startswith(word) for w in found)


def test_the_typo_matcher_still_forgives_one_typo():
    fuzzy = wording.Fuzzy(["fouille", "cache", "deplacement"], prefixes=True)
    assert fuzzy("fouile") == {"fouille"} and fuzzy("cahce") == {"cache"} and fuzzy("deplacment") == {"deplacement"}
    assert fuzzy("deplac") == {"deplacement"} and fuzzy("suite") == frozenset() and fuzzy("x" * LIMIT) == frozenset()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile)
def test_a_broken_order_file_is_diagnosed_by_a_known_message(text):
    try:
        yamlread.walk(text, "f.yaml", strict=True, max_depth=20, max_int_digits=18, alias_key="yaml_alias")
    except InputError as exc:
        assert i18n.has(exc.key) and (exc.line is None or 1 <= exc.line <= text.count("\n") + 1)


@pytest.mark.parametrize("message", ["abcdefghijklmnopqrstuvwxyz" * 2520, "si(" * 21845])
def test_the_import_command_answers_a_hostile_message(tmp_path, message):
    """The two messages of issue 24 (one long word; "si(" on one line), through the command."""
    from click.testing import CliRunner

    from pbp.cli import main
    from tests.helpers import copy_example

    root = copy_example("manhunt", tmp_path)
    r = CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "lucy"], input=message)
    assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit)
    assert r.stderr.endswith("à faire préciser au joueur : rien n'a été écrit.\n")
    assert "Traceback" not in r.output and "Erreur interne" not in r.output
    assert pbp("status", cwd=root).exit_code == 0


def test_a_long_word_costs_memory_in_proportion_to_it(campaigns):
    """Memory, not time, is counted (tracemalloc's peak is the same on any machine), of the
    reading alone (the campaign's state is the campaign's cost): a 16 KiB word once cost
    every one of its one-letter deletions, 16 K strings of 16 KiB."""
    import tracemalloc

    campaign = campaigns["manhunt"]
    rs, scenario = campaign.ruleset, campaign.scenario
    names = {k: wording.Names(v) for k, v in rs.import_names(campaign.state(3), scenario, "lucy").items()}
    people = [x for h in campaign.roster for x in (h, scenario.name(h))]
    word = ("abcdefghijklmnopqrstuvwxyz" * 700)[:16384]
    tracemalloc.start()
    try:
        reading = importer.read(word, rs, names, people, "lucy")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [q.key for q in reading.questions] == ["import_no_order"]
    assert peak < 20 * 2 ** 20, peak


def test_a_message_in_thousands_of_pieces_is_asked_for_again(tmp_path):
    from click.testing import CliRunner

    from pbp.cli import main
    from tests.helpers import copy_example

    root = copy_example("manhunt", tmp_path)
    r = CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "lucy"], input="a\n" * 32768)
    assert r.exit_code == 1
    assert ("message trop découpé : plus de 3000 phrases ou lignes. Demandez au joueur ses ordres en quelques "
            "lignes, le roleplay à part.") in r.stderr
