"""Plain-text orders: a player's private message read into the actions of their
order file and their roleplay (`pbp orders import`), by rules over the ruleset's
own data — no parser per ruleset, no language model.

- A message is cut into lines, list items ("1)", "-", "•") and sentences. Inside
  one, each action's words (ids, English ids, aliases, the phrasings of
  phrasings.yaml; see pbp/plaintext/wording.py) start its part, and the sequence words
  ("puis", "then", ",") between two say where the part of the one before ends.
- The values are the names the player may use from their state
  (`Ruleset.import_names`): any unambiguous part of a name names it (`Sylas` for
  "Sylas l'Elfe sylvain"); numbers fill whole-number arguments; a phrasing ending
  with `{field}` gives the player's own words to a prose field.
- What holds no order is the roleplay, as written; greetings, labels ("RP :") and
  notes to the MJ ("HRP : …") are neither. Speech in quotes is never read as orders.
- Whatever is ambiguous, conditional, offered as a choice or unknown becomes a
  `Question` (a message key of pbp/messages.yaml, its line, its candidates):
  nothing is guessed silently.

Linear in the message: one pass over the characters, look-ups of bounded phrases,
no regular expression. The text is normalised first (pbp.render.escaping.normalise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.base import i18n
from pbp.base.errors import ByLang
from pbp.model.vocabulary import Token, words
from pbp.plaintext import import_triggers
from pbp.plaintext.import_args import ActionReader
from pbp.plaintext.import_units import MAX_UNITS, SENTENCE_ENDS, Cutter, TooLong, Unit, excerpt_of, roleplay
from pbp.plaintext.wording import EVERY, Grammar, Names, find_names, grammar, language
from pbp.render.escaping import normalise

#: the most actions a sentence, and a message, may order: far beyond any turn's rules,
#: and what keeps reading a hostile message linear (each action reads its own part)
MAX_UNIT_ACTIONS = 20
MAX_ACTIONS = 100
#: the most questions kept (a message of a thousand unknown lines asks one thing: rewrite it)
MAX_QUESTIONS = 30
_BREAKS = frozenset(",;:()[]«»")
#: who a condition's clause has act ("si je trouve une porte"): then it is an order's condition
_SUBJECTS = frozenset({"je", "j", "i", "on", "nous", "we"})


@dataclass
class Question:
    """What the importer asks instead of guessing: a message key, where, and its params."""

    key: str
    line: int
    excerpt: str
    params: dict = field(default_factory=dict)

    def text(self, lang: str) -> str:
        params = {k: v.text(lang) if isinstance(v, ByLang) else v for k, v in self.params.items()}
        return i18n.t(lang, "import_at", line=self.line, excerpt=self.excerpt) + " " + \
            i18n.t(lang, self.key, **params)


@dataclass
class ReadAction:
    id: str
    arg: object  # as the order file writes it
    line: int


@dataclass
class Reading:
    actions: list[ReadAction] = field(default_factory=list)
    roleplay: str = ""
    questions: list[Question] = field(default_factory=list)
    nothing: bool = False  # the player said they do nothing this turn


def read(text: str, ruleset, names: dict, people=(), me: str | None = None, closed=frozenset()) -> Reading:
    """What a message orders and says, for a player whose value names are `names`
    (Ruleset.import_names; or those compiled as `wording.Names`); `people`: the roster's handles and characters' names,
    never taken for a typo of an action's words (`Mélétê` is no `melee`); `me`: the
    player's handle (their own name before an action is its subject, no value);
    `closed`: the actions the player cannot take in their state, whose words are
    never read as them (Ruleset.closed_actions)."""
    text = normalise(text)
    compiled = {k: v if isinstance(v, Names) else Names(v) for k, v in names.items()}
    reader = _Reader(text, grammar(ruleset), compiled, people)
    reader.me, reader.closed = me, frozenset(closed)
    reader.english = {a: (spec or {}).get("en") for a, spec in ruleset.actions.items()}
    return reader.run()


class _Reader:
    def __init__(self, text: str, g: Grammar, names: dict[str, Names], people=()):
        self.text, self.g, self.names, self.lw = text, g, names, language()
        self.out = Reading()
        self.keep: list[tuple[int, int]] = []  # the roleplay's ranges of the text
        self.subject = None
        self.me: str | None = None
        self.closed: frozenset[str] = frozenset()
        self.english: dict = {}
        self.used: set[int] = set()  # the tokens of the current unit an action read as a value
        #: the words of every name: a typo of an action's words is never one of them
        self.known = set().union(*(n.words() for n in names.values())) if names else set()
        self.people: set[str] = set()  # the words of the roster's handles and names: a signature
        for person in people:
            self.known.update(words(person))
            self.people.update(words(person))

    # -- cutting the message ---------------------------------------------------------
    def run(self) -> Reading:
        try:
            units = self.joined(Cutter(self.text, self.lw, self.keep).units())
        except TooLong as exc:
            self.out.questions.append(Question("import_too_long", exc.line, excerpt_of(self.text, 0, len(self.text)),
                                               {"max": MAX_UNITS}))
            return self.out
        for unit in units:
            self.unit(unit)
        if not self.out.actions and not self.out.questions and not self.out.nothing and any(
                u.toks for u in units):
            self.out.questions.append(Question("import_no_order", 1, excerpt_of(self.text, 0, len(self.text)),
                                               {"valid": self.ids(self.g.slots)}))
        self.out.roleplay = roleplay(self.text, self.keep)
        return self.out

    def joined(self, units: list[Unit]) -> list[Unit]:
        """A sentence of values only, right after an action's on the same line, says more
        of it ("Je fuis ! Vers le nord !"): one unit."""
        out: list[Unit] = []
        fillers = self.lw["fillers"].items
        for unit in units:
            prev = out[-1] if out else None
            words = [t for t in unit.toks if t.kind != "punct"]
            if (prev is not None and prev.line == unit.line and not unit.item and words
                    and all(t.text in self.known or (t.text,) in fillers for t in words)
                    and any(t.text in self.known for t in words)
                    and self.triggers(prev.toks)
                    and not self.triggers(unit.toks)):
                out[-1] = Unit(prev.line, prev.toks + unit.toks, prev.start, unit.end, prev.item, prev.note,
                               unit.asks, prev.quotes + unit.quotes)
                continue
            out.append(unit)
        return out

    # -- reading one unit ---------------------------------------------------------------
    def unit(self, unit: Unit) -> None:
        i, kind = Cutter.label(unit.toks, {"roleplay": self.lw["labels"]["roleplay"]})
        if kind == "roleplay":  # "Je me cache. RP : Mélétê tremble." — the rest of the sentence is roleplay
            if i < len(unit.toks):
                self.keep.append((unit.toks[i].start, unit.end))
            return
        texts = [t.text for t in unit.toks]
        found = import_triggers.continued(self.g, self.lw, texts, self.triggers(unit.toks)) or \
            import_triggers.implied(self.g, self.names, unit)
        excerpt = excerpt_of(self.text, unit.start, unit.end)
        if not found:
            self.no_trigger(unit, texts, excerpt)
            return
        if len(found) > MAX_UNIT_ACTIONS or len(self.out.actions) + len(found) > MAX_ACTIONS:
            self.ask("import_too_many", unit, excerpt, count=len(self.out.actions) + len(found), max=MAX_ACTIONS)
            return
        self.keep.extend(unit.quotes)  # speech inside an order's sentence stays roleplay
        ask = self.doubt(unit, texts, found)
        if ask:
            self.ask(ask, unit, excerpt, valid=self.ids(t[2][0].action for t in found))
            return
        self.parts(unit, texts, found, excerpt)
        self.unread(unit, texts, found)

    def doubt(self, unit: Unit, texts: list[str], found) -> str | None:
        """The question an order's sentence raises as a whole, if any: a question
        mark, a condition, an order reversed ("avant de"), a choice offered, two
        actions with nothing to part them."""
        ask = None
        if unit.asks:
            ask = "import_asks"
        elif any(self.conditional(texts, i) for i in range(len(texts))):
            ask = "import_conditional"
        for (s0, e0, _), (s1, _, _) in zip(found, found[1:]):
            between = range(e0, s1)
            if any(self.lw["reverse"].at(texts, i, s1) for i in between):
                ask = ask or "import_order_unclear"
            if any(self.lw["alternative"].at(texts, i, s1) and "ù" not in self.text[unit.toks[i].start:unit.toks[i].end]
                   for i in between):
                ask = ask or "import_alternative"
        if not ask and self.unparted(unit, texts, found):
            ask = "import_unparted"
        return ask

    def parts(self, unit: Unit, texts: list[str], found, excerpt: str) -> None:
        """Each action's part of the sentence read: its action (asked when its words
        are several actions'), and its values."""
        bounds = self.regions(unit, texts, found)
        self.used = set()
        for (start, end, triggers), (lo, hi) in zip(found, bounds):
            if self.negated(texts, start, end, lo):
                self.out.nothing = True  # "je ne bouge pas": said, and no order
                continue
            actions = sorted({t.action for t in triggers})
            if len(actions) > 1:
                actions = self.fitting(unit, triggers, actions, start, end, lo, hi)
            if len(actions) > 1:
                self.ask("import_ambiguous_action", unit, excerpt, word=self.text[unit.toks[start].start:
                                                                                  unit.toks[end - 1].end],
                         valid=self.ids(actions))
                continue
            self.action(unit, excerpt, actions[0], _pick([t for t in triggers if t.action == actions[0]]),
                        start, end, lo, hi)

    def unread(self, unit: Unit, texts: list[str], found) -> None:
        """A part of an order's sentence with no action's words, cut off by a sequence word,
        is asked about when it reads like an order of its own: after "puis"/"then", or
        naming a value no action took ("Ombeline sort par le nord puis elle se cache")."""
        cuts = self.sequence_cuts(unit, texts)
        spans = [(s, e) for s, e, _ in found]  # each action's own words ("Attendre et observer")
        edges = [(0, False)] + [(e, strong) for _, e, strong in cuts]
        ends = [(s, strong) for s, _, strong in cuts] + [(len(texts), False)]
        for (lo, strong_before), (hi, strong_after) in zip(edges, ends):
            strong = strong_before or strong_after
            if hi <= lo or any(s < hi and lo < e for s, e in spans) or any(k in self.used for k in range(lo, hi)):
                continue  # an action's own words or part, or words an action read ("au nord puis à l'est")
            if self.reads_like_order(unit, texts, lo, hi, strong):
                while unit.toks[hi - 1].kind == "punct" and hi - 1 > lo:
                    hi -= 1
                word = self.text[unit.toks[lo].start:unit.toks[hi - 1].end]
                self.ask("import_unread_part", unit, excerpt_of(self.text, unit.start, unit.end, word), word=word,
                         valid=self.ids(self.g.slots))
                return

    def sequence_cuts(self, unit: Unit, texts: list[str]) -> list[tuple[int, int, bool]]:
        """(start, end, strong) of each sequence word of a unit ("puis", "then", ","; a
        comma between two numbers is none); strong: a "then" word."""
        cuts = []
        i = 0
        while i < len(texts):
            n = self.lw["sequence"].at(texts, i)
            if n and not (texts[i] == "," and self._between_numbers(unit.toks, i)):
                cuts.append((i, i + n, bool(self.lw["then"].at(texts, i, i + n) == n)))
                i += n
            else:
                i += 1
        return cuts

    def reads_like_order(self, unit: Unit, texts: list[str], lo: int, hi: int, strong: bool) -> bool:
        """Whether words no action read (lo to hi) read like an order of their own: more
        than fillers, after a "then" word (`strong`) or naming a value no action took."""
        part = [k for k in range(lo, hi) if unit.toks[k].kind != "punct"
                and (texts[k],) not in self.lw["fillers"].items]
        if not part:
            return False
        named = any(m.start not in self.used and not m.weak and texts[m.start] not in self.people
                    for names in self.names.values() for m in find_names(names, unit.toks, EVERY, lo, hi))
        return strong or named

    def fitting(self, unit: Unit, triggers, actions: list[str], start, end, lo, hi) -> list[str]:
        """Of several actions sharing words ("frappe": brawl or melee), the one the part's
        values say: the only one that reads without a question and takes a field the
        others do not ("avec son épée": a weapon, melee)."""
        subject = self.subject
        found = {}
        for action_id in actions:
            reader = ActionReader(self, unit, action_id, _pick([t for t in triggers if t.action == action_id]),
                                  start, end, lo, hi)
            _, questions = reader.build()
            self.subject = subject
            if not questions:
                found[action_id] = set(reader.values)
        best = [a for a, fields in found.items() if not any(fields < other for other in found.values())]
        return best if len(best) == 1 and len(found) > 1 and any(found[best[0]] > f for f in found.values()) \
            else actions

    def unparted(self, unit: Unit, texts: list[str], found) -> bool:
        """Two different actions' words with nothing to part them are two actions only
        when the second is an infinitive ("je file interroger Fabien", "to question");
        else they may be one ("je cherche s'il y a des pièges"): asked."""
        for (s0, e0, t0), (s1, _, t1) in zip(found, found[1:]):
            if {t.action for t in t0} == {t.action for t in t1} or s0 == e0:
                continue
            if any(self.lw["sequence"].at(texts, i, s1) for i in range(e0, s1)):
                continue
            if self.g.subject and any(texts[i] in self.known for i in range(e0, s1)):
                continue  # "Aria attaque la brute Bran tire": a new subject parts them
            first = texts[s1]
            if not (first.endswith(("er", "ir", "re")) or (s1 > 0 and texts[s1 - 1] in ("to", "pour", "de", "d"))):
                return True
        return False

    def conditional(self, texts: list[str], i: int) -> bool:
        """A condition at i ("si", "if"), not an indirect question ("je regarde s'il y a")."""
        return bool(self.lw["conditional"].at(texts, i)) and not (i > 0 and (texts[i - 1],) in self.lw["indirect"].items)

    def no_trigger(self, unit: Unit, texts: list[str], excerpt: str) -> None:
        words = [t for t in unit.toks if t.kind != "punct"]
        if not words:
            self.punctuation(unit)
            return
        if self.said_to_mj(unit, words):
            return
        # a condition with a subject after it; found from the end, in one pass
        last_subject = max((i for i, w in enumerate(texts) if w in _SUBJECTS), default=-1)
        if any(self.conditional(texts, i) for i in range(last_subject)):
            self.ask("import_conditional", unit, excerpt)  # "si je trouve une porte, je l'ouvre": for the MJ
            return
        if any(self.lw["nothing"].at(texts, i) for i in range(len(texts))):
            self.out.nothing = True
            return
        if unit.item:
            self.ask("import_no_action", unit, excerpt, valid=self.ids(self.g.slots))
        elif not unit.note:
            self.keep.append((unit.start, unit.end))

    def punctuation(self, unit: Unit) -> None:
        """A unit of punctuation only: roleplay, but for "!!" ending the sentence before
        it on its line (whatever became of that one) and a list item's."""
        k = unit.start - 1
        while k >= 0 and self.text[k] in " \t":
            k -= 1
        trailing = k >= 0 and self.text[k] != "\n" and not unit.quotes and unit.toks and all(t.text in SENTENCE_ENDS for t in unit.toks)
        if not unit.item and not trailing:
            self.keep.append((unit.start, unit.end))

    def said_to_mj(self, unit: Unit, words: list[Token]) -> bool:
        """A heading naming one of the player's characters, chatter, numbers alone, a
        greeting or a signature: neither an order nor roleplay."""
        if self.g.subject and self.heading(unit):
            return True
        return all(t.kind == "num" or (t.text,) in self.lw["chatter"].items for t in words) or self.signoff(words)

    def signoff(self, words: list[Token]) -> bool:
        """A greeting, thanks or a sign-off ("Bonne soirée, et merci pour l'event !!",
        "Cheers,"), or a signature (only the names of people): said to the MJ, not roleplay."""
        texts = [t.text for t in words]
        if self.lw["signoff"].at(texts, 0):
            return True
        return all(t in self.people for t in texts)

    def heading(self, unit: Unit) -> bool:
        """A unit that only names one of the player's characters ("Aria :"): what follows is theirs."""
        subject = next((s for s in self._subject_slots()), None)
        names = self.names.get(subject.key) if subject else None
        if names is None:
            return False
        matches = find_names(names, unit.toks, EVERY, 0, len(unit.toks))
        covered = {i for m in matches for i in range(m.start, m.end)}
        rest = [t for i, t in enumerate(unit.toks) if i not in covered and t.kind != "punct"
                and (t.text,) not in self.lw["fillers"].items]
        values = {names.entries[m.entry].value for m in matches}
        if len(values) == 1 and not rest:
            self.subject = values.pop()
            return True
        return False

    def _subject_slots(self):
        for slots in self.g.slots.values():
            for s in slots:
                if s.field == self.g.subject:
                    yield s

    def triggers(self, toks: list[Token]) -> list[tuple[int, int, list]]:
        """Each action's words in a unit (pbp/plaintext/import_triggers.py)."""
        return import_triggers.triggers(self.g, toks, [t.text for t in toks], self.known, self.closed)

    def negated(self, texts: list[str], start: int, end: int, lo: int) -> bool:
        """A negation before the action in its clause, or "pas"/"not" right after it."""
        i = start - 1
        while i >= lo and not (texts[i] in _BREAKS or texts[i] == "«»" or (texts[i],) in self.lw["clause"].items
                               or (texts[i],) in self.lw["sequence"].items):
            if self.lw["negation_before"].at(texts, i, start):
                return True
            i -= 1
        return end < len(texts) and bool(self.lw["negation_after"].at(texts, end))

    def regions(self, unit: Unit, texts: list[str], found) -> list[tuple[int, int]]:
        """The part of the unit each action reads: from the end of the sequence word
        before it to the last sequence word before the next one."""
        cuts, joined = [0], [False]
        for (s0, e0, _), (s1, _, t1) in zip(found, found[1:]):
            cut = None
            i = e0
            while i < s1:
                n = self.lw["sequence"].at(texts, i, s1)
                if n and not (texts[i] == "," and self._between_numbers(unit.toks, i)):
                    cut = (i, i + n)
                    i += n
                else:
                    i += 1
            if cut is None and self.g.subject in {s.field for s in self.g.slots.get(t1[0].action, [])}:
                subject = next(s for s in self.g.slots[t1[0].action] if s.field == self.g.subject)
                names = self.names.get(subject.key)
                if names is not None:
                    matches = find_names(names, unit.toks, EVERY, e0, s1)
                    ends = [m for m in matches if m.end == s1]
                    if ends:
                        cut = (min(m.start for m in ends),) * 2
            joined.append(cut is None)
            cuts.append(cut or (s1, s1))
        bounds = []
        for k, (start, end, _) in enumerate(found):
            lo = 0 if k == 0 else cuts[k][1]
            hi = len(texts) if k == len(found) - 1 else cuts[k + 1][0]
            bounds.append((min(lo, start), max(hi, end)))
        # two actions with nothing between to part them ("je file interroger Fabien dans le
        # couloir") read the same words: each takes what names its own fields
        k = 0
        while k < len(bounds):
            j = k
            while j + 1 < len(bounds) and joined[j + 1]:
                j += 1
            if j > k:
                span = (bounds[k][0], bounds[j][1])
                bounds[k:j + 1] = [span] * (j - k + 1)
            k = j + 1
        return bounds

    @staticmethod
    def _between_numbers(toks: list[Token], i: int) -> bool:
        return 0 < i < len(toks) - 1 and toks[i - 1].kind == "num" and toks[i + 1].kind == "num"

    def ids(self, actions) -> ByLang:
        """Action ids as a question lists them: French, or English in an English campaign."""
        actions = list(actions)
        return ByLang(fr=actions, en=[e if isinstance(e := self.english.get(a), str) else a for a in actions])

    def ask(self, key: str, unit: Unit, excerpt: str, **params) -> None:
        if params.get("word") and excerpt.endswith("…"):
            excerpt = excerpt_of(self.text, unit.start, unit.end, str(params["word"]))
        if len(self.out.questions) < MAX_QUESTIONS:
            self.out.questions.append(Question(key, unit.line, excerpt, params))
        elif len(self.out.questions) == MAX_QUESTIONS:
            self.out.questions.append(Question("import_more_questions", unit.line, excerpt, {"max": MAX_QUESTIONS}))

    # -- one action's values --------------------------------------------------------------
    def action(self, unit: Unit, excerpt: str, action_id: str, trigger, start: int, end: int,
               lo: int, hi: int) -> None:
        reader = ActionReader(self, unit, action_id, trigger, start, end, lo, hi)
        arg, questions = reader.build()
        if questions:
            for key, params in questions:
                self.ask(key, unit, excerpt, **params)
            return
        self.out.actions.append(ReadAction(action_id, arg, unit.line))

def _pick(triggers: list):
    """Of the phrasings ending at the same words, the one that says most (a prose field, presets)."""
    return max(triggers, key=lambda t: (bool(t.prose), len(t.preset)))
