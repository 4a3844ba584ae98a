"""At the deadline the turn always plays (pbp/engine/at_deadline.py), through the real CLI.

- A player who sent nothing plays the default orders where the rules allow them,
  else the ruleset's fallback order (data.yaml's `fallback_orders`): an engaged
  Péji whose campaign says `default_orders: [se_cacher]` (illegal for them) no
  longer stops `pbp check`, `pbp run` nor `pbp run --no-orders`.
- A refused file stops `pbp run`, which says what `pbp run --at-deadline` would
  play for whom; with `--at-deadline` its player plays as one who sent nothing.
- `pbp check`, `pbp status`, `pbp run` and the MJ's report say, for each player
  without valid orders, why and what is played, naming the player and the file
  or campaign.yaml's line.
"""

from __future__ import annotations

import pytest

from pbp.model import orders as od
from pbp.model.ruleset import Refusals
from pbp.model.ruleset import get as get_ruleset
from tests.helpers import copy_example, pbp, write

LANGS = ["fr", "en"]


def config_line(root, start: str) -> int:
    """The line of campaign.yaml that starts with `start`."""
    lines = (root / "campaign.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, text in enumerate(lines, 1) if text.startswith(start))


def at_line(text: str, root, start: str = "default_orders:") -> str:
    return text.replace("{line}", str(config_line(root, start)))


def manhunt(tmp_path, lang: str, default: str | None = "[se_cacher]"):
    """The manhunt example before its turn 4: Grimnir (h1), who tracks Mélétê
    (lucy), on her cell; `default_orders` as given; Mélétê's file removed."""
    root = copy_example("manhunt", tmp_path)
    state = root / "turns/003/state.yaml"
    text = state.read_text(encoding="utf-8")
    cell = text.index("cell:", text.index("  h1:"))
    state.write_text(text[:cell] + "cell: S05" + text[text.index("\n", cell):], encoding="utf-8")
    config = root / "campaign.yaml"
    extra = f"default_orders: {default}\n" if default is not None else ""
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", f"lang: {lang}") + extra,
                      encoding="utf-8")
    (root / "turns/004/orders/lucy.yaml").unlink()
    return root


ENGAGED = {
    "fr": "lucy (Mélétê) : rien envoyé — ordre de repli du jeu : aucune action ; ses ordres par défaut (se cacher ; "
          "campaign.yaml:{line}) ne lui sont pas permis, les règles le lui diraient ainsi : « Grimnir le Traqueur vous "
          "traque sur votre case : vous ne pouvez que combattre, fuir ou utiliser un objet (FAQ 6). »",
    "en": "lucy (Mélétê): nothing sent — the game's fallback order: no action; their default orders (hide; "
          "campaign.yaml:{line}) are not allowed to them, the rules would tell them: “Grimnir le Traqueur is tracking "
          "you on your cell: you can only fight, flee or use an item (FAQ 6).”",
}
#: in the MJ's report: the character's name first, as the report names everyone
GM_ENGAGED = {
    "fr": "Mélétê (lucy)\u00a0: rien envoyé — ordre de repli du jeu\u00a0: aucune action\u00a0; ses ordres par défaut "
          "(se cacher\u00a0; campaign.\u2060yaml:\u2060{line}) ne lui sont pas permis, les règles le lui diraient "
          "ainsi\u00a0: «\u00a0Grimnir le Traqueur vous traque sur votre case : vous ne pouvez que combattre, fuir ou "
          "utiliser un objet (FAQ 6).\u00a0»",
    "en": "Mélétê (lucy): nothing sent — the game's fallback order: no action; their default orders (hide; "
          "campaign.\u2060yaml:\u2060{line}) are not allowed to them, the rules would tell them: “Grimnir le "
          "Traqueur is "
          "tracking you on your cell: you can only fight, flee or use an item (FAQ 6).”",
}
HEADS = {"fr": ("À l'échéance, sans nouvel envoi :", "Joués selon la règle de l'échéance :"),
         "en": ("At the deadline, unless something new arrives:", "Played by the deadline rule:")}


@pytest.mark.parametrize("lang", LANGS)
def test_an_engaged_peji_who_sent_nothing_plays_the_fallback_order_not_an_illegal_default(tmp_path, lang):
    root = manhunt(tmp_path, lang)
    engaged = at_line(ENGAGED[lang], root)
    check = pbp("check", cwd=root)
    assert check.exit_code == 0, check.output
    assert check.stdout.splitlines()[-3:-1] == [HEADS[lang][0], "  " + engaged]
    status = pbp("status", cwd=root)
    lines = status.stdout.splitlines()
    head = lines.index(HEADS[lang][0].replace(" :", "\u00a0:"))
    assert status.exit_code == 0 and lines[head + 1] == "  " + engaged
    run = pbp("run", "--no-commit", cwd=root)
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines()[1:3] == [HEADS[lang][1], "  " + engaged]
    gm = (root / "turns/004/gm.bbcode").read_text(encoding="utf-8")
    line = at_line(GM_ENGAGED[lang], root)
    assert "[*]" + line + "\n" in gm
    assert pbp("verify", cwd=root).stdout.splitlines()[-2:-1] == [{"fr": "tour 4 : identique",
                                                                    "en": "turn 4: identical"}[lang]]


def test_no_orders_plays_an_engaged_peji_on_the_fallback_order_too(tmp_path):
    """What the issue saw: `pbp run --no-orders` refused the turn, with the player's
    `vous` and no line, when nobody had sent anything."""
    root = manhunt(tmp_path, "fr")
    for path in (root / "turns/004/orders").iterdir():
        path.unlink()
    run = pbp("run", "--no-commit", "--no-orders", cwd=root)
    assert run.exit_code == 0, run.output
    assert "  " + at_line(ENGAGED["fr"], root) in run.stdout.splitlines()
    assert "vous traque" not in run.stderr


REFUSED = {
    "fr": ["turns/004/orders/corbin.yaml:2: action inconnue « fouile ». Vouliez-vous dire « fouille » ? Valeurs "
           "possibles : deplacement_normal, deplacement_rapide, fuite, repos, combat, tir, utilisation_equipement, "
           "revetir_armure, recherche_pieges, fouille, se_cacher, jeter.",
           "Le tour 4 n'a pas été joué : turns/004/orders/corbin.yaml est refusé (problèmes ci-dessus). Faites "
           "corriger le fichier avant l'échéance ; à l'échéance, « pbp run --at-deadline » joue le tour sans "
           "l'attendre :",
           "  lucy (Mélétê) : rien envoyé — ordres par défaut : aucune action",
           "  corbin (Corbin) : turns/004/orders/corbin.yaml refusé — ordres par défaut : aucune action"],
    "en": ["turns/004/orders/corbin.yaml:2: unknown action `fouile`. Did you mean `fouille`? Valid values: "
           "normal_move, fast_move, flight, rest, melee, shoot, use_item, put_on_armour, search_traps, search, hide, "
           "drop.",
           "Turn 4 was not played: turns/004/orders/corbin.yaml is refused (problems above). Have the file fixed "
           "before the deadline; at the deadline, `pbp run --at-deadline` plays the turn without waiting for it:",
           "  lucy (Mélétê): nothing sent — default orders: no action",
           "  corbin (Corbin): turns/004/orders/corbin.yaml refused — default orders: no action"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_file_stops_run_which_says_what_at_deadline_plays_and_at_deadline_plays_it(tmp_path, lang):
    root = manhunt(tmp_path, lang, default=None)
    (root / "turns/004/orders/corbin.yaml").write_text("actions:\n  - fouile\nroleplay: Corbin hésite.\n",
                                                        encoding="utf-8")
    refused = pbp("run", "--no-commit", cwd=root)
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr.splitlines()[1:] == REFUSED[lang]  # (the first: the edited turn 3's code)
    assert not (root / "turns/004/state.yaml").exists()
    check = pbp("check", cwd=root)
    assert check.exit_code == 1
    ahead = {"fr": "  corbin (Corbin) : turns/004/orders/corbin.yaml refusé (avec « pbp run --at-deadline ») — "
                   "ordres par défaut : aucune action",
             "en": "  corbin (Corbin): turns/004/orders/corbin.yaml refused (with `pbp run --at-deadline`) — "
                   "default orders: no action"}[lang]
    assert check.stdout.splitlines()[-4:-1] == [HEADS[lang][0], REFUSED[lang][2], ahead]
    run = pbp("run", "--no-commit", "--at-deadline", cwd=root)
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines()[1:4] == [HEADS[lang][1], *REFUSED[lang][2:]]
    # nothing of a refused file is played: not its roleplay either
    assert "Corbin hésite" not in (root / "turns/004/public.bbcode").read_text(encoding="utf-8")
    gm = (root / "turns/004/gm.bbcode").read_text(encoding="utf-8")
    assert {"fr": "[*]Corbin (corbin)\u00a0: turns/004/orders/corbin.\u2060yaml refusé — ordres par défaut\u00a0: "
                  "aucune action\n",
            "en": "[*]Corbin (corbin): turns/004/orders/corbin.\u2060yaml refused — default orders: "
                  "no action\n"}[lang] in gm
    # a turn without valid orders from Corbin: counted as missed
    assert "missed:\n  corbin: 1\n" in (root / "turns/004/turn.yaml").read_text(encoding="utf-8")
    verify = pbp("verify", cwd=root)  # replayed as it was played, the refused file set aside again
    assert {"fr": "tour 4 : identique", "en": "turn 4: identical"}[lang] in verify.stdout.splitlines()


def test_at_deadline_plays_a_turn_nobody_sent_orders_for(tmp_path):
    root = manhunt(tmp_path, "fr", default=None)
    for path in (root / "turns/004/orders").iterdir():
        path.unlink()
    assert pbp("run", "--no-commit", cwd=root).exit_code == 1  # a second run by mistake?
    run = pbp("run", "--no-commit", "--at-deadline", cwd=root)
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines()[2:6] == [f"  {h} ({c}) : rien envoyé — ordres par défaut : aucune action"
                                            for h, c in (("lucy", "Mélétê"), ("johannes", "Johannes"),
                                                         ("ysolde", "Ysolde"), ("corbin", "Corbin"))]


def test_default_orders_written_under_rules_are_named_by_their_line(tmp_path):
    root = manhunt(tmp_path, "fr", default=None)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("rules:\n", "rules:\n  default_orders: [repos]\n"),
                      encoding="utf-8")
    check = pbp("check", cwd=root)
    assert check.exit_code == 0, check.output
    assert at_line("  lucy (Mélétê) : rien envoyé — ordre de repli du jeu : aucune action ; ses ordres par défaut "
                   "(repos ; campaign.yaml:{line}) ne lui sont pas permis", root, "  default_orders:") in check.stdout


@pytest.mark.parametrize("lang, expected", [
    ("fr", "campaign.yaml:{line}: ni les ordres par défaut ni l'ordre de repli (fallback_orders) ne sont permis "
           "à Mélétê "
           "(lucy) dans sa situation : donnez dans campaign.yaml un « rules: fallback_orders: » que les règles "
           "permettent toujours (par exemple [] : ne rien faire).\n"),
    ("en", "campaign.yaml:{line}: neither the default orders nor the fallback order (fallback_orders) are allowed to "
           "Mélétê (lucy) as things stand: give campaign.yaml a `rules: fallback_orders:` the rules always allow "
           "(for instance []: do nothing).\n"),
])
def test_a_campaigns_own_fallback_that_the_rules_refuse_is_said_with_its_line(tmp_path, lang, expected):
    root = manhunt(tmp_path, lang)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("rules:\n", "rules:\n  fallback_orders: [repos]\n"),
                      encoding="utf-8")
    expected = at_line(expected, root, "  fallback_orders:")
    check = pbp("check", cwd=root)
    assert (check.exit_code, check.stderr) == (1, expected)
    run = pbp("run", "--no-commit", "--at-deadline", cwd=root)
    assert run.exit_code == 1 and run.stderr.endswith(expected)
    assert not (root / "turns/004/state.yaml").exists()


def test_default_orders_the_ruleset_cannot_read_are_said_with_their_line(tmp_path):
    root = manhunt(tmp_path, "fr", default="[se_cachr]")
    check = pbp("check", cwd=root)
    assert check.exit_code == 1
    assert check.stderr.startswith(at_line("campaign.yaml:{line}: action inconnue « se_cachr ». Vouliez-vous dire "
                                           "« se_cacher » ?", root))


@pytest.mark.parametrize("example", ["manhunt", "murder", "skirmish", "d100"])
def test_each_rulesets_fallback_order_is_legal_for_every_player_in_every_archived_state(tmp_path, example):
    """The fallback orders must be legal in every state: tried on every player of
    every turn of the bundled example (engaged Péjis, ghosts, prisoners,
    characters in combat...)."""
    from pbp.engine.campaign import open_campaign

    campaign = open_campaign(copy_example(example, tmp_path))
    rs, scenario = campaign.ruleset, campaign.scenario
    assert "fallback_orders" in get_ruleset(rs.id, {}).rules  # named in the ruleset's data.yaml
    for n in campaign.resolved_turns():
        state = campaign.state(n)
        if rs.is_over(state):
            continue
        for handle in rs.players_to_play(state, scenario):
            problems = Refusals()
            actions = od.parse_actions(rs.rules["fallback_orders"], rs, scenario, problems, at=())
            fallback = od.PlayerOrders(handle, n + 1, actions, default=True)
            assert not problems and not rs.check_orders(state, scenario, fallback), (n, handle)


# -- a deadline night, as the issue scripts it ---------------------------------------------------

def deadline_night(root):
    """A six-player manhunt event (the example's labyrinth) after its turn 1: the
    campaign says `default_orders: [se_cacher]` and panics at stress 4. In turn 1
    the MJ put Grimnir (h1) on Ombeline's cell, tracking her, and Nox panicked (a
    closed door and a trap search: stress 5), so turn 2 is lost for Nox."""
    from tests.helpers import REPO

    assert pbp("init", root, "--ruleset", "manhunt", "--no-git").exit_code == 0
    # a secret of the test's own, not the one `pbp init` draws: the night's dice are the same at every run
    (root / "secret.yaml").write_text("secret: nuit-de-l-echeance\n", encoding="utf-8")
    (root / "world.yaml").write_bytes((REPO / "campaigns/manhunt/world.yaml").read_bytes())
    sheets = (REPO / "campaigns/manhunt/characters.yaml").read_text(encoding="utf-8")
    (root / "characters.yaml").write_text(sheets.replace(
        "  corbin: {name: Corbin, start: S04, inventory: []}\n",
        "  corbin: {name: Corbin, start: S04, inventory: []}\n  ombeline: {name: Ombeline, start: S13, inventory: []}\n"
        "  nox: {name: Nox, start: S05, inventory: []}\n"), encoding="utf-8")
    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    (root / "campaign.yaml").write_text(config.replace(
        "  lucy: Mélétê\n  johannes: Johannes\n",
        "  lucy: Mélétê\n  johannes: Johannes\n  ysolde: Ysolde\n  corbin: Corbin\n  ombeline: Ombeline\n  nox: Nox\n")
        .replace("rules:\n  turn_limit: 12\n", "rules:\n  turn_limit: 12\n  stress: {panic: 4}\n"
                 "default_orders: [se_cacher]\n"), encoding="utf-8")
    assert pbp("setup", cwd=root).exit_code == 0
    for handle in ("lucy", "johannes", "ysolde", "corbin", "ombeline"):
        write(root, f"turns/001/orders/{handle}.yaml", "actions:\n  - se_cacher\n")
    write(root, "turns/001/orders/nox.yaml", "actions:\n  - deplacement_normal: nord\n  - recherche_pieges\n")
    write(root, "turns/001/gm.yaml", "orders:\n  chasseurs:\n    h1: {placer: S13, cible: ombeline}\n")
    assert pbp("run", cwd=root).exit_code == 0
    return root


NIGHT_PLAYED = [
    "  johannes (Johannes) : turns/002/orders/johannes.yaml refusé — ordres par défaut : se cacher",
    "  ysolde (Ysolde) : turns/002/orders/ysolde.yaml refusé — ordres par défaut : se cacher",
    "  corbin (Corbin) : turns/002/orders/corbin.yaml refusé — ordres par défaut : se cacher",
    "  ombeline (Ombeline) : rien envoyé — ordre de repli du jeu : aucune action ; ses ordres par défaut (se cacher ; "
    "campaign.yaml:{line}) ne lui sont pas permis, les règles le lui diraient ainsi : « Grimnir le Traqueur "
    "vous traque "
    "sur votre case : vous ne pouvez que combattre, fuir ou utiliser un objet (FAQ 6). »",
]


def test_a_deadline_night_plays_in_one_command_and_the_mj_report_lists_what_was_played_for_whom(tmp_path):
    """Six players at the deadline of turn 2: Mélétê sent a valid file; Johannes a
    refused one (a typo); Ysolde a Windows-1252 file; Corbin a private message the
    MJ imported (a move and a hide: 3 points, refused by the rules); Ombeline, engaged
    by Grimnir, nothing (her default orders are illegal for her); Nox, who panicked,
    a file for the turn he loses. `pbp run --at-deadline` plays the turn."""
    root = deadline_night(tmp_path / "nuit")
    state = (root / "turns/001/state.yaml").read_text(encoding="utf-8")
    assert "  nox:\n" in state and "lost_turns: 1" in state.split("  nox:\n")[1]  # Nox panicked
    write(root, "turns/002/orders/lucy.yaml", "actions:\n  - deplacement_normal: est\nroleplay: Mélétê file.\n")
    write(root, "turns/002/orders/johannes.yaml", "actions:\n  - fouile\n")
    write(root, "turns/002/orders/nox.yaml", "actions:\n  - fouille\nroleplay: Nox tremble encore.\n")
    (root / "turns/002/orders/ysolde.yaml").write_bytes(
        "actions:\n  - se_cacher\nroleplay: Ysolde hésite, puis se tapit.\n".encode("cp1252"))
    message = root.parent / "corbin.txt"
    message.write_text("Je me déplace vers le nord puis je me cache.\n", encoding="utf-8")
    imported = pbp("orders", "import", "--player", "corbin", message, "--write", cwd=root)
    assert "Écrit : turns/002/orders/corbin.yaml" in imported.stdout
    written = (root / "turns/002/orders/corbin.yaml").read_text(encoding="utf-8")
    assert "  - deplacement_normal: nord\n  - se_cacher\n" in written  # the move and the hide, both
    check = pbp("check", cwd=root)
    # a Windows-1252 file: refused as not UTF-8 by this pbp (then played by the policy), or
    # read as Windows-1252 with a note once pbp does (then Ysolde plays her own orders)
    ysolde_refused = "turns/002/orders/ysolde.yaml:3: le fichier n'est pas en UTF-8" in check.stderr
    at = config_line(root, "default_orders:")
    played = [line.replace("{line}", str(at)) for line in NIGHT_PLAYED if ysolde_refused or "ysolde" not in line]
    ahead = [line.replace(" refusé —", " refusé (avec « pbp run --at-deadline ») —") for line in played]
    lines = check.stdout.splitlines()
    head = lines.index("À l'échéance, sans nouvel envoi :")
    assert lines[head + 1:head + 1 + len(ahead)] == ahead
    assert "Tour perdu pour nox (Nox), actions ignorées : le Péji se remet de sa panique." in lines
    assert pbp("run", cwd=root).exit_code == 1  # before the deadline, the refused files are waited for

    run = pbp("run", "--at-deadline", cwd=root)
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines()[1:2 + len(played)] == ["Joués selon la règle de l'échéance :", *played]
    gm = (root / "turns/002/gm.bbcode").read_text(encoding="utf-8")
    report = gm.split("[b]Joués sans ordres valides[/b]\n[list]\n")[1].split("[/list]")[0].splitlines()
    assert [item.split("\u00a0:")[0] for item in report] == \
        [f"[*]{c} ({h})" for h, c in (("johannes", "Johannes"), ("ysolde", "Ysolde"), ("corbin", "Corbin"),
                                      ("ombeline", "Ombeline")) if ysolde_refused or h != "ysolde"]
    assert report[-1].endswith("ordre de repli du jeu\u00a0: aucune action\u00a0; ses ordres par défaut "
                               "(se cacher\u00a0; "
                               f"campaign.\u2060yaml:\u2060{at}) ne lui sont pas permis, les règles le lui diraient "
                               "ainsi\u00a0: «\u00a0Grimnir le Traqueur vous traque sur votre case : vous ne "
                               "pouvez que "
                               "combattre, fuir ou utiliser un objet (FAQ 6).\u00a0»")
    assert ("[*]Nox\u00a0: ordres reçus pour un tour perdu, actions ignorées\u00a0: le Péji se remet de sa "
            "panique.") in gm
    public = (root / "turns/002/public.bbcode").read_text(encoding="utf-8")
    assert "Mélétê file." in public and "Nox tremble encore." in public
    assert pbp("verify", cwd=root).stdout.splitlines()[-1] == "3 tours rejoués à l'identique."


# -- what the players read: the receipt, the reminder and `pbp check` say what will be played --------

FALLBACK_RECEIPT = {
    "fr": ["je n'ai encore rien reçu de vous pour ce tour. Sans ordres, vous jouerez l'ordre de repli du jeu "
           "(aucune action).",
           "Vos ordres par défaut (se cacher) ne vous sont pas permis\u00a0: « Grimnir le Traqueur vous traque sur votre "
           "case : vous ne pouvez que combattre, fuir ou utiliser un objet (FAQ 6). »"],
    "en": ["nothing has arrived from you for this turn yet. Without orders, you will play the game's fallback order "
           "(no action).",
           "Your default orders (hide) are not allowed to you: “Grimnir le Traqueur is tracking you on your cell: you "
           "can only fight, flee or use an item (FAQ 6).”"],
}
REFUSED_RECEIPT = {
    "fr": "Corrigez-les et renvoyez le fichier\u00a0; sinon vous jouerez l'ordre de repli du jeu (aucune action).",
    "en": "Fix them and send the file again; otherwise you will play the game's fallback order (no action).",
}
DEFAULT_RECEIPT = {
    "fr": "je n'ai encore rien reçu de vous pour ce tour. Sans ordres, vous jouerez les ordres par défaut{}",
    "en": "nothing has arrived from you for this turn yet. Without orders, you will play the default orders{}",
}
REMIND = {
    "fr": "Sans ordres valides, chacun jouera ses ordres par défaut, ou l'ordre de repli du jeu (aucune action) si les "
          "règles ne les lui permettent pas.",
    "en": "Without valid orders, each player will play their default orders, or the game's fallback order (no action) "
          "where the rules do not allow them.",
}
CHECK_FALLBACK = {
    "fr": "Sans ordres (1) : lucy (Mélétê) — sans nouvel envoi, l'ordre de repli du jeu (aucune action) : ses ordres "
          "par défaut ne lui sont pas permis (voir ci-dessous).",
    "en": "No orders (1): lucy (Mélétê) — unless something new arrives, the game's fallback order (no action): their "
          "default orders are not allowed to them (see below).",
}
CHECK_DEFAULT = {"fr": "Sans ordres (1) : corbin (Corbin) — ordres par défaut s'ils n'envoient rien.",
                 "en": "No orders (1): corbin (Corbin) — default orders if they send nothing."}


@pytest.mark.parametrize("lang", LANGS)
def test_the_receipt_reminder_and_check_promise_an_engaged_peji_the_fallback_order(tmp_path, lang):
    root = manhunt(tmp_path, lang)
    (root / "turns/004/orders/corbin.yaml").unlink()
    receipt = pbp("receipt", "--player", "lucy", cwd=root)
    assert receipt.exit_code == 0, receipt.output
    assert receipt.stdout.splitlines()[3:5] == FALLBACK_RECEIPT[lang]
    normal = pbp("receipt", "--player", "corbin", cwd=root).stdout.splitlines()  # hiding is allowed to him
    assert normal[3] == DEFAULT_RECEIPT[lang].format({"fr": "\u00a0:", "en": ":"}[lang])
    assert normal[4:6] == ["[list]", {"fr": "[*]se cacher", "en": "[*]hide"}[lang]]
    assert not any("permis" in line or "allowed" in line for line in normal)
    check = pbp("check", cwd=root).stdout.splitlines()
    assert CHECK_DEFAULT[lang] in check and CHECK_FALLBACK[lang] in check
    remind = pbp("remind", cwd=root)
    assert remind.exit_code == 0, remind.output
    assert REMIND[lang] in remind.stdout.splitlines()
    # public: neither the hunter nor why; the same sentence whoever is missing
    assert "Grimnir" not in remind.stdout and "traqu" not in remind.stdout and "track" not in remind.stdout
    (root / "turns/004/orders/lucy.yaml").write_text("actions:\n  - fouile\n", encoding="utf-8")
    refused = pbp("receipt", "--player", "lucy", cwd=root).stdout.splitlines()
    assert REFUSED_RECEIPT[lang] in refused and FALLBACK_RECEIPT[lang][1] in refused


@pytest.mark.parametrize("lang", LANGS)
def test_the_reminder_keeps_its_sentence_when_the_fallback_is_the_default(tmp_path, lang):
    root = manhunt(tmp_path, lang, default=None)  # the ruleset's defaults: doing nothing, as its fallback
    remind = pbp("remind", cwd=root).stdout.splitlines()
    assert {"fr": "Sans ordres valides, ce sont les ordres par défaut qui seront joués.",
            "en": "Without valid orders, the default orders will be played."}[lang] in remind
    receipt = pbp("receipt", "--player", "lucy", cwd=root).stdout.splitlines()
    assert receipt[3] == DEFAULT_RECEIPT[lang].format({"fr": " (aucune action).", "en": " (no action)."}[lang])
