"""Message catalogue: every sentence pbp says to an MJ or a player, in fr and en.

The core's messages live in `pbp/messages.yaml`; each ruleset adds its own
(`messages.yaml` in its folder) under its id, e.g. `manhunt.no_exit`.
Two parameters are special and rendered the same way everywhere:
`valid` (the values that would have been accepted) and `suggestion`
(the closest one: "did you mean ...?").

Parameter values often come from a player's file and end on the MJ's terminal:
each is shown safe (`shown`): control characters and terminal escapes escaped,
bidi overrides too, and long values shortened.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from pbp.base.patterns import Lazy

LANGS = ("fr", "en")
_catalog: dict[str, dict[str, str]] = {}


def register(messages: dict[str, dict[str, str]], prefix: str = "") -> None:
    for key, texts in messages.items():
        _catalog[f"{prefix}.{key}" if prefix else key] = texts


def register_file(path: Path, prefix: str = "") -> None:
    """A messages.yaml of pbp or of a ruleset: package data, read as it is (this
    module sits below yamlio and errors, which speak through it)."""
    from pbp.base import usercache

    register(usercache.load_data(Path(path), _read_messages), prefix)


def _read_messages(text: str) -> dict:
    messages = read_plain(text)
    if messages is None:
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        messages = yaml.load(text, Loader=loader) or {}
    return messages


_KEY_LINE = Lazy(r"([A-Za-z_][A-Za-z0-9_.-]*):[ \t]*")
_TEXT_LINE = Lazy(r"  ([a-z]{2}): (\".*\")[ \t]*")


_ESCAPE = Lazy(r"\\(.)")
#: the escapes of a double-quoted YAML text read here; any other sends the file to YAML
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "t": "\t"}


def _unquote(inner: str) -> str | None:
    rest = _ESCAPE.sub("", inner)
    if '"' in rest or "\\" in rest:  # a quote that ends the text early, a lone backslash
        return None
    try:
        return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], inner)
    except KeyError:
        return None


def read_plain(text: str) -> dict[str, dict[str, str]] | None:
    """A messages.yaml written the plain way every one of pbp's is (`key:` then
    `  fr: "..."` lines, comments, blank lines), read without PyYAML: importing
    and running it would double the time of `pbp --help`, which only needs this
    catalogue. None as soon as a line is anything else, or a text holds an
    escape other than \\" \\\\ \\/ \\n \\t: the file is then read as YAML."""
    out: dict[str, dict[str, str]] = {}
    texts = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key = _KEY_LINE.fullmatch(line)
        if key:
            if key.group(1) in out:
                return None  # YAML's own rules decide what a duplicate means
            texts = out[key.group(1)] = {}
            continue
        found = _TEXT_LINE.fullmatch(line)
        if not found or texts is None or found.group(1) in texts:
            return None
        value = _unquote(found.group(2)[1:-1])
        if value is None:
            return None
        texts[found.group(1)] = value
    return out


def _core() -> None:
    if "errors" not in _catalog:
        register_file(Path(__file__).parent.parent / "messages.yaml")


#: what a terminal or a forum must never get raw from a file: C0 controls (tab and
#: newline too: a value is one line of a message), DEL, C1 controls, the bidi
#: marks (LRM, RLM, ALM), overrides and isolates, and lone surrogates (an undecodable file name)
_UNSAFE = Lazy("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: the longest value echoed in a message; a longer one is shortened with "…"
MAX_SHOWN = 120
#: the most items of a list echoed in a message
MAX_ITEMS = 40


def _escape(match: re.Match) -> str:
    char = match.group()
    return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def shown(value, limit: int = MAX_SHOWN) -> str:
    """A value as a message may echo it: unsafe characters shown escaped (`\\x1b`,
    `\\u202e`), and at most `limit` characters."""
    text = value if isinstance(value, str) else str(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    return _safe(text)


@functools.lru_cache(maxsize=8192)
def _safe(text: str) -> str:
    # cached: the same `valid` lists are shown with every refusal
    return _UNSAFE.sub(_escape, text)


def _fmt(value) -> str:
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [shown(v) for v in list(value)[:MAX_ITEMS + 1]]
        if len(items) > MAX_ITEMS:
            items[MAX_ITEMS:] = ["…"]
        return ", ".join(items)
    return shown(value)


def has(key: str) -> bool:
    """Whether the catalogue has a message `key` (a ruleset's `<id>.<key>` first)."""
    _core()
    return key in _catalog


def _one(lang: str, key: str, params: dict) -> str:
    texts = _catalog.get(key)
    if texts is None:
        return key + (" " + shown({k: _fmt(v) for k, v in params.items()}) if params else "")
    template = texts.get(lang) or texts.get("en") or next(iter(texts.values()))
    if "|" in template:
        template = _PLURAL.sub(lambda m: _plural_form(lang, params.get(m.group(1)), m.group(2), m.group(3)),
                               template)
    return template.format(**{k: _fmt(v) for k, v in params.items()})


#: a word that agrees with a count in a message: `{count} {count|problème|problèmes}`
_PLURAL = Lazy(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def _plural_form(lang: str, count, one: str, other: str) -> str:
    # braces doubled: the chosen word goes through str.format with the rest
    return (one if plural_category(lang, count) == "one" else other).replace("{", "{{").replace("}", "}}")


def plural_category(lang: str, count) -> str:
    """The CLDR plural category of a count in a language ("one", "many", "other"...),
    by Babel's rule for the language: French "one" for 0 and 1, English for 1 only."""
    try:
        number = count if isinstance(count, (int, float)) and not isinstance(count, bool) else int(str(count))
    except ValueError:
        return "other"
    return _plural_rule(lang)(abs(number))


#: Babel's CLDR plural rules of the catalogue's languages (`Locale.parse(lang).plural_form.rules`,
#: checked against Babel by tests/test_plurals.py): loading Babel's locale data costs a
#: command tens of milliseconds, compiling these rules a fraction of one
PLURAL_RULES = {
    "fr": {"one": "i in 0..1", "many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5"},
    "en": {"one": "i in 1 and v in 0"},
}


@functools.lru_cache(maxsize=None)
def _plural_rule(lang: str):
    # compiled once a count is said, once per language: a command that says none does not import Babel
    from babel.plural import PluralRule

    return PluralRule(PLURAL_RULES.get(lang, PLURAL_RULES["en"]))


def t(lang: str, key: str, /, **params) -> str:
    _core()
    out = _one(lang, key, params)
    if params.get("suggestion"):
        out += " " + _one(lang, "did_you_mean", {"suggestion": params["suggestion"]})
    if params.get("valid"):
        out += " " + _one(lang, "valid_values", {"valid": params["valid"]})
    return out


def closest(word: str, candidates) -> str | None:
    """The candidate a typo most likely meant, or None."""
    return _closest(str(word).lower(), tuple(str(c) for c in candidates))


@functools.lru_cache(maxsize=4096)
def _closest(word: str, candidates: tuple[str, ...]) -> str | None:
    # cached: a hostile order file repeats one misspelling thousands of times
    import difflib  # here: `pbp --help` needs the catalogue, not the suggestions

    found = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return found[0] if found else None


def by_lang(table: dict) -> dict:
    """A table of phrases written `{key: (french, english)}`, each phrase's two
    languages side by side, as `{"fr": {key: french}, "en": {key: english}}`."""
    return {lang: {key: pair[k] for key, pair in table.items()} for k, lang in enumerate(("fr", "en"))}
