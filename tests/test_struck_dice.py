"""A die read but not counted (dropped, rerolled) is marked in a post the way
its format marks it: Markdown strikethrough, the BBCode dialect's own strike
tag, and words where the dialect has none (phpBB); never literal `~~` in BBCode."""

import re

import pytest

from pbp.model.dice import Dice
from pbp.render.escaping import ZWSP
from pbp.render.render import Renderer
from tests.helpers import needs

DROPPED = {"4d6dl1": [2, 5, 5, 2], "4d6r1": [1, 4, 5, 5, 2]}

EXPECTED = {
    ("markdown", None, "fr"): ["4d6dl1 (2+5+5+~~2~~ = 12)", "4d6r1 (~~1~~+4+5+5+2 = 16)"],
    ("bbcode", "phpbb", "fr"): ["4d6dl1 (2+5+5+(2 écarté) = 12)", "4d6r1 ((1 écarté)+4+5+5+2 = 16)"],
    ("bbcode", "phpbb", "en"): ["4d6dl1 (2+5+5+(2 dropped) = 12)", "4d6r1 ((1 dropped)+4+5+5+2 = 16)"],
    ("bbcode", "forumactif", "fr"): ["4d6dl1 (2+5+5+[strike]2[/strike] = 12)",
                                     "4d6r1 ([strike]1[/strike]+4+5+5+2 = 16)"],
    ("bbcode", "xenforo", "fr"): ["4d6dl1 (2+5+5+[s]2[/s] = 12)", "4d6r1 ([s]1[/s]+4+5+5+2 = 16)"],
}


def _post(tmp_path, fmt, dialect, lang) -> str:
    """The forced rolls rendered by a template as a ruleset's would (`m.roll`), one a line."""
    (tmp_path / "t.j2").write_text("{% for r in rolls %}{{ m.roll(r) }}\n\n{% endfor %}", encoding="utf-8")
    dice = Dice("secret", 1, forced=DROPPED)
    rolls = [dice.roll(label, label) for label in DROPPED]
    return Renderer([tmp_path], fmt, dialect or "phpbb", lang).render("t", rolls=rolls)


@pytest.mark.parametrize("fmt, dialect, lang", list(EXPECTED))
def test_a_dropped_die_is_marked_the_formats_way(tmp_path, fmt, dialect, lang):
    assert _post(tmp_path, fmt, dialect, lang) == "\n\n".join(EXPECTED[fmt, dialect, lang]) + "\n"


def test_markdown_strikes_the_dropped_die():
    html = needs("markdown_it").MarkdownIt("commonmark").enable("strikethrough").render(
        EXPECTED["markdown", None, "fr"][0])
    assert html == "<p>4d6dl1 (2+5+5+<s>2</s> = 12)</p>\n"


@pytest.mark.parametrize("dialect, html", [("phpbb", None), ("forumactif", "strike"), ("xenforo", "strike")])
def test_bbcode_has_no_tildes_and_only_its_own_tags(tmp_path, dialect, html):
    parser = needs("bbcodepy").Parser()
    from bbcodepy.tags import create_simple_tag

    parser.register_tag("strike", create_simple_tag("strike"))
    for lang in ("fr", "en"):
        post = _post(tmp_path, "bbcode", dialect, lang)
        out = parser.to_html(post)
        assert "~~" not in out and ZWSP not in post
        assert [t for t in re.findall(r"<(\w+)", out) if t != "br"] == ([html] * 2 if html else [])
        # phpBB parses smilies after a space, a dot or `]`: no ` 8)`, `:)`, `;)` here
        assert not re.search(r"(?:^|[ .\]])(?:8\)|8-\)|[:;][()DPOo|?!x])", post)
