"""The compiled words of plain-text orders (`pbp orders import`): a ruleset's
action phrasings as a tree of words (`Grammar`), the names of argument values
indexed by word (`Names`), the language's own words (pbp/plaintext/import_words.yaml), and
typo tolerance (`Fuzzy`: one letter left out, added or swapped, accents and case
aside).

A module of its own because it is the dictionary, compiled once per message,
that the reader (pbp/plaintext/importer.py) looks words up in: every look-up is a hash of a
bounded phrase, so reading stays linear in the message.
"""

from __future__ import annotations

import functools
import weakref
from dataclasses import dataclass
from pathlib import Path

from pbp.model import vocabulary as V
from pbp.model.argtypes import ArgType, List, Mapping, NoArg, compile_types
from pbp.model.vocabulary import Entry, Token, tokens
from pbp.plaintext.spoken import said_forms

WORDS_FILE = Path(__file__).with_name("import_words.yaml")
#: name words too common to name anything on their own (articles, prepositions, possessives)
STOP = frozenset("le la les l de du des d un une et en au aux a dans sur sous par pour avec son sa ses mon ma mes "
                 "ton ta tes leur leurs notre votre nos vos the of an and in on at to by for with his her their "
                 "its my your our".split())


def phrase(text: str) -> tuple[str, ...]:
    """A phrase as tokens (punctuation kept): `"j'attaque"` -> ("j", "attaque")."""
    return tuple(t.text for t in tokens(str(text)))


class Phrases:
    """A set of phrases, matched at a position in O(longest phrase)."""

    def __init__(self, items=()):
        self.items = {p for p in (phrase(i) if isinstance(i, str) else tuple(i) for i in items) if p}
        self.longest = max((len(p) for p in self.items), default=0)
        self.first = frozenset(p[0] for p in self.items)  # most words start no phrase: one look-up says so

    def at(self, texts: list[str], i: int, end: int | None = None) -> int:
        """The length of the longest phrase starting at i (0: none)."""
        if i >= len(texts) or texts[i] not in self.first:
            return 0
        end = len(texts) if end is None else end
        for n in range(min(self.longest, end - i), 0, -1):
            if tuple(texts[i:i + n]) in self.items:
                return n
        return 0

    def __contains__(self, word) -> bool:
        return (word,) in self.items


@functools.lru_cache(maxsize=1)
def language() -> dict:
    """The words of pbp/plaintext/import_words.yaml, every language together (a French
    campaign's player may write in English)."""
    import yaml

    data = yaml.load(WORDS_FILE.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))

    def merged(node) -> list[str]:
        return [str(w) for words in (node or {}).values() for w in words or []]

    out = {key: Phrases(merged(node)) for key, node in data.items() if key != "labels"}
    out["labels"] = {kind: Phrases(merged(node)) for kind, node in data["labels"].items()}
    return out


# -- typos ------------------------------------------------------------------------

def one_edit(a: str, b: str) -> bool:
    """Whether two words of at least 5 letters differ by one letter left out or added,
    or two neighbours swapped (a letter replaced too, from 8 letters): `fouile`,
    `cahce`. Short words must be exact (`suite` is no `fuite`)."""
    la, lb = len(a), len(b)
    if a == b:
        return True
    if min(la, lb) < 5 or abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]:
            return True
        return len(diff) == 1 and la >= 8
    if la > lb:
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


class Fuzzy:
    """The known words a written word may be (itself, and those one typo away). The
    typos are found by rapidfuzz (optimal string alignment distance 1, cut off early)
    among the known words of a length one letter away at most: a word longer than
    any known one costs a length comparison, whatever a player pastes. Callers score
    an exact spelling above a typo."""

    def __init__(self, known, prefixes: bool = False):
        self.exact = set(known)
        self.by_length: dict[int, list[str]] = {}
        for word in self.exact:
            if len(word) >= 5:
                self.by_length.setdefault(len(word), []).append(word)
        #: with `prefixes`, a word's start of 5 letters or more names it too ("cafét'")
        self.prefix: dict[str, set[str]] = {}
        if prefixes:
            for word in self.exact:
                if word.isalpha():
                    for n in range(5, len(word)):
                        self.prefix.setdefault(word[:n], set()).add(word)
        self._cache: dict[str, frozenset] = {}

    def __call__(self, word: str) -> frozenset:
        found = self._cache.get(word)
        if found is None:
            found = frozenset({word}) if word in self.exact else frozenset()
            if len(word) >= 5:
                found |= self._typos(word) | self.prefix.get(word, frozenset())
            if len(self._cache) < 100_000:
                self._cache[word] = found
        return found

    def _typos(self, word: str) -> frozenset:
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        pool = [w for n in (len(word) - 1, len(word), len(word) + 1) for w in self.by_length.get(n, ())]
        if not pool:
            return frozenset()
        near = process.extract(word, pool, scorer=OSA.distance, score_cutoff=1, limit=None)
        return frozenset(w for w, _, _ in near if one_edit(word, w))


# -- the ruleset's words ------------------------------------------------------------

@dataclass
class Slot:
    """One value an action's argument holds: a plain argument (field None) or a map's field."""

    field: str | None
    key: str  # the vocabulary it reads (see vocabulary.arg_slots)
    kind: str  # choice | player | text | int | list
    item: str | None  # a list's items' kind
    optional: bool
    low: int = 0
    high: int | None = None
    prose: bool = False


@dataclass(frozen=True)
class Trigger:
    action: str
    #: a phrasing ending with {field}: that field gets the words after it; starting
    #: with {field}: the words from the phrasing on ("{but} tire sur": "tire sur le garde")
    prose: str | None = None
    prose_here: bool = False
    preset: tuple = ()  # (field, value) pairs the phrasing itself says ("soigne": sort soin)


@dataclass
class Grammar:
    """What a ruleset's data says about reading its actions, compiled once per call."""

    triggers: dict  # word -> subtree; the key None holds the Triggers ending there
    fuzzy: Fuzzy
    slots: dict[str, list[Slot]]
    short: dict[str, str | None]
    bare: dict[str, bool]  # whether the action may be written with no argument at all
    labels: dict[str, Phrases]  # field -> the words announcing its value
    negative: dict[str, Phrases]  # field -> the words announcing a negative number ("malus")
    after: dict[str, Phrases]  # vocabulary -> the words a weak name may follow
    subject: str | None
    implied: dict[str, str]  # vocabulary -> the action a sentence naming one of its values orders
    #: vocabulary -> (how many numbers, how the order file writes them: "{0}-{1}") for an
    #: argument written with numbers (a square), whatever type data.yaml gives it
    numbers: dict[str, tuple[int, str | None]]


_grammars: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def grammar(ruleset) -> Grammar:
    """A ruleset's phrasings compiled, once per ruleset object (its rules, with the
    campaign's overrides, do not change once it is made)."""
    found = _grammars.get(ruleset)
    if found is None:
        found = _grammars[ruleset] = _compile(ruleset)
    return found


def _compile(ruleset) -> Grammar:
    data = ruleset.phrasings() or {}
    declared = data.get("actions") or {}
    root, known = _triggers(ruleset.actions, declared, bool(data.get("spoken_forms")))
    types = compile_types(ruleset.rules)
    slots, short, bare = {}, {}, {}
    for action_id in ruleset.actions:
        arg = types.action(ruleset.actions, action_id)
        slots[action_id] = [_slot(f, k, t) for f, k, t in V.arg_slots(action_id, arg)]
        short[action_id] = arg.short if isinstance(arg, Mapping) else None
        bare[action_id] = isinstance(arg, NoArg) or arg.optional
    labels = {name: _phrases(spec) for name, spec in (data.get("labels") or {}).items()}
    negative = {name: _phrases((spec or {}).get("negative")) for name, spec in (data.get("labels") or {}).items()}
    values = {key: spec for key, spec in (data.get("values") or {}).items() if isinstance(spec, dict)}
    after = {key: _phrases(spec.get("after")) for key, spec in values.items()}
    implied = {str(key): action_id for action_id, mine in declared.items()
               for key in ((mine or {}).get("implied_by") or [])}
    numbers = {str(key): (int(spec["numbers"]), spec.get("text")) for key, spec in values.items()
               if spec.get("numbers")}
    return Grammar(root, Fuzzy(known), slots, short, bare, labels, negative, after, data.get("subject"), implied,
                   numbers)


def _phrases(spec) -> Phrases:
    """The phrases of a `{fr: [...], en: [...]}` entry of phrasings.yaml, both languages."""
    spec = spec or {}
    return Phrases(w for lang in ("fr", "en") for w in spec.get(lang) or [])


def _triggers(actions: dict, declared: dict, spoken: bool = False) -> tuple[dict, set[str]]:
    """The tree of every action's phrasings (ids, English ids, aliases and
    phrasings.yaml's), word by word, and every word in it. With `spoken` (rules as
    data, whose MJ wrote names, not phrasings), also the ways a player says each one
    (pbp/plaintext/spoken.py); a built-in ruleset's phrasings.yaml lists its own."""
    root: dict = {}
    known: set[str] = set()
    said: list[tuple[Trigger, tuple]] = []
    for action_id, spec in actions.items():
        spec = spec or {}
        mine = declared.get(action_id) or {}
        exclude = {phrase(w) for w in mine.get("exclude") or []}
        spellings = [action_id, spec.get("en"), *(spec.get("aliases") or [])]
        spellings += [w for lang in ("fr", "en") for w in mine.get(lang) or []]
        for text in spellings:
            trigger, words = _phrasing(action_id, text)
            if not words or words in exclude:
                continue
            _add(root, known, trigger, words)
            if spoken:
                said += [(trigger, form) for form in said_forms(words) if form not in exclude]
    for trigger, words in said:  # "je fouille" for "fouiller", unless a spelling says it already
        if not _at(root, words):
            _add(root, known, trigger, words)
    return root, known


def _add(root: dict, known: set[str], trigger: Trigger, words: tuple) -> None:
    node = root
    for w in words:
        node = node.setdefault(w, {})
        known.add(w)
    if trigger not in node.get(None, []):
        node.setdefault(None, []).append(trigger)


def _at(root: dict, words: tuple) -> list:
    """The triggers a phrasing already ends at."""
    node = root
    for w in words:
        node = node.get(w)
        if node is None:
            return []
    return node.get(None, [])


def _phrasing(action_id: str, item) -> tuple[Trigger, tuple]:
    """One phrasing of phrasings.yaml: "words", "words {field}", "{field} words", or
    {say: "words", set: {field: value}}."""
    preset = ()
    if isinstance(item, dict):
        preset = tuple((str(k), v) for k, v in (item.get("set") or {}).items())
        item = item.get("say")
    if not item:
        return Trigger(action_id), ()
    text = str(item).strip()
    prose, here = None, False
    if text.endswith("}") and "{" in text:
        text, prose = text[:text.rindex("{")].strip(), text[text.rindex("{") + 1:-1].strip()
    elif text.startswith("{") and "}" in text:
        prose, text, here = text[1:text.index("}")].strip(), text[text.index("}") + 1:].strip(), True
    words = tuple(w for w in phrase(text) if w not in ":;,")
    return Trigger(action_id, prose or None, here, preset), words


def _slot(name, key, arg: ArgType) -> Slot:
    item = arg.of.reads if isinstance(arg, List) else None
    return Slot(name, key, arg.reads, item, arg.optional or arg.has_default, int(arg.low or 0), arg.high, arg.prose)


class Names:
    """One vocabulary compiled for matching: every name's words, indexed by word."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self.names: list[tuple[int, tuple[str, ...], bool]] = []
        self.index: dict[str, list[tuple[int, int]]] = {}
        for e, entry in enumerate(entries):
            for name in entry.names:
                words = V.words(name)
                if not words:
                    continue
                n = len(self.names)
                self.names.append((e, words, name in entry.weak))
                for pos, w in enumerate(words):
                    self.index.setdefault(w, []).append((n, pos))
        self.fuzzy = Fuzzy(self.index, prefixes=True)

    def words(self) -> set[str]:
        return set(self.index)


@dataclass
class Match:
    start: int
    end: int
    entry: int
    exact: bool
    weak: bool


class _Every:
    """Every token usable (a sentence read whole)."""

    def __getitem__(self, i: int) -> bool:
        return True


EVERY = _Every()


def find_names(names: Names, toks: list[Token], usable, lo: int, hi: int) -> list[Match]:
    """Every maximal run of tokens in [lo, hi) that is a part of a name (at least one
    of its words not a stop word, or the whole name)."""
    out = []
    for i in range(lo, hi):
        if not usable[i] or toks[i].kind == "punct":
            continue
        for cw in names.fuzzy(toks[i].text):
            for n, pos in names.index.get(cw, ()):
                e, words, weak = names.names[n]
                if pos and i > lo and usable[i - 1] and words[pos - 1] in names.fuzzy(toks[i - 1].text):
                    continue  # the run starts earlier
                j, k, exact = i, pos, True
                while j < hi and k < len(words) and usable[j] and words[k] in names.fuzzy(toks[j].text):
                    exact = exact and toks[j].text == words[k]
                    j, k = j + 1, k + 1
                whole = pos == 0 and k == len(words)
                if whole or any(w not in STOP and len(w) >= 3 for w in words[pos:k]):
                    out.append(Match(i, j, e, exact, weak and whole))
    return out
