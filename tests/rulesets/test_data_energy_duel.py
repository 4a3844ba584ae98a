"""The energy duel (Chevaland's fights, /work/shared/rules-examples/energy-duel.md)
written as data: campaigns/energy-duel/rules.yaml, played through the real CLI
with forced dice, its numbers checked against the rules page by hand."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from tests.helpers import copy_example, pbp, write

#: the page's table: face -> energy lost (rule 3)
LOSS = {1: 0, 2: 5, 3: 10, 4: 15, 5: 20, 6: 25}
#: after the archived turns: Orage 55 (-20, then -25 on a forced 6), Sirocco 85 (90 on the sheet, -5, then -0)
ORAGE, SIROCCO = 55, 85


def public(root, n: int) -> str:
    """Turn n's public post, its no-break spaces (before : in French) as spaces."""
    return (root / "turns" / f"{n:03d}" / "public.bbcode").read_text(encoding="utf-8").replace("\xa0", " ")


def state(root, n: int) -> dict:
    return yamlio.load_file(root / "turns" / f"{n:03d}" / "state.yaml")


def energy(root, n: int) -> dict:
    return {h: c["gauges"]["energie"] for h, c in state(root, n)["characters"].items()}


@pytest.fixture
def duel(tmp_path):
    return copy_example("energy-duel", tmp_path)


def test_the_archive_holds_the_pages_numbers(duel):
    assert energy(duel, 0) == {"lyra": 100, "tom": 90}  # 100 unless the sheet says otherwise (G3)
    assert energy(duel, 3) == {"lyra": ORAGE, "tom": SIROCCO}
    post = public(duel, 3)
    assert "Perte d'énergie d'Orage : 1d6 (6) → gravement blessé." in post
    assert "Énergie d'Orage : 80 − 25 = 55." in post
    assert "Énergie de Sirocco" not in post  # + 0: nothing to say


@pytest.mark.parametrize("face", sorted(LOSS))
def test_every_face_of_the_d6_takes_its_loss(duel, face):
    write(duel, "turns/004/gm.yaml", {"rolls": {"lyra.attaquer.perte": face, "tom.attaquer.perte": 1}})
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    assert energy(duel, 4) == {"lyra": ORAGE - LOSS[face], "tom": SIROCCO}
    post = public(duel, 4)
    if LOSS[face]:
        assert f"Énergie d'Orage : {ORAGE} − {LOSS[face]} = {ORAGE - LOSS[face]}." in post
    else:  # a change of nothing is no news
        assert "Énergie d'Orage" not in post


def fresh(duel, lyra: int, tom: int):
    """The example's rules and players, started again with these energies (the sheets say so)."""
    import shutil

    shutil.rmtree(duel / "turns")
    (duel / "seals.yaml").unlink(missing_ok=True)
    write(duel, "characters.yaml", {"lyra": {"race": "Frison", "energie": lyra},
                                    "tom": {"race": "Mustang", "energie": tom}})
    assert pbp("setup", "--no-commit", cwd=duel).exit_code == 0
    write(duel, "turns/001/orders/lyra.yaml", "actions: [attendre]\n")
    write(duel, "turns/001/orders/tom.yaml", "actions: [attendre]\n")
    write(duel, "turns/001/gm.yaml", "orders: {combat: true}\n")
    assert pbp("run", "--no-commit", cwd=duel).exit_code == 0
    write(duel, "turns/002/orders/lyra.yaml", "actions: [attaquer]\n")
    write(duel, "turns/002/orders/tom.yaml", "actions: [attaquer]\n")


def test_energy_stops_at_zero_and_the_one_left_standing_wins(duel):
    fresh(duel, lyra=10, tom=40)
    write(duel, "turns/002/gm.yaml", {"rolls": {"lyra.attaquer.perte": 6, "tom.attaquer.perte": 2}})
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    after = state(duel, 2)
    assert energy(duel, 2) == {"lyra": 0, "tom": 35}  # 10 - 25 clamped at 0 (G4)
    assert after["over"] and after["winners"] == ["tom"]
    post = public(duel, 2)
    assert "Énergie d'Orage : 10 − 25 = −15, ramené à 0 (minimum)." in post
    assert "Orage[/b] est hors jeu." in post
    assert "Fin de la partie : Sirocco l'emporte." in post


def test_both_at_zero_in_the_same_turn_is_a_draw(duel):
    fresh(duel, lyra=5, tom=15)
    write(duel, "turns/002/gm.yaml", {"rolls": {"lyra.attaquer.perte": 2, "tom.attaquer.perte": 4}})
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    assert energy(duel, 2) == {"lyra": 0, "tom": 0}
    assert state(duel, 2)["winners"] == []
    post = public(duel, 2)
    assert "personne ne reste en jeu, match nul." in post
    assert pbp("verify", cwd=duel).exit_code == 0


def test_an_attack_before_the_mj_approves_the_fight_is_refused(duel):
    import shutil

    shutil.rmtree(duel / "turns")
    (duel / "seals.yaml").unlink(missing_ok=True)
    assert pbp("setup", "--no-commit", cwd=duel).exit_code == 0
    write(duel, "turns/001/orders/lyra.yaml", "player: lyra\nturn: 1\nactions:\n  - attaquer\n")
    write(duel, "turns/001/orders/tom.yaml", "actions: [attendre]\n")
    r = pbp("check", cwd=duel)
    assert r.exit_code == 1
    assert ("turns/001/orders/lyra.yaml:4: « Attaquer » n'est pas possible : le MJ n'a pas encore approuvé ce "
            "combat. Valeurs possibles : attendre.") in r.output
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 1 and not (duel / "turns/001/state.yaml").exists()


def test_an_english_campaign_refuses_in_english_with_the_english_ids(duel):
    import shutil

    shutil.rmtree(duel / "turns")
    (duel / "seals.yaml").unlink(missing_ok=True)
    text = (duel / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", "lang: en")
    (duel / "campaign.yaml").write_text(text, encoding="utf-8")
    assert pbp("setup", "--no-commit", cwd=duel).exit_code == 0
    write(duel, "turns/001/orders/lyra.yaml", "actions:\n  - attack\n")
    r = pbp("check", cwd=duel)
    assert r.exit_code == 1
    assert ("turns/001/orders/lyra.yaml:2: `Attack` is not possible: the MJ has not approved this fight yet. "
            "Valid values: wait.") in r.output


def test_the_mj_input_is_checked_like_an_order(duel):
    write(duel, "turns/004/gm.yaml", "orders:\n  combat: peut-être\n  duel: true\n")
    r = pbp("check", cwd=duel)
    assert r.exit_code == 1
    assert "turns/004/gm.yaml:2: « peut-être » n'est pas une valeur possible. Valeurs possibles : oui, non." \
        in r.output.replace("\xa0", " ")
    assert "turns/004/gm.yaml:3: « duel » n'est pas une entrée du MJ de ces règles" in r.output


def test_the_table_odds_are_exact(duel):
    r = pbp("odds", "--rule", "data.perte", cwd=duel)
    assert r.exit_code == 0, r.output
    assert "6  gravement blessé" in r.output and "perte 25  1/6 (16.7 %)" in r.output


def test_the_dry_run_lists_the_labels_the_mj_may_force(duel):
    r = pbp("run", "--dry-run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    assert "lyra.attaquer.perte : 1d6" in r.output and "tom.attaquer.perte : 1d6" in r.output


def test_bots_play_whole_duels_with_the_simulated_mj_approving(duel):
    """`pbp simulate` on the campaign: its own rules file, the MJ's approval given
    by the rules' `en_simulation:` value, every game to its end."""
    from tests.helpers import simulate_json

    report = simulate_json("--games", "200", "--jobs", "1", cwd=duel)
    outcomes = report["base"]["outcomes"]
    assert set(outcomes) <= {"Orage", "Sirocco", "match nul"} and sum(o["count"] for o in outcomes.values()) == 200
    assert outcomes["Orage"]["count"] > outcomes["Sirocco"]["count"]  # she starts with 100, he with 90
    assert report["base"]["turns"]["max"] < 100  # every game ended
