"""skirmish through the real command line, on a scratch copy of the example
campaign: the archive replays, the next turn plays, and refused orders name the
file and the line, exit 1 and leave the campaign untouched."""

import math

import pytest

from pbp.base import yamlio
from pbp.engine.campaign import open_campaign
from tests.helpers import copy_example, pbp, write

# the damage is forced as a total in the example's gm.yaml: no faces to show term by term
ISSUE_LINE = ("Aria attaque Brute à l'épée : 1d100 (42) ≤ 61 (fiche 61) → touché ; esquive de Brute 1d100 (77) > 35 "
              "(fiche 35) → ratée ; dégâts 1d8+1d4 (6) − 2 défense = 4")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    return copy_example("skirmish", tmp_path_factory.mktemp("pristine"))


@pytest.fixture
def camp(tmp_path):
    return copy_example("skirmish", tmp_path)


def files_of(root):
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def last_state(root):
    campaign = open_campaign(root)
    return campaign.state(campaign.last_turn()), campaign.last_turn() + 1


def test_example_replays_byte_for_byte(pristine):
    r = pbp("verify", cwd=pristine)
    assert r.exit_code == 0, r.output
    assert "4 tours rejoués à l'identique." in r.output


def test_example_shows_the_issue_forum_line_and_keeps_sheets_out_of_the_public_post(pristine):
    public = (pristine / "turns/001/public.bbcode").read_text(encoding="utf-8")
    assert "[*]" + ISSUE_LINE in public.splitlines()
    gm = (pristine / "turns/001/gm.bbcode").read_text(encoding="utf-8")
    assert "Aria, attaque : 1d100 (42) contre 61 = mêlée +45, maîtrise épée +10, FOR 16 +6 = 61 (plafond 95)" in gm
    assert "Brute, réduction : 2 = DEF 20 → 2" in gm
    for n in (1, 2, 3):
        text = (pristine / f"turns/{n:03d}/public.bbcode").read_text(encoding="utf-8")
        assert "FOR 16" not in text and "XP" not in text and "mêlée +45" not in text  # the sheet's parts: one sum
        events = yamlio.load_file(pristine / f"turns/{n:03d}/events.yaml")
        for e in events:
            if e["audience"] == "public":
                assert not {"details", "xp", "after", "sheets", "units"} & set(e["data"]) or e["kind"] == "setup"


def test_example_has_three_turns_and_the_next_orders_ready(pristine):
    state, n = last_state(pristine)
    assert n == 4 and (pristine / "turns/004/orders").is_dir()
    factions = {u["faction"] for u in state["units"].values() if u["type"] == "character"}
    players = {u["player"] for u in state["units"].values() if u["type"] == "character"}
    kinds = [u["type"] for u in state["units"].values()]
    assert len(factions) == 2 and len(players) == 3 and kinds.count("character") == 6
    assert "creature" in kinds and "door" in kinds


def test_example_plays_its_next_turn(camp):
    r = pbp("run", "--no-commit", cwd=camp)
    assert r.exit_code == 0, r.output
    assert (camp / "turns/004/state.yaml").exists()
    assert pbp("verify", cwd=camp).exit_code == 0


def test_status_and_order_form(pristine):
    r = pbp("status", cwd=pristine)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for line in (" 6 ··B··A·█······", "- t : le tonneau de poudre en 4-1",
                 "- Aria : 18/26 PV, 3/10 PA, 12 XP, niveau 1, en 5-6, réduction 2",
                 "- Cyra : 0/16 PV, 10/10 PA, 0 XP, niveau 2, en 4-5 — hors de combat, réduction 1",
                 "- Brute : 9/30 PV, 4/8 PA, en 5-7, réduction 2",
                 "- La porte de chêne : 0/12 PV, en 7-4 — enfoncée, réduction 3"):
        assert line in lines, line
    r = pbp("orders", "--player", "alice", cwd=pristine)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for line in ("# Aria (perso: aria) en 5-6, 10 PA par tour", "#   armes : epee (melee, 1d8)",
                 "#   melee possible d'ici sur : brute", "# Bran (perso: bran) en 2-6, 10 PA par tour",
                 "#   armes : arc (distance, 1d8), dague (melee, 1d4)", "#   tir possible d'ici sur : brute",
                 "# Cibles : dag en 8-4, eli en 8-7, fenn en 8-8, brute en 5-7, tonneau en 4-1",
                 "player: alice", "turn: 4", "actions:"):
        assert line in lines, line


# -- refused orders ---------------------------------------------------------------------------------

def _free_neighbour(state, pos):
    taken = {tuple(u["position"]) for u in state["units"].values() if u["hp"] > 0}
    taken |= {tuple(w) for w in state["grid"]["walls"]}
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        cell = (pos[0] + dx, pos[1] + dy)
        if cell not in taken and 0 <= cell[0] < state["grid"]["width"] and 0 <= cell[1] < state["grid"]["height"]:
            return list(cell)
    raise AssertionError("no free square")


def _target_at(state, uid, test):
    me = state["units"][uid]
    for tid, u in state["units"].items():
        if u["hp"] > 0 and u.get("player") != me["player"] and test(math.dist(me["position"], u["position"])):
            return tid, math.dist(me["position"], u["position"])
    raise AssertionError("no such target")


def _bad_orders(state, case):
    """(order line, expected text) for one kind of refusal, from the example's current board."""
    if case == "out_of_range":
        tid, d = _target_at(state, "bran", lambda d: d > 4)
        return f"tir: {{perso: bran, cible: {tid}}}", f"est hors de portée ({round(d, 2)} cases, portée 4)"
    if case == "not_adjacent":
        tid, d = _target_at(state, "aria", lambda d: d >= 2)
        return f"melee: {{perso: aria, cible: {tid}}}", "n'est pas au contact"
    if case == "own_character":
        return "melee: {perso: aria, cible: bran}", "vous ne pouvez pas attaquer Bran : c'est un de vos propres personnages"
    if case == "unknown_spell":
        return "sort: {perso: aria, sort: boule_de_fue, cible: dag}", "sort inconnu « boule_de_fue ». Vouliez-vous dire « boule_de_feu » ?"
    if case == "spell_not_learned":
        return "sort: {perso: aria, sort: soin, cible: bran}", "Aria n'a pas appris le sort « soin »."
    raise ValueError(case)


@pytest.mark.parametrize("case", ["out_of_range", "not_adjacent", "own_character", "unknown_spell",
                                  "spell_not_learned"])
def test_refused_order_names_file_and_line_exits_1_and_changes_nothing(camp, case):
    state, n = last_state(camp)
    line, expected = _bad_orders(state, case)
    path = write(camp, f"turns/{n:03d}/orders/alice.yaml",
                 f"player: alice\nturn: {n}\nactions:\n  - {line}\nroleplay: essai\n")
    before = files_of(camp)
    for command in ("check", "run"):
        r = pbp(command, "--no-commit", cwd=camp) if command == "run" else pbp(command, cwd=camp)
        assert r.exit_code == 1, r.output
        assert f"turns/{n:03d}/orders/alice.yaml:4: " in r.stderr, r.stderr
        assert expected in r.stderr, r.stderr
        assert "Traceback" not in r.output
    assert files_of(camp) == before
    assert not (camp / f"turns/{n:03d}/state.yaml").exists()
    assert path.exists()


def test_not_enough_pa_short_by_one_is_refused_on_its_line(camp):
    state, n = last_state(camp)
    home = state["units"]["bran"]["position"]
    away = _free_neighbour(state, home)
    pa = state["units"]["bran"]["ap_max"]
    moves = [f"  - deplacer: {{perso: bran, vers: [{c[0]}, {c[1]}]}}\n"
             for c in ([away, home] * pa)[:pa + 1]]  # pa moves of 1 PA, then one more
    write(camp, f"turns/{n:03d}/orders/alice.yaml", f"player: alice\nturn: {n}\nactions:\n" + "".join(moves))
    before = files_of(camp)
    r = pbp("run", "--no-commit", cwd=camp)
    assert r.exit_code == 1
    line = 4 + pa
    assert r.stderr.splitlines()[:2] == [
        f"turns/{n:03d}/orders/alice.yaml:{line}: pas assez de PA pour Bran : cette action en coûte 1, il n'en reste "
        f"que 0 (il en manque 1).",
        f"Le tour {n} n'a pas été joué : turns/{n:03d}/orders/alice.yaml est refusé (problèmes ci-dessus). Faites "
        f"corriger le fichier avant l'échéance ; à l'échéance, « pbp run --at-deadline » joue le tour sans "
        f"l'attendre :"]
    assert files_of(camp) == before


def test_several_refusals_are_all_reported_with_their_lines(camp):
    """A block-style action's refusal points at the offending field's own line (7: `sort: soin`)."""
    state, n = last_state(camp)
    write(camp, f"turns/{n:03d}/orders/alice.yaml", f"""
        player: alice
        turn: {n}
        actions:
          - melee: {{perso: aria, cible: bran}}
          - sort:
              perso: bran
              sort: soin
              cible: aria
          - melee: {{perso: fenn, cible: dag}}
    """)
    r = pbp("check", cwd=camp)
    assert r.exit_code == 1
    lines = r.stderr.strip().splitlines()
    assert [x.split(": ")[0] for x in lines] == [f"turns/{n:03d}/orders/alice.yaml:4",
                                                 f"turns/{n:03d}/orders/alice.yaml:7",
                                                 f"turns/{n:03d}/orders/alice.yaml:9"]
    assert "Bran n'a pas appris le sort « soin »" in lines[1]
    assert "« fenn » n'est pas un de vos personnages" in lines[2]


def test_gm_orders_for_a_character_are_refused_with_the_gm_file_line(camp):
    _, n = last_state(camp)
    write(camp, f"turns/{n:03d}/gm.yaml", f"turn: {n}\norders:\n  aria:\n    - bagarre: bran\n")
    r = pbp("check", cwd=camp)
    assert r.exit_code == 1
    assert r.stderr.startswith(f"turns/{n:03d}/gm.yaml:3: « aria » n'est pas une créature"), r.stderr


def test_a_new_campaign_from_the_skeleton_sets_up_and_plays(tmp_path):
    root = tmp_path / "neuve"
    assert pbp("init", root, "--ruleset", "skirmish", "--no-git").exit_code == 0
    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    assert "{secret}" not in config and "ruleset: skirmish" in config
    r = pbp("setup", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    write(root, "turns/001/orders/joueur1.yaml", """
        player: joueur1
        turn: 1
        actions:
          - deplacer: {vers: 4-2}
          - melee: {cible: loup}
        roleplay: Alda charge le loup.
    """)
    write(root, "turns/001/gm.yaml", "turn: 1\nrolls: {alda.attaque: 30, loup.esquive: 90, alda.degats: 7}\n"
                                      "orders: {loup: [{bagarre: alda}]}\n")
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    public = (root / "turns/001/public.bbcode").read_text(encoding="utf-8")
    # Alda: melee 40 + epee 10 + FOR 14 (+4) = 54; the wolf: esquive 20 + DEF 10 + luck 0 = 20;
    # damage 1d8 + 1d4 (TAI+FOR 26) = 7, minus the wolf's base DEF 10 -> 1
    assert ("Alda attaque Loup à l'épée : 1d100 (30) ≤ 54 (fiche 54) → touché ; esquive de Loup 1d100 (90) > 20 "
            "(fiche 20) → ratée ; dégâts 1d8+1d4 (7) − 1 défense = 6") in public
    assert '[quote="Équipe 1"]Alda charge le loup.[/quote]' in public.splitlines()
    assert (root / "turns/001/private/joueur1.bbcode").exists()
    assert pbp("verify", cwd=root).exit_code == 0
