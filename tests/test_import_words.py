"""`pbp orders import` never drops or invents (issue 23): every action-like part of a
message is written or asked about, an action the player cannot take in their state is
never chosen, staying is an order where it is one, notes to the MJ, greetings and
labels never reach the roleplay, English campaigns write English ids, and a question
quotes the words it asks about. Through the real CLI, in French and English."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import copy_example, pbp


def _campaign(tmp_path: Path, rid: str, lang: str) -> Path:
    root = copy_example(rid, tmp_path / lang)
    for old in (root / "turns").glob("*/orders/*.y*ml"):
        if old.parent.parent.name == max(p.name for p in (root / "turns").iterdir()):
            old.unlink()  # the next turn's files: the test's imports write them
    if lang == "en":
        config = root / "campaign.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    return root


def _import(root: Path, player: str, message: str, *extra):
    from click.testing import CliRunner

    from pbp.cli import main

    return CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", player, *extra],
                              input=message)


def _file(result) -> str:
    """The order file the import printed: from `player:` to the blank line before the check."""
    return result.stdout.split("\n\n")[0]


@pytest.fixture
def mh_fr(tmp_path):
    return _campaign(tmp_path, "manhunt", "fr")


@pytest.fixture
def mh_en(tmp_path):
    return _campaign(tmp_path, "manhunt", "en")


@pytest.fixture
def mu_fr(tmp_path):
    return _campaign(tmp_path, "murder", "fr")


@pytest.fixture
def mu_en(tmp_path):
    return _campaign(tmp_path, "murder", "en")


# -- every action-like part is written or asked ------------------------------------------------

def test_a_move_then_a_hide_writes_both(mh_fr, mh_en):
    # both written: the rules' refusal (3 action points, 2 a turn) is then said, never "1 action"
    r = _import(mh_fr, "lucy", "Mélétê sort par le nord puis elle se cache.")
    assert _file(r).endswith("actions:\n  - deplacement_normal: nord\n  - se_cacher"), r.output
    assert "ces actions coûtent 3 points ; 2 au plus par tour." in r.stdout and "(1 action)" not in r.stdout
    r = _import(mh_en, "lucy", "Mélétê leaves by the north then she hides.")
    assert _file(r).endswith("actions:\n  - normal_move: north\n  - hide"), r.output
    assert "these actions cost 3 points; 2 at most a turn." in r.stdout


def test_a_part_after_then_with_no_action_is_asked_never_dropped(mh_fr, mh_en):
    r = _import(mh_fr, "lucy", "Mélétê saute par la fenêtre puis elle se cache.")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("ligne 1 (« Mélétê saute par la fenêtre puis elle se cache. ») : « Mélétê saute "
                               "par la fenêtre » se lit comme un ordre, mais aucune action n'y est reconnue")
    r = _import(mh_en, "lucy", "I hide, then I jump out of the window.")
    assert r.exit_code == 1
    assert "`I jump out of the window` reads like an order, but no action is recognised in it" in r.stderr
    assert "Valid values: normal_move, fast_move, flight" in r.stderr  # the English ids


def test_a_value_no_action_took_is_asked(mh_fr):
    r = _import(mh_fr, "lucy", "Je me cache, et au nord.")
    assert r.exit_code == 1
    assert "« au nord » se lit comme un ordre" in r.stderr


# -- never an action the player cannot take; staying is an order ---------------------------------

def test_a_living_player_s_watching_is_no_haunting_and_staying_is_an_order(mu_fr, mu_en):
    r = _import(mu_fr, "alice", "Je reste ici et j'observe les allées et venues")
    assert r.exit_code == 0, r.output
    assert "hanter" not in r.stdout
    assert _file(r).endswith("actions:\n  - rester")
    r = _import(mu_en, "alice", "I stay here and watch the comings and goings.")
    assert r.exit_code == 0, r.output
    assert "haunt" not in r.stdout and _file(r).endswith("actions:\n  - stay")


def test_staying_counts_as_sent_in_check_and_receipt(mu_en):
    r = _import(mu_en, "yann", "I stay in the hall.", "--write")
    assert r.exit_code == 0, r.output
    assert "stay" in (mu_en / "turns/009/orders/yann.yaml").read_text(encoding="utf-8")
    check = pbp("check", cwd=mu_en)
    assert "yann (1 action)" in check.output
    assert "Blank form" not in check.output and "blank" not in check.output.lower().split("yann")[-1][:40]
    receipt = pbp("receipt", "--player", "yann", cwd=mu_en)
    assert "your orders have arrived and are valid" in receipt.output
    assert "came back blank" not in receipt.output


def test_staying_and_moving_together_is_refused(mu_fr):
    (mu_fr / "turns/009/orders/yann.yaml").write_text(
        "player: yann\nturn: 9\nactions:\n  - rester\n  - deplacer: archives\n", encoding="utf-8")
    r = pbp("check", cwd=mu_fr)
    assert r.exit_code == 1
    assert "« rester » et « deplacer » à la fois : gardez l'un des deux." in r.output


# -- notes, greetings, labels never reach the roleplay ---------------------------------------------

@pytest.mark.parametrize("message", [
    "Mélétê tremble. (HRP : je serai absente\ndemain et après-demain)\nJe me cache.\n",
    "(OOC: away until\nmonday)\nMélétê tremble.\nJe me cache.\n",
    "[HRP] absente demain [/HRP] Mélétê tremble.\nJe me cache.\n",
    "Salut MJ !\nJe me cache.\nMélétê tremble.\nBonne soirée, et merci pour l'event !!\nBises\n",
    "I hide.\nMélétê tremble.\nThanks for the event, have a nice evening!\nCheers,\nLucy\n",
    "Je me cache. RP : Mélétê tremble.\n",
    "**RP :** Mélétê tremble.\nJe me cache.\n",
])
def test_notes_greetings_and_labels_stay_out_of_the_roleplay(mh_fr, message):
    r = _import(mh_fr, "lucy", message)
    assert r.exit_code == 0, r.output
    assert _file(r).endswith("actions:\n  - se_cacher\nroleplay: |\n  Mélétê tremble.")


# -- English ids, questions that quote their words ---------------------------------------------------

def test_an_english_campaign_writes_english_ids(mh_en, mu_en):
    r = _import(mh_en, "lucy", "I go north then I hide.")
    assert _file(r).endswith("actions:\n  - normal_move: north\n  - hide"), r.output
    r = _import(mu_en, "damien", "I haunt the archives and warn Bruno")
    assert _file(r).endswith("actions:\n  - haunt: {room: archives, warn: bruno}"), r.output


def test_a_question_quotes_the_words_it_asks_about(mh_fr, mh_en):
    message = "Mélétê retient son souffle longuement, écoute le couloir un moment, puis elle tire sur Zorglub"
    r = _import(mh_fr, "lucy", message)
    assert r.exit_code == 1
    first = r.stderr.splitlines()[0]
    assert first.startswith("ligne 1 (« …") and "tire sur Zorglub" in first, first
    r = _import(mh_en, "lucy", "Mélétê holds her breath for a long while, listens to the corridor, then shoots at Zorglub")
    assert r.exit_code == 1
    first = r.stderr.splitlines()[0]
    assert "shoots at Zorglub" in first, first
