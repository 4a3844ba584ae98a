"""The words of plain-text orders: how a player's message is cut into tokens, and
the names a player may use for each argument value (`Ruleset.import_names`).

A module of its own because two layers need it and must not import each other:
the Ruleset's default hook (pbp/model/ruleset.py) computes the names from the order
schema and the player's view, and the importer (pbp/plaintext/importer.py) matches a
message against them. Everything here is linear in the size of its input: one
pass over the characters, no regular expression.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from pbp.model.argcontext import ArgContext
from pbp.model.argtypes import ArgType, Choice, Item, List, Mapping, NoArg, Place, compile_types

#: letters NFKD does not take apart
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss", "ø": "o", "Ø": "o",
                            "ł": "l", "Ł": "l", "đ": "d", "Đ": "d"})
#: characters that only separate words (apostrophes, hyphens, underscores)
SEPARATORS = frozenset("'’ʼ‘`´_-‐‑‒–—")
_SIGNS = frozenset("+-−")


def fold(text: str) -> str:
    """A word as the matcher compares it: lower case, no accents, ligatures spelt out."""
    text = unicodedata.normalize("NFKD", str(text).translate(_LIGATURES))
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def split_article(place: str) -> tuple[str, str]:
    """("la ", "Bibliothèque") for "la Bibliothèque"; ("", "Hall") for a bare name: place names
    carry their article in the world's data, the matcher and the grammar look past it."""
    text = str(place)
    lower = text.lower()
    for article in ("le ", "la ", "les ", "l'", "l’"):
        if lower.startswith(article):
            return text[:len(article)], text[len(article):]
    return "", text


@dataclass(frozen=True, slots=True)
class Token:
    """One word, number or punctuation mark of a message, with where it is."""

    text: str  # folded (see `fold`); a number keeps its sign (`+2`)
    start: int  # offsets in the text it was cut from
    end: int
    kind: str  # word | num | punct
    upper: bool = False  # a word written with a capital first letter (not all in capitals)

    @property
    def number(self) -> int | None:
        return int(self.text.replace("−", "-")) if self.kind == "num" else None


def tokens(text: str, base: int = 0) -> list[Token]:
    """The tokens of a text, in one pass: runs of letters and digits are words (a
    run of digits is a number, with a sign written right before it), apostrophes,
    hyphens and underscores only separate words, any other visible character is
    punctuation. Offsets are `base` + the position in `text`."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isalnum():
            j = i
            while j < n and text[j].isalnum():
                j += 1
            word = text[i:j]
            if word.isdigit() and len(word) <= 18:
                start = i
                if i > 0 and text[i - 1] in _SIGNS and (i < 2 or not text[i - 2].isalnum()):
                    start = i - 1
                    if out and out[-1].kind == "punct" and out[-1].start == base + start:
                        out.pop()  # the sign was cut as punctuation: it belongs to the number
                sign = "-" if text[start] in "-−" else ("+" if text[start] == "+" else "")
                out.append(Token(sign + word, base + start, base + j, "num"))
            else:
                # a capital first letter marks a name; a word in capitals is shouted, not named
                out.append(Token(fold(word), base + i, base + j, "word", word[0].isupper() and not word.isupper()))
            i = j
        elif c.isspace() or c in SEPARATORS and not (c == "-" and i + 1 < n and text[i + 1].isdigit()):
            i += 1
        else:
            out.append(Token(c, base + i, base + i + 1, "punct"))
            i += 1
    return out


def words(text: str) -> tuple[str, ...]:
    """The folded words of a name or a phrasing (`L'Elfe noir` -> l, elfe, noir)."""
    return tuple(t.text for t in tokens(str(text)) if t.kind != "punct")


# -- the names of argument values ----------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One value an argument may take, and the names a player may write for it.
    A weak name (`est`, also a verb) only counts where the phrasings say it may."""

    value: object
    names: tuple[str, ...]
    weak: frozenset[str] = field(default_factory=frozenset)
    label: str = ""  # how a question names it (default: its first name)
    rank: int = 0  # its source's place in `from:` (a name found in an earlier source wins)

    def __post_init__(self):
        if not self.label:
            object.__setattr__(self, "label", self.names[0] if self.names else str(self.value))


def arg_slots(action_id: str, arg: ArgType) -> list[tuple[str | None, str, ArgType]]:
    """(field, vocabulary key, type) of each value an action's argument holds: one
    for a plain argument, one per field of a map. The key is the type's name under
    `arg_types` (`direction`, `chasseur`), a list's its items' (a path of directions
    reads directions), else `action.field` (`hanter.salle`) or the action id for a
    plain argument (`interroger`)."""
    if isinstance(arg, NoArg):
        return []
    if isinstance(arg, Mapping):
        return [(name, _key(action_id, name, field), field) for name, field in arg.fields.items()]
    return [(None, _key(action_id, None, arg), arg)]


def _key(action_id: str, field_name: str | None, arg: ArgType) -> str:
    if isinstance(arg, List) and arg.of.name:
        return arg.of.name
    if arg.name:
        return arg.name
    return f"{action_id}.{field_name}" if field_name else action_id


def default_names(rules: dict, phrasings: dict, view: dict, scenario, state: dict,
                  context: ArgContext | None = None) -> dict[str, list[Entry]]:
    """The core's names of argument values, from the order schema and the player's view:

    - a `choice` type: each value, its aliases, and its `words:` in phrasings.yaml;
    - a `player` (`character`) type: each character the player may name (the roster,
      or what the ruleset's `arg_context` lets them name) and its name; a `place` or an
      `item` the ruleset gives facts for: those it offers (pbp.model.argtypes);
    - every `values:` entry of phrasings.yaml that says `from:` where the values are:
      `context.…` (the ruleset's order_context for this player), `scenario.world.…`,
      `scenario.roster`, `state.…` or `rules.…`, with `*` for every item of a list or
      mapping; `value:` the field written in the order file, `names:` the fields a
      player may write (`key` is a mapping's key); a source may be `{path:, value:,
      names:}` with fields of its own. A name found in an earlier source wins over the
      same name in a later one (`Entry.rank`).

    The names are what the importer matches, completes and lists to this player: only
    what they may know. What is theirs alone (their sheet, what they carry, whom they
    see) comes from `context`, the view their order form and the rules' checks show
    them; `state` and `rules` are the whole game's, for what every player knows (a
    board all can see). characters.yaml is secret (everyone's sheets): no root reads it."""
    declared = (phrasings or {}).get("values") or {}
    out = _typed_names(rules, declared, ArgContext(scenario) if context is None else context)
    roots = {"context": view or {}, "state": state or {}, "rules": rules,
             "scenario": {"world": scenario.world, "roster": scenario.roster}}
    for key, spec in declared.items():
        if isinstance(spec, dict) and spec.get("from") is not None:
            out[key] = _declared_names(roots, spec, out.get(key, []))
    for key, spec in declared.items():  # `same_as: room`: one vocabulary under two keys
        if isinstance(spec, dict) and spec.get("same_as") in out:
            out[key] = out[spec["same_as"]]
    return out


def _typed_names(rules: dict, declared: dict, context: ArgContext) -> dict[str, list[Entry]]:
    """The names each argument type offers: a choice's words, the characters, places
    and items the ruleset lets this player name."""
    types = compile_types(rules)
    actions = rules.get("actions") or {}
    out: dict[str, list[Entry]] = {}
    for action_id in actions:
        for _, key, arg in arg_slots(action_id, types.action(actions, action_id)):
            item = arg.of if isinstance(arg, List) else arg
            if key in out:
                continue
            if isinstance(item, Choice):
                out[key] = _choice(item, declared.get(key) or {})
            elif item.reads == "player" or (isinstance(item, (Place, Item)) and item.offers(context) is not None):
                out[key] = [Entry(v, tuple(n for n in (v, name) if n), label=name)
                            for v, name in item.offers(context).items()]
    return out


def _declared_names(roots: dict, spec: dict, entries: list[Entry]) -> list[Entry]:
    """A vocabulary's names from the sources phrasings.yaml gives it (`from:`)."""
    sources = spec["from"] if isinstance(spec["from"], list) else [spec["from"]]
    entries = list(entries)
    known = {e.value for e in entries}
    for rank, source in enumerate(sources):
        # a source is a path, or {path:, value:, names:} with its own fields
        path, fields = (source.get("path"), {**spec, **source}) if isinstance(source, dict) else (source, spec)
        for item in _walk(roots, str(path).split(".")):
            entry = _entry(item, fields, rank)
            if entry is not None and entry.value not in known:
                known.add(entry.value)
                entries.append(entry)
    return entries


def _choice(choice: Choice, declared: dict) -> list[Entry]:
    extra = declared.get("words") or {}
    weak = frozenset(fold(w) for w in declared.get("weak") or [])
    entries = []
    for value in choice.values:
        names = [value] + [spelling for spelling, meant in choice.said if meant == value]
        for lang_words in (extra.get(value) or {}).values():
            names += [str(w) for w in lang_words or []]
        entries.append(Entry(value, tuple(names), frozenset(n for n in names if fold(n) in weak)))
    return entries


def _walk(node, path: list[str]):
    """The items a dotted path reaches; `*` goes into every item of a list or mapping.
    A path that reaches nothing gives nothing (a view without that key)."""
    if not path:
        if isinstance(node, dict):
            # a mapping's items: its key is their `key` (and their `id` when they have none)
            return [{"id": k, **v, "key": k} if isinstance(v, dict) else {"key": k, "id": k, "name": v}
                    for k, v in node.items()]
        return list(node) if isinstance(node, list) else ([] if node is None else [node])
    head, rest = path[0], path[1:]
    if head == "*":
        items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
        return [found for item in items for found in _walk(item, rest)]
    if isinstance(node, dict) and head in node:
        return _walk(node[head], rest)
    return []


def _field(item: dict, dotted: str):
    value = item
    for part in dotted.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _entry(item, spec: dict, rank: int = 0) -> Entry | None:
    if not isinstance(item, dict):
        return None if item is None or isinstance(item, (list, bool)) else Entry(item, (str(item),), rank=rank)
    value_field = spec.get("value") or ("id" if "id" in item else "key")
    value = _field(item, value_field)
    if value is None or isinstance(value, (dict, list)):
        return None
    names = []
    for name_field in spec.get("names") or [value_field, "name"]:
        found = _field(item, name_field)
        for name in found.values() if isinstance(found, dict) else found if isinstance(found, list) else [found]:
            if name is not None and not isinstance(name, (dict, list)) and str(name) not in names:
                names.append(str(name))
    label = item.get("name") if isinstance(item.get("name"), str) else str(value)
    return Entry(value, tuple(names or [str(value)]), label=label, rank=rank)
