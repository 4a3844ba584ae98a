"""Dark Knights RPG's investigation event (/work/shared/rules-examples/
investigation-event.md) written as data: campaigns/investigation-event/rules.yaml,
played through the real CLI with forced dice, its numbers checked by hand: action
points (PA) that do not come back, prices that depend on the MJ's authorisation,
the MJ's secret risk roll, prepared findings and secret actions told only to
their player."""

from __future__ import annotations

import shutil

import pytest

from pbp.base import yamlio
from tests.helpers import copy_example, pbp, turn_post, write


def pa(root, n: int) -> dict:
    state = yamlio.load_file(root / "turns" / f"{n:03d}" / "state.yaml")
    return {h: c["gauges"]["pa"] for h, c in state["characters"].items()}


post = turn_post


@pytest.fixture
def event(tmp_path):
    return copy_example("investigation-event", tmp_path)


def test_the_archive_holds_the_pages_numbers(event):
    # Sélène: hall allowed, 3 PA (not 4), no risk; Marius: office, 3 PA, the MJ's d6 gave 2: failed
    assert pa(event, 1) == {"selene": 3, "marius": 3, "ilya": 4}
    rolls = (event / "turns/001/rolls.yaml").read_text(encoding="utf-8")
    assert "marius.fouiller_bureau.risque" in rolls and "selene.fouiller_salle.risque" not in rolls
    assert "une lettre froissée sous le fauteuil 12" in post(event, 1, "selene")
    assert "Votre fouille échoue" in post(event, 1, "marius")
    assert pa(event, 2) == {"selene": 1, "marius": 0, "ilya": 4}
    assert pa(event, 3) == {"selene": 1, "marius": 0, "ilya": 2}  # the secret action, priced 2 by the MJ


def test_the_scene_ends_when_nobody_has_the_points_for_an_action(event):
    r = pbp("run", "--no-commit", cwd=event)  # Ilya talks with the customers: his last 2 PA
    assert r.exit_code == 0, r.output
    assert pa(event, 4)["ilya"] == 0
    assert "Fin de la partie" in post(event, 4)


def test_what_is_found_and_the_secret_action_stay_out_of_the_thread(event):
    for n in (1, 2, 3):
        public = post(event, n)
        assert "fauteuil 12" not in public and "registre" not in public and "hypnotise" not in public
        assert "PA " not in public  # the action points are each player's own
    assert "[b]Sélène Vasquez[/b] : Fouiller une salle." in post(event, 1)  # who went where is public
    assert "Action secrète (Ilya Morozov) : j'hypnotise l'ouvreuse" in post(event, 3, "ilya")


def fresh(event):
    shutil.rmtree(event / "turns")
    (event / "seals.yaml").unlink(missing_ok=True)
    assert pbp("setup", "--no-commit", cwd=event).exit_code == 0


@pytest.mark.parametrize("face, found", [(1, False), (2, False), (3, True), (4, True), (5, True), (6, True)])
def test_the_risk_roll_fails_on_one_or_two(event, face, found):
    fresh(event)
    write(event, "turns/001/orders/marius.yaml", "actions: [fouiller_salle]\n")
    write(event, "turns/001/gm.yaml", {"orders": {"trouvaille": {"marius": "un billet doux"}},
                                       "rolls": {"marius.fouiller_salle.risque": face}})
    r = pbp("run", "--no-commit", cwd=event)
    assert r.exit_code == 0, r.output
    assert pa(event, 1)["marius"] == 6 - 4  # not allowed: 4 PA, spent whatever the roll (G2)
    report = post(event, 1, "marius")
    assert ("Votre fouille : un billet doux." in report) is found
    assert ("Votre fouille échoue" in report) is not found


def test_a_form_beyond_its_action_points_is_refused_whole(event):
    write(event, "turns/004/orders/marius.yaml", "player: marius\nturn: 4\nactions:\n  - attendre\n")
    r = pbp("check", cwd=event)
    assert r.exit_code == 1
    assert "turns/004/orders/marius.yaml:4: « Attendre et observer » coûte 3 (PA) ; il en reste 0." \
        in r.output.replace("\xa0", " ")
    # two actions beyond the points: each is told the points left (0), never a negative count
    write(event, "turns/004/orders/marius.yaml", "actions:\n  - fouiller_salle\n  - attendre\n")
    out = pbp("check", cwd=event).output.replace("\xa0", " ")
    assert "marius.yaml:2: « Fouiller une salle » coûte 4 (PA) ; il en reste 0." in out
    assert "marius.yaml:3: « Attendre et observer » coûte 3 (PA) ; il en reste 0." in out, out


def test_a_secret_action_waits_for_its_price(event):
    write(event, "turns/004/orders/selene.yaml", "actions:\n  - action_secrete: je crochète la loge\n")
    r = pbp("check", cwd=event)
    assert r.exit_code == 1
    assert ("turns/004/orders/selene.yaml:2: « Action secrète » n'est pas possible : le MJ n'a pas encore fixé le "
            "prix de cette action (elle attend).") in r.output.replace("\xa0", " ")


def test_the_risk_odds_are_exact(event):
    r = pbp("odds", "--rule", "data.risque", cwd=event)
    assert r.exit_code == 0, r.output
    assert "success  2/3 (66.7 %)" in r.output


def test_an_imported_message_gets_a_receipt_naming_the_actions_as_the_mj_wrote_them(event):
    # Ilya has 2 PA left: talking costs 2, the search 4 more; the receipt and its refusal
    # speak the rules' names (« Fouiller une salle »), not the file's ids (fouiller_salle)
    message = write(event, "message.txt", "Parler avec les clients\nFouiller une salle\n")
    r = pbp("orders", "import", "--player", "ilya", message, cwd=event)
    assert r.exit_code == 1
    out = r.output.replace("\xa0", " ")
    assert "  - fouiller_salle\n" in out  # the order file keeps the ids
    assert "[*]« Fouiller une salle » coûte 4 (PA) ; il en reste 0.\n" in out and "« fouiller_salle »" not in out
    message = write(event, "message.txt", "Parler avec les clients\n")
    r = pbp("orders", "import", "--player", "ilya", message, cwd=event)
    assert r.exit_code == 0, r.output
    assert "Voici ce qui sera joué :\n[list]\n[*]Parler avec les clients\n[/list]" in r.output.replace("\xa0", " ")
    campaign = (event / "campaign.yaml").read_text(encoding="utf-8")
    write(event, "campaign.yaml", campaign.replace("lang: fr", "lang: en"))
    message = write(event, "message.txt", "Talk with the customers\nSearch a hall\n")
    r = pbp("orders", "import", "--player", "ilya", message, cwd=event)
    assert "[*]`Search a hall` costs 4 (AP); 0 left.\n" in r.output
    message = write(event, "message.txt", "Talk with the customers\n")
    r = pbp("orders", "import", "--player", "ilya", message, cwd=event)
    assert "This is what will be played:\n[list]\n[*]Talk with the customers\n[/list]" in r.output


def test_two_actions_of_one_name_are_told_apart_by_their_ids():
    from pbp.rulesets.data import shown_names

    names = shown_names({"fouiller_salle": {"name": {"fr": "Fouiller", "en": "Search a hall"}},
                         "fouiller_bureau": {"name": {"fr": "Fouiller", "en": "Search the office"}},
                         "attendre": {}})
    assert names == {"fouiller_salle": {"fr": "Fouiller (fouiller_salle)", "en": "Search a hall"},
                     "fouiller_bureau": {"fr": "Fouiller (fouiller_bureau)", "en": "Search the office"},
                     "attendre": {}}
