"""`pbp orders import` names only what the player may know.

The importer completes a player's words to names, and lists names in the questions
the MJ relays to the player; the order file and the receipt it prints go back to the
player too. So those names come from the player's own view (`Ruleset.import_names`
reading `order_context`, the view their order form and the rules' checks show):
their own sheet (d100 skills), the hunters they perceive now and what they carry
(manhunt), their own characters' spells (skirmish). A name hidden from them reads
as any unknown word: asked, never completed, never listed.

Every test runs the real command (`pbp orders import`) on a scratch copy of a
bundled example, at its next turn (4).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbp.base import yamlio
from pbp.cli import main
from pbp.model import vocabulary
from pbp.model.ruleset import Scenario
from tests.helpers import copy_example

#: Kira's and Brann's skills that Tia's sheet does not have (characters.yaml)
NOT_TIAS_SKILLS = ("sens_de_la_force", "sens de la force", "sabre_laser", "telekinesie", "pilotage", "persuasion",
                   "combat_rapproche", "pistage", "intimidation", "marchandage")
#: the hunters Mélétê (lucy) does not perceive at turn 4: only Grimnir stands next door
HIDDEN_HUNTERS = ("Sœur Vesper", "Boucher de Morn", "Isarn", "Elfe noir", "Tavok", "Maëlle", "Orrin",
                  "Veneur Pâle", "Sylas", "Elfe sylvain")
#: what the other Péjis carry (Ysolde's daggers, Johannes's rope) and items of the search tables
OTHERS_ITEMS = ("dagues de lancer", "corde de chanvre", "potion de soins", "hache de maître", "arc phénix")


@pytest.fixture
def d100(tmp_path):
    root = copy_example("d100", tmp_path)
    for handle in ("tia", "kira"):
        (root / "turns/004/orders" / f"{handle}.yaml").unlink()
    return root


@pytest.fixture
def manhunt(tmp_path):
    root = copy_example("manhunt", tmp_path)
    for handle in ("lucy", "ysolde"):
        (root / "turns/004/orders" / f"{handle}.yaml").unlink()
    return root


def run(root, player: str, message: str, *args):
    """`pbp orders import --player PLAYER --write -`, the message on standard input:
    the result, and the order file it wrote (None when it asked a question)."""
    r = CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", player, "--write", *args, "-"],
                           input=message, catch_exceptions=False)
    path = root / "turns/004/orders" / f"{player}.yaml"
    return r, (path.read_text(encoding="utf-8") if path.exists() else None)


def receipt(root, player: str) -> str:
    r = CliRunner().invoke(main, ["-C", str(root), "receipt", "--player", player], catch_exceptions=False)
    return r.output


def shown(r, written) -> str:
    """Everything the MJ may relay to the player, folded: what the command printed
    (file, check, receipt, questions) and the file it wrote."""
    return vocabulary.fold(r.stdout + r.stderr + (written or ""))


def none_of(text: str, names) -> list[str]:
    return [n for n in names if vocabulary.fold(n) in text]


# -- d100: a character's skills are on their own sheet ----------------------------------------

def test_d100_a_skill_of_another_sheet_is_never_completed(d100):
    r, written = run(d100, "tia", "Jet de mental avec sens pour sentir le danger.\n")
    out = shown(r, written)
    assert r.exit_code == 1 and written is None  # asked: "sens" names none of Tia's skills
    assert none_of(out, NOT_TIAS_SKILLS) == [], out
    assert "« sens pour sentir le » ne désigne rien de connu (« competence »)" in r.stderr
    assert "piratage" in out  # what she may name instead: her own skills
    assert none_of(vocabulary.fold(receipt(d100, "tia")), NOT_TIAS_SKILLS) == []


def test_d100_a_question_lists_the_players_own_skills_only(d100):
    r, written = run(d100, "tia", "Jet de logique avec pi.\n")
    out = shown(r, written)
    assert r.exit_code == 1 and written is None
    assert none_of(out, NOT_TIAS_SKILLS) == [], out
    assert "blaster, piratage, electronique, mecanique, discretion, bluff, athletisme" in r.stderr


def test_d100_a_skill_of_another_sheet_in_a_list_of_values_is_asked(d100):
    # "(Logique, piratage)" from Kira, who has no such skill: asked, not silently dropped
    r, written = run(d100, "kira", "Je tente de pirater la porte (Logique, piratage)\n")
    assert r.exit_code == 1 and written is None
    assert "« piratage » ne désigne rien de connu (« competence »)" in r.stderr
    assert none_of(shown(r, written), ("electronique", "discretion", "bluff", "pistage", "marchandage")) == []


def test_d100_the_players_own_skill_is_still_found(d100):
    r, written = run(d100, "kira", "Jet de mental avec sens pour sentir le danger.\n")
    assert "  - jet: {carac: mental, competence: sens_de_la_force, but: sentir le danger}\n" in written
    r, written = run(d100, "tia", "Jet de logique avec piratage pour ouvrir la porte.\n", "--force")
    assert r.exit_code == 0, r.output
    assert "  - jet: {carac: logique, competence: piratage, but: ouvrir la porte}\n" in written


# -- manhunt: the hunters in sight, the Péji's own belongings ---------------------------------

def test_manhunt_a_question_lists_only_the_hunters_in_sight(manhunt):
    r, written = run(manhunt, "lucy", "Je tire sur zz.\n")
    assert r.exit_code == 1 and written is None
    assert none_of(shown(r, written), HIDDEN_HUNTERS) == [], r.stderr
    assert "Valeurs possibles : Grimnir le Traqueur." in r.stderr


def test_manhunt_a_hunter_out_of_sight_is_never_completed(manhunt):
    r, written = run(manhunt, "lucy", "Je tire sur Isarn avec mes dagues.\n")
    out = shown(r, written)
    assert r.exit_code == 1 and written is None  # asked: Isarn appeared in no post she read
    assert none_of(out, ("Elfe noir", "dagues de lancer")) == [], out
    assert none_of(vocabulary.fold(receipt(manhunt, "lucy")), ("Elfe noir", "dagues de lancer")) == []
    # the same as a name nobody has: the question says nothing of who exists
    zorglub, _ = run(manhunt, "lucy", "Je tire sur Zorglub avec mes dagues.\n")
    assert r.stderr.replace("Isarn", "X") == zorglub.stderr.replace("Zorglub", "X")


def test_manhunt_a_question_lists_only_the_players_own_items(manhunt):
    r, written = run(manhunt, "lucy", "J'utilise l'objet magique.\n")
    out = shown(r, written)
    assert r.exit_code == 1 and written is None
    assert none_of(out, OTHERS_ITEMS) == [], out
    assert "Valeurs possibles : cape en peau d'écorce." in r.stderr


def test_manhunt_the_hunter_in_sight_and_ones_own_items_still_read(manhunt):
    r, written = run(manhunt, "lucy", "Je tire sur Grimnir.\n")
    assert "  - tir: Grimnir le Traqueur\n" in written  # (the rules then say she has nothing to shoot with)
    assert none_of(shown(r, written), HIDDEN_HUNTERS) == []
    r, written = run(manhunt, "ysolde", "Ysolde jette ses dagues.\n")
    assert r.exit_code == 0, r.output
    assert "  - jeter: [dagues de lancer équilibrées]\n" in written


def test_manhunt_a_hunter_who_comes_into_sight_may_be_named(manhunt):
    # the state turn 4 is played from, with Isarn (h4) in Mélétê's room: she sees him,
    # her order form names him, and so may she
    path = manhunt / "turns/003/state.yaml"
    state = yamlio.load_file(path)
    state["hunters"]["h4"]["cell"] = state["pejis"]["lucy"]["cell"]
    path.write_text(yamlio.dumps(state), encoding="utf-8")
    r, written = run(manhunt, "lucy", "J'attaque Isarn.\n")
    assert "  - combat: Isarn l'Elfe noir\n" in written
    assert none_of(shown(r, written), ("Sœur Vesper", "Sylas", "Maëlle")) == []


# -- skirmish: the spells one's own characters know ----------------------------------------------

def test_skirmish_a_question_lists_only_ones_own_characters_spells(tmp_path):
    root = copy_example("skirmish", tmp_path)
    (root / "turns/004/orders/alice.yaml").unlink(missing_ok=True)
    # Aria and Bran know no spell; Eli's (Bob's) are his to know
    r, written = run(root, "alice", "Aria lance un sort sur la brute.\n")
    assert r.exit_code == 1 and written is None
    assert none_of(shown(r, written), ("trait de feu", "trait_de_feu", "boule de feu", "boule_de_feu",
                                       "malediction", "peau de pierre")) == [], r.stderr
    (root / "turns/004/orders/bob.yaml").unlink(missing_ok=True)
    r, written = run(root, "bob", "Eli lance boule de feu sur la brute.\n")
    assert "sort: boule_de_feu" in written


# -- the hook: no source reads everyone's sheets -------------------------------------------------

def test_no_phrasings_source_reads_characters_yaml():
    rules = {"actions": {"jet": {"arg": {"type": "map", "fields": {"competence": {"type": "text"}}}}}}
    phrasings = {"values": {"jet.competence": {"from": "scenario.characters.*.competences", "value": "key",
                                               "names": ["key"]}}}
    scenario = Scenario({}, {"kira": {"competences": {"sens_de_la_force": 1}}}, {"kira": {"character": "Kira"}})
    names = vocabulary.default_names(rules, phrasings, {}, scenario, {})
    assert names.get("jet.competence") == []
