"""Morsmordre's duels (/work/shared/rules-examples/wizard-duels.md) written as
data: campaigns/wizard-duels/rules.yaml, played through the real CLI with forced
dice, its numbers checked against the rules page by hand."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbp.base import yamlio
from pbp.cli import main
from tests.helpers import copy_example, pbp, write

#: face -> (hit, may strike back, +1 damage), rules 4 (d6) and 5 (d8)
D6 = {6: (True, False, 1), 5: (True, True, 0), 4: (False, False, 0), 3: (False, True, 0), 2: (False, True, 0),
      1: (False, True, 0)}
D8 = {8: (True, False, 1), 7: (True, True, 0), 6: (False, False, 0), 5: (False, False, 0), 4: (False, True, 0),
      3: (False, True, 0), 2: (False, True, 0), 1: (False, True, 0)}
STUPEFY, DISARM = 3, 2  # each spell's damage (decision G2)
#: after the archived turns: Léna 10 HP and the wand hand, Basile 6 HP (stupefy on a 6: 3 + 1)
LENA, BASILE = 10, 6


def gauges(root, n: int) -> dict:
    state = yamlio.load_file(root / "turns" / f"{n:03d}" / "state.yaml")
    return {h: c["gauges"] for h, c in state["characters"].items()}


def public(root, n: int) -> str:
    return (root / "turns" / f"{n:03d}" / "public.bbcode").read_text(encoding="utf-8").replace("\xa0", " ")


@pytest.fixture
def duel(tmp_path):
    return copy_example("wizard-duels", tmp_path)


def test_the_archive_holds_the_pages_numbers(duel):
    assert gauges(duel, 1) == {"lena": {"pv": 10, "main": 1}, "basile": {"pv": 6, "main": 0}}
    assert "Duel (d6) de Léna Corbeau : 1d6 (6) → touché, ne peut pas riposter." in public(duel, 1)
    assert "PV de Basile Ferrant : 10 − 4 = 6." in public(duel, 1)
    assert gauges(duel, 3)["lena"]["main"] == 1 and gauges(duel, 3)["basile"]["main"] == 0
    assert "Duel contre un légilimens (d8) de Basile Ferrant : 1d8" in public(duel, 3)


@pytest.mark.parametrize("face", sorted(D6))
def test_every_face_of_the_d6_against_a_plain_wizard(duel, face):
    hit, back, bonus = D6[face]
    write(duel, "turns/004/gm.yaml", {"rolls": {"lena.stupefix.duel_d6": face}})
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    after = gauges(duel, 4)
    assert after["basile"]["pv"] == BASILE - (STUPEFY + bonus if hit else 0)
    # who casts next (G4): the opponent if he may strike back, else the same caster
    assert (after["basile"]["main"], after["lena"]["main"]) == ((1, 0) if back else (0, 1))


def against_lena(duel, face: int, occlumens: bool = False):
    """Turn 4 played with Basile holding the wand hand and casting at Léna."""
    sheets = yamlio.load_file(duel / "characters.yaml")
    sheets["lena"]["main"], sheets["basile"]["main"] = 0, 1
    if occlumens:
        sheets["basile"]["occlumens"] = True
    write(duel, "characters.yaml", sheets)
    # the duel starts again with Basile to cast: set-up and one turn with his spell
    import shutil

    shutil.rmtree(duel / "turns")
    (duel / "seals.yaml").unlink(missing_ok=True)
    assert pbp("setup", "--no-commit", cwd=duel).exit_code == 0
    write(duel, "turns/001/orders/basile.yaml", "actions:\n  - expelliarmus: lena\n")
    die = "duel_d6" if occlumens else "duel_d8"
    write(duel, "turns/001/gm.yaml", {"rolls": {f"basile.expelliarmus.{die}": face}})
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    return gauges(duel, 1)


@pytest.mark.parametrize("face", sorted(D8))
def test_every_face_of_the_d8_against_a_legilimens(duel, face):
    hit, back, bonus = D8[face]
    after = against_lena(duel, face)
    assert after["lena"]["pv"] == 10 - (DISARM + bonus if hit else 0)
    assert (after["lena"]["main"], after["basile"]["main"]) == ((1, 0) if back else (0, 1))
    assert "Duel contre un légilimens (d8) de Basile Ferrant : 1d8 (" in public(duel, 1)


def test_occlumency_brings_the_duel_back_to_the_d6(duel):
    after = against_lena(duel, 6, occlumens=True)
    assert after["lena"]["pv"] == 10 - (DISARM + 1)
    assert "Duel (d6) de Basile Ferrant : 1d6 (6)" in public(duel, 1)


def test_hit_points_stop_at_zero_and_the_duel_ends(duel):
    state = (duel / "turns/003/state.yaml").read_text(encoding="utf-8").replace("pv: 6", "pv: 2")
    (duel / "turns/003/state.yaml").write_text(state, encoding="utf-8")
    write(duel, "turns/004/gm.yaml", {"rolls": {"lena.stupefix.duel_d6": 6}})
    r = pbp("run", "--no-commit", "--accept-changes", cwd=duel)
    assert r.exit_code == 0, r.output
    assert gauges(duel, 4)["basile"]["pv"] == 0  # 2 - 4, clamped (G3)
    post = public(duel, 4)
    assert "PV de Basile Ferrant : 2 − 4 = −2, ramené à 0 (minimum)." in post
    assert "Fin de la partie : Léna Corbeau l'emporte." in post


def test_a_spell_at_oneself_is_refused_naming_the_valid_targets(duel):
    write(duel, "turns/004/orders/lena.yaml", "player: lena\nturn: 4\nactions:\n  - stupefix: lena\n")
    r = pbp("check", cwd=duel)
    assert r.exit_code == 1
    assert "turns/004/orders/lena.yaml:4: Léna Corbeau ne peut pas être visé ce tour. Valeurs possibles : basile." \
        in r.output


def test_only_the_wizard_holding_the_wand_hand_is_asked(duel):
    write(duel, "turns/004/orders/basile.yaml", "actions:\n  - stupefix: lena\n")
    r = pbp("run", "--no-commit", cwd=duel)
    assert r.exit_code == 0, r.output
    assert "basile.stupefix" not in (duel / "turns/004/rolls.yaml").read_text(encoding="utf-8")


def test_the_d8_odds_are_exact(duel):
    r = pbp("odds", "--rule", "data.duel_d8", cwd=duel)
    assert r.exit_code == 0, r.output
    assert "touche: 1/4 (25.0 %)" in r.output  # P(hit) falls from 1/3 (d6) to 1/4 (G1)
    r = pbp("odds", "--rule", "data.duel_d6", cwd=duel)
    assert "touche: 1/3 (33.3 %)" in r.output


def test_a_players_plain_message_is_read_as_orders(duel):
    """`pbp orders import`: the spell's name and the target's, as a player writes them."""
    r = CliRunner().invoke(main, ["-C", str(duel), "orders", "import", "--player", "lena", "-"],
                           input="Je lance Stupefix sur Basile !\n")
    assert r.exit_code == 0, r.output
    assert "  - stupefix: basile\n" in r.output
