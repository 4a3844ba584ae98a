"""The markup helpers templates call as `m` (`m.b(x)`, `m.quote(text, author)`,
`m.list(items)`...), one Formatter per output format (pbp/render/formats.py
names each format's class), and each format's last pass over a whole post
(`Formatter.finish`), which makes the structure right whatever the template's
line breaks, so every ruleset gets it:

- Markdown (CommonMark/GFM): every line a template writes is kept a line and no
  block joins another (pbp.render.markdown_blocks).
- BBCode: coordinates a template writes (`[4, 2]`) become `(4, 2)`: visible, so
  a player who copies them copies no invisible character, and no parser can take
  them for a tag; any other `[` a template writes that opens no tag of the
  dialect (`[public]`, `[x]`) gets the zero-width space player text gets, so a
  post only holds its dialect's tags. Lists are
  `[list]`/`[*]` (`m.list`, nested with (text, sub-items) pairs), never `- `
  lines.

Arguments that are not Markup are escaped first (pbp.render.escaping): player
text cannot become markup.
"""

from __future__ import annotations

import functools
import re

from markupsafe import Markup as _JinjaSafe

from pbp.base.patterns import DIGIT, SPACE, Linear
from pbp.render.escaping import (ZWSP, bbcode_attribute, bbcode_escape, markdown_code, markdown_escape,
                                 markdown_escape_inline, normalise, one_line)
from pbp.render.markdown_blocks import markdown_blocks

# Coordinates a template writes: two or more numbers in brackets, `[4, 2]`, `[-1, 0, 3]`.
# A comma is a decimal mark or a separator: two readings of `1,2,3`, so RE2 (the
# backtracking engine took seconds per number more on `[1,2,3,…` left open).
_NUMBER = rf"{SPACE}*-?{DIGIT}+(?:[.,]{DIGIT}+)?{SPACE}*"
COORDINATES = Linear(rf"\[({_NUMBER}(?:[,;]{_NUMBER})+)\]")


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
        (a fight's assaults under the fight). Markdown's too: nested items indent by
        the width of their parent's marker ("- "), as CommonMark requires (its
        `finish` puts the blank lines around the list)."""
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
        text = COORDINATES.sub(lambda m: "(" + m.group(1) + ")", text)
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


# -- Markdown (MJ narration) to BBCode -------------------------------------------

def markdown_to_bbcode(text: str, fmt: BBCodeFormatter | None = None) -> str:
    """The MJ's Markdown (gm.yaml's narration) in the dialect's BBCode."""
    from pbp.render.narration import to_bbcode  # Python-Markdown and html.parser: only when there is narration

    return to_bbcode(text, fmt or BBCodeFormatter())
