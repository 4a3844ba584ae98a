"""How a player says an action the MJ named: "Tenter de parler au directeur" is
written "je parle au directeur", "Search a hall" "I search the hall".

Three things are derived from a name's words, nothing else: the present tense's
first person ("je fouille", "je me cache", "je cours", "je combats") of the French
infinitive it starts with ("fouiller", "se cacher", "courir", "combattre"); the name
without "tenter de", "essayer de", "try to" (a player says what they do, the dice
say whether it works); and any article or possessive where the name has one ("une
salle", "la salle", "sa salle", "salle").

An MJ who writes rules as data names actions with infinitives, and players answer
in the first person: without these forms `pbp orders import` read "je fouille" only
by luck (one letter off "fouiller") and missed "je combats" or "je fuis". The forms
are derived from the spelling alone, by the endings of French grammar, plus the
few irregular verbs a forum action is likely to use. Words are compared folded (no
accents, lower case), so "revêtir" gives "revets" and "recevoir" "recois".

A derived form that is no French word ("avertir" also gives "avers") costs nothing:
it is one more entry in the phrasings' tree, and no player writes it. The
auxiliaries (aller, être, avoir, pouvoir, vouloir, devoir, savoir) give none: "je
vais fouiller" is a fouille, not a move.
"""

from __future__ import annotations

#: verbs whose first person no ending rule gives
IRREGULAR = {
    "faire": ("fais",), "suivre": ("suis",), "poursuivre": ("poursuis",), "mourir": ("meurs",),
    "courir": ("cours",), "accourir": ("accours",), "parcourir": ("parcours",), "secourir": ("secours",),
    "fuir": ("fuis",), "enfuir": ("enfuis",), "asseoir": ("assieds", "assois"), "vivre": ("vis",),
    "survivre": ("survis",), "valoir": ("vaux",), "acquerir": ("acquiers",), "conquerir": ("conquiers",),
    "vetir": ("vets",), "revetir": ("revets",),
}
#: auxiliaries and modal verbs: their first person announces another verb
AUXILIARIES = frozenset({"aller", "etre", "avoir", "pouvoir", "vouloir", "devoir", "savoir", "falloir"})

#: (ending, replacements), the longest ending first: "enir" before "ir"
ENDINGS = (
    ("cevoir", ("cois",)),
    ("enir", ("iens",)),
    ("vrir", ("vre",)),
    ("frir", ("fre",)),
    ("llir", ("lle",)),
    ("oir", ("ois",)),
    ("ir", None),  # the second group, or partir's: _ir
    ("ttre", ("ts",)),
    ("indre", ("ins",)),
    ("soudre", ("sous",)),
    ("dre", ("ds",)),
    ("aitre", ("ais",)),
    ("re", ("s",)),
    ("eter", ("ete", "ette")),
    ("eler", ("ele", "elle")),
    ("yer", ("ye", "ie")),
    ("er", ("e",)),
)


def first_person(verb: str) -> tuple[str, ...]:
    """The first person singular of a folded French infinitive ("courir" -> ("cours",)),
    none for a word that is no infinitive or an auxiliary."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb in AUXILIARIES or len(verb) < 4 or not verb.isalpha():
        return ()
    for ending, replacements in ENDINGS:
        if verb.endswith(ending):
            stem = verb[:-len(ending)]
            return _ir(stem) if replacements is None else tuple(stem + r for r in replacements)
    return ()


def _ir(stem: str) -> tuple[str, ...]:
    """finir -> finis; partir, dormir, servir, sentir -> pars, dors, sers, sens (both are
    given when the ending alone cannot tell which)."""
    forms = [stem + "is"]
    if len(stem) >= 3 and stem[-1] in "tmv" and stem[-2] in "rn":
        forms.append(stem[:-1] + "s")
    return tuple(forms)


#: what a name may start with that a player leaves out ("Tenter de parler au directeur")
ATTEMPTS = (("tenter", "de"), ("tenter", "d"), ("essayer", "de"), ("essayer", "d"), ("try", "to"),
            ("attempt", "to"), ("tente", "de"), ("tente", "d"), ("essaie", "de"), ("essaie", "d"))
#: articles and possessives, one set per language: any of its set, or none, stands for one of them
ARTICLES = (frozenset("le la les l un une des du mon ma mes son sa ses ce cet cette".split()),
            frozenset("the a an my his her their this that".split()))
#: the most phrasings derived from one name (its articles multiply them)
MOST = 200


def said_forms(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The phrasings a player writes for an action named `words` (without `words`
    itself), in a fixed order, at most MOST."""
    bases = [words]
    for attempt in ATTEMPTS:
        if words[:2] == attempt and len(words) > 2:
            bases.append(words[2:])
    spoken = [form for base in bases for form in (base, *first_person_of(base))]
    out: dict[tuple[str, ...], None] = {}
    for form in spoken:
        for variant in _with_articles(form):
            if variant != words:
                out[variant] = None
            if len(out) >= MOST:
                return list(out)
    return list(out)


def first_person_of(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The name's first verb in the first person ("fouiller salle" -> "fouille salle"),
    a reflexive one with "me"/"m'" ("se cacher" -> "me cache", "s'enfuir" -> "m'enfuis")."""
    if not words:
        return []
    if words[0] in ("se", "s") and len(words) > 1:
        return [(pronoun, form, *words[2:]) for form in first_person(words[1]) for pronoun in ("me", "m")]
    return [(form, *words[1:]) for form in first_person(words[0])]


def _with_articles(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The phrase with each article after its first word replaced by any of its
    language's, or left out ("une salle": "la salle", "salle"...)."""
    out = [()]
    for i, word in enumerate(words):
        same = next((s for s in ARTICLES if word in s), None) if i else None
        choices = [word] if same is None else [word, *sorted(same - {word}), None]
        out = [(*o, c) if c else o for o in out for c in choices]
        if len(out) > MOST:
            out = out[:MOST]
    return out
