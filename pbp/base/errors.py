"""The one error root.

Everything pbp reports to the MJ as bad input is a `PbpError`: the CLI prints it
in the campaign's language and exits with code 1, never with a traceback.
Messages are catalogue keys (see `pbp.base.i18n`), rendered late, because the
language is only known once the campaign is loaded.
"""

from __future__ import annotations

from pathlib import Path


class PbpError(Exception):
    """Bad input: a campaign file, an order file, a command argument."""

    def __init__(self, key: str, /, *, file: str | Path | None = None, line: int | None = None, **params):
        super().__init__(key)
        self.key = key
        self.file = str(file) if file is not None else None
        self.line = line
        self.params = params

    def located(self, file: str | Path | None, line: int | None = None) -> "PbpError":
        """The same error, placed in a file (used when a lower layer knew no path)."""
        if self.file is None and file is not None:
            self.file = str(file)
        if self.line is None:
            self.line = line
        return self

    def text(self, lang: str = "fr") -> str:
        from pbp.base import i18n

        where = ""
        if self.file:
            file = i18n.shown(self.file, 300)  # a file name is a player's choice too
            where = f"{file}:{self.line}: " if self.line else f"{file}: "
        params = {k: v.text(lang) if isinstance(v, Phrase) else v for k, v in self.params.items()}
        return where + i18n.t(lang, self.key, **params)

    def for_player(self, lang: str = "fr", lines: bool = True) -> str:
        """The message as a player reads it (a receipt): no MJ's path, the line "of your
        orders" (`lines`: the player wrote the file; a message imported from a private
        message has no line they know)."""
        from pbp.base import i18n

        params = {k: v.text(lang) if isinstance(v, Phrase) else v for k, v in self.params.items()}
        text = i18n.t(lang, self.key, **params)
        if lines and self.line:
            return i18n.t(lang, "player_line", line=self.line) + " " + text
        return text[:1].upper() + text[1:]

    def __str__(self) -> str:
        return self.text("en")


class Phrase:
    """A message parameter that is itself in the catalogue (e.g. the name of a type:
    "a whole number"), translated in the language of the message it is part of."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params):
        self.key, self.params = key, params

    def text(self, lang: str = "fr") -> str:
        from pbp.base import i18n

        return i18n.t(lang, self.key, **{k: v.text(lang) if isinstance(v, Phrase) else v
                                         for k, v in self.params.items()})

    def __repr__(self) -> str:
        return f"Phrase({self.key!r}, {self.params!r})"


class ByLang(Phrase):
    """A message parameter that is the language's own value, not a sentence: the
    valid action ids are the French ones in a French campaign, their English
    ids in an English one (both are accepted)."""

    __slots__ = ("values",)

    def __init__(self, **values):
        super().__init__("")
        self.values = values

    def text(self, lang: str = "fr"):
        return self.values.get(lang, self.values.get("fr"))

    def __repr__(self) -> str:
        return f"ByLang({self.values!r})"


class InputError(PbpError):
    """A file or argument the MJ or a player wrote is wrong: fix it and run again."""


class ForcedRollError(InputError):
    """A forced roll of gm.yaml that its die cannot give (placed in gm.yaml)."""


class UnknownRuleError(InputError):
    """A campaign's `rules:` override names a rule the ruleset's data does not have."""


class UnknownRulesetError(InputError):
    """campaign.yaml or --ruleset names no ruleset pbp knows."""


class TemplateError(PbpError):
    """A template cannot be rendered: its file, its line and what is wrong."""


class GitError(PbpError):
    """Archiving the campaign in git failed (the turn's files may already be written).
    `said`: what git said, shown whole under the message, a line each."""

    def __init__(self, key: str, /, *, said: str = "", **params):
        super().__init__(key, **params)
        self.said = said

    def text(self, lang: str = "fr") -> str:
        from pbp.base import i18n

        lines = [i18n.shown(line.replace("\t", "  "), 1000) for line in self.said.strip().splitlines()[:40] if line.strip()]
        return "\n".join([super().text(lang), *("  " + line for line in lines)])


class ErrorList(PbpError):
    """Several errors found in one pass (e.g. every bad order file of a turn)."""

    def __init__(self, errors: list[PbpError]):
        super().__init__("errors", count=len(errors))
        self.errors = errors

    def text(self, lang: str = "fr") -> str:
        return "\n".join(e.text(lang) for e in self.errors)
