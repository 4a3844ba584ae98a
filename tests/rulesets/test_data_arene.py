"""The bundled gladiators' tournament (campaigns/arene-sombreval, its forum rules
page REGLES.md): its three archived turns replay, and every number of their posts
is the one the rules page gives, worked out by hand below (forced dice in each
turn's gm.yaml): initiative rolled each round, an opposed strike that must beat
the defender, a pool of d6 counting 5s and 6s, a bout of exploding dice won best
of 3 with a tied exchange rolled again, a salute with criticals and bands, a
charge that dazes its target for the next round (its forbidden actions refused)."""

from __future__ import annotations

from pbp.base import yamlio
from pbp.render.render import package_dir
from tests.helpers import copy_example, pbp, turn_post, write

NAME = "arene-sombreval"
#: the archive as bundled (tests/test_examples.py replays it byte for byte): read, never written
ARCHIVE = package_dir("campaigns") / NAME


def test_round_1_initiative_strike_charge_and_salute():
    text = turn_post(ARCHIVE, 1)
    # 1d10 + Adresse: Aurèle 7 + 2 = 9, Brune 3 + 4 = 7, Cassius 6 + 3 = 9; a tie: Aurèle, listed first, plays first
    assert "Dés d'Aurèle : 1d10 (7) + adresse 2 = 9." in text and "Dés de Cassius : 1d10 (6) + adresse 3 = 9." in text
    assert "Ordre de jeu : Aurèle (9), Cassius (9), Brune (7)." in text
    # Strike: 15 + Force 4 = 19 beats 8 + Adresse 4 = 12 by 7: 2 + 7 // 5 = 3 PV, and 1 Glory
    assert "Frappe : [b]Aurèle[/b] contre Brune : 1d20 (15) + force 4 = 19 contre 1d20 (8) + adresse 4 = 12 : " \
           "Aurèle l'emporte de 7." in text
    assert "PV de Brune : 12 − 3 = 9." in text and "Gloire d'Aurèle : 0 + 1 = 1." in text
    # Charge: Pugnacité 4 + 1 = 5 dice, 5 6 6 succeed: 3 successes >= 2; 3 PV, dazed for one round
    assert "Charge de Cassius : 5d6>=5 (5✔ 2 6✔ 6✔ 1 = 3) ≥ 2 : réussite." in text
    assert "PV d'Aurèle : 12 − 3 = 9." in text and "[b]Aurèle[/b] : état Sonné (pour 1 tour)." in text
    # Salute: 1 <= 5 + 2 * 4 = 13, a critical success (an ovation): 2 Glory in all
    assert "Salut à la foule de Brune : 1d20 (1) ≤ 13 : réussite critique (la foule fait une ovation)." in text
    assert "Gloire de Brune : 0 + 2 = 2." in text


def test_round_2_a_bout_best_of_3_a_parried_strike_and_a_fumble():
    text = turn_post(ARCHIVE, 2)
    assert "Ordre de jeu : Brune (13), Cassius (8), Aurèle (4)." in text
    # 1d6! + Adresse: 6 explodes into 3 (9 + 4 = 13) against 4 + 3 = 7; 2 + 4 = 6 against 3 + 3 = 6 rolled again,
    # 1 + 4 = 5 against 5 + 3 = 8; 5 + 4 = 9 against 6, 6, 2 (14) + 3 = 17: Cassius 2 exchanges to 1
    assert "Passe d'armes : [b]Brune[/b] contre Cassius, au meilleur de 3 manches : manche 1 : 1d6! (6!+3 = 9) + " \
           "adresse 4 = 13 contre 1d6! (4) + adresse 3 = 7 → Brune ; manche 2 : égalité 1d6! (2) + adresse 4 = 6 " \
           "contre 1d6! (3) + adresse 3 = 6, relancé : " \
           "1d6! (1) + adresse 4 = 5 contre 1d6! (5) + adresse 3 = 8 → Cassius ; manche 3 : 1d6! (5) + adresse 4 = 9 " \
           "contre 1d6! (6!+6!+2 = 14) + adresse 3 = 17 → Cassius : Cassius l'emporte 2 manches à 1." in text
    assert "Gloire de Cassius : 0 + 2 = 2." in text and "PV de Brune : 9 − 2 = 7." in text
    # 10 + 3 = 13 against 11 + 2 = 13: "surpasser" fails on a tie, the defender parries
    assert "1d20 (10) + force 3 = 13 contre 1d20 (11) + adresse 2 = 13 : égalité, Aurèle l'emporte " \
           "(l'égalité revient au défenseur)." in text
    # the dazed Aurèle salutes: 20 is always a failure (a critical one): he stumbles, 1 PV
    assert "Salut à la foule d'Aurèle : 1d20 (20) > 9 : échec critique (la foule hue)." in text
    assert "PV d'Aurèle : 9 − 1 = 8." in text and "Aurèle reprend ses esprits." in text


def test_round_3_a_failed_charge_a_heavy_strike_and_missed_orders():
    text = turn_post(ARCHIVE, 3)
    assert "Ordre de jeu : Aurèle (12), Cassius (7), Brune (5)." in text
    # 3 + 1 = 4 dice, one 5: 1 success < 2
    assert "Charge d'Aurèle : 4d6>=5 (5✔ 1 3 2 = 1) < 2 : échec." in text and "Aurèle se fatigue pour rien." in text
    # 20 + 3 = 23 against 3 + 4 = 7: by 16, 2 + 16 // 5 = 5 PV
    assert "Cassius l'emporte de 16." in text and "PV de Brune : 7 − 5 = 2." in text
    # Brune sent nothing: she catches her breath (the missed-orders policy)
    assert "[b]Brune[/b] : Reprendre son souffle." in text and "PV de Brune : 2 + 1 = 3." in text
    chars = yamlio.load_file(ARCHIVE / "turns/003/state.yaml")["characters"]
    assert {h: (c["gauges"]["pv"], c["gauges"]["gloire"]) for h, c in chars.items()} == \
        {"aurele": (8, 1), "brune": (3, 2), "cassius": (12, 3)}


def test_a_dazed_gladiator_may_only_salute_or_breathe(tmp_path):
    root = copy_example(NAME, tmp_path)
    assert pbp("undo", "--to", "1", "--no-commit", cwd=root).exit_code == 0
    write(root, "turns/002/orders/aurele.yaml", {"player": "aurele", "turn": 2, "actions": [{"frapper": "cassius"}]})
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert "aurele.yaml:4: « Frapper » n'est pas possible : état « Sonné » (encore 1 tour). " \
           "Valeurs possibles : saluer, souffle." in r.output.replace("\xa0", " ")
