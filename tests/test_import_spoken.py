"""A player says what they do in their own words: `pbp orders import` reads "je
combats", "je me cache" for actions named "combattre", "se cacher", and "I talk to the
director" for "Try to talk to the director", "je fouille la salle" for "Fouiller une
salle", through the real CLI."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbp.cli import main
from pbp.plaintext.spoken import first_person, said_forms
from tests.helpers import copy_example, rules_campaign

RULES = """\
titre: Ruelles
actions:
  combattre: {nom: Combattre, en: fight, synonymes: [se battre], effets: [{dire: "{name} agit."}]}
  courir: {nom: Courir, en: run, effets: [{dire: "{name} agit."}]}
  se_cacher: {nom: Se cacher, en: hide, effets: [{dire: "{name} agit."}]}
  fouiller: {nom: Fouiller, en: search, effets: [{dire: "{name} agit."}]}
  partir: {nom: Partir, en: leave, effets: [{dire: "{name} agit."}]}
  prendre: {nom: Prendre, en: take, argument: {type: choix, valeurs: [pomme, clef]},
            effets: [{dire: "{name} agit."}]}
  attendre: {nom: Attendre, en: wait, effets: [{dire: "{name} agit."}]}
"""


@pytest.mark.parametrize("verb, forms", [
    ("fouiller", ("fouille",)), ("combattre", ("combats",)), ("courir", ("cours",)), ("fuir", ("fuis",)),
    ("venir", ("viens",)), ("recevoir", ("recois",)), ("partir", ("partis", "pars")), ("finir", ("finis",)),
    ("ouvrir", ("ouvre",)), ("attendre", ("attends",)), ("peindre", ("peins",)), ("boire", ("bois",)),
    ("jeter", ("jete", "jette")), ("envoyer", ("envoye", "envoie")), ("revetir", ("revets",)),
    ("aller", ()), ("pouvoir", ()), ("attack", ()),
])
def test_first_person_of_an_infinitive(verb, forms):
    assert first_person(verb) == forms


def test_reflexive_and_multi_word_names():
    assert said_forms(("se", "cacher")) == [("me", "cache"), ("m", "cache")]
    assert said_forms(("s", "enfuir")) == [("me", "enfuis"), ("m", "enfuis")]
    forms = said_forms(("fouiller", "une", "salle"))
    assert {("fouiller", "la", "salle"), ("fouiller", "salle"), ("fouille", "une", "salle"),
            ("fouille", "la", "salle"), ("fouille", "ma", "salle")} <= set(forms)
    assert ("fouiller", "une", "salle") not in forms  # the name itself is a spelling already
    assert said_forms(("tenter", "de", "parler", "au", "directeur")) == [
        ("tente", "de", "parler", "au", "directeur"), ("parler", "au", "directeur"), ("parle", "au", "directeur")]
    assert ("search", "the", "hall") in said_forms(("search", "a", "hall"))


@pytest.fixture(scope="module")
def ruelles(tmp_path_factory):
    return rules_campaign(tmp_path_factory.mktemp("conj"), RULES, "ruelles")


def _import(root, message: str):
    return CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "joueur1", "-"],
                              input=message)


def _imported(root, message: str) -> str:
    """The order file the import printed (up to the blank line before the check)."""
    r = _import(root, message)
    assert r.exit_code == 0, r.output
    return r.stdout.split("\n\n")[0]


@pytest.mark.parametrize("message, action", [
    ("Je combats le garde.", "combattre"),
    ("je me bats", "combattre"),
    ("Je cours !", "courir"),
    ("Je me cache derrière le tonneau.", "se_cacher"),
    ("je fouille", "fouiller"),
    ("Je pars.", "partir"),
    ("je vais fouiller", "fouiller"),  # "vais" is the near future, not a move
])
def test_first_person_read_as_the_action(ruelles, message, action):
    assert _imported(ruelles, message).endswith(f"actions:\n  - {action}")


def test_first_person_with_an_argument(ruelles):
    assert _imported(ruelles, "Je prends la clef puis j'attends").endswith(
        "actions:\n  - prendre: clef\n  - attendre")


def test_missing_argument_of_a_data_action_says_so_plainly(ruelles):
    r = _import(ruelles, "Je prends.\n")
    assert r.exit_code == 1
    assert "prendre : il manque ce sur quoi porte l'action. Valeurs possibles : pomme, clef." in r.output


@pytest.mark.parametrize("lang, message, actions", [
    ("en", "I talk to the director, then I search the hall", ["talk_to_director", "search_hall"]),
    ("fr", "Je fouille la salle puis je parle au directeur", ["fouiller_salle", "parler_directeur"]),
])
def test_names_said_the_way_players_say_them(tmp_path, lang, message, actions):
    """investigation-event names its actions "Tenter de parler au directeur" / "Try to talk to
    the director" and "Fouiller une salle" / "Search a hall"."""
    root = copy_example("investigation-event", tmp_path)
    if lang == "en":
        config = root / "campaign.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    r = CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "marius", "-"], input=message)
    assert r.stdout.split("\n\n")[0].endswith("actions:\n" + "".join(f"  - {a}\n" for a in actions).rstrip("\n")), \
        r.output
