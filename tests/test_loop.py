"""The MJ's loop between two runs, with its exact messages in French and
English: check's summary, the receipt, the reminder, the missed-orders policy
(status, MJ report, flag, inactive) and the deadline in the public post."""

import textwrap

import pytest

from tests.helpers import copy_example, pbp, unsealed, write

LANGS = ["fr", "en"]


def campaign(root, lang, extra=""):
    """A toy campaign of three players, turn 0 set up; deadlines every 7 days."""
    write(root, "campaign.yaml", textwrap.dedent(f"""
        ruleset: toy
        title: Essai
        lang: {lang}
        secret: s3cret
        players:
          lucy: Lucy
          bob: {{character: Bob}}
          eve: Eve
        deadline: {{first: "2026-12-06 20:00", every: "7 jours"}}
    """).lstrip() + extra)
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    return root


def orders(root, turn, player, body):
    write(root, f"turns/{turn:03d}/orders/{player}.yaml", body)


VALID = "player: lucy\nturn: 1\nactions:\n  - avancer: 1\n  - pile_ou_face\nroleplay: Lucy se hâte.\n"
REFUSED = "player: bob\nturn: 1\nactions:\n  - avancr: 1\n  - avancer: 9\n"
BLANK = "player: bob\nturn: 1\nactions: []\n"


# -- pbp check ------------------------------------------------------------------------

CHECK_REFUSED = {
    "fr": ("Valides (1) : lucy (2 actions)\n"
           "Refusés (1) : bob (Bob) — les problèmes sont listés ci-dessus.\n"
           "Sans ordres (1) : eve (Eve) — ordres par défaut s'ils n'envoient rien.\n"
           "À l'échéance, sans nouvel envoi :\n"
           "  bob (Bob) : turns/001/orders/bob.yaml refusé (avec « pbp run --at-deadline ») — ordres par défaut : aucune action\n"
           "  eve (Eve) : rien envoyé — ordres par défaut : aucune action\n"
           "Tour 1 : 1 valide, 1 refusé, 1 sans ordres.\n",
           "turns/001/orders/bob.yaml:4: action inconnue « avancr ». Vouliez-vous dire « avancer » ? "
           "Valeurs possibles : avancer, pile_ou_face.\n"
           "turns/001/orders/bob.yaml:5: 9 est hors limites (-3 à 3).\n"),
    "en": ("Valid (1): lucy (2 actions)\n"
           "Refused (1): bob (Bob) — the problems are listed above.\n"
           "No orders (1): eve (Eve) — default orders if they send nothing.\n"
           "At the deadline, unless something new arrives:\n"
           "  bob (Bob): turns/001/orders/bob.yaml refused (with `pbp run --at-deadline`) — default orders: no action\n"
           "  eve (Eve): nothing sent — default orders: no action\n"
           "Turn 1: 1 valid, 1 refused, 1 without orders.\n",
           "turns/001/orders/bob.yaml:4: unknown action `avancr`. Did you mean `advance`? "
           "Valid values: advance, flip.\n"
           "turns/001/orders/bob.yaml:5: 9 is out of range (-3 to 3).\n"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_check_lists_valid_refused_and_missing_with_every_problem_at_once(tmp_path, lang):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", VALID)
    orders(root, 1, "bob", REFUSED)
    r = pbp("check", cwd=root)
    assert (r.exit_code, r.stdout, r.stderr) == (1, *CHECK_REFUSED[lang])


CHECK_BLANK = {
    "fr": "Valides (1) : lucy (2 actions)\n"
          "Sans ordres (1) : eve (Eve) — ordres par défaut s'ils n'envoient rien.\n"
          "Formulaire renvoyé vierge (compte comme rien envoyé) : bob (Bob)\n"
          "À l'échéance, sans nouvel envoi :\n"
          "  bob (Bob) : formulaire renvoyé vierge — ordres par défaut : aucune action\n"
          "  eve (Eve) : rien envoyé — ordres par défaut : aucune action\n"
          "Jets forcés de gm.yaml : 1, tous possibles et utilisés par ce tour.\n"
          "Tour 1 : 1 valide, 0 refusé, 2 sans ordres.\n",
    "en": "Valid (1): lucy (2 actions)\n"
          "No orders (1): eve (Eve) — default orders if they send nothing.\n"
          "Form sent back blank (counts as nothing sent): bob (Bob)\n"
          "At the deadline, unless something new arrives:\n"
          "  bob (Bob): form sent back blank — default orders: no action\n"
          "  eve (Eve): nothing sent — default orders: no action\n"
          "Forced rolls in gm.yaml: 1, all possible and used by this turn.\n"
          "Turn 1: 1 valid, 0 refused, 2 without orders.\n",
}


@pytest.mark.parametrize("lang", LANGS)
def test_check_counts_a_blank_form_once_as_nothing_sent_and_checks_forced_rolls(tmp_path, lang):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", VALID)
    orders(root, 1, "bob", BLANK)
    write(root, "turns/001/gm.yaml", "rolls: {lucy.piece: 5}\n")
    r = pbp("check", cwd=root)
    assert (r.exit_code, r.stdout, r.stderr) == (0, CHECK_BLANK[lang], "")
    # run says the same people play the default orders, once each
    run = pbp("run", "--no-commit", cwd=root)
    assert run.stdout.splitlines()[1:4] == {
        "fr": ["Joués selon la règle de l'échéance :",
               "  bob (Bob) : formulaire renvoyé vierge — ordres par défaut : aucune action",
               "  eve (Eve) : rien envoyé — ordres par défaut : aucune action"],
        "en": ["Played by the deadline rule:",
               "  bob (Bob): form sent back blank — default orders: no action",
               "  eve (Eve): nothing sent — default orders: no action"]}[lang]


@pytest.mark.parametrize("lang, message", [
    ("fr", "turns/001/gm.yaml:1: jet forcé « lucy.piece » : 9 est impossible avec 1d6 (1 à 6).\n"),
    ("en", "turns/001/gm.yaml:1: forced roll `lucy.piece`: 9 is impossible with 1d6 (1 to 6).\n"),
])
def test_check_refuses_a_forced_roll_the_die_cannot_give(tmp_path, lang, message):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", VALID)
    write(root, "turns/001/gm.yaml", "rolls: {lucy.piece: 9}\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1 and r.stderr == message
    assert r.stdout.splitlines()[-1] == {"fr": "Tour 1 : 1 valide, 0 refusé, 2 sans ordres.",
                                         "en": "Turn 1: 1 valid, 0 refused, 2 without orders."}[lang]


CHECK_INACTIVE = {
    "fr": "Valides (1) : lucy (1 action)\n"
          "Inactifs (sans ordres trop de tours de suite, « nmr: inactive_after » de campaign.yaml) : bob (Bob), "
          "eve (Eve). Ils jouent leurs ordres par défaut et ne sont plus relancés ; des ordres valides de leur "
          "part les remettent en jeu.\n"
          "À l'échéance, sans nouvel envoi :\n"
          "  bob (Bob) : rien envoyé — ordres par défaut : aucune action\n"
          "  eve (Eve) : rien envoyé — ordres par défaut : aucune action\n"
          "Tour 3 : tous les ordres attendus sont arrivés et sont valides.\n",
    "en": "Valid (1): lucy (1 action)\n"
          "Inactive (no orders for too many turns in a row, `nmr: inactive_after` in campaign.yaml): bob (Bob), "
          "eve (Eve). They play their default orders and are no longer chased; valid orders from them bring them "
          "back.\n"
          "At the deadline, unless something new arrives:\n"
          "  bob (Bob): nothing sent — default orders: no action\n"
          "  eve (Eve): nothing sent — default orders: no action\n"
          "Turn 3: every expected order has arrived and is valid.\n",
}


def two_turns_without_bob_and_eve(root):
    for n in (1, 2):
        orders(root, n, "lucy", "actions: [avancer: 1]\n")
        assert pbp("run", "--no-commit", cwd=root).exit_code == 0


@pytest.mark.parametrize("lang", LANGS)
def test_check_sets_inactive_players_apart_and_all_is_done_without_them(tmp_path, lang):
    root = campaign(tmp_path / "c", lang, "nmr: {flag_after: 1, inactive_after: 2}\n")
    two_turns_without_bob_and_eve(root)
    orders(root, 3, "lucy", "actions: [avancer: 1]\n")
    r = pbp("check", cwd=root)
    assert (r.exit_code, r.stdout) == (0, CHECK_INACTIVE[lang])


@pytest.mark.parametrize("lang, check, receipt", [
    ("fr", "Tour perdu pour lucy (Mélétê), actions ignorées : le Péji se remet de sa panique.",
     "votre personnage perd ce tour\u00a0: le Péji se remet de sa panique. Vos actions ne seront pas jouées, "
     "mais votre roleplay compte."),
    ("en", "Lost turn for lucy (Mélétê), actions ignored: the Péji is getting over their panic.",
     "your character loses this turn: the Péji is getting over their panic. Your actions will not be played, "
     "but your roleplay counts."),
])
def test_a_lost_turn_in_check_and_in_the_receipt(tmp_path, lang, check, receipt):
    root = copy_example("manhunt", tmp_path)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", f"lang: {lang}"), encoding="utf-8")
    state = root / "turns/003/state.yaml"
    text = state.read_text(encoding="utf-8")  # lucy's, the first Péji: panic
    state.write_text(text.replace("    lost_turns: 0\n    recover: []\n", "    lost_turns: 1\n    recover: [panique]\n",
                                  1), encoding="utf-8")
    r = pbp("check", cwd=root)
    assert r.exit_code == 0 and check in r.stdout.splitlines(), r.output
    lines = pbp("receipt", "--player", "LUCY", cwd=root).stdout.splitlines()
    assert lines[2:4] == ["[b]Mélétê[/b] (lucy),", receipt]


# -- pbp receipt ------------------------------------------------------------------------

RECEIPTS = {
    ("fr", "lucy"): "[size=150][b]Accusé de réception — Essai, tour 1[/b][/size]\n\n"
                    "[b]Lucy[/b] (lucy),\n"
                    "vos ordres sont bien arrivés et sont valides. Voici ce qui sera joué\u00a0:\n"
                    "[list]\n[*]avancer : 1\n[*]pile ou face\n[/list]\n\n"
                    "Votre roleplay, tel qu'il sera cité\u00a0:\n"
                    '[quote="Lucy"]Lucy se hâte.[/quote]\n\n'
                    "Date limite des ordres du tour 1\u00a0: dimanche 6 décembre 2026 à 20 h 00.\n",
    ("en", "lucy"): "[size=150][b]Receipt — Essai, turn 1[/b][/size]\n\n"
                    "[b]Lucy[/b] (lucy),\n"
                    "your orders have arrived and are valid. This is what will be played:\n"
                    "[list]\n[*]advance: 1\n[*]flip\n[/list]\n\n"
                    "Your roleplay, as it will be quoted:\n"
                    '[quote="Lucy"]Lucy se hâte.[/quote]\n\n'
                    "Deadline for turn 1's orders: Sunday 6 December 2026 at 20:00.\n",
    ("fr", "bob"): "[size=150][b]Accusé de réception — Essai, tour 1[/b][/size]\n\n"
                   "[b]Bob[/b] (bob),\n"
                   "vos ordres sont arrivés mais ne peuvent pas être joués tels quels\u00a0:\n"
                   "[list]\n"
                   "[*]ligne 4 de vos ordres : action inconnue « avancr ». Vouliez-vous dire « avancer » ? "
                   "Valeurs possibles : avancer, pile_ou_face.\n"
                   "[*]ligne 5 de vos ordres : 9 est hors limites (-3 à 3).\n"
                   "[/list]\n"
                   "Corrigez-les et renvoyez le fichier avant le dimanche 6 décembre 2026 à 20 h 00\u00a0; "
                   "sinon vous jouerez les ordres par défaut.\n\n"
                   "Date limite des ordres du tour 1\u00a0: dimanche 6 décembre 2026 à 20 h 00.\n",
    ("en", "bob"): "[size=150][b]Receipt — Essai, turn 1[/b][/size]\n\n"
                   "[b]Bob[/b] (bob),\n"
                   "your orders have arrived but cannot be played as they are:\n"
                   "[list]\n"
                   "[*]line 4 of your orders: unknown action `avancr`. Did you mean `advance`? "
                   "Valid values: advance, flip.\n"
                   "[*]line 5 of your orders: 9 is out of range (-3 to 3).\n"
                   "[/list]\n"
                   "Fix them and send the file again before Sunday 6 December 2026 at 20:00; "
                   "otherwise you will play the default orders.\n\n"
                   "Deadline for turn 1's orders: Sunday 6 December 2026 at 20:00.\n",
    ("fr", "eve"): "[size=150][b]Accusé de réception — Essai, tour 1[/b][/size]\n\n"
                   "[b]Eve[/b] (eve),\n"
                   "je n'ai encore rien reçu de vous pour ce tour. Sans ordres, vous jouerez les ordres par défaut "
                   "(aucune action).\n\n"
                   "Date limite des ordres du tour 1\u00a0: dimanche 6 décembre 2026 à 20 h 00.\n",
    ("en", "eve"): "[size=150][b]Receipt — Essai, turn 1[/b][/size]\n\n"
                   "[b]Eve[/b] (eve),\n"
                   "nothing has arrived from you for this turn yet. Without orders, you will play the default orders "
                   "(no action).\n\n"
                   "Deadline for turn 1's orders: Sunday 6 December 2026 at 20:00.\n",
}


@pytest.mark.parametrize("lang, player", list(RECEIPTS))
def test_the_receipt_of_a_valid_a_refused_and_a_missing_player(tmp_path, lang, player):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", VALID)
    orders(root, 1, "bob", REFUSED)
    r = pbp("receipt", "--player", player.capitalize(), cwd=root)  # handles in any case
    assert (r.exit_code, r.stdout) == (0, RECEIPTS[lang, player])


@pytest.mark.parametrize("lang, expected", [
    ("fr", "le formulaire est revenu vierge\u00a0: il compte comme rien envoyé, et vous jouerez les ordres par défaut "
           "(aucune action)."),
    ("en", "the form came back blank: it counts as nothing sent, and you will play the default orders (no action)."),
])
def test_the_receipt_of_a_blank_form(tmp_path, lang, expected):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "bob", BLANK)
    assert pbp("receipt", "--player", "bob", cwd=root).stdout.splitlines()[3] == expected


def test_the_receipt_in_markdown(tmp_path):
    root = campaign(tmp_path / "c", "fr")
    orders(root, 1, "lucy", VALID)
    r = pbp("receipt", "--player", "lucy", "--format", "markdown", cwd=root)
    assert r.stdout.splitlines()[:7] == [
        # a hard break keeps the greeting its own line, a blank line keeps the list apart
        "### Accusé de réception — Essai, tour 1", "", "**Lucy** (lucy),  ",
        "vos ordres sont bien arrivés et sont valides. Voici ce qui sera joué\u00a0:", "", "- avancer : 1",
        "- pile ou face"]


# -- pbp remind ---------------------------------------------------------------------------

REMIND = {
    "fr": "[size=150][b]Essai — rappel des ordres du tour 1[/b][/size]\n\n"
          "Toujours pas d'ordres de\u00a0: Eve (eve).\n\n"
          "Ordres à corriger (voir votre message privé)\u00a0: Bob (bob).\n\n"
          "Date limite\u00a0: [b]dimanche 6 décembre 2026 à 20 h 00[/b]. Sans ordres valides à temps, "
          "ce sont les ordres par défaut qui seront joués.\n",
    "en": "[size=150][b]Essai — orders reminder, turn 1[/b][/size]\n\n"
          "Still no orders from: Eve (eve).\n\n"
          "Orders to fix (see your private message): Bob (bob).\n\n"
          "Deadline: [b]Sunday 6 December 2026 at 20:00[/b]. Without valid orders in time, "
          "the default orders will be played.\n",
}


@pytest.mark.parametrize("lang", LANGS)
def test_remind_names_the_missing_and_the_refused_and_the_deadline(tmp_path, lang):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", VALID)
    orders(root, 1, "bob", REFUSED)
    r = pbp("remind", cwd=root)
    assert (r.exit_code, r.stdout) == (0, REMIND[lang])


@pytest.mark.parametrize("lang, expected", [
    ("fr", "Toujours pas d'ordres de\u00a0: Bob (bob), Eve (eve)."),
    ("en", "Still no orders from: Bob (bob), Eve (eve)."),
])
def test_remind_counts_a_blank_form_as_nothing_sent(tmp_path, lang, expected):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", VALID)
    orders(root, 1, "bob", BLANK)
    assert pbp("remind", cwd=root).stdout.splitlines()[2] == expected


@pytest.mark.parametrize("lang, expected", [
    ("fr", "Tous les ordres attendus sont arrivés\u00a0: merci à tous\u00a0! Le tour sera résolu après le dimanche "
           "20 décembre 2026 à 20 h 00."),
    ("en", "Every expected order has arrived: thank you all! The turn will be resolved after Sunday "
           "20 December 2026 at 20:00."),
])
def test_remind_leaves_out_the_inactive(tmp_path, lang, expected):
    root = campaign(tmp_path / "c", lang, "nmr: {flag_after: 1, inactive_after: 2}\n")
    two_turns_without_bob_and_eve(root)
    orders(root, 3, "lucy", "actions: [avancer: 1]\n")
    assert pbp("remind", cwd=root).stdout.splitlines()[2] == expected


def test_remind_without_a_deadline(tmp_path):
    root = tmp_path / "c"
    write(root, "campaign.yaml", "ruleset: toy\ntitle: Essai\nsecret: s\nplayers: {lucy: Lucy}\n")
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    assert pbp("remind", cwd=root).stdout.splitlines()[2:] == [
        "Toujours pas d'ordres de\u00a0: Lucy (lucy).", "",
        "Sans ordres valides, ce sont les ordres par défaut qui seront joués."]


# -- missed orders: status, MJ report, flag, inactive -------------------------------------------

STATUS = {
    ("fr", 1): ["Ordres du tour 2 (avant le dimanche 13 décembre 2026 à 20 h 00)",
                "pseudo  personnage  ordres    tours manqués d'affilée",
                "------  ----------  --------  -----------------------",
                "lucy    Lucy        attendus  0",
                "bob     Bob         attendus  0",
                "eve     Eve         attendus  1 (à relancer)",
                "",
                "En attente\u00a0: lucy, bob, eve"],
    ("fr", 2): ["Ordres du tour 3 (avant le dimanche 20 décembre 2026 à 20 h 00)",
                "pseudo  personnage  ordres    tours manqués d'affilée",
                "------  ----------  --------  -----------------------",
                "lucy    Lucy        reçus     0",
                "bob     Bob         attendus  1 (à relancer)",
                "eve     Eve         inactif   2 (inactif)",
                "",
                "En attente\u00a0: bob"],
    ("en", 1): ["Orders for turn 2 (before Sunday 13 December 2026 at 20:00)",
                "handle  character  orders    turns missed in a row",
                "------  ---------  --------  ---------------------",
                "lucy    Lucy       expected  0",
                "bob     Bob        expected  0",
                "eve     Eve        expected  1 (chase)",
                "",
                "Waiting for: lucy, bob, eve"],
    ("en", 2): ["Orders for turn 3 (before Sunday 20 December 2026 at 20:00)",
                "handle  character  orders    turns missed in a row",
                "------  ---------  --------  ---------------------",
                "lucy    Lucy       received  0",
                "bob     Bob        expected  1 (chase)",
                "eve     Eve        inactive  2 (inactive)",
                "",
                "Waiting for: bob"],
}

GM_FOOTER = {
    ("fr", 1): ["[b]Suivi des ordres[/b]", "[list]", "[*]Eve (eve)\u00a0: 1 tour sans ordres — à relancer", "[/list]"],
    ("fr", 2): ["[b]Suivi des ordres[/b]", "[list]", "[*]Bob (bob)\u00a0: 1 tour sans ordres — à relancer",
                "[*]Eve (eve)\u00a0: 2 tours sans ordres — inactif", "[/list]"],
    ("en", 1): ["[b]Orders follow-up[/b]", "[list]", "[*]Eve (eve): 1 turn without orders — chase them", "[/list]"],
    ("en", 2): ["[b]Orders follow-up[/b]", "[list]", "[*]Bob (bob): 1 turn without orders — chase them",
                "[*]Eve (eve): 2 turns without orders — inactive", "[/list]"],
}


DEADLINE_HEADS = ("À l'échéance, sans nouvel envoi\u00a0:", "At the deadline, unless something new arrives:")


def status_lines(root) -> list[str]:
    """`pbp status`'s lines, without the block that ends it, what each player
    without valid orders will play (tests/test_at_deadline.py)."""
    lines = pbp("status", cwd=root).stdout.splitlines()
    heads = [i for i, line in enumerate(lines) if line in DEADLINE_HEADS]
    return lines[:heads[0] - 1] if heads else lines


@pytest.mark.parametrize("lang", LANGS)
def test_missed_turns_in_status_and_the_mj_report_flagged_after_k_then_inactive(tmp_path, lang):
    """flag_after 1, inactive_after 2. Turn 1: eve sends nothing. Turn 2: bob's
    form comes back blank (one missed turn, not two) and eve misses a second
    turn: she is set inactive, no longer waited for."""
    root = campaign(tmp_path / "c", lang, "nmr: {flag_after: 1, inactive_after: 2}\n")
    orders(root, 1, "lucy", "actions: [avancer: 1]\n")
    orders(root, 1, "bob", "actions: [avancer: 1]\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert status_lines(root)[-8:] == STATUS[lang, 1]
    assert unsealed(pbp("post", "--gm", cwd=root).stdout).rstrip().splitlines()[-4:] == GM_FOOTER[lang, 1]
    orders(root, 2, "lucy", "actions: [avancer: 1]\n")
    orders(root, 2, "bob", "player: bob\nturn: 2\nactions: []\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    orders(root, 3, "lucy", "actions: [avancer: 1]\n")
    assert status_lines(root)[-8:] == STATUS[lang, 2]
    assert unsealed(pbp("post", "--gm", cwd=root).stdout).rstrip().splitlines()[-5:] == GM_FOOTER[lang, 2]
    assert (root / "turns/002/turn.yaml").read_text(encoding="utf-8").split("missed:")[1] == (
        "\n  bob: 1\n  eve: 2\ninactive:\n- eve\n")


def test_by_default_a_player_is_flagged_after_two_missed_turns_and_never_inactive(tmp_path):
    root = campaign(tmp_path / "c", "fr")
    for n in (1, 2, 3):
        orders(root, n, "lucy", "actions: [avancer: 1]\n")
        orders(root, n, "bob", "actions: [avancer: 1]\n")
        assert pbp("run", "--no-commit", cwd=root).exit_code == 0
        rows = status_lines(root)
        assert rows[-3] == {1: "eve     Eve         attendus  1", 2: "eve     Eve         attendus  2 (à relancer)",
                            3: "eve     Eve         attendus  3 (à relancer)"}[n]


# -- the deadline in the public post ------------------------------------------------------------

@pytest.mark.parametrize("lang, fmt, expected", [
    ("fr", "bbcode", "[b]Ordres du tour 2[/b]\u00a0: à envoyer avant le dimanche 13 décembre 2026 à 20 h 00."),
    ("en", "bbcode", "[b]Orders for turn 2[/b]: to send before Sunday 13 December 2026 at 20:00."),
    ("fr", "markdown", "**Ordres du tour 2**\u00a0: à envoyer avant le dimanche 13 décembre 2026 à 20 h 00."),
])
def test_the_public_post_ends_with_the_next_deadline(tmp_path, lang, fmt, expected):
    root = campaign(tmp_path / "c", lang)
    orders(root, 1, "lucy", "actions: [avancer: 1]\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert unsealed(pbp("post", "--format", fmt, cwd=root).stdout).rstrip("\n").splitlines()[-1] == expected


def test_a_turn_of_its_own_deadline_and_none_without_deadlines(tmp_path):
    root = campaign(tmp_path / "c", "fr")
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        'every: "7 jours"}', 'every: "7 jours", turns: {2: "2026-12-31 18:30"}}'), encoding="utf-8")
    orders(root, 1, "lucy", "actions: [avancer: 1]\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert unsealed(pbp("post", cwd=root).stdout).rstrip("\n").splitlines()[-1] == (
        "[b]Ordres du tour 2[/b]\u00a0: à envoyer avant le jeudi 31 décembre 2026 à 18 h 30.")
    plain = tmp_path / "plain"
    write(plain, "campaign.yaml", "ruleset: toy\ntitle: Essai\nsecret: s\nplayers: {lucy: Lucy}\n")
    assert pbp("setup", "--no-commit", cwd=plain).exit_code == 0
    orders(plain, 1, "lucy", "actions: [avancer: 1]\n")
    assert pbp("run", "--no-commit", cwd=plain).exit_code == 0
    assert "Ordres du tour 2" not in pbp("post", cwd=plain).stdout
