"""One action's values in a plain-text message (`pbp orders import`): which words
of its part name which value of which field, and what the order file writes.

A module of its own because it is the one place that decides a value: the names
found in the action's part (pbp.plaintext.wording.find_names) are grouped where they
overlap, each group goes to the one field whose vocabulary it names best (a label
such as "avec" or "faction" may say which; a name before the action's words is its
subject, e.g. the character acting), numbers go to whole-number fields, and a
prose field gets the player's own words. Anything left open is a question.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbp.base import i18n
from pbp.plaintext.wording import STOP, Slot, find_names


@dataclass
class _Label:
    start: int
    end: int
    field: str
    negative: bool


@dataclass
class _Group:
    start: int
    end: int
    options: dict  # field -> {value: label}
    word: str


class _Usable:
    """Which tokens an action's values may come from: its part, less its own words,
    quotes and labels. Computed on demand, so reading an action costs its part's
    length, not the sentence's."""

    __slots__ = ("toks", "lo", "hi", "start", "end", "off")

    def __init__(self, toks, lo: int, hi: int, start: int, end: int):
        self.toks, self.lo, self.hi, self.start, self.end = toks, lo, hi, start, end
        self.off: set[int] = set()

    def __getitem__(self, i: int) -> bool:
        return (self.lo <= i < self.hi and not self.start <= i < self.end and i not in self.off
                and self.toks[i].text != "«»")


class ActionReader:
    """The values of one action, read from tokens [lo, hi) of a unit, its own words
    being [start, end)."""

    def __init__(self, reader, unit, action_id: str, trigger, start: int, end: int, lo: int, hi: int):
        self.r, self.g, self.unit = reader, reader.g, unit
        self.toks = unit.toks
        self.texts = [t.text for t in self.toks]
        self.action_id, self.trigger, self.prose_field = action_id, trigger, trigger.prose
        self.start, self.end, self.lo, self.hi = start, end, lo, hi
        self.slots: list[Slot] = self.g.slots.get(action_id, [])
        self.by_field = {s.field: s for s in self.slots}
        self.usable = _Usable(self.toks, lo, hi, start, end)
        self.questions: list[tuple[str, dict]] = []
        self.values: dict = {}

    def numeric(self, s: Slot) -> bool:
        """Whether a field is written with numbers: a whole number, a list of them, or
        what phrasings.yaml says is (`numbers: 2`, a square)."""
        return s.kind == "int" or s.item == "int" or s.key in self.g.numbers

    def what(self, name: str | None) -> str:
        """How a question names a field: its name, or its vocabulary's for a plain argument."""
        return name if name is not None else self.by_field[None].key

    def ask(self, key: str, **params) -> None:
        self.questions.append((key, params))

    def build(self) -> tuple[object, list]:
        if self.said("repeat"):
            self.ask("import_repeat")  # "deux fois": one line of the order file is one action
            return None, self.questions
        if not self.slots:
            return None, []
        labels = self.labels()
        prose, prose_range = self.prose(labels)
        groups = self.groups(labels)
        numbers = self.numbers(labels, groups)
        values = self.values = self.assign(groups, numbers, prose, prose_range)
        # the words this action read: a name elsewhere in the sentence is no one's (importer.unread)
        self.r.used.update(i for g in groups for i in range(g.start, g.end))
        self.r.used.update(prose_range)
        self.r.used.update(i for i in range(self.lo, self.hi) if self.toks[i].kind == "num")
        if self.questions:
            return None, self.questions
        self.unknown(groups, labels, prose_range, values)
        if not self.questions:
            self.missing(values)
        arg = self.shape(values) if not self.questions else None
        return (None, self.questions) if self.questions else (arg, [])

    # -- what the part says ---------------------------------------------------------------
    def labels(self) -> list[_Label]:
        out = []
        for s in self.slots:
            for phrases, negative in ((self.g.labels.get(s.field), False), (self.g.negative.get(s.field), True)):
                if phrases is None or not phrases.items:
                    continue
                i = self.lo
                while i < self.hi:
                    n = phrases.at(self.texts, i, self.hi) if self.usable[i] else 0
                    if n:
                        out.append(_Label(i, i + n, s.field, negative))
                        i += n
                    else:
                        i += 1
        for label in out:
            self.usable.off.update(range(label.start, label.end))
        return sorted(out, key=lambda x: x.start)

    def prose(self, labels: list[_Label]) -> tuple[dict, range]:
        """A prose field's words: after a phrasing ending with {field}, or after its label,
        up to a parenthesis, a comma or the end of the part."""
        prose_slots = [s for s in self.slots if s.prose]
        if not prose_slots:
            return {}, range(0)
        begin, name = None, None
        if self.prose_field and self.prose_field in self.by_field:
            begin, name = (self.start if self.trigger.prose_here else self.end), self.prose_field
        else:
            for label in labels:
                if self.by_field[label.field].prose:
                    begin, name = label.end, label.field
                    break
        if begin is None and None in self.by_field and self.by_field[None].prose:
            begin = self.end  # a plain argument in the player's own words (a data ruleset's text): what follows
        if begin is None:
            return {}, range(0)
        stop = self.hi
        for i in range(begin, self.hi):
            if self.texts[i] in ("(", "«»", ",", ";", "[") and self.toks[i].kind == "punct":
                stop = i
                break
        if stop <= begin:
            return {}, range(0)
        words = self.r.text[self.toks[begin].start:self.toks[stop - 1].end].strip(" ,;:.-—–")
        return ({name: words} if words else {}), range(begin, stop)

    def groups(self, labels: list[_Label]) -> list[_Group]:
        """The names in the part, overlapping ones grouped, each group with the fields it may fill."""
        keys = {s.key for s in self.slots if not self.numeric(s) and not s.prose}
        found = []
        for key in keys:
            names = self.r.names.get(key)
            if names is None:
                continue
            for m in find_names(names, self.toks, self.usable, self.lo, self.hi):
                if m.weak and not self.weak_ok(key, m.start):
                    continue
                if m.end <= self.start and self.r.me is not None and names.entries[m.entry].value == self.r.me:
                    continue  # "Fabien interroge Hugo", from Fabien: who acts, not whom
                found.append((key, names, m))
        found.sort(key=lambda x: (x[2].start, -x[2].end))
        out, current, reach = [], [], -1
        for item in found:
            if current and item[2].start >= reach:
                out.append(self.group(current, labels))
                current = []
            current.append(item)
            reach = max(reach, item[2].end) if len(current) > 1 else item[2].end
        if current:
            out.append(self.group(current, labels))
        return out

    def weak_ok(self, key: str, i: int) -> bool:
        """A weak name (`est`) counts right after the action's words, after ":", or after
        one of the words phrasings.yaml gives (`vers`, `l'`)."""
        if i == self.end or (i > 0 and self.texts[i - 1] == ":"):
            return True
        after = self.g.after.get(key)
        return bool(after and i > 0 and (self.texts[i - 1],) in after.items)

    def group(self, items, labels: list[_Label]) -> _Group:
        start, end = min(m.start for _, _, m in items), max(m.end for _, _, m in items)
        score: dict = {}
        for key, names, m in items:
            covered, exact = score.setdefault((key, m.entry), (set(), set()))
            covered.update(range(m.start, m.end))
            if m.exact:
                exact.update(range(m.start, m.end))
        best = max((len(c), len(e)) for c, e in score.values())
        chosen = [(key, e) for (key, e), (c, x) in score.items() if (len(c), len(x)) == best]
        rank: dict = {}
        for key, e in chosen:
            rank[key] = min(rank.get(key, 99), self.r.names[key].entries[e].rank)
        options: dict = {}
        for key, e in chosen:
            entry = self.r.names[key].entries[e]
            if entry.rank != rank[key]:
                continue  # a name the player's own things have wins over the rules' list
            for s in self.slots:
                if s.key == key and not s.prose:
                    options.setdefault(s.field, {})[entry.value] = entry.label
        label = next((lb for lb in labels if start - 3 < lb.end <= start and lb.field in options), None)
        if label is not None:
            options = {label.field: options[label.field]}
        subject = self.g.subject
        if subject in options and len(options) > 1:
            options = {subject: options[subject]} if end <= self.start else \
                {f: v for f, v in options.items() if f != subject}
        word = self.r.text[self.toks[start].start:self.toks[end - 1].end]
        return _Group(start, end, options, word)

    def numbers(self, labels: list[_Label], groups: list[_Group]) -> dict:
        """Whole numbers: after a field's label (`malus 10`: -10), else free for an
        unlabelled whole-number field; a number right after a name is part of it
        (`baratin +2` quotes a skill's level)."""
        inside = {i for g in groups for i in range(g.start, g.end)}
        after_name = {g.end for g in groups}
        out: dict = {}
        for i in range(self.lo, self.hi):
            t = self.toks[i]
            if t.kind != "num" or not self.usable[i] or i in inside or i in after_name:
                continue
            label = next((lb for lb in labels if lb.end <= i <= lb.end + 1
                          and self.by_field[lb.field].kind == "int"), None)
            value = t.number
            if label is not None:
                if label.negative and value > 0:
                    value = -value
                out.setdefault(label.field, []).append(value)
                continue
            free = [s for s in self.slots if self.numeric(s) and not (s.kind == "int" and self.g.labels.get(s.field))]
            if free:
                out.setdefault(free[0].field, []).append(value)
        return out

    # -- deciding ---------------------------------------------------------------------
    def assign(self, groups: list[_Group], numbers: dict, prose: dict, prose_range: range = range(0)) -> dict:
        values: dict = {f: [v] for f, v in self.trigger.preset if f in self.by_field}
        # a field named outside the player's prose is not named again by the prose's words
        # ("par la Force (Physique, télékinésie)": the skill is télékinésie)
        outside = {f for g in groups if g.start not in prose_range for f in g.options}
        for g in groups:
            if g.start not in prose_range or not set(g.options) & outside:
                self.assign_group(g, values)
        for f, found in numbers.items():
            if self.by_field[f].kind == "int":
                if len(set(found)) > 1:
                    self.ask("import_two_values", what=self.what(f), valid=[str(v) for v in found])
                values[f] = found[:1]
            else:
                values[f] = found
        for f, words in prose.items():
            values[f] = [words]
        subject = self.g.subject
        if subject is not None and subject in self.by_field:
            if subject not in values and self.r.subject is not None:
                values[subject] = [self.r.subject]
            if subject in values:
                self.r.subject = values[subject][0]
                self.itself(values)
        return values

    def assign_group(self, g: _Group, values: dict) -> None:
        """The one field and value a group of words names, into `values`; else a question."""
        fields = list(g.options)
        open_fields = [f for f in fields if f not in values or self.by_field[f].kind == "list"]
        if len(open_fields) >= 1:
            fields = open_fields
        if len(fields) > 1:
            self.ask("import_which_field", word=g.word, valid=fields)
            return
        f = fields[0]
        choices = g.options[f]
        if len(choices) > 1:
            self.ask("import_ambiguous", word=g.word, what=self.what(f), valid=sorted(str(v) for v in choices.values()))
            return
        value = next(iter(choices))
        many = self.by_field[f].kind == "list"
        if f in values and not many and values[f] != [value]:
            self.ask("import_two_values", what=self.what(f), valid=[*(str(v) for v in values[f]), str(value)])
            return
        values.setdefault(f, [])
        if many or value not in values[f]:
            values[f].append(value)

    def said(self, kind: str) -> bool:
        phrases = self.r.lw[kind]
        return any(self.usable[i] and phrases.at(self.texts, i, self.hi) for i in range(self.lo, self.hi))

    def itself(self, values: dict) -> None:
        """"sur lui-même", "se soigne" (a phrasing's `{subject}`): the one acting is also
        the value of the one other field that may name them."""
        me = values[self.g.subject][0]
        for f, found in values.items():
            values[f] = [me if v == "{subject}" else v for v in found]
        if not self.said("itself"):
            return
        fields = [s.field for s in self.slots if s.field != self.g.subject and s.field not in values
                  and self.r.names.get(s.key) and any(e.value == me for e in self.r.names[s.key].entries)]
        if len(fields) == 1:
            values[fields[0]] = [me]

    def unknown(self, groups, labels, prose_range, values) -> None:
        """A label with no value after it ("avec …", "vers …"), or a capitalised word
        that names nothing where a name is missing: asked, not dropped."""
        inside = {i for g in groups for i in range(g.start, g.end)}
        if self.label_without_value(labels, inside, values):
            return
        open_slots = [s for s in self.slots if s.field not in values and not s.prose and s.kind in ("text", "player")
                      and self.r.names.get(s.key)]
        if open_slots and not self.unknown_listed(open_slots[0], inside):
            self.unknown_capital(open_slots[0], inside, prose_range)

    def ask_unknown(self, lo: int, hi: int, what: str, names) -> None:
        """Asks which value tokens [lo, hi) meant, among `names` (a Names, or None)."""
        shown = [e.label for e in names.entries] if names else []
        word = self.r.text[self.toks[lo].start:self.toks[hi - 1].end]
        self.ask("import_unknown_name", word=word, what=what, valid=shown, suggestion=i18n.closest(word, shown))

    def label_without_value(self, labels, inside: set[int], values: dict) -> bool:
        """A label followed by words that name nothing ("avec Mercier"): asked."""
        for label in labels:
            s = self.by_field[label.field]
            if label.field in values or s.prose or any(label.end <= i < label.end + 3 for i in inside):
                continue  # named, or what follows names something else ("avec le Syndicat")
            stop = next((i for i in range(label.end, self.hi) if self.toks[i].kind == "punct"), self.hi)
            stop = min(stop, label.end + 4)
            if stop <= label.end:
                continue
            if s.kind == "player" and not any(self.toks[i].upper for i in range(label.end, stop)):
                continue  # "sur la porte": a thing, not a player's name
            self.ask_unknown(label.end, stop, self.what(label.field), self.r.names.get(s.key))
            return True
        return False

    def unknown_listed(self, slot: Slot, inside: set[int]) -> bool:
        """"(Logique, piratage)" from a character without that skill: a word the player
        meant as a value, naming none of theirs, is asked, not dropped."""
        fillers = self.r.lw["fillers"].items
        for lo, hi in self.listed(inside):
            if all(self.toks[i].kind == "word" and ((self.toks[i].text,) in fillers or self.toks[i].text in STOP)
                   for i in range(lo, hi)):
                continue
            self.ask_unknown(lo, hi, slot.field or slot.key, self.r.names[slot.key])
            return True
        return False

    def unknown_capital(self, slot: Slot, inside: set[int], prose_range) -> None:
        """A capitalised word naming nothing, where a name is missing: asked."""
        fillers = self.r.lw["fillers"].items
        first = next((i for i, t in enumerate(self.toks) if t.kind == "word"), 0)
        for i in range(self.lo, self.hi):
            t = self.toks[i]
            if (t.kind != "word" or not t.upper or not self.usable[i] or i in inside
                    or (i == first and i != self.start - 1)
                    or i in prose_range or (t.text,) in fillers or t.text in self.r.known):
                continue
            self.ask_unknown(i, i + 1, slot.field or slot.key, self.r.names[slot.key])
            return

    def listed(self, inside: set[int]) -> list[tuple[int, int]]:
        """The items of a parenthesised list of values in the part ("(Mental, persuasion,
        intention claire)", the seeds' way of writing a check) that name nothing: a list
        is one where some item names a value; its items are parted by commas."""
        out, i = [], self.lo
        while i < self.hi:
            if not (self.toks[i].kind == "punct" and self.toks[i].text == "(" and self.usable[i]):
                i += 1
                continue
            close = next((j for j in range(i + 1, self.hi) if self.toks[j].text in "()"
                          and self.toks[j].kind == "punct"), self.hi)
            items, start = [], i + 1
            for j in range(i + 1, close + 1):
                if j == close or (self.toks[j].kind == "punct" and self.toks[j].text in ",;"):
                    if j > start:
                        items.append((start, j))
                    start = j + 1
            named = [any(k in inside or self.toks[k].kind == "num" for k in range(a, b)) for a, b in items]
            if any(named):
                out += [(a, b) for (a, b), n in zip(items, named) if not n
                        and all(self.usable[k] and self.toks[k].kind == "word" for k in range(a, b))]
            i = close + 1
        return out

    def missing(self, values: dict) -> None:
        for s in self.slots:
            if s.optional or s.field in values:
                continue
            names = self.r.names.get(s.key)
            valid = [e.label for e in names.entries] if names else []
            if self.numeric(s) and s.kind != "int":
                count = self.g.numbers.get(s.key, (s.low, None))[0]
                self.ask("import_numbers", what=s.field or s.key, count=count, found=0)
            else:
                what = s.field or s.key
                if what == self.action_id:  # a data action's own argument: its id says nothing more
                    self.ask("import_missing_arg", action=self.action_id, valid=valid)
                else:
                    self.ask("import_missing", action=self.action_id, what=what, valid=valid)

    def shape(self, values: dict):
        """The argument as the order file writes it: a plain value, a list, or a
        mapping of the fields found (just the value when only the short field is)."""
        def one(s: Slot):
            found = values.get(s.field)
            if found is None:
                return None
            if s.key in self.g.numbers:
                count, text = self.g.numbers[s.key]
                if len(found) != count:
                    self.ask("import_numbers", what=s.field or s.key, count=count, found=len(found))
                    return None
                if s.kind == "list" and s.item == "int":
                    return list(found)
                written = text.format(*found) if text else " ".join(map(str, found))
                return [written] if s.kind == "list" else written
            if s.kind == "list":
                if s.item == "int" and s.high is not None and not s.low <= len(found) <= s.high:
                    self.ask("import_numbers", what=s.field or s.key, count=s.high, found=len(found))
                return list(found)
            return found[0]

        if len(self.slots) == 1 and self.slots[0].field is None:
            return one(self.slots[0])
        out = {s.field: one(s) for s in self.slots if s.field in values}
        out = {k: v for k, v in out.items() if v is not None}
        if self.questions:
            return None
        short = self.g.short.get(self.action_id)
        if not out:
            return None if self.g.bare.get(self.action_id) else {}  # `posseder: {}`: its fields' defaults
        if list(out) == [short] and self.by_field[short].kind != "list":
            return out[short]
        return out
