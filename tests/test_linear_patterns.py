"""Every pattern applied to text a stranger wrote (the MJ's narration, a shared
campaign's data, an order file, an audited bundle's posts) ends in time linear
in the text: each is fed the text built to make a backtracking engine try every
reading, and must give the right answer within a bound a quadratic time would
pass by far. Through `pbp run` where a command reads the text."""

from __future__ import annotations

import time

import pytest

from pbp.base.errors import PbpError
from pbp.engine import seal
from pbp.model import dice
from pbp.render import escaping, formatters, markdown_blocks
from tests.helpers import copy_example, pbp
from tests.test_hostile_orders import no_hang

NBSP = "\u00a0"
#: CPU seconds any one pattern may take on its worst text (linear time takes milliseconds)
BOUND = 1.0


def cpu(call):
    start = time.process_time()
    with no_hang(20):
        result = call()
    spent = time.process_time() - start
    assert spent < BOUND, f"{spent:.2f} s of CPU"
    return result


@pytest.fixture
def camp(tmp_path):
    return copy_example("manhunt", tmp_path)


def run_with_narration(camp, narration: str) -> str:
    gm = "turn: 4\nnarration: |\n" + "".join(f"  {line}\n" for line in narration.split("\n"))
    (camp / "turns/004/gm.yaml").write_text(gm, encoding="utf-8")
    start = time.process_time()
    with no_hang(20):
        r = pbp("run", "--no-commit", cwd=camp)
    assert r.exit_code == 0, r.output
    assert time.process_time() - start < 10, "pbp run took more than 10 s of CPU"
    return (camp / "turns/004/public.bbcode").read_text(encoding="utf-8")


def test_an_open_bracket_before_many_numbers_costs_pbp_run_no_time(camp):
    """`[` and 40 comma-separated numbers with no `]`: the coordinates pattern
    (a comma is a decimal mark or a separator) took seconds more per number."""
    numbers = ",".join(str(i) for i in range(40))
    post = run_with_narration(camp, f"Relevé [{numbers} fin.\nEt la carte [4, 2].")
    assert f"[\u200b{numbers} fin." in post  # left as written, its bracket broken
    assert "la carte (4, 2)." in post  # true coordinates still become parentheses


def test_long_runs_of_no_break_spaces_in_narration_cost_pbp_run_no_time(camp):
    """The clean-up of the converted Markdown (`\\s+[/quote]`, `\\s*\\n[*]`) tried
    every start in a run of spaces: quadratic."""
    run = NBSP * 40_000
    post = run_with_narration(camp, f"> début{run}suite\n\n- un{run}deux\n- trois")
    assert f"[quote]début{run}suite\n[/quote]" in post
    assert f"[*]un{run}deux\n[*]trois" in post


def test_the_coordinates_pattern_on_its_worst_text():
    worst = "[" + ",".join("1" for _ in range(20_000))
    assert cpu(lambda: formatters.COORDINATES.search(worst)) is None
    closed = "[" + ", ".join(str(i) for i in range(20_000)) + "]"
    assert cpu(lambda: formatters.COORDINATES.fullmatch(closed)) is not None
    assert formatters.COORDINATES.sub(lambda m: "(" + m.group(1) + ")", "[1,5] [1.5] [\u0661, \u0662] [-3 ;4]") == \
        "(1,5) [1.5] (\u0661, \u0662) (-3 ;4)"


@pytest.mark.parametrize("space", [" ", NBSP, "\u3000"])
def test_the_narration_clean_up_on_its_worst_text(space):
    from pbp.render.narration import to_bbcode

    fmt = formatters.formatter("bbcode", "phpbb")
    run = space * 50_000
    out = cpu(lambda: to_bbcode(f"> a{run}b\n\n- x{run}y\n- z\n", fmt))
    assert out == f"[quote]a{run}b\n[/quote]\n\n[list]\n[*]x{run}y\n[*]z\n[/list]"


def test_a_dice_expression_with_a_run_of_spaces_is_read_at_once():
    """A campaign's dice expression (data.yaml, a shared campaign): `\\s*([+-])?\\s*(\\d*)\\s*`
    had two readings of each run of spaces after a sign (quadratic time)."""
    text = "1 +" + " " * 50_000 + "x"
    with pytest.raises(PbpError) as refused:
        cpu(lambda: dice.parse(text))
    assert refused.value.key == "dice_too_long"  # refused before it is read (pbp.model.dice_notation.MAX_LENGTH)
    with pytest.raises(PbpError) as refused:  # and within the limit, read in one pass
        cpu(lambda: dice.parse("1 +" + " " * 190 + "x"))
    assert refused.value.key == "bad_dice"
    assert str(dice.parse(" 2 d 6 +  - 3".replace("+  -", "-"))) == "2d6-3"
    assert str(dice.parse("d%")) == "1d100"


def test_a_square_with_a_run_of_spaces_is_read_at_once():
    from pbp.rulesets.skirmish import board

    assert cpu(lambda: board._SQUARE.fullmatch("(1" + " " * 50_000 + "x")) is None
    assert board._SQUARE.fullmatch("(3" + " " * 50_000 + "4)").groups() == ("3", "4")
    assert board._SQUARE.fullmatch("3 - 4").groups() == ("3", "4")


def test_the_seal_lines_of_a_bundle_post_on_their_worst_text():
    """An audited bundle's posts are searched for seal lines, a line at a time
    (`^` in multi-line mode): a run of blanks is read once per line."""
    blanks = NBSP * 50_000
    post = f"{blanks}x\n[b]Sceau du tour{blanks}3[/b]{blanks}:{blanks}pbp#3/zz\n" * 2
    assert cpu(lambda: list(seal._SEAL_LINE.finditer(post))) == []
    assert cpu(lambda: list(seal._COMMITMENT_LINE.finditer(post))) == []


@pytest.mark.parametrize("pattern, worst", [
    (escaping._AUTOLINK_SPOTS, "a:" * 30_000 + "/" * 30_000 + "@" * 30_000),
    (escaping._MD_LINE_START, (" " * 30_000 + "x\n") * 2 + "1" * 30_000 + "x"),
    (escaping._MD_INDENT, (" " * 30_000 + "x\n") * 2),
    (escaping._TERMINAL_ESCAPES, "\x1b]" + "a" * 30_000 + "\x1b[" + "0" * 30_000),
], ids=["autolinks", "line-starts", "indents", "terminal-escapes"])
def test_the_escaping_patterns_on_their_worst_text(pattern, worst):
    cpu(lambda: pattern.sub("", worst))


@pytest.mark.parametrize("pattern", [markdown_blocks._MD_RULE, markdown_blocks._MD_UNDERLINE, markdown_blocks._MD_ITEM, markdown_blocks._MD_HEADING])
@pytest.mark.parametrize("line", ["*" + " " * 50_000 + "x", "* " * 25_000 + "x", "1" * 50_000 + "x", "=" * 50_000 + " x"],
                         ids=["spaces", "stars", "digits", "equals"])
def test_the_markdown_block_patterns_on_their_worst_lines(pattern, line):
    cpu(lambda: pattern.match(line))


def test_bidi_marks_and_piles_of_combining_marks_in_a_roleplay_do_not_go_out(camp):
    """LRM/RLM/ALM are removed like the other bidi controls; a "zalgo" roleplay
    (19,000 marks on one letter) keeps at most escaping.MAX_MARKS per letter."""
    import yaml

    path = camp / "turns/004/orders/lucy.yaml"
    orders = yaml.safe_load(path.read_text(encoding="utf-8"))
    zalgo = "Z" + "\u0301\u0316\u0483" * 6_333 + "ut"
    orders["roleplay"] = f"Lucy\u200e lit\u200f l'inscription\u061c : {zalgo} ! Việt, Ти́бет."
    path.write_text(yaml.safe_dump(orders, allow_unicode=True), encoding="utf-8")
    with no_hang(20):
        r = pbp("run", "--no-commit", cwd=camp)
    assert r.exit_code == 0, r.output
    posts = [p.read_text(encoding="utf-8") for p in (camp / "turns/004").rglob("*.bbcode")]
    shown = [p for p in posts if "l'inscription" in p]
    assert shown
    for post in shown:
        assert not any(mark in post for mark in "\u200e\u200f\u061c")
        assert "Lucy lit l'inscription : Z" + ("\u0301\u0316\u0483" * 3)[:escaping.MAX_MARKS] + "ut !" in post
        assert "Việt, Ти́бет." in post  # real accents stay
