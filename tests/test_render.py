"""Escaping checked with real parsers: the `bbcode` package (phpBB-like) and
Python-Markdown, the one docs/design.md names."""

import functools
import re

import pytest
from hypothesis import given, settings, strategies as st

from pbp.base.errors import TemplateError
from pbp.render.escaping import bbcode_escape, defuse_autolinks, markdown_escape, markdown_escape_inline, normalise
from pbp.render.formatters import BBCodeFormatter, MarkdownFormatter, markdown_to_bbcode
from pbp.render.render import Renderer, template_paths
from tests.helpers import needs

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

@functools.cache
def _bb_parser():
    # Bare URLs linked, as phpBB's magic URLs do: player text must not make one either.
    return needs("bbcode").Parser()


def _bb_html(text: str) -> str:
    return _bb_parser().format(text)


@pytest.mark.parametrize("text", NASTY)
def test_bbcode_player_text_never_makes_a_tag(text):
    fmt = BBCodeFormatter()
    html = _bb_html(fmt.quote(text, "Lucy"))
    # exactly the one quote we made, and no other element
    assert html.count("<blockquote") == 1 and html.count("</blockquote>") == 1
    assert re.findall(r"<(\w+)", html) == ["blockquote"]
    # the text is still readable once the invisible characters are removed
    assert text in html.replace("\u200b", "").replace("\u2060", "").replace("&quot;", '"')


@given(st.text(alphabet=st.sampled_from(list("[]/=\"bquoteimgurl x")), max_size=40))
@settings(max_examples=200, deadline=None)
def test_bbcode_escape_property(text):
    html = _bb_html("[quote]" + bbcode_escape(text) + "[/quote]")
    assert [t for t in re.findall(r"<(\w+)", html) if t != "br"] == ["blockquote"]


@pytest.mark.parametrize("text", MD_NASTY)
def test_markdown_player_text_makes_no_link_image_heading_html(text):
    html = needs("markdown").markdown(MarkdownFormatter().quote(text, "Lucy"), extensions=["tables"])
    tags = set(re.findall(r"<(\w+)", html))
    assert tags <= {"blockquote", "p", "strong", "br"}, (text, html)


@given(st.text(alphabet=st.sampled_from(list("[]()!#=-*_<>&`|:/ hxa\n")), max_size=40))
@settings(max_examples=200, deadline=None)
def test_markdown_escape_property(text):
    html = needs("markdown").markdown(markdown_escape(text), extensions=["tables"])
    assert set(re.findall(r"<(\w+)", html)) <= {"p", "br"}, (text, html)


def test_markdown_quote_keeps_line_breaks():
    md = MarkdownFormatter().quote("un\ndeux", "Lucy")
    assert "<br" in needs("markdown").markdown(md)


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


# -- normalising and escaping, exact outputs ---------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("un\r\ndeux\rtrois\nquatre", "un\ndeux\ntrois\nquatre"),
    ("ligne\u2028suite\u2029fin", "ligne\nsuite\nfin"),
    ("\x1b[1;31mrouge\x1b[0m", "rouge"),  # CSI, parameters and all
    ("\x1b]0;titre de fenêtre\x07texte", "texte"),  # OSC up to BEL
    ("\x1b]8;;http://evil.example\x1b\\lien\x1b]8;;\x1b\\", "lien"),  # OSC 8 hyperlink, ST-terminated
    ("\x1b]0;jamais fermé", "0;jamais fermé"),  # unterminated: only the introducer goes
    ("\x9b2Jeffacé\x1bc", "effacé"),  # C1 CSI, RIS
    ("\x9d\x9d\x9dtexte", "texte"),  # C1 OSC never terminated: the controls go, the text stays
    ("a\x00b\x07c\x08d\x7fe\x85f\x9fg", "abcdefg"),
    ("tab\tgardée", "tab\tgardée"),
    ("\u202eesrever\u202c \u2066x\u2069 \u202a\u202b\u202d", "esrever x "),
    ("Mélétê \u200b\u2060 ok", "Mélétê \u200b\u2060 ok"),  # invisible, but harmless: kept
])
def test_normalise(text, expected):
    assert normalise(text) == expected


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\r\n\t\x1b\x9b\x9d\u2028\u202e[]0;"))
       | st.text())
def test_printable_text_is_left_as_it_is(text):
    """normalise's shortcut: text whose every character is printable is returned
    as it came, since each of its patterns only changes unprintable characters."""
    from pbp.render import escaping

    slow = text
    for pattern, repl in ((escaping._LINE_ENDINGS, "\n"), (escaping._TERMINAL_ESCAPES, ""), (escaping._INVISIBLE, "")):
        slow = pattern.compiled.sub(repl, slow)
    assert normalise(text) == slow
    if text.isprintable():
        assert slow == text


@pytest.mark.parametrize("text, expected", [
    ("http://evil.example/a", "http:\u2060/\u2060/evil.\u2060example/a"),
    ("www.evil.fr", "www\u2060.\u2060evil.\u2060fr"),
    ("_www.x", "_www\u2060.\u2060x"),
    ("ftp.site", "ftp\u2060.\u2060site"),
    ("mj@evil.example", "mj\u2060@\u2060evil.\u2060example"),
    ("@admin", "\u2060@\u2060admin"),
    ("mailto:a", "mailto:\u2060a"),
    # what generated text holds stays as it is
    ("3.5 12:30 1d10 (7) ≥ 4 : survit. Fin", "3.5 12:30 1d10 (7) ≥ 4 : survit. Fin"),
])
def test_defuse_autolinks(text, expected):
    assert defuse_autolinks(text) == expected


def test_bbcode_escape_exact():
    assert bbcode_escape("[b]x[/b] <img src=x> &lt; 1 < 2 & 3") == (
        "[\u200bb]x[\u200b/b] <\u200bimg src=x> &\u200blt; 1 < 2 & 3")
    assert bbcode_escape("Je recule.\r# LE MJ\x1b[31m") == "Je recule.\n# LE MJ"
    # a `[` left open on the last line ends with a line break: `[\u200b[/quote]` would be one token for bbcodepy
    assert bbcode_escape("Case [4, 2] et [") == "Case [\u200b4, 2] et [\u200b\n"
    assert bbcode_escape("[\nfin") == "[\u200b\nfin"


def test_markdown_escape_exact():
    assert markdown_escape("Je recule.\r# LE MJ\r\r> faux") == "Je recule.\n\\# LE MJ\n\n\\> faux"
    assert markdown_escape("~~barré~~ `x` <b> &amp; | a |") == "\\~\\~barré\\~\\~ \\`x\\` &lt;b> &amp;amp; \\| a \\|"
    assert markdown_escape("Titre\n===\n---\n:-:\n-:\n1. un\n2) deux\n+ trois") == (
        "Titre\n&#61;==\n\\---\n\\:-:\n\\-:\n1\\. un\n2\\) deux\n\\+ trois")
    assert markdown_escape("    code\n\tcode") == "\u00a0" * 4 + "code\n" + "\u00a0" * 4 + "code"
    assert markdown_escape("voir www.x.fr") == "voir www\u2060.\u2060x.\u2060fr"


def test_markdown_inline_values_stay_on_their_line():
    assert markdown_escape_inline("un\r\n\r\n# deux\n    trois") == "un # deux trois"  # `#` mid-line is text
    out = Renderer([], "markdown").fmt.list(["a\n\nb", "c"])
    assert out == "- a b\n- c"


def test_markdown_quote_lines_all_start_with_a_marker():
    q = MarkdownFormatter().quote("un\r# deux\n\n    trois", "Lucy")
    assert q == "> **Lucy**\u00a0:\n>\n> un  \n> \\# deux  \n>\n> \u00a0\u00a0\u00a0\u00a0trois  "


def test_bbcode_quote_author_cannot_end_the_tag():
    q = BBCodeFormatter().quote("x", 'Lu"cy]\n[b]')
    assert q == '[quote="Lu\'cy) [\u200bb)"]x[/quote]'


def test_text_format_is_normalised_too(tmp_path):
    (tmp_path / "t.j2").write_text("{{ text }}\n")
    assert Renderer([tmp_path], "text").render("t", text="a\x1b[2Jb\rc") == "ab\nc\n"


# -- template errors --------------------------------------------------------------------

def _broken(tmp_path, source: str, **context):
    own = tmp_path / "templates"
    own.mkdir(exist_ok=True)
    (own / "public.j2").write_text(source)
    with pytest.raises(TemplateError) as caught:
        Renderer([own], "bbcode", root=tmp_path).render("public", turn=1, **context)
    return caught.value


def test_template_syntax_error_names_file_and_line(tmp_path):
    e = _broken(tmp_path, "Tour {{ turn }}\n{% for e in events %}\n{{ e.kind }\n{% endfor %}\n", events=[])
    assert e.text("fr") == "templates/public.j2:3: modèle invalide : erreur de syntaxe : unexpected '}'."
    assert e.text("en") == "templates/public.j2:3: invalid template: syntax error: unexpected '}'."


def test_template_undefined_name_suggests_the_context(tmp_path):
    e = _broken(tmp_path, "Tour {{ turn }}\n\n{{ tour }}\n", title="T")
    assert e.text("fr") == ("templates/public.j2:3: modèle invalide : « tour » n'est pas défini. "
                            "Vouliez-vous dire « turn » ? Valeurs possibles : fmt, lang, m, title, turn.")
    assert e.text("en") == ("templates/public.j2:3: invalid template: `tour` is undefined. "
                            "Did you mean `turn`? Valid values: fmt, lang, m, title, turn.")


def test_template_runtime_error_in_the_campaigns_template(tmp_path):
    e = _broken(tmp_path, "{% set x = 1 %}\n{{ turn // 0 }}\n")
    assert e.text("fr") == ("templates/public.j2:2: modèle invalide : erreur pendant le rendu : "
                            "ZeroDivisionError: integer division or modulo by zero.")


def test_pbp_own_code_failing_under_pbp_own_templates_is_a_bug_not_a_template_error(tmp_path):
    (tmp_path / "t.j2").write_text("{{ turn // 0 }}\n")
    with pytest.raises(ZeroDivisionError):
        Renderer([tmp_path], "bbcode", root=tmp_path / "campaign").render("t", turn=1)


def test_an_edited_template_is_compiled_again(tmp_path):
    (tmp_path / "t.j2").write_text("un\n")
    assert Renderer([tmp_path], "bbcode").render("t") == "un\n"
    (tmp_path / "t.j2").write_text("deux\n")
    assert Renderer([tmp_path], "bbcode").render("t") == "deux\n"


def test_brackets_a_bbcode_template_writes_around_values_are_broken_too(tmp_path):
    # coordinates become (4, 2): visible, nothing invisible to copy into an order; any other
    # bracket that opens no tag of the dialect is broken ([center] is no phpBB tag, [public] none at all)
    (tmp_path / "t.j2").write_text("{{ m.b(nom) }} en [{{ pos | join(', ') }}] [center]x[/center] [*] [\n"
                                   "[public] [-1, 0.5, 3] [spoiler]s[/spoiler] [list=1]\n")
    out = Renderer([tmp_path], "bbcode").render("t", nom="Aria", pos=[4, 2])
    assert out == ("[b]Aria[/b] en (4, 2) [\u200bcenter]x[\u200b/center] [*] [\u200b\n"
                   "[\u200bpublic] (-1, 0.5, 3) [\u200bspoiler]s[\u200b/spoiler] [list=1]\n")
    out = Renderer([tmp_path], "bbcode", "xenforo").render("t", nom="Aria", pos=[4, 2])
    assert out.endswith("[\u200bpublic] (-1, 0.5, 3) [spoiler]s[/spoiler] [list=1]\n")
    # Markdown reads `[4, 2]` as text already: unchanged
    assert Renderer([tmp_path], "markdown").render("t", nom="Aria", pos=[4, 2]).startswith("**Aria** en [4, 2] ")
