import pytest
from hypothesis import given, strategies as st

from pbp import dice
from pbp.errors import PbpError


@pytest.mark.parametrize("text, canonical, low, high", [
    ("2d6+1d4+2", "2d6+1d4+2", 5, 18),
    ("d%", "1d100", 1, 100),
    ("1D6", "1d6", 1, 6),
    ("xD6+y".replace("x", "2").replace("y", "3"), "2d6+3", 5, 15),
    ("-1d6", "-1d6", -6, -1),
    ("2d6-1", "2d6-1", 1, 11),
    ("5d10", "5d10", 5, 50),
    (" 1d20 + 5 ", "1d20+5", 6, 25),
])
def test_parse(text, canonical, low, high):
    expr = dice.parse(text)
    assert (str(expr), expr.minimum, expr.maximum) == (canonical, low, high)


@pytest.mark.parametrize("bad", ["", "d", "2d", "dd6", "1d6++2", "2x6", "1d0", "0d6", "1d6 2"])
def test_bad_expressions_raise_pbp_error(bad):
    with pytest.raises(PbpError) as info:
        dice.parse(bad)
    assert info.value.key == "bad_dice"


@given(st.text(alphabet="0123456789dD%+- ", max_size=12))
def test_every_expression_rolls_or_raises_pbp_error(text):
    """Like avrae/d20: any input either rolls within its bounds or is refused cleanly."""
    try:
        expr = dice.parse(text)
    except PbpError:
        return
    if expr.maximum > 10**6:
        return
    roll = dice.Dice("s", 1).roll("x", expr)
    assert expr.minimum <= roll.total <= expr.maximum


def test_same_secret_turn_label_same_faces_and_labels_are_independent():
    a = dice.Dice("secret", 3)
    b = dice.Dice("secret", 3)
    assert a.roll("lucy.fouille", "3d20").faces == b.roll("lucy.fouille", "3d20").faces
    # A roll inserted before does not shift another label's dice.
    c = dice.Dice("secret", 3)
    c.roll("bob.combat", "5d6")
    assert c.roll("lucy.fouille", "3d20").faces == a.log[0].faces
    # Another turn or secret gives another stream.
    faces = {dice.Dice(s, t).roll("lucy.fouille", "10d20").faces for s in ("a", "b") for t in (1, 2)}
    assert len(faces) == 4


def test_repeated_label_is_numbered():
    d = dice.Dice("s", 1)
    labels = [d.roll("x", "1d6").label for _ in range(3)]
    assert labels == ["x", "x.2", "x.3"]


def test_forced_total_and_faces():
    d = dice.Dice("s", 1, forced={"a": 12, "b": [3, 4], "x.2": 1})
    assert d.roll("a", "1d20").total == 12
    b = d.roll("b", "2d6+1")
    assert (b.faces, b.total, b.forced) == ((3, 4), 8, True)
    d.roll("x", "1d6")
    assert d.roll("x", "1d6").total == 1
    assert d.unused_forced() == []


@pytest.mark.parametrize("value, key", [(21, "forced_range"), ([1], "forced_faces"), ([7, 1], "forced_faces"),
                                        ("12", "forced_bad")])
def test_bad_forced_values(value, key):
    with pytest.raises(PbpError) as info:
        dice.Dice("s", 1, forced={"a": value}).roll("a", "2d6" if isinstance(value, list) else "1d20")
    assert info.value.key == key


def test_unused_forced_labels_are_reported():
    d = dice.Dice("s", 1, forced={"lucy.fouile.table": 3})
    d.roll("lucy.fouille.table", "1d20")
    assert d.unused_forced() == ["lucy.fouile.table"]


def test_forum_format():
    assert str(dice.Roll("a", "1d10", (7,), 7)) == "1d10 (7)"
    assert str(dice.Roll("a", "2d6+1", (3, 4), 8)) == "2d6+1 (3+4+1 = 8)"
    assert str(dice.Roll("a", "1d20+5", (), 12, forced=True)) == "1d20+5 (12)"


def test_exact_distribution():
    h = dice.parse("2d6").to_dyce()
    assert h[7] == 6 and h.total == 36
    assert dice.parse("1d6-1d6").to_dyce()[0] == 6


def test_choice_and_shuffle_are_logged():
    d = dice.Dice("s", 1, forced={"pick": 2})
    assert d.choice("pick", ["a", "b", "c"]) == "b"
    assert sorted(d.shuffled("order", "abcd")) == list("abcd")
    assert [r.label for r in d.log][:2] == ["pick", "order"]


def test_a_simulations_one_die_draws_what_a_roll_of_it_does():
    lean, general = dice.FreeDice(9), dice.FreeDice(9)
    for sides in [1, 2, 3, 6, 20, 100, 7, 4] * 4:
        assert lean.d("x", sides) == general.roll("x", f"1d{sides}").total
    assert lean.choice("x", "abcde") == general.choice("x", list("abcde")) is not None
    assert lean.draws == general.draws == 33 and lean.log == []
    with pytest.raises(PbpError):  # no die: refused as a roll of it is
        lean.d("x", 0)
    forced = dice.FreeDice(9)
    forced.forced = {"x": 5}
    assert forced.d("x", 6) == 5 and forced.d("y", 6) == dice.FreeDice(9).d("y", 6)


def test_a_too_large_expression_says_the_limits_and_pbp_roll_keeps_its_terms_apart():
    from tests.helpers import pbp

    for expr in ("10000d6", "2d100001"):
        with pytest.raises(PbpError) as err:
            dice.parse(expr)
        assert err.value.key == "dice_too_many"
        assert err.value.text("fr") == (f"expression de dés « {expr} » trop grande : au plus 1000 dés d'un même "
                                        "terme, et 100000 faces par dé.")
    assert dice.parse("1000d100000")  # the limits themselves are allowed
    r = pbp("roll", "2d6", "2d6")  # two expressions, not "2d62d6"
    assert r.exit_code == 1 and "« 2d6 2d6 »" in r.stderr
    r = pbp("roll", "2d6", "+", "1", "--seed", "3")
    assert r.exit_code == 0 and r.output == "2d6+1 (2+5+1 = 8)\n"
