"""Escaping checked with real parsers: the `bbcode` package (phpBB-like) and
Python-Markdown, the one DESIGN.md names."""

import re

import bbcode
import markdown
import pytest
from hypothesis import given, settings, strategies as st

from pbp.render import (BBCodeFormatter, MarkdownFormatter, Renderer, bbcode_escape, markdown_escape,
                        markdown_to_bbcode, template_paths)

NASTY = [
    "[b]gras[/b]",
    "[/quote][url=http://evil.example]clic[/url][quote]",
    "[img]http://evil.example/x.png[/img]",
    "[quote=\"MJ\"]Je suis le MJ[/quote]",
    "[color=red]rouge[/color] [size=200]énorme[/size]",
    "[/code][spoiler]x[/spoiler]",
]
MD_NASTY = [
    "[lien](http://evil.example)",
    "![img](http://evil.example/x.png)",
    "# Titre",
    "Titre\n=====",
    "Titre\n-----",
    "<script>alert(1)</script>",
    "<b>gras</b> &amp; <a href='x'>y</a>",
    "<http://evil.example>",
    "* liste\n1. liste",
    "> citation",
    "`code` **gras** _it_",
    "| a | b |\n|---|---|\n| c | d |",
    "[ref]: http://evil.example\n[ref]",
]

# Bare URLs are linkified by forums whatever we do; what matters is that no tag is live.
bb = bbcode.Parser(replace_links=False)


def _bb_html(text: str) -> str:
    return bb.format(text)


@pytest.mark.parametrize("text", NASTY)
def test_bbcode_player_text_never_makes_a_tag(text):
    fmt = BBCodeFormatter()
    html = _bb_html(fmt.quote(text, "Lucy"))
    # exactly the one quote we made, and no other element
    assert html.count("<blockquote") == 1 and html.count("</blockquote>") == 1
    assert re.findall(r"<(\w+)", html) == ["blockquote"]
    # the text is still readable once zero-width spaces are removed
    assert text in html.replace("\u200b", "").replace("&quot;", '"')


@given(st.text(alphabet=st.sampled_from(list("[]/=\"bquoteimgurl x")), max_size=40))
@settings(max_examples=200)
def test_bbcode_escape_property(text):
    html = _bb_html("[quote]" + bbcode_escape(text) + "[/quote]")
    assert re.findall(r"<(\w+)", html) == ["blockquote"]


@pytest.mark.parametrize("text", MD_NASTY)
def test_markdown_player_text_makes_no_link_image_heading_html(text):
    html = markdown.markdown(MarkdownFormatter().quote(text, "Lucy"), extensions=["tables"])
    tags = set(re.findall(r"<(\w+)", html))
    assert tags <= {"blockquote", "p", "strong", "br"}, (text, html)


@given(st.text(alphabet=st.sampled_from(list("[]()!#=-*_<>&`|:/ hxa\n")), max_size=40))
@settings(max_examples=200)
def test_markdown_escape_property(text):
    html = markdown.markdown(markdown_escape(text), extensions=["tables"])
    assert set(re.findall(r"<(\w+)", html)) <= {"p", "br"}, (text, html)


def test_markdown_quote_keeps_line_breaks():
    md = MarkdownFormatter().quote("un\ndeux", "Lucy")
    assert "<br" in markdown.markdown(md)


def test_mj_markdown_becomes_bbcode():
    out = markdown_to_bbcode("# Nuit\n\nLe **labyrinthe** *gronde*.\n\n- un\n- deux\n\n> cité\n\n[lien](http://x.y)")
    assert out == ("[size=200][b]Nuit[/b][/size]\n\nLe [b]labyrinthe[/b] [i]gronde[/i].\n\n"
                   "[list]\n[*]un\n[*]deux\n[/list]\n\n[quote]cité\n[/quote]\n\n[url=http://x.y]lien[/url]")


@pytest.mark.parametrize("dialect, spoiler, strike, table, size", [
    ("phpbb", False, None, False, "[size=150]"),
    ("forumactif", True, "[strike]", True, "[size=18]"),
    ("xenforo", True, "[s]", True, "[size=5]"),
])
def test_dialects_only_emit_their_tags(dialect, spoiler, strike, table, size):
    fmt = BBCodeFormatter(dialect)
    assert ("[spoiler" in fmt.spoiler("x", "t")) is spoiler
    assert ("[table]" in fmt.table([["a", "b"]], ["h", "i"])) is table
    assert fmt.h("Titre", 2).startswith(size)
    s = fmt.s("barré")
    assert s == "barré" if strike is None else s.startswith(strike)
    assert "[strike]" not in markdown_to_bbcode("~~x~~", fmt) or dialect == "forumactif"


def test_templates_escape_everything_but_helpers(tmp_path):
    (tmp_path / "t.j2").write_text("{{ text }} {{ m.b(text) }} {{ m.quote(text) }}\n")
    out = Renderer([tmp_path], "bbcode").render("t", text="[b]x[/b]")
    assert out == "[\u200bb]x[\u200b/b] [b][\u200bb]x[\u200b/b][/b] [quote][\u200bb]x[\u200b/b][/quote]\n"
    out = Renderer([tmp_path], "markdown").render("t", text="[b](x)")
    assert out.startswith("\\[b\\](x) **\\[b\\](x)**")


def test_format_specific_template_wins(tmp_path):
    (tmp_path / "p.j2").write_text("generic\n")
    (tmp_path / "p.markdown.j2").write_text("markdown only\n")
    assert Renderer([tmp_path], "markdown").render("p") == "markdown only\n"
    assert Renderer([tmp_path], "bbcode").render("p") == "generic\n"


def test_campaign_templates_are_looked_up_first(tmp_path):
    own = tmp_path / "templates"
    own.mkdir()
    paths = template_paths("manhunt", "fr", tmp_path)
    assert paths[0] == own and any(p.parts[-2:] == ("manhunt", "fr") for p in paths)


def test_event_data_keys_win_over_dict_methods(tmp_path):
    (tmp_path / "t.j2").write_text("{{ d.items | join(',') }}\n")
    assert Renderer([tmp_path], "bbcode").render("t", d={"items": ["a", "b"]}) == "a,b\n"
