"""Two forum events written as data by a new MJ from pbp's documentation alone
(issue 26): a survival event (tests/newmj/ile: action points, a hunger gauge with
a threshold, a d20 loot table per zone, a d100 check with criticals, a missed
turn) and an arena tournament (tests/newmj/arene: opposed 1d20 + stat rolls where
the attacker must surpass, advantage with 2d20kh1, a damage table halved and
rounded up, a >= check with a natural-20 critical). Each folder has the MJ's
rules page (REGLES.md), rules.yaml, the players' sheets and three turns of order
files with every die forced in gm.yaml. The numbers below were computed by hand
from the rules page before pbp ran them; the test plays the turns through the
real CLI and compares."""

import shutil

import pytest

from pbp.base import yamlio
from tests.helpers import REPO, pbp

EVENTS = REPO / "tests" / "newmj"

#: event -> turn -> handle -> gauges after the turn, computed by hand
EXPECTED = {
    "ile": {
        # ana explores the jungle (3: snake, hunger 2+1, health 10-2) and rests (+1);
        # bob hunts (50 <= 40+10: hunger -2) and rests (health capped at 10);
        # cy explores the beach (12: coconuts, 2+1-2) and the jungle (20: an idol, +1, treasure 3)
        1: {"ana": {"faim": 3, "pv": 9, "score": 0}, "bob": {"faim": 0, "pv": 10, "score": 0},
            "cy": {"faim": 2, "pv": 10, "score": 3}},
        # ana hunts: 97 <= 100 but 96-100 is a critical failure (hunger +1, health -3), rests (+1);
        # bob sends nothing and loses his actions; cy hunts: 3 is a critical success (2-4, floor 0)
        2: {"ana": {"faim": 4, "pv": 7, "score": 0}, "bob": {"faim": 0, "pv": 10, "score": 0},
            "cy": {"faim": 0, "pv": 10, "score": 3}},
        # ana explores the beach twice (1 and 5: sand): hunger 5 then 6, "affamé" said once;
        # cy rests (capped) then hunts: 31 > 30 fails, hunger +1
        3: {"ana": {"faim": 6, "pv": 7, "score": 0}, "bob": {"faim": 0, "pv": 10, "score": 0},
            "cy": {"faim": 1, "pv": 10, "score": 3}},
    },
    "arene": {
        # ana 12+3 against bob 11+4: a tie does not surpass, parried; bob aims at ana: 2d20kh1
        # [5, 17] keeps 17, 17+1 > 10+2, damage 6 halved (3); cy taunts: 13 >= 15-2, glory +2
        1: {"ana": {"pv": 17, "gloire": 0}, "bob": {"pv": 20, "gloire": 1}, "cy": {"pv": 20, "gloire": 2}},
        # ana 20+3 > 1+1, damage 4 (4) on cy; cy 8+2 > 7+2, damage 2 (2) on ana; bob absent
        2: {"ana": {"pv": 15, "gloire": 1}, "bob": {"pv": 20, "gloire": 1}, "cy": {"pv": 16, "gloire": 3}},
        # ana aims at bob: [20, 1] keeps 20, 23 against 20+4: missed; bob 15+1 against 15+1: parried;
        # cy taunts with a natural 20: critical, glory +3
        3: {"ana": {"pv": 15, "gloire": 1}, "bob": {"pv": 20, "gloire": 1}, "cy": {"pv": 16, "gloire": 6}},
    },
}

#: event -> lines the public post of a turn must hold
POSTS = {
    ("ile", 2): ["[*]Chasse d'Ana : 1d100 (97) ≤ 100 : échec critique.", "[*]Santé d'Ana : 9 − 3 = 6.",
                 "[*]Chasse de Cy : 1d100 (3) ≤ 30 : réussite critique."],
    ("ile", 3): ["[*]Ana est affamé."],
    ("arene", 1): ["[*]Points de vie d'Ana : 20 − 3 = 17.", "[*]Bob pare l'attaque de Ana."],
}


def play(event: str, tmp_path):
    """The event's campaign made as the docs say (`pbp init --rules`, the players in
    campaign.yaml, their sheets in characters.yaml, `pbp setup`), then each turn's
    orders and gm.yaml checked and run: yields (turn, its state, its public post)."""
    source, camp = EVENTS / event, tmp_path / event
    r = pbp("init", camp, "--rules", source / "rules.yaml")
    assert r.exit_code == 0, r.output
    for name in ("campaign.yaml", "characters.yaml"):
        shutil.copy(source / name, camp / name)
    assert pbp("setup", cwd=camp).exit_code == 0
    for turn in sorted(EXPECTED[event]):
        shutil.copytree(source / "turns" / f"{turn:03d}", camp / "turns" / f"{turn:03d}")
        r = pbp("check", cwd=camp)
        assert r.exit_code == 0, r.output
        r = pbp("run", cwd=camp)
        assert r.exit_code == 0, r.output
        state = yamlio.load_file(camp / "turns" / f"{turn:03d}" / "state.yaml")
        yield turn, state, pbp("post", "--turn", turn, cwd=camp).output.replace("\u00a0", " ")
    r = pbp("verify", cwd=camp)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("event", sorted(EXPECTED))
def test_the_hand_computed_turns_come_out_exact(event, tmp_path):
    for turn, state, post in play(event, tmp_path):
        gauges = {h: c["gauges"] for h, c in state["characters"].items()}
        assert gauges == EXPECTED[event][turn], f"{event} turn {turn}"
        for line in POSTS.get((event, turn), []):
            assert line in post.splitlines(), f"{event} turn {turn}: {line!r} not in\n{post}"
        if (event, turn) == ("ile", 3):
            assert post.count("est affamé") == 1


@pytest.mark.parametrize("event, rule, chance, expected", [
    # Survie 40 + 10: 50 faces of 100 succeed (the criticals 1-5 and 96-100 change nothing)
    ("ile", "data.chasse", 50, "success 1/2 (50.0 %)"),
    # Survie 90 + 10 = 100: every face but the critical failures 96-100
    ("ile", "data.chasse", 100, "success 19/20 (95.0 %)"),
    # Force 2: the die must make 13 or more, 8 faces of 20
    ("arene", "data.foule", 13, "success 2/5 (40.0 %)"),
])
def test_exact_odds_of_each_events_check(event, rule, chance, expected, tmp_path):
    camp = tmp_path / event
    assert pbp("init", camp, "--rules", EVENTS / event / "rules.yaml").exit_code == 0
    r = pbp("odds", "--rule", rule, "--set", f"target={chance}", cwd=camp)
    assert r.exit_code == 0, r.output
    assert expected in [" ".join(line.split()) for line in r.output.replace("\u00a0", " ").splitlines()]


def test_a_result_rolled_on_two_tables_reads_0_for_a_column_only_one_has(tmp_path):
    """`si:` rolls table A in `alors:`, table B in `sinon:`, both `comme: butin`: a
    column of B alone (`butin.blessure`) is known after the `si`, 0 when A was rolled,
    as a row that does not give a column."""
    rules = tmp_path / "regles.yaml"
    rules.write_text(
        "jauges: {pv: {départ: 10, min: 0, max: 10}}\n"
        "tables:\n"
        "  plage: {dé: 1d2, lignes: [{jet: 1-2, texte: sable}]}\n"
        "  jungle: {dé: 1d2, lignes: [{jet: 1-2, texte: serpent, blessure: 2}]}\n"
        "actions:\n"
        "  explorer:\n"
        "    argument: {type: choix, valeurs: [plage, jungle]}\n"
        "    effets:\n"
        "      - si: arg = \"plage\"\n"
        "        alors: [{tirer: plage, comme: butin}]\n"
        "        sinon: [{tirer: jungle, comme: butin}]\n"
        "      - ajouter: {pv: -butin.blessure}\n", encoding="utf-8")
    r = pbp("rules", "check", rules)
    assert r.exit_code == 0, r.output
    camp = tmp_path / "c"
    assert pbp("init", camp, "--rules", rules).exit_code == 0
    assert pbp("setup", cwd=camp).exit_code == 0
    (camp / "turns" / "001" / "orders").mkdir(parents=True)
    (camp / "turns" / "001" / "orders" / "joueur1.yaml").write_text("actions:\n  - explorer: plage\n")
    (camp / "turns" / "001" / "orders" / "joueur2.yaml").write_text("actions:\n  - explorer: jungle\n")
    assert pbp("run", cwd=camp).exit_code == 0
    state = yamlio.load_file(camp / "turns" / "001" / "state.yaml")
    assert [state["characters"][h]["gauges"]["pv"] for h in ("joueur1", "joueur2")] == [10, 8]


@pytest.mark.parametrize("step, before, after, times", [
    (25, 100, 90, 0), (25, 100, 75, 1), (25, 100, 74, 1), (25, 76, 75, 1), (25, 75, 74, 0), (25, 100, 0, 4),
    (25, 74, 75, 1), (25, 75, 76, 0), (25, 0, 100, 4), (5, 5, -5, 2), (5, -5, 5, 2), (5, 4, 1, 0),
])
def test_every_n_counts_the_multiples_reached_or_passed_not_the_one_left(step, before, after, times):
    """The docs' `tous_les: 25` ("chaque tranche de 25 franchie") on an energy of 100: losing 10
    passes no multiple of 25; a new MJ computing 100 -> 90 by hand says nothing happens."""
    from pbp.rulesets.data.rules import crossings

    assert crossings({"every": step}, before, after) == times


def test_a_comma_splitting_a_formula_in_braces_is_named_with_the_fix(tmp_path):
    """`ajouter: {faim: si(chasse.critical, -4, -2)}`: YAML reads three keys; the new MJ
    got « -4 n'est ni une jauge ni une caractéristique ». The error now says why, and how."""
    source = (EVENTS / "ile" / "rules.yaml").read_text(encoding="utf-8")
    assert "si(chasse.critical; -4; -2)" in source
    rules = tmp_path / "regles.yaml"
    rules.write_text(source.replace("si(chasse.critical; -4; -2)", "si(chasse.critical, -4, -2)"), encoding="utf-8")
    r = pbp("rules", "check", rules)
    assert r.exit_code == 1
    said = r.output.replace("\u00a0", " ")
    assert "regles.yaml:80: « -4 » n'est pas un nom de jauge : entre accolades `{jauge: formule}`, une virgule" in said
    assert "séparez par `;` (`si(a; b; c)`)" in said
    assert "n'est ni une jauge" not in said
