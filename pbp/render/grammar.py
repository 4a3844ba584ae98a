"""French (and English) grammar for templates, as one small helper: elision,
contractions, articles carried by place names, agreement by gender, and each
language's spacing around punctuation.

Templates get it as `g` (`{{ g.de(name) }}`, `{{ g.a(place) }}`,
`{{ g.agree(genre, "tombé", "tombée", "pris au piège") }}`, `{{ g.colon }}`).

Punctuation spacing is one helper, `g.punct(mark)`, with `g.colon`,
`g.semicolon`, `g.bang`, `g.question` and `g.quote(text)` built on it: French
puts a no-break space (U+00A0) before `: ; ! ?` and inside « », English puts
none. A no-break space, not a thin one (U+202F): every forum font has it, and
either way no line of a post starts with a lone `:` or `»`.
Place names carry their article in the world's data ("le Hall", "la
Bibliothèque", "l'Animalerie", "les Archives"); character names carry none.
Words taking no elision (aspirate h) are data: pbp/render/grammar.yaml.
"""

from __future__ import annotations

import functools
from pathlib import Path

from pbp.model.vocabulary import split_article

VOWELS = set("aeiouyàâäéèêëîïôöùûüÿœæ")
NBSP = "\u00a0"


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    from pbp.base import yamlio

    return yamlio.load_data_file(Path(__file__).with_name("grammar.yaml")) or {}


def _first_word(text: str) -> str:
    word = str(text).strip().split(" ", 1)[0]
    return "".join(c for c in word.lower() if c.isalpha() or c in "'’")


def elides(word: str) -> bool:
    """Whether `le`, `de`, `que`... lose their vowel before `word` (d'Aélis, l'Hôtel)."""
    first = _first_word(word)
    if not first:
        return False
    data = _data()
    if first in data["no_elision"]:
        return False
    if first[0] == "h":
        return first not in data["aspirate_h"]
    if first[0] == "y":  # d'Yves, but de Yannick: a y before a vowel is a consonant
        return len(first) > 1 and first[1] not in VOWELS
    return first[0] in VOWELS


class French:
    lang = "fr"
    #: the space each punctuation mark takes before it
    SPACE_BEFORE = {":": NBSP, ";": NBSP, "!": NBSP, "?": NBSP}
    #: the space inside quotation marks
    QUOTES = ("«" + NBSP, NBSP + "»")

    def punct(self, mark: str) -> str:
        """A punctuation mark with the space the language puts before it."""
        return self.SPACE_BEFORE.get(mark, "") + mark

    @property
    def colon(self) -> str:
        return self.punct(":")

    @property
    def semicolon(self) -> str:
        return self.punct(";")

    @property
    def bang(self) -> str:
        return self.punct("!")

    @property
    def question(self) -> str:
        return self.punct("?")

    def quote(self, text) -> str:
        return f"{self.QUOTES[0]}{text}{self.QUOTES[1]}"

    def _elided(self, short: str, full: str, word) -> str:
        return f"{short}{word}" if elides(word) else f"{full} {word}"

    def de(self, phrase) -> str:
        """de + a name or a place: de Lucy, d'Aélis, du Hall, de la Serre, des Archives."""
        article, rest = split_article(phrase)
        low = article.lower()
        if low == "le ":
            return f"du {rest}"
        if low == "les ":
            return f"des {rest}"
        if article:
            return f"de {phrase}"
        return self._elided("d'", "de", phrase)

    def a(self, phrase) -> str:
        """à + a name or a place: à Lucy, au Hall, à la Serre, aux Archives, à l'Animalerie."""
        article, rest = split_article(phrase)
        low = article.lower()
        if low == "le ":
            return f"au {rest}"
        if low == "les ":
            return f"aux {rest}"
        return f"à {phrase}"

    def dans(self, place) -> str:
        """Where someone is: dans le Hall, dans la Serre; a name without article: à Coruscant."""
        article, _ = split_article(place)
        return f"dans {place}" if article else f"à {place}"

    def que(self, word) -> str:
        return self._elided("qu'", "que", word)

    def le(self, word, genre: str | None = "m") -> str:
        """The definite article for a noun without one: l'épée, le couteau, la dague."""
        if elides(word):
            return f"l'{word}"
        return f"{'la' if genre == 'f' else 'le'} {word}"

    def agree(self, genre, masculine: str, feminine: str, neutral: str | None = None) -> str:
        """The form a character's gender takes; unknown gender: the neutral
        wording (a rephrasing without agreement), else the masculine form."""
        if genre == "f":
            return feminine
        if genre == "m":
            return masculine
        return neutral if neutral is not None else masculine

    def cap(self, text) -> str:
        """Capitalised first letter, for a place at the start of a sentence."""
        text = str(text)
        return text[:1].upper() + text[1:]

    def plural(self, count: int, one: str, many: str) -> str:
        """The word agreeing with a count, by the language's CLDR rule (French: 0 and 1 singular)."""
        from pbp.base.i18n import plural_category

        return one if plural_category(self.lang, count) == "one" else many


class English(French):
    lang = "en"
    SPACE_BEFORE: dict = {}
    QUOTES = ("“", "”")

    def de(self, phrase) -> str:
        return f"of {phrase}"

    def a(self, phrase) -> str:
        return f"to {phrase}"

    def dans(self, place) -> str:
        return f"in {place}"

    def que(self, word) -> str:
        return f"that {word}"

    def le(self, word, genre=None) -> str:
        return f"the {word}"



def for_lang(lang: str) -> French:
    return English() if lang == "en" else French()
