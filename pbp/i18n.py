"""Message catalogue: every sentence pbp says to an MJ or a player, in fr and en.

The core's messages live in `pbp/messages.yaml`; each ruleset adds its own
(`messages.yaml` in its folder) under its id, e.g. `manhunt.no_exit`.
Two parameters are special and rendered the same way everywhere:
`valid` (the values that would have been accepted) and `suggestion`
(the closest one: "did you mean ...?").
"""

from __future__ import annotations

import difflib
from pathlib import Path

LANGS = ("fr", "en")
_catalog: dict[str, dict[str, str]] = {}


def register(messages: dict[str, dict[str, str]], prefix: str = "") -> None:
    for key, texts in messages.items():
        _catalog[f"{prefix}.{key}" if prefix else key] = texts


def register_file(path: Path, prefix: str = "") -> None:
    from pbp import yamlio

    register(yamlio.load_file(path) or {}, prefix)


def _core() -> None:
    if "errors" not in _catalog:
        register_file(Path(__file__).with_name("messages.yaml"))


def _fmt(value) -> str:
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _one(lang: str, key: str, params: dict) -> str:
    texts = _catalog.get(key)
    if texts is None:
        return key + (" " + repr(params) if params else "")
    template = texts.get(lang) or texts.get("en") or next(iter(texts.values()))
    return template.format(**{k: _fmt(v) for k, v in params.items()})


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
    found = difflib.get_close_matches(str(word).lower(), [str(c) for c in candidates], n=1, cutoff=0.6)
    return found[0] if found else None
