"""manhunt through the real command line, on a copy of the bundled example: the
MJ's overview, the order form's hints, and the MJ's hunter orders refused with
their exact messages (the campaign untouched)."""

import pytest

from tests.helpers import copy_example, pbp, write

STATUS = """\
La chasse à l'homme — état après le tour 3
==========================================

Péji                 état    case                                       bruit  fatigue     stress  blessures  inventaire
-------------------  ------  -----------------------------------------  -----  ----------  ------  ---------  ----------------------------
Mélétê (lucy)        en jeu  le Vestiaire des Pendus (S05)              6      0 (niv. 1)  9       1          cape en peau d'écorce
Johannes (johannes)  en jeu  le Grand Corridor (tronçon ouest) (C01)    1      0 (niv. 1)  8       1          corde de chanvre
Ysolde (ysolde)      en jeu  la Chambre des Échos (S12)                 4      1 (niv. 1)  6       1          dagues de lancer équilibrées
Corbin (corbin)      en jeu  le Grand Corridor (tronçon central) (C02)  2      0 (niv. 1)  7       2

Chasseur                    case                         traque         blessures
--------------------------  ---------------------------  -------------  ---------
Grimnir le Traqueur (h1)    la Salle des Éveils (S01)    Mélétê (lucy)  1
Sœur Vesper (h2)            en attente                   —              1
le Boucher de Morn (h3)     en attente                   —              1
Isarn l'Elfe noir (h4)      en attente                   —              1
Tavok le Borgne (h5)        en attente                   —              1
Maëlle la Silencieuse (h6)  en attente                   —              1
Orrin Main-de-Fer (h7)      en attente                   —              1
le Veneur Pâle (h8)         en attente                   —              1
Sylas l'Elfe sylvain (h9)   la Chapelle Renversée (S14)  —              1

Passage         case                                     sortie  vers
--------------  ---------------------------------------  ------  ---------------------------------------
porte ouverte   la Salle des Éveils (S01)                nord    le Vestiaire des Pendus (S05)
rideau fermé    la Salle des Éveils (S01)                est     l'Atelier du Tanneur (S02)
grille ouverte  l'Atelier du Tanneur (S02)               nord    le Grand Corridor (tronçon ouest) (C01)
porte ouverte   la Fosse aux Chiens (S03)                est     la Citerne (S04)
grille fermée   la Citerne (S04)                         nord    le Grand Corridor (tronçon est) (C03)
porte fermée    le Vestiaire des Pendus (S05)            nord    la Bibliothèque Noyée (S09)
porte fermée    le Grand Corridor (tronçon ouest) (C01)  nord    le Cabinet des Masques (S10)
rideau ouvert   le Grand Corridor (tronçon est) (C03)    nord    la Chambre des Échos (S12)
porte ouverte   la Bibliothèque Noyée (S09)              est     le Cabinet des Masques (S10)
rideau ouvert   le Cabinet des Masques (S10)             est     la Serre Morte (S11)
grille fermée   la Serre Morte (S11)                     nord    le Puits aux Lanternes (S15)
porte fermée    la Serre Morte (S11)                     est     la Chambre des Échos (S12)
porte fermée    la Chambre des Échos (S12)               nord    la Porte de l'Aube (S16)
porte fermée    l'Ossuaire (S13)                         est     la Chapelle Renversée (S14)
rideau fermé    le Puits aux Lanternes (S15)             est     la Porte de l'Aube (S16)

Piège                      connu de
-------------------------  --------
la Fosse aux Chiens (S03)  Corbin
la Serre Morte (S11)       personne

Ordres du tour 4
pseudo    personnage  ordres  tours manqués d'affilée
--------  ----------  ------  -----------------------
lucy      Mélétê      reçus   0
johannes  Johannes    reçus   0
ysolde    Ysolde      reçus   0
corbin    Corbin      reçus   0

Tous les ordres attendus sont arrivés.
"""

HINTS = """\
# Vous avez 2 points d'action ; chaque action une fois par tour au plus.
# Coût (points / bruit / fatigue / stress) :
#   deplacement_normal : 1 / +0 / +0 / +0
#   deplacement_rapide : 2 / +2 / +1 / +1
#   fuite : 2 / +2 / +2 / +3
#   repos : 2 / +0 / -3 / -1
#   combat : 2 / +3 / +3 / +5
#   tir : 2 / +1 / +1 / +2
#   utilisation_equipement : 1 / +1 / +0 / +0
#   revetir_armure : 1 / +2 / +0 / +0
#   recherche_pieges : 1 / +1 / +0 / +3
#   fouille : 2 / +2 / +0 / +2
#   se_cacher : 2 / -3 / -1 / +1
#   jeter : 0 / +0 / +0 / +0
# Franchir une porte, une grille ou un rideau fermés : +1 bruit, +2 stress.
# Seuils (vous en êtes à bruit 6, fatigue 0 (niveau 1), stress 9) :
#   bruit : un chasseur de plus à chaque multiple de 5 (+2 stress) ; caché 2 tours de suite : bruit 0, plus de traces
#   fatigue : un niveau tous les 3 points ; niveau 2 : −2 au combat et au tir ; niveau 3 : plus de course ni de fuite ; \
niveau 4 : vous lâchez 2 objets ; niveau 5 : épuisement, un tour perdu
#   stress : panique à 10 (2 cases au hasard, +3 bruit, +3 fatigue, un tour perdu)
#
# Vous êtes dans le Vestiaire des Pendus.
# Sorties : nord (porte fermée), est (ouverture), sud (porte ouverte)
# Inventaire : cape en peau d'écorce
# Chasseurs en vue (à nommer dans « chasseur: ») : Grimnir le Traqueur (au sud)
"""


@pytest.fixture
def example(tmp_path):
    return copy_example("manhunt", tmp_path)


def english(root):
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")


def test_status_is_the_mjs_whole_overview(example):
    r = pbp("status", cwd=example)
    assert r.exit_code == 0, r.output
    assert r.stdout == STATUS


def test_the_order_form_lists_costs_place_exits_and_inventory(example):
    r = pbp("orders", "--player", "lucy", cwd=example)
    assert r.exit_code == 0, r.output
    start = r.stdout.index("# Vous avez")
    assert r.stdout[start:r.stdout.index("# Exemples :")] == HINTS


def test_the_order_form_warns_an_engaged_peji(example):
    state = example / "turns/003/state.yaml"
    text = state.read_text(encoding="utf-8")
    # Grimnir (h1) tracks Mélétê: put him on her cell
    start = text.index("  h1:")
    cell = text.index("cell:", start)
    end = text.index("\n", cell)
    state.write_text(text[:cell] + "cell: S05" + text[end:], encoding="utf-8")
    r = pbp("orders", "--player", "lucy", cwd=example)
    assert r.exit_code == 0, r.output
    assert ("# ATTENTION : Grimnir le Traqueur vous traque sur votre case : combat, fuite, utilisation d'objet "
            "ou jeter seulement.\n") in r.stdout


GM_LISTS = "orders:\n  chasseurs:\n    h1: {placer: [S01]}\n    h2: {cible: [lucy]}\n    h3: {aller: {S02: 1}}\n"


@pytest.mark.parametrize("lang, expected", [
    ("fr", "turns/004/gm.yaml:3: « placer » attend une seule case (son identifiant, S01...), pas une liste ni "
           "un dictionnaire.\n"
           "turns/004/gm.yaml:4: « cible » attend un seul Péji, pas une liste ni un dictionnaire. "
           "Valeurs possibles : lucy, johannes, ysolde, corbin.\n"
           "turns/004/gm.yaml:5: « aller » attend une seule case (son identifiant, S01...), pas une liste ni "
           "un dictionnaire.\n"),
    ("en", "turns/004/gm.yaml:3: `placer` takes one cell (its id, S01...), not a list or a mapping.\n"
           "turns/004/gm.yaml:4: `cible` takes one Péji, not a list or a mapping. "
           "Valid values: lucy, johannes, ysolde, corbin.\n"
           "turns/004/gm.yaml:5: `aller` takes one cell (its id, S01...), not a list or a mapping.\n"),
])
def test_mj_hunter_orders_with_a_list_for_a_name_are_refused(example, lang, expected):
    if lang == "en":
        english(example)
    write(example, "turns/004/gm.yaml", GM_LISTS)
    r = pbp("check", cwd=example)
    assert (r.exit_code, r.stderr) == (1, expected)
    run = pbp("run", "--no-commit", cwd=example)
    assert (run.exit_code, run.stderr) == (1, expected)
    assert sorted(p.name for p in (example / "turns/004").iterdir()) == ["gm.yaml", "orders"]


def test_mj_hunter_orders_refused_by_the_rules(example):
    write(example, "turns/004/gm.yaml",
          "orders:\n  chasseurs:\n    h1: {aller: S20}\n    h4: {placer: S99}\n    h5: voler\n"
          "    h9: {aller: S05, attaquer: lucy}\n")
    r = pbp("check", cwd=example)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "turns/004/gm.yaml:3: « S20 » n'est pas voisine de la case du chasseur : il ne fait qu'un pas. "
        "Valeurs possibles : S05, S02.",  # S01: nord S05, est S02
        "turns/004/gm.yaml:4: case inconnue « S99 ».",
        "turns/004/gm.yaml:5: ordre de chasseur invalide : « attendre », « retirer », ou un dictionnaire avec "
        "aller / placer / cible / attaquer. Valeurs possibles : aller, placer, cible, attaquer, attendre, retirer.",
        "turns/004/gm.yaml:6: « S05 » n'est pas voisine de la case du chasseur : il ne fait qu'un pas. "
        "Valeurs possibles : S15, S13.",  # S14: est S15, ouest S13
        "turns/004/gm.yaml:6: le chasseur n'est pas sur la case de « lucy » : il ne peut pas l'attaquer.",
        "turns/004/gm.yaml:6: un chasseur attaque ou se déplace, jamais les deux (FAQ 3).",
    ]


@pytest.mark.parametrize("lang, check, private, gm", [
    ("fr", "Tour perdu pour lucy (Mélétê), actions ignorées : le Péji se remet de sa panique.\n",
     "[b]Vos actions n'ont pas été jouées[/b]\u00a0: le Péji se remet de sa panique. Votre roleplay, lui, compte.\n",
     "[*]Mélétê\u00a0: ordres reçus pour un tour perdu, actions ignorées\u00a0: le Péji se remet de sa panique.\n"),
    ("en", "Lost turn for lucy (Mélétê), actions ignored: the Péji is getting over their panic.\n",
     "[b]Your actions were not played[/b]: the Péji is getting over their panic. Your roleplay still counts.\n",
     "[*]Mélétê: orders sent for a lost turn, actions ignored: the Péji is getting over their panic.\n"),
])
def test_orders_sent_for_a_lost_turn_are_accepted_and_ignored(example, lang, check, private, gm):
    """docs/design.md, "The MJ's loop": after a panic, Mélétê's move of turn 4 passes the check,
    is not played, and both her report and the MJ's say so."""
    if lang == "en":
        english(example)
    state = example / "turns/003/state.yaml"
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace("    lost_turns: 0\n    recover: []\n", "    lost_turns: 1\n    recover: [panique]\n",
                                  1), encoding="utf-8")  # lucy's, the first Péji
    r = pbp("check", cwd=example)
    assert r.exit_code == 0 and check in r.stdout, r.output
    r = pbp("run", "--no-commit", cwd=example)
    assert r.exit_code == 0, r.output
    report = (example / "turns/004/private/lucy.bbcode").read_text(encoding="utf-8")
    assert report.endswith("\n\n" + private)
    assert gm in (example / "turns/004/gm.bbcode").read_text(encoding="utf-8")
    lucy = (example / "turns/004/state.yaml").read_text(encoding="utf-8").split("  johannes:")[0]
    assert "    cell: S05\n" in lucy and "    lost_turns: 0\n" in lucy and "    stress: 5\n" in lucy


def test_a_refusal_with_nothing_valid_says_so(tmp_path):
    """Lucy carries no weapon: the refusal says she has none, not "Valeurs possibles : -."."""
    root = copy_example("manhunt", tmp_path)
    write(root, "turns/004/orders/lucy.yaml",
          "player: lucy\nturn: 4\nactions:\n  - combat: {chasseur: Grimnir, arme: épée large}\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert ("turns/004/orders/lucy.yaml:4: vous n'avez pas d'arme « épée large » utilisable ainsi : "
            "vous n'en avez aucune.") in r.stderr.splitlines(), r.stderr
    write(root, "turns/004/orders/lucy.yaml", "player: lucy\nturn: 4\nactions:\n  - jeter: [épée large]\n")
    assert ("turns/004/orders/lucy.yaml:4: vous ne portez pas « épée large ». "
            "Valeurs possibles : cape en peau d'écorce.") in pbp("check", cwd=root).stderr.splitlines()


def test_an_english_campaigns_refusals_list_the_english_words(tmp_path):
    """The form of an English campaign shows English ids (both are accepted): so do
    its refusals, and their suggestions."""
    root = copy_example("manhunt", tmp_path)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    write(root, "turns/004/orders/lucy.yaml", "player: lucy\nturn: 4\nactions:\n  - serch\n  - normal_move: nort\n"
                                              "  - melee: {huntr: Grimnir}\n")
    assert pbp("check", cwd=root).stderr.splitlines()[:3] == [
        "turns/004/orders/lucy.yaml:4: unknown action `serch`. Did you mean `search`? Valid values: normal_move, "
        "fast_move, flight, rest, melee, shoot, use_item, put_on_armour, search_traps, search, hide, drop.",
        "turns/004/orders/lucy.yaml:5: `nort` is not a valid value. Did you mean `north`? Valid values: north, east, "
        "south, west.",
        "turns/004/orders/lucy.yaml:6: unknown field `huntr`. Did you mean `hunter`? Valid values: hunter, weapon."]
