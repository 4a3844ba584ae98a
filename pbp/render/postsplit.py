"""A post longer than the forum takes, cut into posts that each fit
(`pbp post --split`): never inside a tag or a quote.

A cut falls at the end of a line where no BBCode tag is open (a Markdown post:
outside a fenced code block), a blank line (between paragraphs) preferred.
When one block alone is longer than the limit (a long quote of roleplay), it is
cut at a line end inside it: the tags open there are closed at the end of the
part and opened again, with their attributes, at the start of the next one, so
that every part is whole. A single line longer than the limit stays whole, in a
part of its own (the caller says it is still too long).

Only the tags a template writes are seen: a player's `[` is broken already (a
zero-width space after it: pbp.render.escaping), so no text a player wrote opens one.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbp.base.patterns import Linear

# `[name]`, `[name=value]`, `[/name]`: a tag ends at its line's end at the latest
_TAG = Linear(r"\[(/?)([A-Za-z][A-Za-z0-9]*)(?:=[^\]\n]*)?\]")
_FENCE = ("```", "~~~")


@dataclass
class _Line:
    text: str
    open_after: tuple[str, ...]  # the opening tags still open after this line, outermost first
    cut_after: bool  # whether a part may end after this line with nothing open


def _bbcode_lines(text: str) -> list[_Line]:
    lines = text.split("\n")
    tags = list(_TAG.finditer(text))
    closed = {m.group(2).lower() for m in tags if m.group(1)}  # `[*]`, `[hr]` open nothing
    stack: list[tuple[str, str]] = []  # (name, opening tag as written)
    out, offset, i = [], 0, 0
    for line in lines:
        end = offset + len(line)
        while i < len(tags) and tags[i].start() < end:
            m = tags[i]
            name = m.group(2).lower()
            if name in closed:
                if not m.group(1):
                    stack.append((name, m.group(0)))
                elif any(n == name for n, _ in stack):
                    while stack and stack.pop()[0] != name:
                        pass
            i += 1
        out.append(_Line(line, tuple(tag for _, tag in stack), not stack))
        offset = end + 1
    return out


def _markdown_lines(text: str) -> list[_Line]:
    out, fence = [], None
    for line in text.split("\n"):
        marker = line.strip()[:3]
        if fence is None and marker in _FENCE:
            fence = marker
        elif fence is not None and marker == fence:
            fence = None
        out.append(_Line(line, (), fence is None))
    return out


def _closing(opening: str) -> str:
    m = _TAG.fullmatch(opening)
    return f"[/{m.group(2)}]"


def split(text: str, limit: int, fmt: str = "bbcode") -> list[str]:
    """`text` as posts of at most `limit` characters each where it can be."""
    text = text.rstrip("\n")
    if len(text) <= limit:
        return [text + "\n"]
    lines = _bbcode_lines(text) if fmt == "bbcode" else _markdown_lines(text)
    parts: list[str] = []
    start, reopened = 0, ""
    while start < len(lines):
        end = _part_end(lines, start, limit - len(reopened))
        last = lines[end - 1]
        body = "\n".join(line.text for line in lines[start:end])
        closing = "".join(_closing(tag) for tag in reversed(last.open_after)) if end < len(lines) else ""
        parts.append((reopened + body).strip("\n") + closing + "\n")
        reopened = "".join(last.open_after) if end < len(lines) else ""
        start = end
    return [p for p in parts if p.strip()]


def _part_end(lines: list[_Line], start: int, limit: int) -> int:
    """Where the part starting at line `start` ends (exclusive): after the last
    line it can hold that nothing is open after (a blank line's end preferred,
    when it keeps the part at least half full), else after the last line it can
    hold, tags closed and opened again."""
    size, fits, clean, blank = 0, start, None, None
    for i in range(start, len(lines)):
        closing = sum(len(_closing(tag)) for tag in lines[i].open_after)
        size += len(lines[i].text) + (1 if i > start else 0)
        if size + closing > limit and i > start:
            break
        fits = i + 1
        if lines[i].cut_after:
            clean = i + 1
            if not lines[i].text.strip() and size >= limit // 2:
                blank = i + 1
        if size > limit:  # one line alone over the limit: a part of its own
            break
    if fits == len(lines):
        return fits
    return blank or clean or fits
