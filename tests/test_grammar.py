"""French grammar as data: elision, contractions, articles on places, gender."""

import pytest

from pbp.render.grammar import English, French, elides


fr = French()


@pytest.mark.parametrize("name, expected", [
    ("Lucy", "de Lucy"), ("Aélis", "d'Aélis"), ("Ézéchiel", "d'Ézéchiel"), ("Hugo", "d'Hugo"),
    ("Yannick", "de Yannick"), ("Yves", "d'Yves"), ("Ulrich", "d'Ulrich"), ("le Hall", "du Hall"), ("la Serre", "de la Serre"),
    ("les Archives", "des Archives"), ("l'Animalerie", "de l'Animalerie"), ("hibou", "de hibou"),
    ("Hall", "de Hall"), ("Onze", "de Onze"),
])
def test_de_elides_and_contracts(name, expected):
    assert fr.de(name) == expected


@pytest.mark.parametrize("place, a, dans", [
    ("le Hall", "au Hall", "dans le Hall"), ("la Bibliothèque scientifique", "à la Bibliothèque scientifique",
                                             "dans la Bibliothèque scientifique"),
    ("les Archives", "aux Archives", "dans les Archives"), ("l'Animalerie", "à l'Animalerie", "dans l'Animalerie"),
    ("Coruscant", "à Coruscant", "à Coruscant"),
])
def test_places_carry_their_article(place, a, dans):
    assert (fr.a(place), fr.dans(place)) == (a, dans)


def test_que_and_le_elide_before_a_vowel_or_mute_h():
    assert fr.que("Aélis") == "qu'Aélis" and fr.que("Brann") == "que Brann"
    assert fr.le("épée") == "l'épée" and fr.le("hache", "f") == "la hache"
    assert fr.le("hôtel") == "l'hôtel" and fr.le("couteau") == "le couteau" and fr.le("dague", "f") == "la dague"
    assert elides("Hélène") and not elides("hall") and not elides("héros")


@pytest.mark.parametrize("genre, expected", [("f", "tombée"), ("m", "tombé"), ("n", "pris au piège"),
                                             (None, "pris au piège")])
def test_agreement_by_gender_with_a_neutral_wording(genre, expected):
    assert fr.agree(genre, "tombé", "tombée", "pris au piège") == expected


def test_without_a_neutral_wording_an_unknown_gender_takes_the_masculine():
    assert fr.agree(None, "arrivé", "arrivée") == "arrivé"


def test_punctuation_spacing_per_language():
    # French: a no-break space before : ; ! ? and inside « » (no line starts with the mark); English: none
    en = English()
    assert (fr.colon, fr.semicolon, fr.bang, fr.question) == ("\u00a0:", "\u00a0;", "\u00a0!", "\u00a0?")
    assert (en.colon, en.semicolon, en.bang, en.question) == (":", ";", "!", "?")
    assert fr.quote("Bonjour") == "«\u00a0Bonjour\u00a0»" and en.quote("Hi") == "“Hi”"
    assert (fr.punct(":"), fr.punct("."), fr.punct(","), en.punct("?")) == ("\u00a0:", ".", ",", "?")
    assert en.de("the Hall") == "of the Hall" and en.dans("the Hall") == "in the Hall"


def test_plural_rules_differ():
    en = English()
    assert [fr.plural(n, "tour", "tours") for n in (0, 1, 2)] == ["tour", "tour", "tours"]
    assert [en.plural(n, "turn", "turns") for n in (0, 1, 2)] == ["turns", "turn", "turns"]


# -- names: a vowel, a mute h, an aspirate h (pbp/render/grammar.yaml), each gender ---------------

@pytest.mark.parametrize("name, de, que", [
    ("Aélis", "d'Aélis", "qu'Aélis"), ("Isarn", "d'Isarn", "qu'Isarn"), ("Orrin", "d'Orrin", "qu'Orrin"),
    ("Ysolde", "d'Ysolde", "qu'Ysolde"), ("Œdipe", "d'Œdipe", "qu'Œdipe"),
    ("Hélène", "d'Hélène", "qu'Hélène"), ("Hugo", "d'Hugo", "qu'Hugo"),  # mute h: elision
    ("Brann", "de Brann", "que Brann"), ("Yann", "de Yann", "que Yann"),  # consonants, a y before a vowel
])
def test_names_starting_with_a_vowel_or_a_mute_h_elide(name, de, que):
    assert (fr.de(name), fr.que(name)) == (de, que)


@pytest.mark.parametrize("word", ["hibou", "héros", "hache", "hurlement", "hangar"])
def test_an_aspirate_h_listed_in_the_data_takes_no_elision(word):
    assert not elides(word)
    assert (fr.de(word), fr.que(word), fr.le(word)) == (f"de {word}", f"que {word}", f"le {word}")
    assert fr.le(word.capitalize(), "f") == f"la {word.capitalize()}"  # the list is compared in lower case


def test_the_aspirate_h_list_is_data():
    from pbp.render.grammar import _data

    data = _data()
    assert {"hibou", "héros", "hall"} <= set(data["aspirate_h"]) and "onze" in data["no_elision"]
    assert all(w == w.lower() for w in data["aspirate_h"] + data["no_elision"])


@pytest.mark.parametrize("genre, fr_text, en_text", [
    ("f", "Aélis est tombée dans un piège", "Aélis fell into a trap"),
    ("m", "Aélis est tombé dans un piège", "Aélis fell into a trap"),
    ("n", "Aélis est victime d'un piège", "Aélis fell into a trap"),
    (None, "Aélis est victime d'un piège", "Aélis fell into a trap"),
    ("x", "Aélis est victime d'un piège", "Aélis fell into a trap"),  # an unknown value: the neutral wording
])
def test_each_gender_and_the_neutral_wording(genre, fr_text, en_text):
    en = English()
    said = "Aélis est " + fr.agree(genre, "tombé dans un piège", "tombée dans un piège", "victime d'un piège")
    assert said == fr_text
    assert "Aélis " + en.agree(genre, "fell into a trap", "fell into a trap") == en_text


@pytest.mark.parametrize("character, form, report", [
    ("Aélis", "# Ordres d'Aélis (p) pour le tour 3.", "Rapport d'Aélis — tour 3"),
    ("Hugo", "# Ordres d'Hugo (p) pour le tour 3.", "Rapport d'Hugo — tour 3"),
    ("Brann", "# Ordres de Brann (p) pour le tour 3.", "Rapport de Brann — tour 3"),
])
def test_the_common_templates_elide(character, form, report):
    from pbp.render.render import Renderer, template_paths

    rend = Renderer(template_paths("toy", "fr"), "text", lang="fr")
    text = rend.render("orders_form", player="p", character=character, turn=3, actions=[], playing=True, lost=None, hints={})
    assert text.splitlines()[0] == form
    text = rend.render("private", turn=3, title="T", events=[], names={}, audience=None, player="p",
                       character=character)
    assert text.splitlines()[0] == report
