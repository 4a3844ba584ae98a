"""The order argument types that read words and numbers (pbp/model/argtypes.py
compiles the declarations and holds the types that name game things): the base
`ArgType` (optional, default, English name, aliases), text, numbers, choices,
yes/no, directions.
"""

from __future__ import annotations

from pbp.base import i18n
from pbp.base.errors import ByLang
from pbp.model.argcontext import ArgContext, normalize_id

#: a direction with no `values:`: the four the French forums write
DIRECTIONS = {"values": ["nord", "est", "sud", "ouest"],
              "en": {"nord": "north", "est": "east", "sud": "south", "ouest": "west"},
              "aliases": {"n": "nord", "e": "est", "s": "sud", "o": "ouest", "w": "ouest"}}


class ArgDefinitionError(ValueError):
    """An argument declaration itself is wrong: a bug of the ruleset that ships it."""



# -- the types ----------------------------------------------------------------------------

class ArgType:
    """One compiled argument type. `check` never raises for a player's value: a
    problem is a Refusal (key, path, what would be valid) in `problems`."""

    kind = ""
    #: how the plain-text import reads its words: text, int, choice, player, map or list
    reads = "text"
    #: a whole number's or a list's bounds (None: none)
    low = high = None
    prose = False

    def __init__(self, spec: dict):
        #: the name it has under `arg_types` (the import's vocabulary of it), if any
        self.name: str | None = None
        self.optional = bool(spec.get("optional"))
        self.has_default = "default" in spec
        self.default = spec.get("default")
        self.en = spec.get("en") if isinstance(spec.get("en"), str) else None  # a field's English name
        aliases = spec.get("aliases")
        self.aliases = [str(a) for a in aliases] if isinstance(aliases, list) else []  # a field's other names

    def check(self, value, context: ArgContext, at: tuple, problems):
        """The value normalised (a handle for a character's name...), or None."""
        if value is None:
            if not self.optional:
                problems.add("arg_missing", at, expected=self.describe())
            return None
        return self.accept(value, context, at, problems)

    def accept(self, value, context: ArgContext, at: tuple, problems):
        return value

    def describe(self, lang: str | None = None) -> str:
        """What it takes, as a form shows it in the player's language."""
        return i18n.t(lang or "fr", f"arg_kind_{self.kind}")

    def english(self, value):
        """The value as an English order form writes it."""
        return value

    def offers(self, context: ArgContext) -> dict | None:
        """{value: name} of what the player may name here, or None (free words)."""
        return None

    def refuse_type(self, at: tuple, problems) -> None:
        problems.add("arg_type", at, expected=self.describe())


class NoArg(ArgType):
    """An action that takes no argument."""

    kind = "none"

    def __init__(self):
        super().__init__({"optional": True})

    def accept(self, value, context, at, problems):
        problems.add("arg_unexpected", at)

    def describe(self, lang=None) -> str:
        return "-"


class _Words(ArgType):
    """A type whose value a player writes as words: bounded before any lookup."""

    def check(self, value, context, at, problems):
        if isinstance(value, str) and context.limits is not None:
            limit = context.limits["roleplay_chars" if self.prose else "text_chars"]
            if len(value) > limit:  # refused before any lookup or suggestion
                problems.add("prose_too_long" if self.prose else "text_too_long", at, length=len(value), limit=limit)
                return None
        return super().check(value, context, at, problems)


class Text(_Words):
    kind = "text"

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.prose = bool(spec.get("prose"))
        #: what a form calls it, when words name a thing another check judges (a data
        #: ruleset's exit, place or item, checked where the actor stands)
        self.shown_as = spec.get("shown_as")

    def describe(self, lang=None) -> str:
        return i18n.t(lang or "fr", f"arg_kind_{self.shown_as or self.kind}")

    def accept(self, value, context, at, problems):
        if isinstance(value, (dict, list)):
            self.refuse_type(at, problems)
            return None
        return str(value)


class Number(ArgType):
    kind = reads = "int"

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.low, self.high = spec.get("min"), spec.get("max")

    def accept(self, value, context, at, problems):
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse_type(at, problems)
            return None
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            problems.add("arg_range", at, value=value, low=self.low, high=self.high)
        return value


class Choice(_Words):
    """One of `values`; an alias or the value's English word means it too."""

    kind = reads = "choice"

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.values = [str(v) for v in spec.get("values") or []]
        #: (spelling, value) as the rules write them: the aliases, then the English words of `en:`
        self.said = [(str(a), str(v)) for a, v in (spec.get("aliases") or {}).items()] \
            if isinstance(spec.get("aliases"), dict) else []
        if isinstance(spec.get("en"), dict):
            self.said += [(str(w), str(v)) for v, w in spec["en"].items() if w]
        # the English words a form shows (`en: {value: word}`, or `en_values:`) are accepted too
        words = spec.get("en") if isinstance(spec.get("en"), dict) else (spec.get("en_values") or {})
        self.words = {str(v): str(w) for v, w in words.items()}
        aliases = spec.get("aliases") if isinstance(spec.get("aliases"), dict) else {}
        self.spellings = {normalize_id(k): str(v) for k, v in aliases.items()}
        if isinstance(spec.get("en"), dict):
            self.spellings.update({normalize_id(w): str(v) for v, w in spec["en"].items()})

    def accept(self, value, context, at, problems):
        word = normalize_id(value)
        for v in self.values:
            if normalize_id(v) == word:
                return v
        if word in self.spellings:
            return self.spellings[word]
        valid = ByLang(fr=self.values, en=[self.words.get(v, v) for v in self.values])
        problems.add("bad_choice", at, value=value, valid=valid,
                     suggestion=i18n.closest(word, self.values + list(self.spellings)))
        return None

    def describe(self, lang=None) -> str:
        words = self.words if lang == "en" else {}
        return " | ".join(words.get(v, v) for v in self.values)

    def english(self, value):
        return self.words.get(value, value) if isinstance(value, str) else value

    def offers(self, context):
        return {v: v for v in self.values}


class YesNo(_Words):
    """Yes or no: YAML's true/false, or a word of WORDS in either language (an
    MJ's ruling in gm.yaml: `combat: oui`)."""

    kind = "yes_no"
    WORDS = {"oui": True, "non": False, "vrai": True, "faux": False, "yes": True, "no": False, "true": True,
             "false": False}

    def accept(self, value, context, at, problems):
        if isinstance(value, bool):
            return value
        word = normalize_id(value) if isinstance(value, str) else None
        if word in self.WORDS:
            return self.WORDS[word]
        problems.add("bad_choice", at, value=value, valid=ByLang(fr=["oui", "non"], en=["yes", "no"]))
        return None

    def describe(self, lang=None) -> str:
        return "yes | no" if lang == "en" else "oui | non"


class Direction(Choice):
    """A choice among directions: the declared ones, else the four of DIRECTIONS."""

    kind = "direction"

    def __init__(self, spec: dict):
        super().__init__(spec if spec.get("values") else {**DIRECTIONS, **spec})
