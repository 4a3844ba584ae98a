"""French grammar as data: elision, contractions, articles on places, gender."""

import pytest

from pbp.grammar import English, French, elides


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
    en = English()
    assert (fr.colon, fr.semicolon, fr.bang, fr.question) == (" :", " ;", " !", " ?")
    assert (en.colon, en.semicolon, en.bang, en.question) == (":", ";", "!", "?")
    assert fr.quote("Bonjour") == "« Bonjour »" and en.quote("Hi") == "“Hi”"
    assert en.de("the Hall") == "of the Hall" and en.dans("the Hall") == "in the Hall"


def test_plural_rules_differ():
    en = English()
    assert [fr.plural(n, "tour", "tours") for n in (0, 1, 2)] == ["tour", "tour", "tours"]
    assert [en.plural(n, "turn", "turns") for n in (0, 1, 2)] == ["turns", "turn", "turns"]
