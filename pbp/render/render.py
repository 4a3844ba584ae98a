"""Rendering: jinja2 templates to BBCode or Markdown, escaping, Markdown-to-BBCode.

Templates are written once per language and use the markup helpers of `m`
(`m.b(x)`, `m.quote(text, author)`, `m.list(items)`...), which the output format
implements; a campaign can still provide a format-specific template
(`public.bbcode.j2` is looked up before `public.j2`).

Every `{{ value }}` is escaped for the output format unless it is `Markup`
(what the helpers return): player text cannot become markup. Every escape path
starts with `normalise` (one line ending, no control characters, terminal
escapes or bidi overrides), then makes the text inert for the format, checked
with independent parsers (tests/test_escaping_parsers.py):
- both formats: bare URLs, `www.` addresses and e-mail addresses get an
  invisible WORD JOINER where autolinkers look (`http:⁠/⁠/`, `www⁠.⁠`, `.⁠com`,
  `@⁠`), so no forum turns them into live links;
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

Each format's last pass over a whole post (`Formatter.finish`) makes the
structure right whatever the template's line breaks, so every ruleset gets it:

- Markdown (CommonMark/GFM, checked with markdown-it-py and cmark-gfm in
  tests/test_forum_structure.py): a single newline is a space there, so every
  line a template writes is kept a line. Between two lines of text the first
  gets a hard break (two trailing spaces, which Python-Markdown reads too;
  a backslash it does not); a blank line goes between blocks of different kinds
  (text, list, quote, table, rule) so that a list neither joins the paragraph
  above nor swallows the line below as a lazy continuation, and a quote does not
  either; two lists one blank line apart would be one list, so every other list
  takes the other bullet (`-`, `*`). Lines inside a fenced code block are left
  as they are; a `---`/`===` line under text is a setext heading the MJ wrote
  (`m.hr()` writes `***`, never read as one); an indented code block (four
  spaces after a blank line: a board drawn in monospace) is left as it is.
- BBCode: coordinates a template writes (`[4, 2]`) become `(4, 2)`: visible, so
  a player who copies them copies no invisible character, and no parser can take
  them for a tag; any other `[` a template writes that opens no tag of the
  dialect (`[public]`, `[x]`) gets the zero-width space player text gets, so a
  post only holds its dialect's tags. Lists are
  `[list]`/`[*]` (`m.list`, nested with (text, sub-items) pairs), never `- `
  lines.

An error in a template (syntax, undefined value, missing include, an exception
under a campaign's own template) is a TemplateError naming the file and line.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from markupsafe import Markup as _JinjaSafe

from pbp.base.errors import PbpError, TemplateError
from pbp.base.patterns import DIGIT, SPACE, Lazy, Linear

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
# - after `@` (e-mail addresses, and @mentions on Discourse or GitHub).
_AUTOLINK_SPOTS = Lazy(r"(?:www|ftp)\.|(?<=[^\W\d_]):(?=\S)|/(?=/)|@(?=\S)|\.(?=[^\W\d_])", re.I)


def _autolink_spot(m) -> str:
    token = m.group(0)
    if len(token) == 4:  # www. / ftp.
        return token[:3] + WJ + "." + WJ
    return token + WJ


def defuse_autolinks(text: str) -> str:
    return _AUTOLINK_SPOTS.sub(_autolink_spot, text)


# -- escaping -------------------------------------------------------------------------

# HTML only opens a tag, an end tag, a comment or a declaration after `<` + one of these.
_HTML_TAG_OPEN = Lazy(r"<(?=[A-Za-z/!?])")
_HTML_ENTITY = Lazy(r"&(?=[#A-Za-z])")
# Coordinates a template writes: two or more numbers in brackets, `[4, 2]`, `[-1, 0, 3]`.
# A comma is a decimal mark or a separator: two readings of `1,2,3`, so RE2 (the
# backtracking engine took seconds per number more on `[1,2,3,…` left open).
_NUMBER = rf"{SPACE}*-?{DIGIT}+(?:[.,]{DIGIT}+)?{SPACE}*"
_COORDINATES = Linear(rf"\[({_NUMBER}(?:[,;]{_NUMBER})+)\]")
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


class Markup(str):
    """Text already in the output format: never escaped again."""

    __slots__ = ()


class Formatter:
    """Markup helpers available to templates as `m`. Arguments that are not
    Markup are escaped first. `lang` gives the punctuation of the lines a
    helper writes itself (a quote's author line)."""

    name = "text"  # its format's name in pbp/render/formats.py, which says the rest

    def __init__(self, lang: str = "fr"):
        from pbp.render.grammar import for_lang

        self.lang = lang
        self.grammar = for_lang(lang)

    @property
    def ext(self) -> str:
        """The extension of this format's post files (pbp/render/formats.py)."""
        from pbp.render import formats

        return formats.get(self.name, text=True).ext

    def esc(self, text) -> Markup:
        if text is None:
            return Markup("")
        if isinstance(text, Markup):
            return text
        if isinstance(text, _JinjaSafe):  # a macro's output marked `|safe`: already in the format
            return Markup(str(text))
        return Markup(self._escape(str(text)))

    def _escape(self, text: str) -> str:
        return normalise(text)

    def finalize(self, value):
        if value is None:
            return ""
        if isinstance(value, (Markup, _JinjaSafe)):  # helpers' output, or `|safe` on a macro call
            return value
        if isinstance(value, bool):
            return str(value)
        return self._escape(str(value))

    def join(self, items, sep=", ") -> Markup:
        return Markup(self.esc(sep).join(self.esc(i) for i in items))

    def roll(self, roll) -> Markup:
        """A roll forum style, `4d6dl1 (2+5+5+~~2~~ = 12)`: a die read but not
        counted (dropped, rerolled) is marked this format's way (`struck_die`).
        The text starts with the roll's expression, which is escaped; the rest
        is faces, signs and parentheses, the same escaped or not."""
        from pbp.model.dice import Roll, forum

        roll = Roll.from_dict(roll) if isinstance(roll, dict) else roll
        text = forum(roll, strike=lambda face: str(self.struck_die(face)))
        return Markup(self.esc(roll.expr) + text[len(roll.expr):])

    def struck_die(self, face: str) -> Markup:
        """A die's face read but not counted: `~~2~~`, as the terminal shows it."""
        from pbp.model.dice_notation import struck

        return Markup(struck(face))

    # Plain text defaults; the markup formats override them.
    def b(self, x): return self.esc(x)
    def i(self, x): return self.esc(x)
    def u(self, x): return self.esc(x)
    def s(self, x): return self.esc(x)
    def color(self, x, color): return self.esc(x)
    def code(self, x): return self.esc(x)
    def h(self, x, level=2): return Markup(self.esc(x) + "\n" + ("=" if level == 1 else "-") * len(str(x)))
    def url(self, href, label=None): return self.esc(label or href)
    def hr(self): return Markup("----")

    def quote(self, text, author=None) -> Markup:
        head = f"{self.esc(author)}{self.grammar.colon}\n" if author else ""
        return Markup(head + "\n".join("> " + line for line in self.esc(text).split("\n")))

    def list(self, items, _depth=0) -> Markup:
        """A bulleted list; an item may be a pair (text, sub-items) for a nested list
        (a fight's assaults under the fight)."""
        out = []
        for item in items:
            text, children = split_item(item)
            out.append("  " * _depth + "- " + self.esc(text))
            if children:
                out.append(self.list(children, _depth + 1))
        return Markup("\n".join(out))

    def lines(self, items) -> Markup:
        """Lines meant as lines (a summary, one per character): each its own paragraph
        where the format merges single newlines (Markdown), plain lines elsewhere."""
        return Markup("\n".join(str(self.esc(i)) for i in items))

    def spoiler(self, text, title=None) -> Markup:
        return self.esc(text)

    def table(self, rows, header=None) -> Markup:
        """Plain text: columns aligned (the MJ's terminal), a rule under the header."""
        lines = [[str(self.esc(c)) for c in row] for row in ([header] if header else []) + list(rows)]
        if not lines:
            return Markup("")
        widths = [max(len(row[i]) if i < len(row) else 0 for row in lines) for i in range(max(map(len, lines)))]
        out = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in lines]
        if header:
            out.insert(1, "  ".join("-" * w for w in widths))
        return Markup("\n".join(out))

    def md(self, markdown_text) -> Markup:
        """MJ narration written in Markdown (trusted), in this output format."""
        return Markup(str(markdown_text or "").strip())

    def finish(self, text: str) -> str:
        """The whole rendered post, last pass."""
        return text


class MarkdownFormatter(Formatter):
    name = "markdown"

    def _escape(self, text: str) -> str:
        return markdown_escape_inline(text)

    def b(self, x): return Markup(f"**{self.esc(x)}**")
    def i(self, x): return Markup(f"*{self.esc(x)}*")
    def u(self, x): return Markup(f"*{self.esc(x)}*")
    def s(self, x): return Markup(f"~~{self.esc(x)}~~")
    def struck_die(self, face): return self.s(face)
    def code(self, x): return Markup("`" + markdown_code(x) + "`")
    def h(self, x, level=2): return Markup("#" * (level + 1) + " " + self.esc(x))
    def url(self, href, label=None): return Markup(f"[{self.esc(label or href)}]({str(href).replace(')', '%29')})")
    def hr(self): return Markup("***")  # never a setext underline, whatever line is above

    def quote(self, text, author=None) -> Markup:
        # Every line of the body starts with `>` (a lone \r cannot end one: normalised),
        # so whatever the text holds, this is one quote.
        body = text if isinstance(text, Markup) else markdown_escape(text or "")
        lines = []
        if author:
            lines.append(f"> **{self.esc(author)}**{self.grammar.colon}")
            lines.append(">")
        for line in body.split("\n"):
            # Two trailing spaces keep the player's line breaks.
            lines.append(("> " + line + "  ") if line.strip() else ">")
        return Markup("\n".join(lines))

    def list(self, items, _depth=0) -> Markup:
        # Nested items indent by the width of their parent's marker ("- "), as
        # CommonMark requires; `finish` puts the blank lines around the list.
        out = []
        for item in items:
            text, children = split_item(item)
            out.append("  " * _depth + "- " + self.esc(text))
            if children:
                out.append(self.list(children, _depth + 1))
        return Markup("\n".join(out))

    def lines(self, items) -> Markup:
        # One paragraph per line: CommonMark merges lines separated by a single newline.
        return Markup("\n\n".join(one_line(str(self.esc(i))) for i in items))

    def spoiler(self, text, title=None) -> Markup:
        return self.quote(text, title)

    def table(self, rows, header=None) -> Markup:
        rows = [list(r) for r in rows]
        if header is None:
            if not rows:
                return Markup("")
            header, rows = rows[0], rows[1:]
        cell = lambda c: self.esc(c).replace("\n", " ")
        out = ["| " + " | ".join(cell(c) for c in header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
        return Markup("\n".join(out))

    def md(self, markdown_text) -> Markup:
        return Markup(str(markdown_text or "").strip())

    def finish(self, text: str) -> str:
        return markdown_blocks(text)


class BBCodeFormatter(Formatter):
    name = "bbcode"
    #: what each dialect has beyond phpBB's b, i, u, color, size, quote, list, url, img, code
    DIALECTS = {
        "phpbb": {"size": "%", "strike": None, "spoiler": False, "table": False},
        "forumactif": {"size": "px", "strike": "strike", "spoiler": True, "table": True},
        "xenforo": {"size": "1-7", "strike": "s", "spoiler": True, "table": True},
    }
    HEADING_SIZES = {"%": (200, 150, 120), "px": (24, 18, 15), "1-7": (6, 5, 4)}
    #: the tags every dialect has (`*` is a list item)
    COMMON_TAGS = frozenset({"b", "i", "u", "color", "size", "quote", "list", "*", "url", "img", "code"})

    def __init__(self, dialect: str = "phpbb", lang: str = "fr"):
        super().__init__(lang)
        self.dialect = dialect
        self.features = self.DIALECTS[dialect]

    @property
    def tags(self) -> frozenset[str]:
        """Every tag this dialect's posts may hold (what pbp emits, what `pbp preview` renders)."""
        extra = {"spoiler"} if self.features["spoiler"] else set()
        extra |= {"table", "tr", "td"} if self.features["table"] else set()
        extra |= {self.features["strike"]} if self.features["strike"] else set()
        return self.COMMON_TAGS | extra

    def _escape(self, text: str) -> str:
        return bbcode_escape(text)

    def _tag(self, tag, x, arg=None) -> Markup:
        opening = f"[{tag}={arg}]" if arg is not None else f"[{tag}]"
        return Markup(f"{opening}{self.esc(x)}[/{tag}]")

    def b(self, x): return self._tag("b", x)
    def i(self, x): return self._tag("i", x)
    def u(self, x): return self._tag("u", x)
    def color(self, x, color): return self._tag("color", x, re.sub(r"[^#A-Za-z0-9]", "", str(color)))
    def code(self, x): return Markup("[code]" + bbcode_escape(x) + "[/code]")
    def hr(self): return Markup("[b]――――――――――[/b]")

    def s(self, x):
        tag = self.features["strike"]
        return self._tag(tag, x) if tag else self.esc(x)

    def struck_die(self, face: str) -> Markup:
        """`[s]2[/s]` or `[strike]2[/strike]`; where the dialect has no strike tag
        (phpBB) a word says it: `(2 écarté)`, `(2 dropped)` (no ` 8)` smiley either)."""
        if self.features["strike"]:
            return self.s(face)
        from pbp.base import i18n

        return self.esc(i18n.t(self.lang, "die_struck", face=face))

    def h(self, x, level=2) -> Markup:
        sizes = self.HEADING_SIZES[self.features["size"]]
        size = sizes[min(max(level, 1), 3) - 1]
        return Markup(f"[size={size}]{self.b(x)}[/size]")

    def url(self, href, label=None):
        href = str(href).replace("[", "%5B").replace("]", "%5D")
        return Markup(f"[url={href}]{self.esc(label or href)}[/url]")

    def quote(self, text, author=None) -> Markup:
        if author:
            return Markup(f'[quote="{bbcode_attribute(author)}"]{self.esc(text)}[/quote]')
        return self._tag("quote", text)

    def list(self, items) -> Markup:
        items = list(items)
        if not items:
            return Markup("")
        # A line break ends an item for some parsers (the `bbcode` package): every
        # item stays on its line, markup too (a name with a line break in `[b]`).
        out = []
        for item in items:
            text, children = split_item(item)
            text = Markup(one_line(str(text))) if isinstance(text, (Markup, _JinjaSafe)) \
                else one_line(normalise(text))
            out.append(f"\n[*]{self.esc(text)}" + (str(self.list(children)) if children else ""))
        return Markup("[list]" + "".join(out) + "\n[/list]")

    def lines(self, items) -> Markup:
        return Markup("\n".join(str(self.esc(i)) for i in items))

    def spoiler(self, text, title=None) -> Markup:
        if self.features["spoiler"]:
            arg = f'="{bbcode_attribute(title)}"' if title else ""
            return Markup(f"[spoiler{arg}]{self.esc(text)}[/spoiler]")
        return self.quote(text, title)

    def table(self, rows, header=None) -> Markup:
        rows = [list(r) for r in rows]
        if not self.features["table"]:
            lines = ([self.b(" | ".join(str(c) for c in header))] if header else [])
            lines += [self.esc(" | ".join(str(c) for c in row)) for row in rows]
            return Markup("\n".join(lines))
        out = ["[table]"]
        if header:
            out.append("[tr]" + "".join(f"[td]{self.b(c)}[/td]" for c in header) + "[/tr]")
        out += ["[tr]" + "".join(f"[td]{self.esc(c)}[/td]" for c in row) + "[/tr]" for row in rows]
        out.append("[/table]")
        return Markup("\n".join(out))

    def md(self, markdown_text) -> Markup:
        return Markup(markdown_to_bbcode(str(markdown_text or ""), self))

    def finish(self, text: str) -> str:
        # Player text is broken already (a zero-width space after each `[`, so none
        # of it matches); this catches the brackets templates write.
        text = _COORDINATES.sub(lambda m: "(" + m.group(1) + ")", text)
        return _bracket_pattern(self.tags).sub("[" + ZWSP, text)


@functools.lru_cache(maxsize=8)
def _bracket_pattern(tags: frozenset[str]) -> re.Pattern:
    """A `[` that opens none of `tags` (`[b]`, `[size=150]`, `[/quote]`, `[*]`) and
    is not broken yet: `[public]`, `[privé : Lucy]`, `[x]` in generated text."""
    names = "|".join(sorted((re.escape(t) for t in tags), key=len, reverse=True))
    return re.compile(r"\[(?!/?(?:" + names + r")[\]=])(?!" + ZWSP + ")", re.I)


def split_item(item):
    """A list item is a text, or a pair (text, sub-items) for a nested list."""
    if isinstance(item, (tuple, list)) and len(item) == 2 and not isinstance(item, str):
        return item[0], item[1]
    return item, None


def formatter(fmt: str, dialect: str = "phpbb", lang: str = "fr") -> Formatter:
    """The markup helpers of output format `fmt` (pbp/render/formats.py, or "text"
    for the terminal); an unknown name is refused, never rendered as plain text."""
    from pbp.render import formats

    cls = globals()[formats.get(fmt, text=True).formatter]
    return cls(dialect, lang) if issubclass(cls, BBCodeFormatter) else cls(lang)


# -- Markdown blocks: every line a line, no block joining another ----------------------

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
        if opening:
            kind = "fence"
        elif line.startswith(("    ", "\t")) and (previous == "code" or (previous is None and
                                                                   last_kind not in ("item", "item-cont"))):
            kind = "code"  # an indented code block (a board drawn in monospace): as it is
        else:
            kind = _md_kind(line, previous)
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
        if previous == kind == "code":
            pass
        elif previous is not None:
            if previous == kind == "text" or (previous == kind == "quote" and _quoted_text(out[-1])
                                              and _quoted_text(line)):
                if not out[-1].endswith(("  ", "\\")):
                    out[-1] += "  "  # a hard break: the next line stays a line
            elif previous != kind and not (previous in ("item", "item-cont") and kind in ("item", "item-cont")) \
                    and kind != "underline" and previous != "heading" and kind != "heading":
                out.append("")  # a blank line between blocks
        if opening:
            fence = opening.group(1)[0] * 3
        out.append(line)
        previous = last_kind = kind
    return "\n".join(out)


# -- Markdown (MJ narration) to BBCode -------------------------------------------

def markdown_to_bbcode(text: str, fmt: BBCodeFormatter | None = None) -> str:
    """The MJ's Markdown (gm.yaml's narration) in the dialect's BBCode."""
    from pbp.render.narration import to_bbcode  # Python-Markdown and html.parser: only when there is narration

    return to_bbcode(text, fmt or BBCodeFormatter())


# -- templates -------------------------------------------------------------------

def package_dir(name: str) -> Path:
    """pbp/<name> once installed; <repository>/<name> in a source checkout."""
    here = Path(__file__).parent.parent
    installed = here / name
    return installed if installed.is_dir() else here.parent / name


def template_paths(ruleset_id: str, lang: str, campaign_root: Path | None = None,
                   ruleset_folder: Path | None = None) -> list[Path]:
    """Where templates are looked up, first match wins: the campaign's own,
    then pbp's defaults for the ruleset, then the ruleset package's (third-party
    rulesets), then the shared ones."""
    paths = []
    if campaign_root is not None:
        own = campaign_root / "templates"
        paths += [own / ruleset_id / lang, own / lang, own]
    root = package_dir("templates")
    paths.append(root / ruleset_id / lang)
    if ruleset_folder is not None:
        paths.append(ruleset_folder / "templates" / lang)
    paths += [root / "common" / lang, root / "common"]
    return [p for p in paths if p.is_dir()]


#: what one rendering may do, whatever its template says (a campaign's templates
#: are a stranger's data): loop iterations over `range`, characters written, the
#: length of a repeated text or list (`"x" * n`), an exponent
MAX_ITERATIONS = 1_000_000
MAX_OUTPUT_CHARS = 4 * 1024 * 1024
MAX_REPEATED = 1_000_000
MAX_EXPONENT = 1_000


def _environment_class():
    from jinja2.sandbox import SandboxedEnvironment, SecurityError

    class DataFirstEnvironment(SandboxedEnvironment):
        """Templates run sandboxed (no attribute starting with `_`, no unsafe
        callable: `''.__class__`, `cycler.__init__.__globals__` are refused)
        with their work bounded (see MAX_ITERATIONS...). `e.data.items` means
        the key "items", not the dict method: event data keys win over dict
        attributes."""

        intercepted_binops = frozenset(["*", "**"])

        def getattr(self, obj, attribute):
            if type(obj) is dict:  # one lookup, not `in` then `[]`: templates read event data all the time
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            elif isinstance(obj, dict) and attribute in obj:  # (a defaultdict would make up the key)
                return obj[attribute]
            return SandboxedEnvironment.getattr(self, obj, attribute)

        def call_binop(self, context, operator, left, right):
            if operator == "**" and isinstance(right, int) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"exponent {right} over {MAX_EXPONENT}")
            if operator == "*" and isinstance(left, int) != isinstance(right, int):
                sequence, times = (right, left) if isinstance(left, int) else (left, right)
                if hasattr(sequence, "__len__") and times * len(sequence) > MAX_REPEATED:
                    raise SecurityError(f"a repeated value of {times * len(sequence)} items, over {MAX_REPEATED}")
            return SandboxedEnvironment.call_binop(self, context, operator, left, right)

    return DataFirstEnvironment


MAX_TEMPLATE_BYTES = 1024 * 1024


def _loader(paths: list[Path]):
    """jinja2's file loader, reading only regular files inside its folders: a
    campaign received from someone else may hold a link from templates/ to the
    MJ's private files (a post would then print them)."""
    import os
    import stat

    from jinja2 import FileSystemLoader
    from jinja2.loaders import split_template_path
    from jinja2.sandbox import SecurityError

    class DataLoader(FileSystemLoader):
        def get_source(self, environment, template):
            pieces = split_template_path(template)
            for folder in self.searchpath:
                path = os.path.join(folder, *pieces)
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                real, inside = os.path.realpath(path), os.path.realpath(folder)
                why = ("a link out of its folder" if os.path.commonpath([real, inside]) != inside
                       else "not a regular file" if not stat.S_ISREG(info.st_mode)
                       else f"over {MAX_TEMPLATE_BYTES} bytes" if info.st_size > MAX_TEMPLATE_BYTES else None)
                if why:
                    exc = SecurityError(f"{template}: {why}")
                    exc.template = path
                    raise exc
                break
            return super().get_source(environment, template)

    return DataLoader([str(p) for p in paths])


class _Budget:
    """The loop iterations `range` gives one rendering (templates have no other
    unbounded loop: a `for` goes over data, or over a range)."""

    def __init__(self):
        self.left = MAX_ITERATIONS

    def range(self, *args):
        from jinja2.sandbox import SecurityError

        numbers = range(*args)
        self.left -= len(numbers)
        if self.left < 0:
            raise SecurityError(f"over {MAX_ITERATIONS} loop iterations in one rendering")
        return numbers


#: how every Renderer's environment is built
ENV_OPTIONS = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True, "autoescape": False}

_BYTECODE_CACHE = None


def _bytecode_cache():
    """Compiled templates kept for the process, keyed by file and checked against
    the source's checksum (an edited template is compiled again): `pbp verify`
    and the tests render many turns with the same templates, and compiling them
    is most of the cost of rendering. Every Renderer builds its environment with
    the same options, so the compiled code is the same for all.

    In memory only: compiled code read back from the user's cache folder would
    be code run from a file (jinja2's entries are a pickle and a marshalled code
    object), and the folder holds plain data only (pbp.base.usercache). Measured on
    `pbp post --format markdown` (manhunt): 0.29 s with such a disk cache, 0.39 s
    without."""
    global _BYTECODE_CACHE
    if _BYTECODE_CACHE is None:
        from jinja2 import BytecodeCache

        class MemoryBytecodeCache(BytecodeCache):
            def __init__(self):
                self.store: dict[str, bytes] = {}

            def load_bytecode(self, bucket):
                code = self.store.get(bucket.key)
                if code is not None:
                    # a stale entry (the template changed) leaves the bucket empty: compiled again
                    bucket.bytecode_from_string(code)

            def dump_bytecode(self, bucket):
                self.store[bucket.key] = bucket.bytecode_to_string()

        _BYTECODE_CACHE = MemoryBytecodeCache()
    return _BYTECODE_CACHE


#: the Renderers of this command, by what they are built from (see `renderer_for`)
_RENDERERS: dict[tuple, "Renderer"] = {}
_RENDERERS_KEPT = 32  # a process rendering many campaigns (the tests) keeps the last few


def renderer_for(paths: list[Path], fmt: str, dialect: str = "phpbb", lang: str = "fr",
                 root: Path | None = None) -> "Renderer":
    """One Renderer (one jinja2 environment) per template paths, format,
    dialect and language: every turn `pbp verify` replays, every post of a
    turn, shares it, so each template is loaded and compiled once. Its
    templates are read once: `forget_renderers` (each command, in the command
    line) starts again from the files."""
    key = (tuple(str(p) for p in paths), fmt, dialect, lang, str(root) if root is not None else None)
    rend = _RENDERERS.get(key)
    if rend is None:
        if len(_RENDERERS) >= _RENDERERS_KEPT:
            _RENDERERS.pop(next(iter(_RENDERERS)))
        # a command's templates do not change while it runs: no stat of each file at each include
        rend = _RENDERERS[key] = Renderer(paths, fmt, dialect, lang, root=root, reload=False)
    return rend


def forget_renderers() -> None:
    """A new command starts with no Renderer (in-process callers run many)."""
    _RENDERERS.clear()


class Renderer:
    def __init__(self, paths: list[Path], fmt: str, dialect: str = "phpbb", lang: str = "fr",
                 root: Path | None = None, reload: bool = True):
        """`root`: the campaign folder, so that an error in one of its own
        templates names the file as the MJ sees it (templates/public.j2).
        `reload`: check each template's file before reusing it (off for the
        Renderers of one command: see `renderer_for`)."""
        from jinja2 import StrictUndefined

        Environment = _environment_class()
        from pbp.render import formats

        self.output_format = formats.get(fmt, text=True)
        self.fmt = formatter(fmt, dialect, lang)
        self.lang = lang
        self.paths = [Path(p) for p in paths]
        self.root = Path(root).resolve() if root is not None else None
        self._chosen: dict[str, str] = {}  # template name -> the file name it is found under
        self.env = Environment(
            loader=_loader(paths),
            finalize=self.fmt.finalize,
            undefined=StrictUndefined,
            bytecode_cache=_bytecode_cache(),
            auto_reload=reload,
            **ENV_OPTIONS,
        )
        from pbp.render.grammar import for_lang

        from pbp.base import i18n

        # `t(key, ...)`: a catalogue message (pbp's or a ruleset's), in the post's language
        self.env.globals.update(m=self.fmt, fmt=self.fmt.name, lang=lang, g=for_lang(lang),
                                t=lambda key, **params: i18n.t(lang, key, **params))
        # `items | map("extract", mapping)`: look each item up in a mapping (kept when absent).
        self.env.filters["extract"] = lambda key, mapping: mapping.get(key, key) if hasattr(mapping, "get") else key
        del self.env.globals["lipsum"]  # random text, of any length asked: nothing a post needs
        # imported templates and macros see the globals, not the context: the budget is read from here
        self._budget = _Budget()
        self.env.globals["range"] = lambda *args: self._budget.range(*args)

    def has(self, name: str) -> bool:
        """Whether a template `name` exists for this format (an optional one)."""
        import jinja2

        try:
            self._template(name)
        except jinja2.TemplateNotFound:
            return False
        return True

    def _template(self, name: str):
        """The template `name` for this format: `name.<format>.j2`, else
        `name.j2`. Which of the two names exists is looked up once (a name
        jinja2 does not find is searched for in every folder again, each time);
        the template itself comes from the environment, which reloads an
        edited file."""
        chosen = self._chosen.get(name)
        if chosen is None:
            template = self.env.select_template([name + self.output_format.template_suffix, f"{name}.j2"])
            self._chosen[name] = template.name
            return template
        return self.env.get_template(chosen)

    def render(self, name: str, **context) -> str:
        """The template `name` rendered; any error of a template (syntax,
        undefined value, missing include, an exception in a campaign's own
        template) is a TemplateError naming its file and line."""
        try:
            text = self._bounded_render(self._template(name), context)
        except PbpError:
            raise
        except Exception as exc:
            error = self._template_error(exc, context)
            if error is None:  # pbp's own code failed under pbp's own templates: a bug, said as one
                raise
            raise error from exc
        return tidy(self.fmt.finish(text))

    def _bounded_render(self, template, context: dict) -> str:
        """The template's text, written piece by piece: refused past
        MAX_OUTPUT_CHARS, and `range` counted against the rendering's budget."""
        from jinja2.sandbox import SecurityError

        out, size = [], 0
        self._budget = _Budget()
        for piece in template.generate(**context):
            size += len(piece)
            if size > MAX_OUTPUT_CHARS:
                exc = SecurityError(f"over {MAX_OUTPUT_CHARS} characters written")
                exc.template = template.filename  # written by no line in particular: the file is named
                raise exc
            out.append(piece)
        return "".join(out)

    # -- template errors ------------------------------------------------------------

    def _template_file(self, filename: str) -> Path | None:
        """The template file a traceback frame runs, or None for Python code."""
        if not filename.endswith(".j2"):
            return None
        path = Path(filename).resolve()
        for folder in self.paths:
            if path.is_relative_to(folder.resolve()):
                return path
        return None

    def _own(self, path: Path) -> bool:
        return self.root is not None and path.is_relative_to(self.root)

    def _shown(self, path) -> str:
        path = Path(path).resolve()
        return str(path.relative_to(self.root)) if self._own(path) else str(path)

    def _template_error(self, exc: Exception, context: dict) -> TemplateError | None:
        import traceback

        import jinja2
        from jinja2.sandbox import SecurityError

        from pbp.base import i18n

        frames = [(path, line) for path, line in
                  ((self._template_file(f.f_code.co_filename), line) for f, line in traceback.walk_tb(exc.__traceback__))
                  if path is not None]
        where = frames[-1] if frames else (None, None)
        params: dict = {}
        if isinstance(exc, jinja2.TemplateSyntaxError):
            key, params = "template_syntax", {"error": exc.message}
            where = (exc.filename, exc.lineno) if exc.filename else where
        elif isinstance(exc, jinja2.TemplateNotFound):
            missing = list(getattr(exc, "templates", None) or [exc.name])
            key = "template_not_found" if frames else "template_missing"
            params = {"name": missing, "paths": [self._shown(p) for p in self.paths],
                      "suggestion": i18n.closest(missing[-1], self.env.list_templates(extensions=["j2"]))}
        elif isinstance(exc, jinja2.UndefinedError):
            message = exc.message or str(exc)
            if m := re.fullmatch(r"'([^']*)' is undefined", message):
                known = sorted(set(context) | {"m", "fmt", "lang"})  # what pbp gives every template
                key, params = "template_undefined", {"name": m.group(1), "valid": known,
                                                     "suggestion": i18n.closest(m.group(1), known)}
            elif m := re.fullmatch(r"'(.*)' has no attribute '([^']*)'", message):
                key, params = "template_no_attribute", {"value": m.group(1), "name": m.group(2)}
            else:
                key, params = "template_invalid", {"error": message}
        elif isinstance(exc, SecurityError):
            key, params = "template_unsafe", {"error": str(exc).rstrip(".")}
            where = where if where[0] is not None else (Path(exc.template) if hasattr(exc, "template") else None, None)
        elif isinstance(exc, jinja2.TemplateError):
            key, params = "template_invalid", {"error": str(exc)}
        else:
            own = [f for f in frames if self._own(f[0])]
            if not own:
                return None
            where = own[-1]
            key, params = "template_failed", {"error": f"{type(exc).__name__}: {exc}"[:300]}
        path, line = where
        return TemplateError(key, file=self._shown(path) if path else None, line=line, **params)


def tidy(text: str) -> str:
    """One blank line at most between blocks, no leading/trailing blank lines,
    one final newline: stable bytes whatever the template's whitespace."""
    lines = [line.rstrip() if not line.endswith("  ") else line for line in text.split("\n")]
    out = "\n".join(lines)
    out = re.sub(r"\n{3,}", "\n\n", out).strip("\n")
    return out + "\n"
