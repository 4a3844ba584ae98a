"""Player text is inert in every forum renderer.

Checked with parsers pbp does not render with, as the forums run them:
Markdown with markdown-it-py ("gfm-like": linkify with fuzzy links,
strikethrough, tables, raw HTML on) and cmark-gfm (table, autolink,
strikethrough, tasklist; raw HTML kept, no tag filter); BBCode with the
`bbcode` package and bbcodepy, both taught every tag a pbp dialect has, bare
URLs linked.

Inert means: in the parsed HTML, no element that the player did not get as
literal text (no link, image, heading, list, table, HTML element, comment,
strikethrough, code block, nor a quote/spoiler/code boundary), the player's
quote is still one quote, and its text, once the invisible characters are
removed, reads as the player wrote it (normalised).

Through the production path: a copy of every example campaign, the hostile
roleplay (and d100's free-text `but`) in one player's order file for the next
turn, `pbp run --no-commit` in each format; every post (public, private, MJ) is
compared with the same turn run with harmless text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
# the parsers pbp's output is checked with: pyproject's dependencies and its `test` extra
bbcode = pytest.importorskip("bbcode", reason="a test dependency: pip install -e '.[test]'")
bbcodepy = pytest.importorskip("bbcodepy", reason="a test dependency: pip install -e '.[test]'")
cmarkgfm = pytest.importorskip("cmarkgfm", reason="a test dependency: pip install -e '.[test]'")
pytest.importorskip("markdown_it", reason="a test dependency: pip install -e '.[test]'")
from bbcodepy.tags import create_simple_tag
from cmarkgfm.cmark import Options
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt

from pbp.render.formatters import BBCodeFormatter, MarkdownFormatter

from tests.helpers import copy_example, pbp

INVISIBLE = "\u200b\u2060"

# (what a player writes, what it reads as once normalised; None: the same, with \n line endings)
HOSTILE = [
    ("Je recule.\r# LE MJ : Mélétê a gagné\r\r> faux message", None),
    ("Ligne un\r\nLigne deux\r\n\r\n# Titre après CRLF", None),
    ("Voir http://evil.example/x?a=1&b=2 ou https://evil.example.", None),
    ("ftp://evil.example/f mailto:mj@evil.example xmpp:mj@evil.example tel:+33100000000", None),
    ("www.evil.example WWW.EVIL.EXAMPLE ftp.evil.example", None),
    ("evil.com, arrivé.fr, //evil.com/chemin, localhost:8080", None),
    ("Écrivez à mj@evil.example ou à @admin", None),
    ("~~barré~~ et ~simple~", None),
    ("~~~\ncode tilde\n~~~", None),
    ("```\ncode\n```", None),
    ("    indenté comme du code", None),
    ("\tindenté par une tabulation", None),
    ("# Titre\n## Sous-titre\n###### petit", None),
    ("> citation\n>> imbriquée", None),
    ("- liste\n* liste\n+ liste", None),
    ("1. liste\n2) liste", None),
    ("| a | b |\n|---|---|\n| c | d |", None),
    ("a | b\n--|--\nc | d", None),
    ("a\n:-:", None),
    ("Titre\n---", None),
    ("Titre\n===", None),
    ("---\n***\n___\n- - -", None),
    ("- [ ] tâche\n- [x] faite", None),
    ("<img src=x onerror=alert(1)>", None),
    ("<script>alert(1)</script><!-- commentaire --><b>gras</b>", None),
    ("&lt;b&gt; &amp; &#60;i&#62; &#x3C;u&#x3E;", None),
    ("[b]gras[/b] [i]x[/i] [u]y[/u] [s]z[/s] [strike]w[/strike] [B]maj[/B]", None),
    ('[/quote][quote="MJ"]Je suis le MJ[/quote][quote]', None),
    ("[url=javascript:alert(1)]clic[/url] [url]http://evil.example[/url] [email]a@b.fr[/email]", None),
    ("[img]http://evil.example/x.png[/img]", None),
    ("Case [4, 2] puis [x] et [", None),
    ("[spoiler]secret[/spoiler] [spoiler=titre]x[/spoiler] [hide]x[/hide]", None),
    ("[code]x[/code] [/code]", None),
    ("[list][*]a[*]b[/list] [table][tr][td]x[/td][/tr][/table]", None),
    ("[color=red]rouge[/color] [size=200]énorme[/size] [center]x[/center]", None),
    ("[lien](http://evil.example) ![img](http://evil.example/x.png) <http://evil.example> <a@b.fr>", None),
    ("[ref]: http://evil.example\n[ref] [^1]\n\n[^1]: note", None),
    ("**gras** __gras__ *it* _it_ `code` ``code``", None),
    ("(3+5 = 8) 8) :) ;) :P :D", None),
    ("a\\\nb\\", None),
    ("\x1b[31mrouge\x1b[0m \x1b]0;titre\x07fin \x1b[2J\x1bc", "rouge fin "),
    ("\u202eesrever\u202c \u2066isolé\u2069 \u202aLRE\u202b", "esrever isolé LRE"),
    ("NUL\x00 BEL\x07 DEL\x7f NEL\x85 VT\x0b FF\x0c CSI\x9b31m.", "NUL BEL DEL NEL VT FF CSI."),
    ("séparateur\u2028de ligne\u2029de paragraphe", "séparateur\nde ligne\nde paragraphe"),
    ("x" * 3000 + " " + "y.z" * 1000, None),
]


def reads_as(text: str, expected: str | None) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if expected is None else expected


def collapse(text: str) -> str:
    """The text a reader sees: invisible characters gone, white space collapsed."""
    return " ".join(re.sub(f"[{INVISIBLE}]", "", text).split())


# -- HTML as a tree -----------------------------------------------------------------

@dataclass
class Node:
    tag: str
    children: list = field(default_factory=list)

    def elements(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.elements()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else ("\n" if c.tag == "br" else c.text()) for c in self.children)


class _Tree(HTMLParser):
    VOID = {"br", "img", "hr", "input", "meta", "link", "source", "wbr", "area", "col", "embed"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag)
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)

    def handle_comment(self, data):
        self.stack[-1].children.append(Node("#comment"))


def tree(html: str) -> Node:
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return parser.root


def skeleton(node: Node, hole=lambda n: False):
    """The element structure, line breaks aside; `hole` nodes count as one mark."""
    out = []
    for c in node.children:
        if isinstance(c, Node) and c.tag != "br":
            out.append("HOLE" if hole(c) else (c.tag, skeleton(c, hole)))
    return out


# -- the parsers ----------------------------------------------------------------------

_mdit = MarkdownIt("gfm-like")  # linkify (fuzzy links, e-mails), strikethrough, tables, raw HTML


def _cmark(text: str) -> str:
    return cmarkgfm.markdown_to_html_with_extensions(
        text, options=Options.CMARK_OPT_UNSAFE, extensions=["table", "autolink", "strikethrough", "tasklist"])


def _bbcode_parser():
    p = bbcode.Parser()  # bare URLs linked (replace_links) as phpBB's magic URLs do
    p.REPLACE_COSMETIC = ()  # typography (-- → –), not markup: keeps the text comparable
    for tag, html in [("spoiler", "<details>%(value)s</details>"), ("hide", "<details>%(value)s</details>"),
                      ("strike", "<strike>%(value)s</strike>"), ("table", "<table>%(value)s</table>"),
                      ("tr", "<tr>%(value)s</tr>"), ("td", "<td>%(value)s</td>"),
                      ("size", "<span class=size>%(value)s</span>"), ("img", "<img src='%(value)s'>"),
                      ("email", "<a href='mailto:%(value)s'>%(value)s</a>")]:
        p.add_simple_formatter(tag, html)
    return p


def _bbcodepy_parser():
    p = bbcodepy.Parser()  # links bare URLs (its renderer's linkify)
    p.renderer.cosmetic_replace = lambda s: s
    for tag, html in [("spoiler", "details"), ("hide", "details"), ("strike", "strike"), ("email", "a")]:
        p.register_tag(tag, create_simple_tag(html))
    return p


_bb, _bbpy = _bbcode_parser(), _bbcodepy_parser()
PARSERS = {
    "markdown": {"markdown-it": _mdit.render, "cmark-gfm": _cmark},
    "bbcode": {"bbcode": _bb.format, "bbcodepy": _bbpy.to_html},
}
FORMATTERS = {"markdown": MarkdownFormatter(), "bbcode": BBCodeFormatter("forumactif")}


def _quote_body(quote: Node) -> list:
    """A quote's content without the author line pbp writes (Markdown: a first
    paragraph holding only the bold name; bbcodepy: a trailing <small>)."""
    children = list(quote.children)
    first = next((c for c in children if isinstance(c, Node)), None)
    if first is not None and first.tag == "p" and [c.tag for c in first.children if isinstance(c, Node)] == ["strong"]:
        children.remove(first)
    return [c for c in children if not (isinstance(c, Node) and c.tag == "small")]


def assert_no_html(bbcode_text: str, where: str):
    """A board that allows HTML in posts reads the BBCode source as HTML: pbp
    writes none, so it must find no element and no comment."""
    made = sorted({e.tag for e in tree(bbcode_text).elements()})
    assert not made, f"{where}: HTML {made} in {bbcode_text!r}"


def assert_inert_quote(quote: Node, expected: str, where: str):
    body = Node("body", _quote_body(quote))
    made = sorted({e.tag for e in body.elements()} - {"p", "br"})
    assert not made, f"{where}: player text made {made}"
    assert collapse(body.text()) == collapse(expected), where


# -- the escape functions alone, every hostile string ----------------------------------

@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
@pytest.mark.parametrize("text, expected", HOSTILE, ids=[repr(t[:24]) for t, _ in HOSTILE])
def test_a_quote_of_hostile_text_is_one_inert_quote(fmt, text, expected):
    f = FORMATTERS[fmt]
    post = "Avant.\n\n" + f.quote(text, "Mélétê") + "\n\nAprès.\n"
    if fmt == "bbcode":
        assert_no_html(post, "HTML board")
    for name, parse in PARSERS[fmt].items():
        root = tree(parse(post))
        quotes = [e for e in root.elements() if e.tag == "blockquote"]
        assert len(quotes) == 1, (name, post)
        is_quote = lambda n: n is quotes[0]
        expected_outside = [("p", []), "HOLE", ("p", [])] if fmt == "markdown" else ["HOLE"]
        assert skeleton(root, is_quote) == expected_outside, (name, post)
        assert_inert_quote(quotes[0], reads_as(text, expected), f"{name}: {post!r}")
        if fmt == "markdown":
            assert "Mélétê" in quotes[0].text()


@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
@pytest.mark.parametrize("text, expected", HOSTILE, ids=[repr(t[:24]) for t, _ in HOSTILE])
def test_hostile_text_in_a_list_item_stays_text(fmt, text, expected):
    """A value echoed inside a line (d100's `but` in « ... »), as templates do."""
    f = FORMATTERS[fmt]
    post = f.list([text, "deux"]) + "\n\nAprès.\n"
    if fmt == "bbcode":
        assert_no_html(post, "HTML board")
    for name, parse in PARSERS[fmt].items():
        root = tree(parse(post))
        expected_tree = [("ul", [("li", []), ("li", [])])] + ([("p", [])] if fmt == "markdown" else [])
        assert skeleton(root) == expected_tree, (name, post)
        first_item = next(e for e in root.elements() if e.tag == "li")
        assert collapse(first_item.text()) == collapse(reads_as(text, expected)), name


@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
def test_a_spoiler_of_the_whole_corpus_is_one_spoiler(fmt):
    f = FORMATTERS[fmt]  # forumactif has [spoiler]; Markdown has none and quotes instead
    post = f.spoiler(ROLEPLAY, 'Le "secret" ]') + "\n\nAprès.\n"
    box = "blockquote" if fmt == "markdown" else "details"
    for name, parse in PARSERS[fmt].items():
        root = tree(parse(post))
        boxes = [n for n in root.children if isinstance(n, Node) and n.tag != "br"]
        assert [b.tag for b in boxes] == ([box, "p"] if fmt == "markdown" else [box]), name
        body = Node("body", _quote_body(boxes[0]))
        assert {e.tag for e in body.elements()} <= {"p", "br"}, name
        assert collapse(body.text()) == collapse(ROLEPLAY_READS), name


# Every character that starts markup somewhere, line breaks of every kind included.
_MARKUP = list("[]()!#=-+*_~`<>&|:/@.\\ \t\n\r\x1b\x00\u202e\u2028") + ["www.", "http://", "1.", "ab", "x.com", "    "]


@given(st.lists(st.sampled_from(_MARKUP), max_size=30).map("".join))
@settings(max_examples=300, deadline=None)
def test_markdown_quote_property(text):
    post = MarkdownFormatter().quote(text, "Lucy")
    for name, parse in PARSERS["markdown"].items():
        root = tree(parse(post))
        quotes = [n for n in root.children if isinstance(n, Node)]
        assert [q.tag for q in quotes] == ["blockquote"], (name, post)
        body = Node("body", _quote_body(quotes[0]))
        assert {e.tag for e in body.elements()} <= {"p", "br"}, (name, post)


@given(st.lists(st.sampled_from(_MARKUP), max_size=30).map("".join))
@settings(max_examples=300, deadline=None)
def test_bbcode_quote_property(text):
    post = BBCodeFormatter("forumactif").quote(text, "Lucy")
    assert_no_html(post, "HTML board")
    for name, parse in PARSERS["bbcode"].items():
        root = tree(parse(post))
        assert [n.tag for n in root.children if isinstance(n, Node)] == ["blockquote"], (name, post)
        body = Node("body", _quote_body(root.children[0]))
        assert {e.tag for e in body.elements()} <= {"br"}, (name, post)


# -- through `pbp run`, every example campaign ------------------------------------------

# The player whose roleplay is hostile, and the next turn (the example campaigns
# come with its orders).
PLAYERS = {"manhunt": ("lucy", 4), "murder": ("alice", 9), "d100": ("tia", 4), "skirmish": ("alice", 4)}
MARKER = "Je recule"
ROLEPLAY = "\n\n".join(t for t, _ in HOSTILE)
ROLEPLAY_READS = "\n\n".join(reads_as(t, e) for t, e in HOSTILE)
BUT = "\n".join(t for t, _ in HOSTILE[:-1])  # d100's free-text purpose of a check, echoed « ... »
BUT_READS = "\n".join(reads_as(t, e) for t, e in HOSTILE[:-1])


def _run(tmp_path, campaign: str, fmt: str, hostile: bool) -> dict[str, str]:
    root = copy_example(campaign, tmp_path / ("hostile" if hostile else "baseline") / fmt)
    player, n = PLAYERS[campaign]
    path = root / "turns" / f"{n:03d}" / "orders" / f"{player}.yaml"
    text = path.read_text(encoding="utf-8")
    assert "roleplay:" in text
    head = text.split("roleplay:")[0]
    if campaign == "d100":
        assert "but: saboter" in head  # the baseline keeps it
        but = json.dumps(BUT if hostile else "saboter les tourelles")
        head = re.sub(r"but: .*", lambda m: "but: " + but, head)
    # JSON strings are YAML double-quoted scalars: every control character written as an escape.
    path.write_text(head + "roleplay: " + json.dumps(ROLEPLAY if hostile else MARKER + ".") + "\n",
                    encoding="utf-8")
    r = pbp("run", "--no-commit", "--format", fmt, cwd=root)
    assert r.exit_code == 0, r.output
    folder = root / "turns" / f"{n:03d}"
    ext = "md" if fmt == "markdown" else "bbcode"
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in sorted(folder.rglob(f"*.{ext}"))}


@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
@pytest.mark.parametrize("campaign", sorted(PLAYERS))
def test_hostile_orders_are_inert_in_every_post(tmp_path, campaign, fmt):
    hostile, baseline = _run(tmp_path, campaign, fmt, True), _run(tmp_path, campaign, fmt, False)
    assert sorted(hostile) == sorted(baseline) and "public." + ("md" if fmt == "markdown" else "bbcode") in hostile
    quoted = echoed = 0
    for post in hostile:
        if fmt == "bbcode":
            assert_no_html(hostile[post], f"{campaign} {post} (HTML board)")
        for name, parse in PARSERS[fmt].items():
            where = f"{campaign} {post} ({name})"
            h, b = tree(parse(hostile[post])), tree(parse(baseline[post]))

            def roleplay_quotes(root):
                outer = [e for e in root.elements() if e.tag == "blockquote" and MARKER in e.text()]
                return [q for q in outer if not any(q is not o and q in list(o.elements()) for o in outer)]

            hq, bq = roleplay_quotes(h), roleplay_quotes(b)
            assert len(hq) == len(bq), where
            assert skeleton(h, lambda n: any(n is q for q in hq)) == skeleton(b, lambda n: any(n is q for q in bq)), where
            for q in hq:
                assert_inert_quote(q, ROLEPLAY_READS, where)
            quoted += len(hq)
            if campaign == "d100" and "saboter les tourelles" in baseline[post]:
                assert collapse(BUT_READS) in collapse(h.text()), where
                echoed += 1
    assert quoted >= 2  # the public post's roleplay, by both parsers
    assert echoed >= (4 if campaign == "d100" else 0)  # public and private, by both parsers
