"""A player's message as the importer reads it (pbp/plaintext/importer.py): cut
into units (lines, list items, numbered items, sentences), the notes to the MJ
("HRP : …", "[OOC] … [/OOC]") cut out as lines of their own, speech in quotes
set aside, the labels ("RP :", "Tour 4 :") read; and the parts kept as roleplay
joined back into the roleplay's text. One pass over the characters.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbp.model.vocabulary import SEPARATORS, Token, fold, tokens

#: the most sentences and lines a message is read in: a long roleplay post has a few
#: hundred; what keeps reading the most broken-up message of `order_file_bytes` bounded
MAX_UNITS = 3000
_QUOTES = {"«": "»", "“": "”", "„": "“", '"': '"'}
_BULLETS = frozenset("-*•–—·+")
SENTENCE_ENDS = frozenset(".!?…")
_MARKER_ENDS = frozenset(").:/°-")
#: how far after a bracket a note's label is looked for
_NOTE_WINDOW = 24
#: after a note's label in brackets ("(note : …)"); the labels below need none ("(HRP je file)")
_NOTE_ENDS = frozenset(":)]-—–,")
_PLAIN_NOTES = frozenset({("hrp",), ("ooc",), ("hors", "rp"), ("hors", "roleplay"), ("out", "of", "character")})


class TooLong(Exception):
    """A message cut into more than MAX_UNITS sentences and lines (at `line`): asked, not read."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


@dataclass
class Unit:
    """A sentence or a list item: what one part of the message says."""

    line: int
    toks: list[Token]
    start: int
    end: int
    item: bool  # a list item or a line of an orders section: it must hold an order
    note: bool  # a note to the MJ: read for orders, never roleplay
    asks: bool  # ends with "?"
    quotes: list[tuple[int, int]]


class Cutter:
    """The units of a message (`units`); the ranges of the text a label says are
    roleplay are added to `keep`."""

    def __init__(self, text: str, lw: dict, keep: list[tuple[int, int]]):
        self.text, self.lw, self.keep = text, lw, keep

    def units(self) -> list[Unit]:
        out, section, closing = [], "free", None
        labels = self.lw["labels"]
        for n, base, line, in_note in self.pieces():
            toks = tokens(line, base)
            if not toks:
                continue
            i, kind = self.label(toks, labels)
            note = kind == "note" or in_note
            if kind == "roleplay" and i >= len(toks):
                section = "rp"  # a label alone on its line: what follows is roleplay
            elif kind == "roleplay":
                self.keep.append((toks[i].start, toks[-1].end))  # "RP : …": this line only
                continue
            elif kind in ("orders", "note"):
                section = "orders" if kind == "orders" else ("free" if section == "rp" else section)
            if section == "rp" and kind != "note":
                if i < len(toks):
                    self.keep.append((toks[i].start, toks[-1].end))
                continue
            if i >= len(toks):
                continue
            item = section == "orders" and not note
            raw = self.text[toks[i].start:base + len(line)]
            if raw[:1] in _BULLETS and raw[1:2] and (raw[1].isspace() or (raw[0] == "-" and not raw[1].isdigit())):
                item = True
                while i < len(toks) and toks[i].kind == "punct" and toks[i].text in _BULLETS:
                    i += 1
            pieces, last = self.markers(toks, i)
            for lo, hi, marked in pieces:
                closing = self.sentences(out, n, toks, lo, hi, item or marked, note, closing)
        return out

    def pieces(self):
        """The message's lines as (number, offset, text, inside a note), a note to the MJ
        in brackets ("(HRP : …)", "[OOC] … [/OOC]", over several lines or inside one)
        cut out as lines of its own: read for orders, never roleplay."""
        notes = self.notes()
        line_start, k = 0, 0
        for n, line in enumerate(self.text.split("\n"), 1):
            start, end = line_start, line_start + len(line)
            line_start = end + 1
            at = start
            while k < len(notes) and notes[k][1] <= start:
                k += 1
            m = k
            while m < len(notes) and notes[m][0] < end:  # the notes on this line, each once
                a, b = notes[m]
                m += 1
                if a > at:
                    yield n, at, self.text[at:a], False
                yield n, max(a, at), self.text[max(a, at):min(b, end)], True
                at = min(b, end)
            if at < end or at == start:
                yield n, at, self.text[at:end], False

    def notes(self) -> list[tuple[int, int]]:
        """The spans of the notes to the MJ opened by a bracket and a note label: to
        the matching bracket (or "[/HRP]"), else to the end of the paragraph. Only the
        few characters after each bracket are read for a label: linear in the text."""
        out: list[tuple[int, int]] = []
        note = self.lw["labels"]["note"]
        starts = tuple({p[0] for p in note.items})  # a label's first word: what a bracket must be followed by
        text, at = self.text, 0
        while True:
            i = min((k for k in (text.find("(", at), text.find("[", at)) if k >= 0), default=-1)
            if i < 0:
                return out
            at = i + 1
            window = fold(text[i + 1:i + 1 + _NOTE_WINDOW].lstrip(" *_"))
            if not window.startswith(starts):
                continue
            toks = tokens(text[i:i + 1 + _NOTE_WINDOW], i)
            texts = [t.text for t in toks]
            j = 1
            while j < len(toks) and texts[j] in ("*", "_"):
                j += 1
            n = note.at(texts, j)
            if not n or j + n >= len(toks) and i + 1 + _NOTE_WINDOW < len(text):
                continue  # no label, or one cut by the window: not a note
            after = texts[j + n] if j + n < len(toks) else ":"
            if after not in _NOTE_ENDS and tuple(texts[j:j + n]) not in _PLAIN_NOTES:
                continue
            end = self._note_end(i, toks[j + n - 1].end, after == "]" and text[i] == "[")
            out.append((i, end))
            at = end

    def _note_end(self, i: int, label_end: int, tag: bool) -> int:
        """Where a note opened at i ends: its closing bracket (nested ones counted), "[/…]"
        for a tag ("[HRP] … [/HRP]", else its line), or the end of its paragraph."""
        text = self.text
        paragraph = text.find("\n\n", i)
        limit = len(text) if paragraph < 0 else paragraph
        if tag:
            close = text.find("[/", label_end, limit)
            if close >= 0:
                stop = text.find("]", close, limit)
                return stop + 1 if stop >= 0 else limit
            line_end = text.find("\n", label_end, limit)
            return limit if line_end < 0 else line_end
        opening, closing = text[i], ")" if text[i] == "(" else "]"
        depth = 0
        for k in range(i, limit):
            c = text[k]
            if c == opening:
                depth += 1
            elif c == closing:
                depth -= 1
                if depth == 0:
                    return k + 1
        return limit

    @staticmethod
    def label(toks: list[Token], labels) -> tuple[int, str | None]:
        """Where a line's content starts after a label ("RP :", "[HRP]", "Tour 4 :"), and its kind."""
        i = 0
        while i < len(toks) and toks[i].kind == "punct" and toks[i].text in "[(*#":
            i += 1
        texts = [t.text for t in toks]
        for kind, phrases in labels.items():
            n = phrases.at(texts, i)
            if not n:
                continue
            j = i + n
            if j < len(toks) and toks[j].kind == "num":
                j += 1
            if j >= len(toks):
                return j, kind
            while j + 1 < len(toks) and toks[j].text in ("*", "_") and toks[j + 1].text in ("*", "_", ":"):
                j += 1  # "**RP** :"
            if toks[j].text in (":", "]", ")") or (toks[j].text in "-—–" and toks[j].kind == "punct"):
                j += 1
                while j < len(toks) and toks[j].text in (":", "]", ")", "*", "_"):  # "**RP :**"
                    j += 1
                return j, kind
        return 0, None

    def markers(self, toks: list[Token], i: int) -> tuple[list[tuple[int, int, bool]], int]:
        """A line's content cut at its numbered items ("1) … 2) …", "1. …")."""
        pieces, start, marked, last, depth = [], i, False, 0, 0
        j = i
        while j < len(toks):
            t = toks[j]
            if t.kind == "punct" and t.text == "(":
                depth += 1
            elif t.kind == "punct" and t.text == ")":
                depth = max(0, depth - 1)
            if depth == 0 and self.marker_at(toks, j):
                value, nxt = int(t.text), toks[j + 1]
                at_start = j == i
                inline = j > i and value == last + 1 and (nxt.text == ")" or marked or last)
                if (at_start and value < 100) or inline:
                    if j > start:
                        pieces.append((start, j, marked))
                    start, marked, last = j + 2, True, value
                    j += 2
                    continue
            j += 1
        pieces.append((start, len(toks), marked))
        return [p for p in pieces if p[1] > p[0]], last

    @staticmethod
    def marker_at(toks: list[Token], j: int) -> bool:
        """Whether a number at j is written as an item's number: "1)", "2.", "3/" glued
        to it, a space after."""
        t = toks[j]
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        return (t.kind == "num" and t.text.isdigit() and nxt is not None and nxt.kind == "punct"
                and nxt.start == t.end and nxt.text in _MARKER_ENDS
                and (j + 2 >= len(toks) or toks[j + 2].start > nxt.end))

    def sentences(self, out: list[Unit], n: int, toks: list[Token], lo: int, hi: int, item: bool, note: bool,
                  closing: str | None) -> str | None:
        """The sentences of a piece of a line; speech in quotes is set aside (kept as
        roleplay, never read). Returns the quote still open at the end of the line."""
        current: list[Token] = []
        quotes: list[tuple[int, int]] = []
        quote_start = toks[lo].start if closing else None
        first = None

        def flush(end_tok: Token | None, asks: bool):
            nonlocal current, quotes, first
            if len(out) >= MAX_UNITS:
                raise TooLong(n)
            if first is not None:
                end = end_tok.end if end_tok is not None else max(current[-1].end if current else first,
                                                                   quotes[-1][1] if quotes else first)
                out.append(Unit(n, current, first, end, item, note, asks, quotes))
            current, quotes, first = [], [], None

        for j in range(lo, hi):
            t = toks[j]
            if closing is not None:
                if t.kind == "punct" and t.text == closing:
                    quotes.append((quote_start, t.end))
                    first = quote_start if first is None else first
                    current.append(Token("«»", t.start, t.end, "punct"))
                    closing = None
                continue
            if t.kind == "punct" and t.text in _QUOTES:
                closing, quote_start = _QUOTES[t.text], t.start
                continue
            if first is None:
                first = t.start
            current.append(t)
            if t.kind == "punct" and t.text in SENTENCE_ENDS and not self.decimal(toks, j):
                flush(t, t.text == "?")
        if closing is not None:
            end = toks[hi - 1].end
            quotes.append((quote_start, end))
            first = quote_start if first is None else first
            if closing == '"':
                closing = None  # straight quotes do not run over a line
        flush(None, False)
        return closing

    @staticmethod
    def decimal(toks: list[Token], j: int) -> bool:
        t = toks[j]
        return (t.text == "." and 0 < j < len(toks) - 1 and toks[j - 1].kind == "num" and toks[j + 1].kind == "num"
                and toks[j - 1].end == t.start and toks[j + 1].start == t.end)


def roleplay(text: str, keep: list[tuple[int, int]]) -> str:
    """The kept parts of the text, in order: parts of a line joined by a space,
    lines as written, no blank line at either end nor two in a row."""
    pieces: list[tuple[int, int]] = []
    for start, end in sorted(set(keep)):
        # a part starts and ends where its characters do (an apostrophe is no token)
        while start > 0 and not text[start - 1].isspace() and text[start - 1] in SEPARATORS:
            start -= 1
        while end < len(text) and not text[end].isspace() and text[end] in SEPARATORS:
            end += 1
        if pieces and start <= pieces[-1][1]:
            pieces[-1] = (pieces[-1][0], max(end, pieces[-1][1]))
        elif pieces and not text[pieces[-1][1]:start].strip(" \t"):
            pieces[-1] = (pieces[-1][0], end)
        else:
            pieces.append((start, end))
    lines: list[str] = []
    last_end = 0
    for start, end in pieces:
        gap = text[last_end:start]
        chunk = text[start:end].strip()
        if not lines:
            lines.append(chunk)
        elif "\n" not in gap:
            lines[-1] += " " + chunk
        else:
            if "\n\n" in gap.replace(" ", "").replace("\t", ""):
                lines.append("")
            lines.append(chunk)
        last_end = end
    return "\n".join(lines).strip()


def excerpt_of(text: str, start: int, end: int, focus: str | None = None) -> str:
    """A part of the message as a question quotes it: one line, at most 60 characters,
    around the words it asks about (`focus`) when the part is longer."""
    part = " ".join(text[start:end].split())
    if len(part) <= 60:
        return part
    at = part.find(" ".join(focus.split())) if focus else -1
    if at <= 40:
        return part[:59] + "…"
    begin = max(0, min(at - 10, len(part) - 58))
    chunk = part[begin:begin + 58]
    return "…" + chunk + ("…" if begin + 58 < len(part) else "")
