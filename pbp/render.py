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
A BBCode post also gets a last pass breaking the `[` a template writes before
anything but a tag name (coordinates `[4, 2]`).

An error in a template (syntax, undefined value, missing include, an exception
under a campaign's own template) is a TemplateError naming the file and line.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import Markup as _JinjaSafe

from pbp.errors import PbpError, TemplateError

ZWSP = "\u200b"
WJ = "\u2060"  # WORD JOINER: invisible, and no line break where it stands
NBSP = "\u00a0"

# -- normalising player text -------------------------------------------------------

# CommonMark ends a line at \r and \r\n too (a lone \r would end a `> ` quote line);
# the Unicode line and paragraph separators mean a line break as well.
_LINE_ENDINGS = re.compile("\r\n?|[\u2028\u2029]")
# Terminal escape sequences, removed whole (removing only ESC would leave `[31m`):
# CSI (colours, cursor moves), then OSC/DCS/SOS/PM/APC strings with their
# terminator (a string stops at the next introducer: linear time on any input),
# then any other ESC sequence (intermediate bytes + final byte).
_TERMINAL_ESCAPES = re.compile(
    "(?:\x1b\\[|\x9b)[0-?]*[ -/]*[@-~]"
    "|(?:\x1b[\\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x90\x98\x9c-\x9f]*(?:\x07|\x1b\\\\|\x9c)"
    "|\x1b[ -/]*[0-~]"
)
# C0 controls but tab and newline, DEL, C1 controls, bidi embeddings/overrides
# (U+202A-U+202E) and isolates (U+2066-U+2069), lone surrogates (they cannot be
# written as UTF-8).
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def normalise(text) -> str:
    """Player text as it reads: LF line endings; control characters, terminal
    escape sequences and bidi overrides removed. Every escape path starts here."""
    text = _LINE_ENDINGS.sub("\n", str(text))
    text = _TERMINAL_ESCAPES.sub("", text)
    return _INVISIBLE.sub("", text)


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
_AUTOLINK_SPOTS = re.compile(r"(?:www|ftp)\.|(?<=[^\W\d_]):(?=\S)|/(?=/)|@(?=\S)|\.(?=[^\W\d_])", re.I)


def _autolink_spot(m) -> str:
    token = m.group(0)
    if len(token) == 4:  # www. / ftp.
        return token[:3] + WJ + "." + WJ
    return token + WJ


def defuse_autolinks(text: str) -> str:
    return _AUTOLINK_SPOTS.sub(_autolink_spot, text)


# -- escaping -------------------------------------------------------------------------

# HTML only opens a tag, an end tag, a comment or a declaration after `<` + one of these.
_HTML_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
_HTML_ENTITY = re.compile(r"&(?=[#A-Za-z])")
# A `[` that cannot open a tag (a tag name starts with a letter, `/` or `*`), not
# already broken: the brackets a template writes around generated text
# (coordinates `en [4, 2]`), which some parsers would still read as a tag.
_LITERAL_BRACKET = re.compile("\\[(?=[^A-Za-z/*" + ZWSP + "])")
# Markdown punctuation that matters anywhere (emphasis, code, links, tables, strikethrough)...
_MD_ANYWHERE = re.compile(r"([\\`*_\[\]|~])")
# ...and what only matters at the start of a line: headings, quotes, setext
# underlines, lists, rules, and table delimiter rows (cmark-gfm takes `a` over
# `:-:` for a one-column table, no pipe needed).
_MD_LINE_START = re.compile(r"^([ \t]*)([#>=]|[+\-](?=\s|$)|-(?=[-:])|:(?=-)|\d+[.)](?=\s|$))", re.M)
# Four leading spaces (or a tab) open an indented code block.
_MD_INDENT = re.compile(r"^[ \t]+", re.M)


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
    Markup are escaped first."""

    name = "text"
    ext = "txt"

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
        from pbp.dice import forum

        return self.esc(forum(roll))

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
        head = f"{self.esc(author)} :\n" if author else ""
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
    ext = "md"

    def _escape(self, text: str) -> str:
        return markdown_escape_inline(text)

    def b(self, x): return Markup(f"**{self.esc(x)}**")
    def i(self, x): return Markup(f"*{self.esc(x)}*")
    def u(self, x): return Markup(f"*{self.esc(x)}*")
    def s(self, x): return Markup(f"~~{self.esc(x)}~~")
    def code(self, x): return Markup("`" + markdown_code(x) + "`")
    def h(self, x, level=2): return Markup("#" * (level + 1) + " " + self.esc(x))
    def url(self, href, label=None): return Markup(f"[{self.esc(label or href)}]({str(href).replace(')', '%29')})")
    def hr(self): return Markup("---")

    def quote(self, text, author=None) -> Markup:
        # Every line of the body starts with `>` (a lone \r cannot end one: normalised),
        # so whatever the text holds, this is one quote.
        body = text if isinstance(text, Markup) else markdown_escape(text or "")
        lines = []
        if author:
            lines.append(f"> **{self.esc(author)}** :")
            lines.append(">")
        for line in body.split("\n"):
            # Two trailing spaces keep the player's line breaks.
            lines.append(("> " + line + "  ") if line.strip() else ">")
        return Markup("\n".join(lines))

    def list(self, items, _depth=0) -> Markup:
        # Nested items indent by the width of their parent's marker ("- "), as
        # CommonMark requires; a blank line before the list keeps it from joining
        # the paragraph above (the template's job: lists start on their own block).
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


class BBCodeFormatter(Formatter):
    name = "bbcode"
    ext = "bbcode"
    #: what each dialect has beyond phpBB's b, i, u, color, size, quote, list, url, img, code
    DIALECTS = {
        "phpbb": {"size": "%", "strike": None, "spoiler": False, "table": False},
        "forumactif": {"size": "px", "strike": "strike", "spoiler": True, "table": True},
        "xenforo": {"size": "1-7", "strike": "s", "spoiler": True, "table": True},
    }
    HEADING_SIZES = {"%": (200, 150, 120), "px": (24, 18, 15), "1-7": (6, 5, 4)}

    #: the tags every dialect has (`*` is a list item)
    COMMON_TAGS = frozenset({"b", "i", "u", "color", "size", "quote", "list", "*", "url", "img", "code"})

    def __init__(self, dialect: str = "phpbb"):
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
        # A line break ends an item for some parsers (the `bbcode` package): text
        # items stay on their line.
        out = []
        for item in items:
            text, children = split_item(item)
            text = text if isinstance(text, (Markup, _JinjaSafe)) else one_line(normalise(text))
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
        # Player text is broken already; this catches the brackets templates write.
        return _LITERAL_BRACKET.sub("[" + ZWSP, text)


def split_item(item):
    """A list item is a text, or a pair (text, sub-items) for a nested list."""
    if isinstance(item, (tuple, list)) and len(item) == 2 and not isinstance(item, str):
        return item[0], item[1]
    return item, None


def formatter(fmt: str, dialect: str = "phpbb") -> Formatter:
    if fmt == "bbcode":
        return BBCodeFormatter(dialect)
    if fmt == "markdown":
        return MarkdownFormatter()
    return Formatter()


# -- Markdown (MJ narration) to BBCode -------------------------------------------

class _HtmlToBBCode(HTMLParser):
    """Python-Markdown's HTML to the dialect's BBCode; unknown tags keep their text."""

    SIMPLE = {"strong": "b", "b": "b", "em": "i", "i": "i", "u": "u", "blockquote": "quote", "code": "code"}

    def __init__(self, fmt: BBCodeFormatter):
        super().__init__(convert_charrefs=True)
        self.fmt = fmt
        self.out: list[str] = []
        self.cell_rows: list | None = None
        self.in_pre = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        strike = self.fmt.features["strike"]
        if tag in self.SIMPLE:
            if not (tag == "code" and self.in_pre):
                self.out.append(f"[{self.SIMPLE[tag]}]")
        elif tag == "pre":
            self.in_pre = True
            self.out.append("[code]")
        elif tag in ("del", "s", "strike") and strike:
            self.out.append(f"[{strike}]")
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            sizes = self.fmt.HEADING_SIZES[self.fmt.features["size"]]
            self.out.append(f"[size={sizes[min(int(tag[1]), 3) - 1]}][b]")
        elif tag == "ul":
            self.out.append("[list]")
        elif tag == "ol":
            self.out.append("[list=1]")
        elif tag == "li":
            self.out.append("\n[*]")
        elif tag == "a":
            href = (attrs.get("href") or "").replace("[", "%5B").replace("]", "%5D")
            self.out.append(f"[url={href}]")
        elif tag == "img":
            self.out.append(f"[img]{attrs.get('src', '')}[/img]")
        elif tag == "br":
            self.out.append("\n")
        elif tag == "hr":
            self.out.append(self.fmt.hr() + "\n")
        elif tag == "table":
            self.out.append("[table]" if self.fmt.features["table"] else "")
        elif tag == "tr":
            self.out.append("[tr]" if self.fmt.features["table"] else "")
        elif tag in ("td", "th"):
            self.out.append(("[td][b]" if tag == "th" else "[td]") if self.fmt.features["table"] else "")

    def handle_endtag(self, tag):
        strike = self.fmt.features["strike"]
        if tag in self.SIMPLE:
            if not (tag == "code" and self.in_pre):
                self.out.append(f"[/{self.SIMPLE[tag]}]")
            if tag == "blockquote":
                self.out.append("\n")
        elif tag == "pre":
            self.in_pre = False
            self.out.append("[/code]\n")
        elif tag in ("del", "s", "strike") and strike:
            self.out.append(f"[/{strike}]")
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.out.append("[/b][/size]\n\n")
        elif tag in ("ul", "ol"):
            self.out.append("\n[/list]\n")
        elif tag == "a":
            self.out.append("[/url]")
        elif tag == "p":
            self.out.append("\n\n")
        elif tag == "table":
            self.out.append("[/table]\n" if self.fmt.features["table"] else "\n")
        elif tag == "tr":
            self.out.append("[/tr]\n" if self.fmt.features["table"] else "\n")
        elif tag in ("td", "th"):
            self.out.append(("[/b][/td]" if tag == "th" else "[/td]") if self.fmt.features["table"] else " | ")

    def handle_data(self, data):
        if data.strip() or "\n" not in data or self.in_pre:
            self.out.append(data)


_MARKDOWN: list = []


def _markdown():
    """One Markdown converter for the process, reset for each text: building
    one per narration compiles its processors again, and naming extensions by
    string makes Python-Markdown read every installed package's entry points."""
    if not _MARKDOWN:
        import markdown
        from markdown.extensions.sane_lists import SaneListExtension
        from markdown.extensions.tables import TableExtension

        _MARKDOWN.append(markdown.Markdown(extensions=[TableExtension(), SaneListExtension()], output_format="html"))
    return _MARKDOWN[0].reset()


def markdown_to_bbcode(text: str, fmt: BBCodeFormatter | None = None) -> str:
    html = _markdown().convert(text)
    parser = _HtmlToBBCode(fmt or BBCodeFormatter())
    parser.feed(html)
    parser.close()
    out = "".join(parser.out)
    out = re.sub(r"\[quote\]\s+", "[quote]", out)
    out = re.sub(r"\[(list|list=1)\]\s*", r"[\1]\n", out)
    out = re.sub(r"\s+\[/(quote|list)\]\s*", r"\n[/\1]\n\n", out)
    out = re.sub(r"\s*\n\[\*\]", "\n[*]", out)
    out = re.sub(r"\n{3,}", "\n\n", out)
    return out.strip()


# -- templates -------------------------------------------------------------------

def package_dir(name: str) -> Path:
    """pbp/<name> once installed; <repository>/<name> in a source checkout."""
    here = Path(__file__).parent
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


def _environment_class():
    from jinja2 import Environment

    class DataFirstEnvironment(Environment):
        """`e.data.items` means the key "items", not the dict method: event
        data keys win over dict attributes."""

        def getattr(self, obj, attribute):
            if type(obj) is dict:  # one lookup, not `in` then `[]`: templates read event data all the time
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            elif isinstance(obj, dict) and attribute in obj:  # (a defaultdict would make up the key)
                return obj[attribute]
            return Environment.getattr(self, obj, attribute)

    return DataFirstEnvironment


#: how every Renderer's environment is built: the compiled code of a template
#: depends on these, so they are part of the disk cache's key
ENV_OPTIONS = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True, "autoescape": False}

_BYTECODE_CACHE = None
#: whether compiled templates are kept between runs, in the user's cache folder
#: (see `use_disk_cache`), and that folder once found
_DISK = {"wanted": True, "folder": None, "found": False}
_CACHE_TAG: list[str] = []


def _cache_tag() -> str:
    """What compiled code depends on besides the template's source (whose
    checksum jinja2 checks itself): pbp's, jinja2's and Python's versions and
    the environment's options. A change of any of them is a new folder."""
    import hashlib
    import sys

    import jinja2

    from pbp import __version__

    if not _CACHE_TAG:
        key = repr((__version__, jinja2.__version__, sys.version, sorted(ENV_OPTIONS.items())))
        _CACHE_TAG.append(hashlib.sha256(key.encode()).hexdigest()[:16])
    return _CACHE_TAG[0]


def use_disk_cache(enabled: bool = True) -> None:
    """Whether compiled templates are kept in the user's cache folder
    ($XDG_CACHE_HOME/pbp, else ~/.cache/pbp), so that each everyday command (a
    new process) does not compile them again: yes unless told otherwise.
    Nothing is imported nor made until a template is compiled or loaded
    (`disk_cache_folder`)."""
    _DISK.update(wanted=enabled, folder=None, found=False)


def disk_cache_folder() -> Path | None:
    """The folder of compiled templates, made if needed; None when there is
    none: turned off, or a folder that cannot be made or is not the user's
    alone (never an error: the templates are compiled in memory instead)."""
    import os

    if not _DISK["wanted"]:
        return None
    if _DISK["found"]:
        return _DISK["folder"]
    _DISK.update(found=True, folder=None)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "pbp" / f"templates-{_cache_tag()}"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = folder.stat()
        # compiled code is run when loaded: only from a folder no one else can write to
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            return None
    except OSError:
        return None
    _DISK["folder"] = folder
    return folder


def _bytecode_cache():
    """Compiled templates kept for the process, keyed by file and checked against
    the source's checksum (an edited template is compiled again): `pbp verify`
    and the tests render many turns with the same templates, and compiling them
    is most of the cost of rendering. Every Renderer builds its environment with
    the same options, so the compiled code is the same for all. Behind the
    memory, the user's cache folder (`disk_cache_folder`)."""
    global _BYTECODE_CACHE
    if _BYTECODE_CACHE is None:
        from jinja2 import BytecodeCache

        class MemoryBytecodeCache(BytecodeCache):
            def __init__(self):
                self.store: dict[str, bytes] = {}

            def load_bytecode(self, bucket):
                code = self.store.get(bucket.key)
                folder = disk_cache_folder() if code is None else None
                if folder is not None:
                    try:
                        code = (folder / f"{bucket.key}.cache").read_bytes()
                    except OSError:
                        code = None
                if code is not None:
                    # a stale entry (the template changed) leaves the bucket empty: compiled again
                    bucket.bytecode_from_string(code)

            def dump_bytecode(self, bucket):
                code = self.store[bucket.key] = bucket.bytecode_to_string()
                folder = disk_cache_folder()
                if folder is not None:
                    import os
                    import tempfile

                    try:  # written whole or not at all: another pbp may be reading it
                        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
                    except OSError:
                        return
                    try:
                        with os.fdopen(fd, "wb") as out:
                            out.write(code)
                        os.replace(tmp, folder / f"{bucket.key}.cache")
                    except OSError:
                        Path(tmp).unlink(missing_ok=True)

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
        from jinja2 import FileSystemLoader, StrictUndefined

        Environment = _environment_class()
        self.fmt = formatter(fmt, dialect)
        self.lang = lang
        self.paths = [Path(p) for p in paths]
        self.root = Path(root).resolve() if root is not None else None
        self._chosen: dict[str, str] = {}  # template name -> the file name it is found under
        self.env = Environment(
            loader=FileSystemLoader([str(p) for p in paths]),
            finalize=self.fmt.finalize,
            undefined=StrictUndefined,
            bytecode_cache=_bytecode_cache(),
            auto_reload=reload,
            **ENV_OPTIONS,
        )
        from pbp.grammar import for_lang

        from pbp import i18n

        # `t(key, ...)`: a catalogue message (pbp's or a ruleset's), in the post's language
        self.env.globals.update(m=self.fmt, fmt=self.fmt.name, lang=lang, g=for_lang(lang),
                                t=lambda key, **params: i18n.t(lang, key, **params))
        # `items | map("extract", mapping)`: look each item up in a mapping (kept when absent).
        self.env.filters["extract"] = lambda key, mapping: mapping.get(key, key) if hasattr(mapping, "get") else key

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
            template = self.env.select_template([f"{name}.{self.fmt.name}.j2", f"{name}.j2"])
            self._chosen[name] = template.name
            return template
        return self.env.get_template(chosen)

    def render(self, name: str, **context) -> str:
        """The template `name` rendered; any error of a template (syntax,
        undefined value, missing include, an exception in a campaign's own
        template) is a TemplateError naming its file and line."""
        try:
            text = self._template(name).render(**context)
        except PbpError:
            raise
        except Exception as exc:
            error = self._template_error(exc, context)
            if error is None:  # pbp's own code failed under pbp's own templates: a bug, said as one
                raise
            raise error from exc
        return tidy(self.fmt.finish(text))

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

        from pbp import i18n

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
