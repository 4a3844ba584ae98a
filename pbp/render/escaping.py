"""Player text made inert for the output format: every escape path starts with
`normalise` (one line ending, no control characters, terminal escapes or bidi
overrides, no pile of combining marks), then makes the text inert for the
format, checked with independent parsers (tests/test_escaping_parsers.py):
- both formats: bare URLs, `www.` addresses and e-mail addresses get an
  invisible WORD JOINER where autolinkers look (`http:⁠/⁠/`, `www⁠.⁠`, `.⁠com`,
  `⁠@⁠`), so no forum turns them into live links;
- BBCode: every `[` is followed by a zero-width space, so no tag a player
  writes is live, not even a `[/quote]` closing the quote around it; so is a
  `<` that would open an HTML tag, and a `&` that would start an entity, for
  boards that allow HTML in posts;
- Markdown: `&` and `<` become entities (Python-Markdown passes raw HTML
  through), Markdown punctuation (`~` included: strikethrough, tilde fences) is
  backslash-escaped, line-start markers (headings, quotes, lists, setext
  underlines, rules, table delimiter rows) are broken and leading spaces become
  no-break spaces (no indented code block); a value inside a line stays on it:
  no link, image, heading, list, table, code or HTML from player text.
"""

from __future__ import annotations

import re

from pbp.base.patterns import Lazy, Linear

ZWSP = "\u200b"
WJ = "\u2060"  # WORD JOINER: invisible, and no line break where it stands
NBSP = "\u00a0"

# -- normalising player text -------------------------------------------------------

# CommonMark ends a line at \r and \r\n too (a lone \r would end a `> ` quote line);
# the Unicode line and paragraph separators mean a line break as well.
_LINE_ENDINGS = Lazy("\r\n?|[\u2028\u2029]")
# Terminal escape sequences, removed whole (removing only ESC would leave `[31m`):
# CSI (colours, cursor moves), then OSC/DCS/SOS/PM/APC strings with their
# terminator (a string stops at the next introducer: linear time on any input),
# then any other ESC sequence (intermediate bytes + final byte).
_TERMINAL_ESCAPES = Lazy(
    "(?:\x1b\\[|\x9b)[0-?]*[ -/]*[@-~]"
    "|(?:\x1b[\\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x90\x98\x9c-\x9f]*(?:\x07|\x1b\\\\|\x9c)"
    "|\x1b[ -/]*[0-~]"
)
# C0 controls but tab and newline, DEL, C1 controls, bidi marks (LRM, RLM, ALM:
# U+200E, U+200F, U+061C), embeddings/overrides (U+202A-U+202E) and isolates
# (U+2066-U+2069), lone surrogates (they cannot be written as UTF-8).
_INVISIBLE = Lazy("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: combining marks kept on one base character: Vietnamese takes two, Tibetan
#: stacks some six; "zalgo" text piles thousands on one letter, over the lines
#: around it in every forum
MAX_MARKS = 8
_MARK_PILE = Linear(r"(\pM{%d})\pM+" % MAX_MARKS)
# what a pile needs: that many characters in a row past U+02FF (every combining
# mark is); a cheap look first, as most non-ASCII text is Latin letters with accents
_PAST_LATIN = Lazy("[^\x00-\u02ff]{%d}" % (MAX_MARKS + 1))


def normalise(text) -> str:
    """Player text as it reads: LF line endings; control characters, terminal
    escape sequences, bidi marks and overrides removed; at most MAX_MARKS
    combining marks on a character. Every escape path starts here."""
    text = str(text)
    if text.isascii() and text.isprintable():  # most text: nothing below changes it
        return text
    if not text.isprintable():
        text = _LINE_ENDINGS.sub("\n", text)
        text = _TERMINAL_ESCAPES.sub("", text)
        text = _INVISIBLE.sub("", text)
    if max(text, default="") > "\u02ff" and _PAST_LATIN.search(text):
        text = _MARK_PILE.sub(lambda m: m.group(1), text)
    return text


# Where autolinkers look, found by testing linkify-it (markdown-it's linkify,
# fuzzy links on), cmark-gfm's autolink extension and the bbcode/bbcodepy link
# finders, a WORD JOINER goes:
# - after a scheme's colon and between slashes (`http:⁠/⁠/`; bbcodepy still
#   links `http:/⁠/`, linkify-it links a bare `//host`);
# - on both sides of the dot of any `www.`/`ftp.` (cmark-gfm and the bbcode
#   parsers link `www.⁠x`, linkify-it links `www⁠.x` as an IDN, cmark-gfm links
#   `_www.x` too);
# - after a dot before a letter (linkify-it links a bare `evil.com`; `.⁠com` is
#   no top-level domain);
# - on both sides of `@` (e-mail addresses, and @mentions on Discourse or
#   GitHub; markdown-it's linkify-it still links `mj@⁠evil.⁠com` as an IDN
#   address, not `mj⁠@⁠evil.⁠com`).
_AUTOLINK_SPOTS = Lazy(r"(?:www|ftp)\.|(?<=[^\W\d_]):(?=\S)|/(?=/)|@(?=\S)|\.(?=[^\W\d_])", re.I)


def _autolink_spot(m) -> str:
    token = m.group(0)
    if len(token) == 4:  # www. / ftp.
        return token[:3] + WJ + "." + WJ
    if token == "@":
        return WJ + "@" + WJ
    return token + WJ


def defuse_autolinks(text: str) -> str:
    return _AUTOLINK_SPOTS.sub(_autolink_spot, text)


# -- escaping -------------------------------------------------------------------------

# HTML only opens a tag, an end tag, a comment or a declaration after `<` + one of these.
_HTML_TAG_OPEN = Lazy(r"<(?=[A-Za-z/!?])")
_HTML_ENTITY = Lazy(r"&(?=[#A-Za-z])")
# Markdown punctuation that matters anywhere (emphasis, code, links, tables, strikethrough)...
_MD_ANYWHERE = Lazy(r"([\\`*_\[\]|~])")
# ...and what only matters at the start of a line: headings, quotes, setext
# underlines, lists, rules, and table delimiter rows (cmark-gfm takes `a` over
# `:-:` for a one-column table, no pipe needed).
_MD_LINE_START = Lazy(r"^([ \t]*)([#>=]|[+\-](?=\s|$)|-(?=[-:])|:(?=-)|\d+[.)](?=\s|$))", re.M)
# Four leading spaces (or a tab) open an indented code block.
_MD_INDENT = Lazy(r"^[ \t]+", re.M)


def _bbcode_inert(text: str) -> str:
    text = defuse_autolinks(normalise(text))
    text = _HTML_TAG_OPEN.sub("<" + ZWSP, _HTML_ENTITY.sub("&" + ZWSP, text))
    return text.replace("[", "[" + ZWSP)


def bbcode_escape(text) -> str:
    """Player text inert in BBCode: no tag (every `[` broken), no HTML on boards
    that allow it, no autolink."""
    text = _bbcode_inert(text)
    last_line = text[text.rfind("\n") + 1:]
    if last_line.rfind("[") > last_line.rfind("]"):  # a `[` left open on the last line
        # Tokenizers that take `[` up to the next `]` (bbcodepy: `\[/?.+?\]`) would
        # swallow the tag that follows (the `[/quote]` closing this text); only a
        # line break stops them.
        text += "\n"
    return text


def bbcode_attribute(value) -> str:
    """A quoted tag attribute (`[quote="..."]`): no quote or bracket can end it early."""
    value = re.sub(r"\s+", " ", normalise(value)).strip()
    # No `]` is left, so the tag's own `]` ends it for every tokenizer.
    return _bbcode_inert(value.replace('"', "'").replace("]", ")"))


def _md_line_start(m) -> str:
    lead, token = m.group(1), m.group(2)
    if token == "=":  # `=` has no backslash escape in Python-Markdown; an entity breaks a setext underline
        return lead + "&#61;"
    if token[0].isdigit():  # `1.` starts a list, `1\.` does not
        return lead + token[:-1] + "\\" + token[-1]
    return lead + "\\" + token


def markdown_escape(text) -> str:
    """Player text inert in Markdown (CommonMark, GFM, Python-Markdown), line by
    line: its line breaks stay (a quote prefixes each line)."""
    text = defuse_autolinks(normalise(text))
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = _MD_ANYWHERE.sub(r"\\\1", text)
    text = _MD_LINE_START.sub(_md_line_start, text)
    return _MD_INDENT.sub(lambda m: m.group(0).replace("\t", NBSP * 4).replace(" ", NBSP), text)


def one_line(text: str) -> str:
    """Lines joined by one space, the white space around each line break
    dropped (no regular expression: linear whatever the spaces)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    kept = [lines[0].rstrip(" \t")] + [line.strip() for line in lines[1:]]
    return " ".join(line for line in kept if line)


def markdown_escape_inline(text) -> str:
    """A value inside a line of Markdown (a list item, a heading, a sentence): its
    line breaks become spaces, so it cannot end the block it stands in (a single
    line break reads as a space in Markdown anyway)."""
    return markdown_escape(one_line(normalise(text)))


def markdown_code(text) -> str:
    """The content of an inline code span: nothing in it is markup but a
    backtick (which would end it) and a line break (a blank line would end it)."""
    return one_line(normalise(text)).replace("`", "'")
