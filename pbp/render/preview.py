"""`pbp preview`: a post as the campaign's forum will show it, on one
self-contained HTML page the MJ opens before pasting.

The post is rendered by maintained renderers, as forums do, never by pbp's own
code: Markdown with markdown-it-py (CommonMark with GFM's tables and
strikethrough; no raw HTML, and no linkify: a forum does not make links of what
pbp defused), BBCode with the `bbcode` package, taught exactly the tags of the
campaign's dialect (pbp.render.formatters.BBCodeFormatter.tags): a tag the forum would not
know stays text here too. Everything is escaped, player text included; the page
holds no script (its Content-Security-Policy forbids any), links only to http(s)
and mail addresses, and no wall-clock time: the same post gives the same page.
Under the rendered post, the text to paste, as it is.
"""

from __future__ import annotations

import functools
import html
import re

from pbp.base import i18n
from pbp.render import formats
from pbp.render.formatters import BBCodeFormatter

#: the font sizes of XenForo's [size=1..7]
XENFORO_SIZES = {1: 9, 2: 10, 3: 12, 4: 15, 5: 18, 6: 22, 7: 26}
#: the largest size a board shows (phpBB caps at 200 % by default)
MAX_PERCENT, MAX_PX = 200, 48

_SAFE_HREF = re.compile(r"^(?:https?://|mailto:)[^\s\"'<>]*$", re.I)
_COLOR = re.compile(r"^(?:[a-z]{3,20}|#[0-9a-f]{3}|#[0-9a-f]{6})$", re.I)

CSS = """
body { margin: 0; background: #e4e8ee; color: #1c1f24; font: 14px/1.5 Verdana, "DejaVu Sans", sans-serif; }
.forum { max-width: 60em; margin: 1.5em auto; }
.note { color: #5a6270; font-size: 12px; margin: 0 0 .6em; }
.post { background: #fff; border: 1px solid #c3cbd6; border-radius: 4px; }
.post-head { background: #3f5a7a; color: #fff; padding: .45em .9em; font-weight: bold; border-radius: 3px 3px 0 0; }
.post-body { padding: .9em 1.2em; overflow-wrap: anywhere; }
.post-body p { margin: 0 0 .8em; }
blockquote { margin: .6em 0; padding: .5em .8em; background: #f2f4f7; border-left: 3px solid #9aa9bc; }
blockquote .quote-author { font-weight: bold; font-size: 12px; color: #3f5a7a; margin-bottom: .3em; }
pre, code { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: 13px; }
pre { background: #f6f7f9; border: 1px solid #d5dbe3; padding: .6em; overflow-x: auto; }
table { border-collapse: collapse; margin: .6em 0; }
td, th { border: 1px solid #c3cbd6; padding: .2em .6em; }
details.spoiler { border: 1px dashed #9aa9bc; padding: .3em .6em; margin: .6em 0; }
ul, ol { margin: .3em 0 .8em; }
.source { margin-top: 1em; }
.source pre { white-space: pre-wrap; }
"""


# -- Markdown ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}) \
        .enable(["table", "strikethrough"])


def markdown_html(text: str, dialect: str = "", lang: str = "") -> str:
    """`dialect`, `lang`: as bbcode_html's (pbp.render.formats calls both alike); Markdown has neither."""
    return _markdown().render(text)


# -- BBCode -----------------------------------------------------------------------------

def _option(options: dict, name: str) -> str | None:
    if not options:
        return None
    value = options.get(name)
    return str(value).strip() if value is not None else None


@functools.lru_cache(maxsize=1)
def _parser_class():
    import bbcode

    class ForumParser(bbcode.Parser):
        """bbcode.Parser with list items as boards read them: an item ends at the
        next item of its own list or at its list's end, never at a line break
        (the package closes an item at the first `[*]` or line break it meets,
        even in a list nested in the item: a fight's assaults under the fight)."""

        def _find_closing_token(self, tag, tokens, pos):
            if tag.tag_name != "*":
                return super()._find_closing_token(tag, tokens, pos)
            depth = 0
            while pos < len(tokens):
                kind, name = tokens[pos][0], tokens[pos][1]
                if kind == self.TOKEN_TAG_START and name == "list":
                    depth += 1
                elif kind == self.TOKEN_TAG_END and name == "list":
                    if depth == 0:
                        return pos, False
                    depth -= 1
                elif kind == self.TOKEN_TAG_START and name == "*" and depth == 0:
                    return pos, False
                pos += 1
            return pos, True

    return ForumParser


@functools.lru_cache(maxsize=16)
def _bbcode(dialect: str, lang: str):
    tags = BBCodeFormatter(dialect).tags
    features = BBCodeFormatter.DIALECTS[dialect]
    # no bare-URL links (pbp defused them), no typography: the text as the board shows it
    parser = _parser_class()(replace_links=False, replace_cosmetic=False)
    item, _ = parser.recognized_tags["*"]
    parser.add_formatter("*", item, transform_newlines=False, same_tag_closes=True, strip=True)
    for name in list(parser.recognized_tags):
        if name not in tags:
            del parser.recognized_tags[name]

    def quote(name, value, options, parent, context):
        author = _option(options, "quote")
        head = (f'<div class="quote-author">{html.escape(i18n.t(lang, "preview_wrote", author=author))}</div>'
                if author else "")
        return f"<blockquote>{head}{value}</blockquote>"

    def url(name, value, options, parent, context):
        href = _option(options, "url") or html.unescape(value)
        if not _SAFE_HREF.match(href):
            return value
        return f'<a rel="nofollow noopener" href="{html.escape(href, quote=True)}">{value}</a>'

    def img(name, value, options, parent, context):
        src = html.unescape(value).strip()
        if not _SAFE_HREF.match(src) or src.lower().startswith("mailto:"):
            return value
        return f'<img alt="" src="{html.escape(src, quote=True)}">'

    def color(name, value, options, parent, context):
        colour = _option(options, "color") or ""
        return f'<span style="color:{colour}">{value}</span>' if _COLOR.match(colour) else value

    def size(name, value, options, parent, context):
        try:
            n = int(_option(options, "size") or "")
        except ValueError:
            return value
        unit = features["size"]
        if unit == "%":
            css = f"{max(50, min(n, MAX_PERCENT))}%"
        elif unit == "px":
            css = f"{max(8, min(n, MAX_PX))}px"
        elif n in XENFORO_SIZES:
            css = f"{XENFORO_SIZES[n]}px"
        else:
            return value
        return f'<span style="font-size:{css}">{value}</span>'

    def spoiler(name, value, options, parent, context):
        title = _option(options, "spoiler") or "Spoiler"
        return f'<details class="spoiler"><summary>{html.escape(title)}</summary>{value}</details>'

    def code(name, value, options, parent, context):
        return f"<pre><code>{value.strip(chr(10))}</code></pre>"

    parser.add_formatter("quote", quote, strip=True, swallow_trailing_newline=True)
    parser.add_formatter("url", url, replace_links=False, replace_cosmetic=False)
    parser.add_formatter("img", img, render_embedded=False, replace_links=False, replace_cosmetic=False)
    parser.add_formatter("color", color)
    parser.add_formatter("size", size)
    parser.add_formatter("code", code, render_embedded=False, transform_newlines=False,
                         swallow_trailing_newline=True, replace_cosmetic=False)
    if features["spoiler"]:
        parser.add_formatter("spoiler", spoiler, strip=True, swallow_trailing_newline=True)
    if features["strike"]:
        parser.add_simple_formatter(features["strike"], "<s>%(value)s</s>")
    if features["table"]:
        parser.add_simple_formatter("table", "<table>%(value)s</table>", transform_newlines=False, strip=True,
                                    swallow_trailing_newline=True)
        parser.add_simple_formatter("tr", "<tr>%(value)s</tr>", transform_newlines=False, strip=True)
        parser.add_simple_formatter("td", "<td>%(value)s</td>", strip=True)
    return parser


def bbcode_html(text: str, dialect: str = "phpbb", lang: str = "fr") -> str:
    return _bbcode(dialect, lang).format(text)


# -- the page -----------------------------------------------------------------------------

def post_html(text: str, fmt: str, dialect: str = "phpbb", lang: str = "fr") -> str:
    """A post's text as its forum shows it (the inside of the post's frame), by
    the function pbp/render/formats.py names for the format."""
    return globals()[formats.get(fmt).preview](text, dialect, lang)


def forum_name(fmt: str, dialect: str) -> str:
    return formats.get(fmt).forum.format(dialect=dialect)


def page(text: str, fmt: str, dialect: str, lang: str, title: str, label: str) -> str:
    """The whole HTML page for one post: `title` (the campaign's), `label` (which post)."""
    esc = html.escape
    note = i18n.t(lang, "preview_note", forum=forum_name(fmt, dialect))
    source = i18n.t(lang, "preview_source")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "img-src http: https: data:\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)} — {esc(label)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        '<div class="forum">\n'
        f'<p class="note">{esc(note)}</p>\n'
        f'<div class="post">\n<div class="post-head">{esc(title)} — {esc(label)}</div>\n'
        f'<div class="post-body">\n{post_html(text, fmt, dialect, lang)}\n</div>\n</div>\n'
        f'<details class="source"><summary>{esc(source)}</summary><pre>{esc(text)}</pre></details>\n'
        "</div>\n</body>\n</html>\n")


def file_name(template: str, player: str | None) -> str:
    """preview.html (public), preview-gm.html, preview-<handle>.html: beside the turn's posts."""
    if player:
        from pbp.base.files import handle_file

        return f"preview-{handle_file(player)}.html"
    return "preview.html" if template == "public" else f"preview-{template}.html"
