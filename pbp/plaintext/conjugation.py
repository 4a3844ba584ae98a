"""How a French player says what they do this turn: the present tense's first
person ("je fouille", "je me cache", "je cours", "je combats") of the infinitive an
MJ names an action with ("fouiller", "se cacher", "courir", "combattre").

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


def said_forms(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The phrasings a player writes for an action named `words`: its first verb in
    the first person ("fouiller salle" -> "fouille salle"), and a reflexive one with
    "me"/"m'" ("se cacher" -> "me cache", "s'enfuir" -> "m'enfuis")."""
    if not words:
        return []
    if words[0] in ("se", "s") and len(words) > 1:
        return [(pronoun, form, *words[2:]) for form in first_person(words[1]) for pronoun in ("me", "m")]
    return [(form, *words[1:]) for form in first_person(words[0])]
