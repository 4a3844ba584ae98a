"""Places, doors, movement and items in a rules file, played through the real
CLI with forced dice: exits by direction or by the place's name, doors that cost
to open, locked ones and their key, capacity, a move by a roll, who sees a move
(the witnesses), characters in sight, items carried, used, found and picked up,
formulas reading the place and the items, and the refusals naming what is valid."""

from __future__ import annotations

import pytest

from tests.helpers import pbp, play_turn, rules_campaign, turn_post, write

RULES = """\
titre: Le manoir
jauges:
  bruit: {nom: Bruit, départ: 0, min: 0, visibilité: propriétaire}
  pv: {nom: PV, départ: 5, min: 0, max: 5}
lieux:
  cour: {nom: la Cour, sorties: {nord: {vers: hall, porte: porte}, est: cave}}
  hall:
    nom: le Hall
    capacité: 1
    objets: [lampe]
    sorties: {sud: {vers: cour, porte: porte}, nord: {vers: tour, porte: grille}, est: galerie}
  galerie: {nom: la Galerie, sorties: {ouest: hall, est: chapelle}}
  chapelle: {nom: la Chapelle, sorties: {ouest: galerie}}
  cave: {nom: la Cave, cachés: [cle], sorties: {ouest: cour}}
  tour: {nom: la Tour, sorties: {sud: {vers: hall, porte: grille}}}
portes:
  porte:
    nom: porte
    état: fermée
    si: pv > 1
    message: {fr: "trop faible pour l'ouvrir", en: "too weak to open it"}
    ouvrir: [{ajouter: {bruit: 2}}]
  grille: {nom: grille, état: verrouillée, clé: cle}
objets:
  lampe: {nom: lampe}
  cle: {nom: clé}
  potion: {nom: potion, consommé: true, effets: [{ajouter: {pv: 2}}]}
inventaire: {max: 2, départ: [potion]}
déplacement: {départ: cour}
actions:
  aller:
    argument: direction
    effets: [{aller: 1}]
  errer:
    argument: direction
    effets: [{aller: 1d3}]
  fouiller:
    effets: [{découvrir: true}]
  ramasser:
    argument: objet_ici
    effets: [{ramasser: arg}]
  boire:
    argument: objet
    effets: [{utiliser: arg}]
  saluer:
    argument: {type: personnage, en_vue: true}
    effets: [{dire: "{name} salue {target}."}]
  crier:
    conditions: [{si: lieu = "cour", message: "seulement dans la cour"}]
    effets: [{ajouter: {bruit: "si(objet.lampe, 1, 3) + en_vue"}}]
"""


def campaign(tmp_path, characters: dict):
    return rules_campaign(tmp_path, RULES, "manoir", characters)


@pytest.fixture
def manor(tmp_path):
    return campaign(tmp_path, {"joueur2": {"lieu": "cave"}})


play = play_turn
post = turn_post


def refusals(root, n: int, handle: str, actions: list) -> str:
    write(root, f"turns/{n:03d}/orders/{handle}.yaml", {"actions": actions})
    r = pbp("check", cwd=root)
    assert r.exit_code == 1, r.output
    return r.output.replace("\xa0", " ")


def test_a_closed_door_costs_its_price_once_and_a_locked_one_stops_the_mover(manor):
    state = play(manor, 1, {"joueur1": [{"aller": "nord"}], "joueur2": ["fouiller"]})
    me = state["characters"]["joueur1"]
    assert me["place"] == "hall" and me["gauges"]["bruit"] == 2  # the door's price
    assert state["doors"] == {"cour|hall": "open", "hall|tour": "locked"}
    assert state["characters"]["joueur2"]["items"] == ["potion", "cle"]  # hidden in the cave, found
    mine = post(manor, 1, "joueur1")
    assert "Personnage 1[/b] : la Cour → le Hall (nord, ouverture de porte)." in mine
    assert "Bruit de Personnage 1 : 0 + 2 = 2." in mine
    assert "Personnage 2[/b] : objet trouvé : clé." in post(manor, 1, "joueur2")
    # nobody saw the move but the mover: nobody was in the Cour or the Hall
    assert "le Hall" not in post(manor, 1) and "le Hall" not in post(manor, 1, "joueur2")
    # back through the open door: free; the second player comes in from the cave and sees her
    state = play(manor, 2, {"joueur1": [{"aller": "sud"}], "joueur2": [{"aller": "la cour"}]})
    assert state["characters"]["joueur1"]["gauges"]["bruit"] == 2
    assert "Personnage 1[/b] : le Hall → la Cour (sud)." in post(manor, 2, "joueur1")
    assert "Personnage 2[/b] : la Cave → la Cour (ouest)." in post(manor, 2, "joueur1")  # a witness


def test_refusals_name_the_ways_the_items_and_the_characters_that_would_do(manor):
    out = refusals(manor, 1, "joueur1", [{"aller": "ouest"}, {"boire": "lampe"}, {"saluer": "joueur2"}])
    assert "joueur1.yaml:2: pas de sortie « ouest » ici. Valeurs possibles : nord, est." in out
    assert "joueur1.yaml:3: « lampe » n'est pas un objet porté. Valeurs possibles : potion." in out
    assert "joueur1.yaml:4: Personnage 2 ne peut pas être visé ce tour." in out
    # the second order is checked where the first leaves the mover: in the hall, the grille is locked
    out = refusals(manor, 1, "joueur1", [{"aller": "nord"}, {"aller": "nord"}])
    assert "joueur1.yaml:3: « nord » : passage verrouillé (grille) et vous n'en avez pas la clé. " \
           "Valeurs possibles : sud, est." in out


def test_capacity_and_who_may_open_a_door(manor):
    play(manor, 1, {"joueur1": [{"aller": "nord"}], "joueur2": [{"aller": "ouest"}]})
    out = refusals(manor, 2, "joueur2", [{"aller": "le hall"}])
    assert "joueur2.yaml:2: « le hall » : lieu plein, le Hall (capacité 1). Valeurs possibles : est." in out


def test_a_door_refuses_whom_its_condition_refuses(tmp_path):
    manor = campaign(tmp_path, {"joueur1": {"pv": 1}, "joueur2": {"lieu": "cave"}})
    out = refusals(manor, 1, "joueur1", [{"aller": "nord"}])
    assert "joueur1.yaml:2: « nord » : le passage (porte) ne s'ouvre pas pour vous : trop faible pour l'ouvrir. " \
           "Valeurs possibles : est." in out


def test_a_move_by_a_roll_stops_at_a_dead_end(manor):
    play(manor, 1, {"joueur1": [{"aller": "nord"}]})
    state = play(manor, 2, {"joueur1": [{"errer": "est"}]}, {"rolls": {"joueur1.errer.d1": 3}})
    assert state["characters"]["joueur1"]["place"] == "chapelle"  # 2 steps east, then no exit east
    assert "Dés de Personnage 1 : 1d3 (3)." in post(manor, 2)  # the roll is public, the way is not
    text = post(manor, 2, "joueur1")
    assert "la Galerie → la Chapelle (est)." in text
    assert "Personnage 1[/b] ne passe pas par « est » : pas de sortie (sorties : ouest)." in text


def test_items_used_picked_up_and_formulas_reading_place_items_and_sight(manor):
    play(manor, 1, {"joueur1": [{"aller": "nord"}]})
    state = play(manor, 2, {"joueur1": [{"ramasser": "lampe"}, {"boire": "potion"}]})
    me = state["characters"]["joueur1"]
    assert me["items"] == ["lampe"] and state["floor"]["hall"] == []  # the potion is used up
    assert me["gauges"]["pv"] == 5  # 5 + 2, at most 5
    state = play(manor, 3, {"joueur1": [{"aller": "sud"}], "joueur2": [{"aller": "ouest"}]})
    # both in the cour: each sees the other; the lamp halves the cry
    state = play(manor, 4, {"joueur1": ["crier", {"saluer": "joueur2"}], "joueur2": ["crier"]})
    assert state["characters"]["joueur1"]["gauges"]["bruit"] == 2 + 1 + 1  # door 2, then 1 + one in sight
    assert state["characters"]["joueur2"]["gauges"]["bruit"] == 3 + 1
    assert "Personnage 1 salue Personnage 2." in post(manor, 4)


def test_a_condition_on_the_place(manor):
    play(manor, 1, {"joueur1": [{"aller": "nord"}]})
    out = refusals(manor, 2, "joueur1", ["crier"])
    assert "« crier » n'est pas possible : seulement dans la cour." in out


def test_rules_check_finds_a_way_to_nowhere_and_an_item_nobody_gets(tmp_path):
    bad = RULES.replace("ouest: galerie}}\n  cave", "ouest: galerie}}\n  oubliette: {sorties: {haut: cour}}\n  cave") \
        .replace("  cle: {nom: clé}", "  cle: {nom: clé}\n  epee: {nom: épée}") \
        .replace("est: cave}}", "est: cave, bas: crypte}}")
    write(tmp_path, "rules.yaml", bad)
    r = pbp("rules", "check", tmp_path / "rules.yaml")
    assert r.exit_code == 1
    out = r.output.replace("\xa0", " ")
    assert "« crypte » n'est pas dans `lieux` de ces règles" in out
    bad = bad.replace(", bas: crypte", "")
    write(tmp_path, "rules.yaml", bad)
    out = pbp("rules", "check", tmp_path / "rules.yaml").output.replace("\xa0", " ")
    assert "aucune sortie ne mène au lieu oubliette et personne n'y commence." in out
    assert "aucune règle ne donne l'objet epee" in out


def test_rules_explain_shows_the_map_the_doors_and_the_items(tmp_path):
    write(tmp_path, "rules.yaml", RULES)
    r = pbp("rules", "explain", tmp_path / "rules.yaml")
    assert r.exit_code == 0, r.output
    out = r.output.replace("\xa0", " ")
    assert "- le Hall (hall) — capacité 1 — au sol : lampe" in out
    assert "  - nord → la Tour (tour), grille, état verrouillé" in out
    assert "- porte (porte) — état fermé au départ — s'ouvre si pv > 1" in out
    assert "    - ajouter à bruit 2" in out
    assert "- potion (potion) — usage unique" in out and "au plus 2 objets portés" in out
    assert "  - avancer de 1d3 pas (par l'argument)" in out


def test_the_odds_of_a_move_by_a_roll(manor):
    r = pbp("odds", "--rule", "data.errer.move", cwd=manor)
    assert r.exit_code == 0, r.output
    assert "2  1/3 (33.3 %)" in r.output.replace("\xa0", " ")


def test_a_sheet_naming_an_unknown_place_or_item_is_refused_at_its_line(tmp_path):
    root = tmp_path / "manoir"
    write(tmp_path, "rules.yaml", RULES)
    assert pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git").exit_code == 0
    write(root, "characters.yaml", "joueur1: {lieu: grenier}\njoueur2: {objets: [epee]}\n")
    r = pbp("setup", "--no-commit", cwd=root)
    assert r.exit_code == 1
    out = r.output.replace("\xa0", " ")
    assert "characters.yaml:1: « grenier » n'est pas un lieu des règles (`lieux:`)" in out
    assert "characters.yaml:2: « objets » est une liste d'objets des règles (`objets:`)" in out
    assert not (root / "turns" / "000" / "state.yaml").exists()


def test_an_item_that_uses_itself_stops_with_a_clear_error(tmp_path):
    looping = RULES.replace("potion: {nom: potion, consommé: true, effets: [{ajouter: {pv: 2}}]}",
                            "potion: {nom: potion, effets: [{utiliser: potion}]}")
    write(tmp_path, "rules.yaml", looping)
    root = tmp_path / "manoir"
    assert pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git").exit_code == 0
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    write(root, "turns/001/orders/joueur1.yaml", {"actions": [{"boire": "potion"}]})
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 1
    assert "l'objet « potion » utilise des objets qui en utilisent d'autres plus de" in r.output.replace("\xa0", " ")
    assert not (root / "turns" / "001" / "state.yaml").exists()


def test_an_english_campaign_tells_moves_and_items_in_english(tmp_path):
    root = tmp_path / "manor"
    write(tmp_path, "rules.yaml", RULES)
    assert pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git", "--lang", "en").exit_code == 0
    write(root, "characters.yaml", {"joueur2": {"lieu": "cave"}})
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    play(root, 1, {"joueur1": [{"errer": "nord"}], "joueur2": ["fouiller"]}, {"rolls": {"joueur1.errer.d1": 2}})
    mine = post(root, 1, "joueur1")
    assert "Personnage 1[/b]: la Cour → le Hall (nord, porte opened)." in mine
    assert "Personnage 1[/b] cannot go `nord`: the way is locked (exits: sud, est)." in mine
    assert "Place le Hall, Items potion." in mine
    assert "Personnage 2[/b]: item found: clé." in post(root, 1, "joueur2")


def test_a_state_edited_by_hand_with_an_unknown_place_is_refused_at_its_line(manor):
    path = manor / "turns" / "000" / "state.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("place: cour", "place: grenier", 1), encoding="utf-8")
    write(manor, "turns/001/orders/joueur1.yaml", {"actions": [{"aller": "nord"}]})
    r = pbp("run", "--no-commit", cwd=manor)
    assert r.exit_code == 1
    assert "« grenier » n'est pas un lieu des règles ; lieux : cour, hall" in r.output.replace("\xa0", " ")
    assert not (manor / "turns" / "001" / "state.yaml").exists()


def test_the_order_form_names_what_a_place_argument_takes(tmp_path):
    """The form says "direction" and "objet" (not "texte") for the exits and items
    that the rules check where the character stands."""
    from tests.helpers import copy_example, pbp

    root = copy_example("manhunt-data", tmp_path)
    form = pbp("orders", "--player", "lucy", cwd=root).output.replace("\xa0", " ")
    assert "#   - deplacement_normal: direction    (en anglais : normal_move)" in form
    assert "#   - utilisation_equipement: objet    (en anglais : use_item)" in form
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    form = pbp("orders", "--player", "lucy", cwd=root).output
    assert "#   - normal_move: direction" in form and "#   - use_item: item" in form
