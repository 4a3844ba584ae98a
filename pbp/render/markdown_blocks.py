"""Markdown's last pass over a whole post: every line a line, no block joining
another (CommonMark/GFM, checked with markdown-it-py and cmark-gfm in
tests/test_forum_structure.py).

A single newline is a space in Markdown, so every line a template writes is
kept a line. Between two lines of text the first gets a hard break (two
trailing spaces, which Python-Markdown reads too; a backslash it does not); a
blank line goes between blocks of different kinds (text, list, quote, table,
rule) so that a list neither joins the paragraph above nor swallows the line
below as a lazy continuation, and a quote does not either; two lists one blank
line apart would be one list, so every other list takes the other bullet (`-`,
`*`). Lines inside a fenced code block are left as they are; a `---`/`===` line
under text is a setext heading the MJ wrote (`m.hr()` writes `***`, never read
as one); an indented code block (four spaces after a blank line: a board drawn
in monospace) is left as it is.
"""

from __future__ import annotations

from pbp.base.patterns import Lazy

_MD_FENCE = Lazy(r"^ {0,3}(`{3,}|~{3,})")
_MD_HEADING = Lazy(r"^ {0,3}#{1,6}(?:\s|$)")
_MD_RULE = Lazy(r"^ {0,3}([*_])(?: *\1){2,} *$")
_MD_UNDERLINE = Lazy(r"^ {0,3}(?:=+|-+) *$")
_MD_ITEM = Lazy(r"^( *)([-*+]|\d{1,9}[.)])(?: |$)")
_MD_QUOTE = Lazy(r"^ {0,3}>")
_MD_TABLE = Lazy(r"^ {0,3}\|")
_MD_OTHER_BULLET = {"-": "*", "*": "-", "+": "-", ".": ")", ")": "."}


def _md_kind(line: str, previous: str | None) -> str:
    if not line.strip():
        return "blank"
    if _MD_HEADING.match(line):
        return "heading"
    if previous == "text" and _MD_UNDERLINE.match(line):
        return "underline"
    if _MD_RULE.match(line) or (line.strip().startswith("-") and _MD_UNDERLINE.match(line) and len(line.strip()) >= 3):
        return "rule"
    if _MD_ITEM.match(line):
        return "item"
    if previous in ("item", "item-cont") and line.startswith("  "):
        return "item-cont"  # an item's text going on under it
    if _MD_QUOTE.match(line):
        return "quote"
    if _MD_TABLE.match(line):
        return "table"
    return "text"


def _quoted_text(line: str) -> bool:
    """Whether a quote line holds text (not only `>` marks)."""
    return bool(line.replace(">", "").strip())


def _line_kind(line: str, opening, previous: str | None, last_kind: str | None) -> str:
    """The kind of block `line` belongs to (`opening`: it opens a fenced code block)."""
    if opening:
        return "fence"
    if line.startswith(("    ", "\t")) and (previous == "code" or (previous is None and
                                                                 last_kind not in ("item", "item-cont"))):
        return "code"  # an indented code block (a board drawn in monospace): as it is
    return _md_kind(line, previous)


def _separate(out: list[str], previous: str | None, kind: str, line: str) -> None:
    """What goes between the last line of `out` (of kind `previous`, None after
    a blank line) and `line`: a hard break, a blank line, or nothing."""
    if previous is None or previous == kind == "code":
        return
    if previous == kind == "text" or (previous == kind == "quote" and _quoted_text(out[-1])
                                      and _quoted_text(line)):
        if not out[-1].endswith(("  ", "\\")):
            out[-1] += "  "  # a hard break: the next line stays a line
    elif previous != kind and not (previous in ("item", "item-cont") and kind in ("item", "item-cont")) \
            and kind != "underline" and previous != "heading" and kind != "heading":
        out.append("")  # a blank line between blocks


def markdown_blocks(text: str) -> str:
    """A Markdown post with its blocks kept apart (see the module's docstring):
    a hard break between two lines of text, a blank line between blocks of
    different kinds, every other list of a run of lists with the other bullet.
    Player text cannot start a block (markdown_escape breaks line starts), so
    only what templates and the MJ's narration write is moved."""
    out: list[str] = []
    previous = None  # the kind of the last non-blank line, None after a blank one
    last_kind = None  # the kind of the last non-blank line, blank lines skipped
    fence = None
    # the bullet of the last top-level list, and whether the list going on was renamed
    last_bullet = None
    renamed = None
    for line in text.split("\n"):
        if fence is not None:  # inside a fenced code block: as it is, up to its closing fence
            out.append(line)
            if line.strip().startswith(fence):
                fence, previous, last_kind = None, "fence", "fence"
            continue
        opening = _MD_FENCE.match(line)
        kind = _line_kind(line, opening, previous, last_kind)
        if kind == "blank":
            out.append(line)
            previous = None
            continue
        if kind == "item":
            indent, marker = _MD_ITEM.match(line).groups()
            bullet = marker[-1] if marker[-1] in ".)" else marker
            if not indent:
                if previous not in ("item", "item-cont"):  # a new list
                    renamed = last_kind in ("item", "item-cont") and bullet == last_bullet
                if renamed:  # a list one blank line below another: the other bullet keeps them apart
                    bullet = _MD_OTHER_BULLET[bullet]
                    line = marker[:-1] + bullet + line[len(marker):] if marker[-1] in ".)" else bullet + line[1:]
                last_bullet = bullet
        _separate(out, previous, kind, line)
        if opening:
            fence = opening.group(1)[0] * 3
        out.append(line)
        previous = last_kind = kind
    return "\n".join(out)
