"""`pbp dice-report` (pbp/trust/dice_report.py): the observed dice against their exact
distributions, a chi-square test per expression, in plain words."""

import math
from collections import Counter

import pytest

from pbp.base import yamlio
from pbp.engine.campaign import open_campaign
from pbp.model.dice import Dice, FreeDice, Roll
from pbp.trust import dice_report as dr
from tests.helpers import copy_example, pbp, write

TURNS = 20


def archive(root, biased=False, forced=0):
    """A simulated archive: 20 turns of seeded dice, as pbp's roll logs hold them
    (100 d20, 100 2d6 and 25 d100 a turn). `biased`: the d20 never rolls 20 (rolled
    again), over 2,000 rolls. `forced`: that many d20 of turn 1 set by the MJ."""
    write(root, "campaign.yaml", "ruleset: toy\ntitle: Simulée\nsecret: 5f1c0d9e7a2b4c68b1e3f07a9d2c4e61\n"
                                 "players: {lucy: Lucy}\n")
    for n in range(TURNS + 1):
        dice = Dice("5f1c0d9e7a2b4c68b1e3f07a9d2c4e61", n, {f"p{i}.d20": 20 for i in range(forced)} if n == 1 else {})
        if n:
            for i in range(100):
                roll = dice.roll(f"p{i}.d20", "1d20")
                again = 0
                while biased and roll.total == 20:
                    dice.log.pop()
                    again += 1
                    roll = dice.roll(f"p{i}.d20.encore{again}", "1d20")
                dice.roll(f"p{i}.2d6", "2d6")
            for i in range(25):
                dice.roll(f"p{i}.d100", "1d100")
        write(root, f"turns/{n:03d}/state.yaml", "players: {lucy: {room: 0, coins: 0}}\n")
        write(root, f"turns/{n:03d}/rolls.yaml", yamlio.dumps([r.to_dict() for r in dice.log]))
    return root


# -- the test itself ---------------------------------------------------------------------

@pytest.mark.parametrize("x,df,p", [(3.841459, 1, 0.05), (6.634897, 1, 0.01), (18.307038, 10, 0.05),
                                    (36.190869, 19, 0.01), (0.0, 4, 1.0), (124.342, 100, 0.05)])
def test_the_chi_square_tail_matches_the_tables(x, df, p):
    assert dr.chi2_sf(x, df) == pytest.approx(p, rel=2e-5)  # the tables' own precision


def test_the_exact_distribution_comes_from_dyce():
    dist = dr.exact_distribution("2d6+1")
    assert dist[3] == pytest.approx(1 / 36) and dist[8] == pytest.approx(6 / 36) and sum(dist.values()) == \
        pytest.approx(1)
    assert min(dist) == 3 and max(dist) == 13


def test_sparse_values_are_merged_until_each_bin_expects_five():
    bins = dr.bins_of({v: 1 / 20 for v in range(1, 21)}, Counter({v: 2 for v in range(1, 21)}), 40)
    assert [(b.low, b.high) for b in bins] == [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 20)]
    assert [b.observed for b in bins] == [6, 6, 6, 6, 6, 10]
    assert bins[-1].expected == pytest.approx(10)


def test_a_value_the_dice_cannot_give_is_flagged():
    fit = dr.report([Roll(f"x{i}", "1d6", (i % 6 + 1,), i % 6 + 1) for i in range(59)]
                    + [Roll("x", "1d6", (), 7)]).expressions[0]
    assert fit.impossible == [7] and fit.p == 0.0 and fit.flagged


# -- on archives -------------------------------------------------------------------------

def test_fair_dice_say_nothing_abnormal_at_one_percent(tmp_path):
    root = archive(tmp_path / "juste")
    r = pbp("dice-report", cwd=root)
    assert r.exit_code == 0, r.output
    rep = dr.report(dr.archive_rolls(open_campaign(root))[0])
    assert [(f.name, f.rolls) for f in rep.expressions] == [("1d20", 2000), ("2d6", 2000), ("1d100", 500)]
    assert [(f.name, f.rolls) for f in rep.faces] == [("d6", 4000)]
    assert all(f.p >= 0.01 for f in rep.tests)
    assert r.output.endswith("Bilan : 4 tests, rien d'anormal.\n")
    assert "1d20 — 2000 jets : χ² = " in r.output and "rien d'anormal" in r.output
    assert "à examiner" not in r.output.replace("« à examiner »", "")


def test_a_d20_that_never_rolls_20_over_2000_rolls_is_flagged(tmp_path):
    root = archive(tmp_path / "pipe", biased=True)
    r = pbp("dice-report", cwd=root)
    assert r.exit_code == 0
    line = next(line for line in r.output.splitlines() if line.startswith("1d20 — "))
    assert line.startswith("1d20 — 2000 jets : χ² = ") and line.endswith(", p = < 0,0001 — à examiner")
    assert "\n20      0         100,0\n" in r.output  # the row of the 20s: none observed, 100 expected
    assert r.output.endswith("Bilan : 4 tests, 1 à examiner (1d20).\n")


def test_forced_rolls_are_counted_apart(tmp_path):
    root = archive(tmp_path / "force", forced=3)
    r = pbp("dice-report", cwd=root)
    assert "4500 jets sur 21 tours, dont 3 forcés par le MJ (gm.yaml : comptés à part, hors des tests).\n" in r.output
    assert "1d20 — 1997 jets (et 3 forcés, à part) : χ² = " in r.output


def test_the_report_in_bbcode_markdown_english_and_its_chart(tmp_path):
    root = archive(tmp_path / "formats")
    bb = pbp("dice-report", "--format", "bbcode", cwd=root).output
    assert bb.startswith("[size=150][b]Les dés de Simulée[/b][/size]\n")
    assert "[b]2d6[/b] — 2000 jets : " in bb and "[b]Valeur | Observés | Attendus[/b]\n2 | " in bb
    md = pbp("dice-report", "--format", "markdown", cwd=root).output
    assert md.startswith("### Les dés de Simulée\n") and "| Valeur | Observés | Attendus |\n|---|---|---|\n" in md
    config = root / "campaign.yaml"
    config.write_text(config.read_text() + "lang: en\n")
    svg = tmp_path / "d20.svg"
    en = pbp("dice-report", "--svg", svg, "--expr", "d20", cwd=root)
    assert en.exit_code == 0
    assert en.output.endswith(f"Summary: 4 tests, nothing abnormal.\nChart of 1d20: {svg}\n")
    assert "2d6 — 2000 rolls: χ² = " in en.output
    text = svg.read_text()
    assert "<title>Simulée — 1d20 (2000)</title>" in text and ">observed</text>" in text and ">expected</text>" in text
    faces = pbp("dice-report", "--svg", svg, "--expr", "d6", cwd=root)
    assert faces.output.endswith(f"Chart of d6: {svg}\n")
    bad = pbp("dice-report", "--svg", svg, "--expr", "3d7", cwd=root)
    assert bad.exit_code == 1
    assert bad.stderr == "No test for `3d7`: no chart. Valid values: 1d20, 2d6, 1d100, d6.\n"


def test_an_example_and_its_bundle_give_the_same_report(tmp_path):
    root = copy_example("murder", tmp_path)
    bundle = tmp_path / "b.tar.gz"
    assert pbp("reveal", "--before-end", "--output", bundle, cwd=root).exit_code == 0
    here = pbp("dice-report", cwd=root)
    there = pbp("dice-report", bundle)
    assert here.exit_code == there.exit_code == 0 and here.output == there.output
    assert "92 jets sur 9 tours, dont 51 forcés par le MJ" in here.output
    assert "Trop peu de jets pour un test (moins de 30) : 2d6 (26), 2d8 (9), " in here.output


def test_a_broken_roll_log_is_named(tmp_path):
    root = archive(tmp_path / "casse")
    (root / "turns/003/rolls.yaml").write_text("- {label: x}\n")
    r = pbp("dice-report", cwd=root)
    assert r.exit_code == 1
    assert r.stderr == ("turns/003/rolls.yaml: n'est pas un journal de jets écrit par pbp (une liste de "
                        "{label, expr, faces, total}).\n")


def test_no_nan_or_infinity_reach_the_report():
    rep = dr.report([Roll("x", "1d6", (), 9)] * 40)
    text = dr.render(rep, "text", "fr", "T")
    assert "1d6 — 40 jets : valeurs impossibles pour ces dés : 9 — à examiner\n" in text
    assert "nan" not in text and "inf" not in text and math.isinf(rep.expressions[0].chi2)


def test_the_notation_is_tested_against_its_exact_odds_and_its_dice_by_size():
    """4d6dl1 and 3d6! rolls: their totals against icepool's exact odds, and
    every die read (dropped and exploded ones too) counted as a d6 face."""
    roller = FreeDice(5, keep_log=True)
    for _ in range(300):
        roller.roll("x", "4d6dl1")
        roller.roll("y", "3d6!")
    rep = dr.report(roller.log)
    names = {f.name: f for f in rep.expressions + rep.faces}
    assert set(names) == {"4d6dl1", "3d6!", "d6"}
    assert names["4d6dl1"].rolls == 300 and names["4d6dl1"].p > dr.LEVEL
    assert names["d6"].rolls == 1200 + sum(len(r.faces) for r in roller.log if r.label == "y")
    assert abs(sum(dr.exact_distribution("3d6!").values()) - 1) < 1e-12
