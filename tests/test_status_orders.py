"""`pbp status` tells the MJ the truth about the next turn's orders: each player
as `pbp check`, `pbp remind` and `pbp run` judge them (valid, blank form, a file
to fix, missing, lost turn, inactive, out of the game), never failing on a bad
file; and a player out of the game (dead, escaped) is never counted as missing
orders nor flagged to chase, in status nor in the MJ's report."""

import os

import pytest

from pbp.engine import turn, turn_inputs
from pbp.engine.campaign import open_campaign
from tests.helpers import copy_example, pbp, unsealed, write

LANGS = ["fr", "en"]


def orders_part(stdout: str) -> list[str]:
    """status's lines from its orders table's title on, up to what each player
    without valid orders will play at the deadline (tests/test_at_deadline.py)."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("Ordres du tour", "Orders for turn")))
    heads = [i for i, line in enumerate(lines)
             if line in ("À l'échéance, sans nouvel envoi\u00a0:", "At the deadline, unless something new arrives:")]
    return lines[start:heads[0] - 1] if heads else lines[start:]


def english(root):
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")


# -- blank forms are no orders -----------------------------------------------------------------

#: forms `pbp orders --write` wrote and nobody sent back yet: expected, not "sent back blank"
NOT_SENT = {
    "fr": ["Ordres du tour 5",
           "pseudo  personnage  ordres    tours manqués d'affilée",
           "------  ----------  --------  -----------------------",
           "kira    Kira Vel    attendus  0",
           "brann   Brann Dask  attendus  0",
           "tia     Tia Rook    attendus  0",
           "",
           "En attente\u00a0: kira, brann, tia"],
    "en": ["Orders for turn 5",
           "handle  character   orders    turns missed in a row",
           "------  ----------  --------  ---------------------",
           "kira    Kira Vel    expected  0",
           "brann   Brann Dask  expected  0",
           "tia     Tia Rook    expected  0",
           "",
           "Waiting for: kira, brann, tia"],
}
#: the same forms, sent back by the players without an action
BLANK = {
    "fr": ["Ordres du tour 5",
           "pseudo  personnage  ordres             tours manqués d'affilée",
           "------  ----------  -----------------  -----------------------",
           "kira    Kira Vel    formulaire vierge  0",
           "brann   Brann Dask  formulaire vierge  0",
           "tia     Tia Rook    formulaire vierge  0",
           "",
           "Formulaire renvoyé vierge (compte comme rien envoyé)\u00a0: kira, brann, tia",
           "En attente\u00a0: kira, brann, tia"],
    "en": ["Orders for turn 5",
           "handle  character   orders      turns missed in a row",
           "------  ----------  ----------  ---------------------",
           "kira    Kira Vel    blank form  0",
           "brann   Brann Dask  blank form  0",
           "tia     Tia Rook    blank form  0",
           "",
           "Form sent back blank (counts as nothing sent): kira, brann, tia",
           "Waiting for: kira, brann, tia"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_forms_written_by_pbp_orders_are_not_sent_yet_until_a_player_sends_one_back(tmp_path, lang):
    root = copy_example("d100", tmp_path)
    if lang == "en":
        english(root)
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    for player in ("kira", "brann", "tia"):
        assert pbp("orders", "--player", player, "--write", cwd=root).exit_code == 0
    check = pbp("check", cwd=root)
    assert check.stdout.splitlines()[-1] == {"fr": "Tour 5 : 0 valide, 0 refusé, 3 sans ordres.",
                                             "en": "Turn 5: 0 valid, 0 refused, 3 without orders."}[lang]
    assert "vierge" not in check.stdout and "blank" not in check.stdout
    r = pbp("status", cwd=root)
    assert (r.exit_code, r.stderr) == (0, "")
    assert orders_part(r.stdout) == NOT_SENT[lang]
    for player in ("kira", "brann", "tia"):  # sent back as it came, with the player's mail client's line ends
        form = root / "turns/005/orders" / f"{player}.yaml"
        form.write_bytes(form.read_bytes().replace(b"\n", b"\r\n"))
    check = pbp("check", cwd=root)
    assert {"fr": "Formulaire renvoyé vierge", "en": "Form sent back blank"}[lang] in check.stdout
    assert orders_part(pbp("status", cwd=root).stdout) == BLANK[lang]


# -- refused files are to fix, and never make status fail ------------------------------------------

def toy(root, lang, extra="", players=("lucy", "bob", "eve")):
    """A toy campaign (three players unless told), turn 0 set up."""
    roster = "".join(f"  {h}: {h.capitalize()}\n" for h in players)
    write(root, "campaign.yaml", f"ruleset: toy\ntitle: Essai\nlang: {lang}\nplayers:\n{roster}" + extra)
    write(root, "secret.yaml", "secret: s3cret\n")
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    return root


def orders(root, turn_, player, body):
    write(root, f"turns/{turn_:03d}/orders/{player}", body)


REFUSED = {
    "fr": ["Ordres du tour 1",
           "pseudo  personnage  ordres      tours manqués d'affilée",
           "------  ----------  ----------  -----------------------",
           "lucy    Lucy        reçus       0",
           "bob     Bob         à corriger  0",
           "eve     Eve         à corriger  0",
           "",
           "À corriger (3)\u00a0: bob, eve, zoe — fichier refusé, les problèmes\u00a0: « pbp check »"],
    "en": ["Orders for turn 1",
           "handle  character  orders    turns missed in a row",
           "------  ---------  --------  ---------------------",
           "lucy    Lucy       received  0",
           "bob     Bob        to fix    0",
           "eve     Eve        to fix    0",
           "",
           "To fix (3): bob, eve, zoe — file refused, see `pbp check` for the problems"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_files_check_refuses_are_to_fix_not_received(tmp_path, lang):
    """An unknown action, the wrong turn, a file for a player not in the roster."""
    root = toy(tmp_path / "c", lang)
    orders(root, 1, "lucy.yaml", "actions: [avancer: 1]\n")
    orders(root, 1, "bob.yaml", "actions: [avancr: 1]\n")
    orders(root, 1, "eve.yaml", "turn: 3\nactions: [avancer: 1]\n")
    orders(root, 1, "zoe.yaml", "actions: [avancer: 1]\n")
    check = pbp("check", cwd=root)
    assert check.exit_code == 1 and check.stdout.splitlines()[-1] == {
        "fr": "Tour 1 : 1 valide, 3 refusés, 0 sans ordres.", "en": "Turn 1: 1 valid, 3 refused, 0 without orders."
    }[lang]
    r = pbp("status", cwd=root)
    assert (r.exit_code, r.stderr) == (0, "")
    assert orders_part(r.stdout) == REFUSED[lang]


def test_no_bad_order_file_makes_status_fail(tmp_path):
    """Two files for one player, a folder, a file too large, not UTF-8, not YAML,
    a link leading outside: each player is « à corriger », status exits 0."""
    root = toy(tmp_path / "c", "fr", "limits: {order_file_bytes: 100}\n",
               players=("ann", "bob", "cid", "dan", "eve", "fay", "lucy"))
    orders(root, 1, "ann.yaml", "actions: [avancer: 1]\n")
    orders(root, 1, "Ann.yml", "actions: [avancer: 2]\n")
    (root / "turns/001/orders/bob.yaml").mkdir()
    orders(root, 1, "cid.yaml", "roleplay: " + "x" * 200 + "\n")
    (root / "turns/001/orders/dan.yaml").write_bytes(b"actions: [avancer: 1]\nroleplay: \xc3\xa9t\xe9\n")  # half UTF-8: no reading
    orders(root, 1, "eve.yaml", "actions: [avancer: 1\n")
    outside = tmp_path / "outside.yaml"
    outside.write_text("actions: [avancer: 1]\n", encoding="utf-8")
    os.symlink(outside, root / "turns/001/orders/fay.yaml")
    r = pbp("status", cwd=root)
    assert (r.exit_code, r.stderr) == (0, "")
    rows = orders_part(r.stdout)
    assert rows[3:] == ["ann     Ann         à corriger  0",
                        "bob     Bob         à corriger  0",
                        "cid     Cid         à corriger  0",
                        "dan     Dan         à corriger  0",
                        "eve     Eve         à corriger  0",
                        "fay     Fay         à corriger  0",
                        "lucy    Lucy        attendus    0",
                        "",
                        "À corriger (6)\u00a0: ann, bob, cid, dan, eve, fay — fichier refusé, les problèmes\u00a0: "
                        "« pbp check »",
                        "En attente\u00a0: lucy"]
    assert pbp("status", cwd=root).stdout == r.stdout  # judged again: those files are not remembered


def test_when_the_orders_cannot_be_judged_status_says_why_and_still_prints(tmp_path):
    root = toy(tmp_path / "c", "fr", "default_orders: [volerr]\n", players=("lucy", "bob"))
    r = pbp("status", cwd=root)
    assert r.exit_code == 0
    assert r.stderr == "campaign.yaml:7: action inconnue « volerr ». Valeurs possibles : avancer, pile_ou_face.\n"
    assert orders_part(r.stdout) == ["Ordres du tour 1",
                                     "pseudo  personnage  ordres  tours manqués d'affilée",
                                     "------  ----------  ------  -----------------------",
                                     "lucy    Lucy        ?       0",
                                     "bob     Bob         ?       0"]


def test_a_second_status_judges_no_file_again_and_an_edited_file_is_judged_again(tmp_path, monkeypatch):
    """The judgement is kept in the user's cache by the files' bytes: an order
    file rewritten at once with as many bytes (its size and times may well be
    the same) is judged again."""
    root = toy(tmp_path / "c", "fr")
    orders(root, 1, "lucy.yaml", "actions: [avancer: 1]\n")
    gathered = []
    real = turn_inputs.gather
    monkeypatch.setattr(turn_inputs, "gather", lambda *a, **k: gathered.append(1) or real(*a, **k))
    first = pbp("status", cwd=root)
    assert "lucy    Lucy        reçus     0" in first.stdout and gathered == [1]
    assert pbp("status", cwd=root).stdout == first.stdout and gathered == [1]
    orders(root, 1, "lucy.yaml", "actions: [avancer: 9]\n")  # out of range (-3 to 3)
    again = pbp("status", cwd=root)
    assert "lucy    Lucy        à corriger  0" in again.stdout and gathered == [1, 1]


def test_a_finished_game_waits_for_no_orders(tmp_path):
    root = toy(tmp_path / "c", "fr", "rules: {rooms: 1}\n")
    for player in ("lucy", "bob", "eve"):
        orders(root, 1, f"{player}.yaml", "actions: [avancer: 1]\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    r = pbp("status", cwd=root)
    assert r.exit_code == 0 and "Partie terminée." in r.stdout
    assert orders_part(r.stdout) == ["Ordres du tour 2",
                                     "pseudo  personnage  ordres  tours manqués d'affilée",
                                     "------  ----------  ------  -----------------------",
                                     "lucy    Lucy        —       —",
                                     "bob     Bob         —       —",
                                     "eve     Eve         —       —"]


# -- a player out of the game is never chased --------------------------------------------------------

def deadly_turns(root):
    """La chasse à l'homme: Johannes sends nothing on turns 4 and 5, Mélétê
    searches on turn 4 and panics (turn 5 lost); both die on turn 5. Ysolde's
    file has only her roleplay (her default orders, and an order file sent)."""
    (root / "turns/004/orders/johannes.yaml").unlink()
    write(root, "turns/004/orders/lucy.yaml", "actions:\n  - fouille\n")
    # her panic's steps and the cell of the hunter she calls, as the example played them
    # before dice version 1 (rebuilt since): both hunters then reach their prey on turn 5
    write(root, "turns/004/gm.yaml", "turn: 4\nrolls: {lucy.panique.1: 3, lucy.panique.2: 1, lucy.bruit.case: 2}\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0


STATUS_4 = ["Ordres du tour 5",
            "pseudo    personnage  ordres      tours manqués d'affilée",
            "--------  ----------  ----------  -----------------------",
            "lucy      Mélétê      tour perdu  0",
            "johannes  Johannes    attendus    1",
            "ysolde    Ysolde      attendus    0",
            "corbin    Corbin      attendus    0",
            "",
            "En attente\u00a0: johannes, ysolde, corbin"]

STATUS_5 = ["Ordres du tour 6",
            "pseudo    personnage  ordres    tours manqués d'affilée",
            "--------  ----------  --------  -----------------------",
            "lucy      Mélétê      —         —",
            "johannes  Johannes    —         —",
            "ysolde    Ysolde      attendus  0",
            "corbin    Corbin      attendus  1",
            "",
            "En attente\u00a0: ysolde, corbin"]


def test_a_dead_player_is_neither_counted_nor_chased(tmp_path):
    root = copy_example("manhunt", tmp_path)
    deadly_turns(root)
    assert orders_part(pbp("status", cwd=root).stdout) == STATUS_4
    write(root, "turns/005/orders/ysolde.yaml", "roleplay: Ysolde retient son souffle.\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    state = open_campaign(root).state(5)
    assert {h: p["status"] for h, p in state["pejis"].items()} == {
        "lucy": "dead", "johannes": "dead", "ysolde": "active", "corbin": "active"}
    # his two missed turns end with him: turn.yaml counts only who is still to order
    assert (root / "turns/005/turn.yaml").read_text(encoding="utf-8").split("missed:")[1] == (
        "\n  corbin: 1\ninactive: []\n")
    assert orders_part(pbp("status", cwd=root).stdout) == STATUS_5
    gm = unsealed(pbp("post", "--gm", cwd=root).stdout).rstrip().splitlines()
    assert gm[-4:] == ["[b]Suivi des ordres[/b]", "[list]", "[*]Corbin (corbin)\u00a0: 1 tour sans ordres", "[/list]"]
    assert "relancer" not in "\n".join(gm)


def test_status_does_not_chase_a_player_an_older_record_still_counts(tmp_path):
    """An archive played before turn.yaml dropped the players out of the game
    (or edited by hand) may still count them: status shows them out, not to
    chase; nor a player whose next turn is lost."""
    root = copy_example("manhunt", tmp_path)
    deadly_turns(root)
    record = root / "turns/004/turn.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("missed:\n  johannes: 1\n",
                                                                 "missed:\n  lucy: 3\n  johannes: 2\n"),
                      encoding="utf-8")
    rows = orders_part(pbp("status", cwd=root).stdout)
    assert rows[3:5] == ["lucy      Mélétê      tour perdu  3", "johannes  Johannes    attendus    2 (à relancer)"]
    write(root, "turns/005/orders/ysolde.yaml", "roleplay: Ysolde retient son souffle.\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    record = root / "turns/005/turn.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("missed:\n", "missed:\n  johannes: 3\n"),
                      encoding="utf-8")
    rows = orders_part(pbp("status", cwd=root).stdout)
    assert rows[3:5] == ["lucy      Mélétê      —         —", "johannes  Johannes    —         —"]
    assert "relancer" not in "\n".join(rows)


def test_the_mj_report_chases_no_one_whose_next_turn_is_lost(tmp_path):
    """The missed-orders news of a turn flags only who has orders to send next:
    not a player whose next turn is lost, nor anyone once the game is over."""
    root = copy_example("manhunt", tmp_path)
    deadly_turns(root)
    campaign = open_campaign(root)
    state = campaign.state(4)
    assert campaign.ruleset.lost_turn(state, campaign.scenario, "lucy") == "lost_panic"
    record = {"missed": {"lucy": 2, "johannes": 2}, "inactive": []}
    [news] = [e for e in turn.core_events(campaign, 4, record, state) if e.kind == "missed_orders"]
    assert news.data["flagged"] == ["johannes"]
    over = dict(state, over=True)
    assert campaign.ruleset.is_over(over)
    [news] = [e for e in turn.core_events(campaign, 4, record, over) if e.kind == "missed_orders"]
    assert news.data["flagged"] == []
