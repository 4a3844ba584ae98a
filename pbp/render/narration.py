"""The MJ's narration (Markdown, in gm.yaml) as BBCode: Python-Markdown's HTML
read back into the dialect's tags. Imported by pbp.render.formatters only when a BBCode
post has narration to convert: Python-Markdown and html.parser are not needed
by the everyday commands."""

from __future__ import annotations

from html.parser import HTMLParser

from pbp.base.patterns import SPACE, Linear


class _HtmlToBBCode(HTMLParser):
    """Python-Markdown's HTML to the dialect's BBCode; unknown tags keep their text."""

    SIMPLE = {"strong": "b", "b": "b", "em": "i", "i": "i", "u": "u", "blockquote": "quote", "code": "code"}

    def __init__(self, fmt):
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


def to_bbcode(text: str, fmt) -> str:
    """`text` (Markdown) in the BBCode of `fmt`, a pbp.render.formatters.BBCodeFormatter."""
    html = _markdown().convert(text)
    parser = _HtmlToBBCode(fmt)
    parser.feed(html)
    parser.close()
    out = "".join(parser.out)
    for pattern, replacement in _CLEAN_UP:
        out = pattern.sub(replacement, out)
    return out.strip()


# The converted HTML's white space around block tags, in RE2: Python's engine
# tried every start in a run of spaces (`\s+\[/quote\]` on 40,000 no-break
# spaces: 12 s).
_CLEAN_UP = (
    (Linear(rf"\[quote\]{SPACE}+"), lambda m: "[quote]"),
    (Linear(rf"\[(list|list=1)\]{SPACE}*"), lambda m: f"[{m.group(1)}]\n"),
    (Linear(rf"{SPACE}+\[/(quote|list)\]{SPACE}*"), lambda m: f"\n[/{m.group(1)}]\n\n"),
    (Linear(rf"{SPACE}*\n\[\*\]"), lambda m: "\n[*]"),
    (Linear(r"\n{3,}"), lambda m: "\n\n"),
)
