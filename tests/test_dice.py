import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pbp.base import yamlio
from pbp.base.errors import PbpError
from pbp.engine.campaign import open_campaign
from pbp.model import dice


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


# -- dice versions (pbp/model/dice_versions.py, docs/dice.md) ------------------------------

#: dice version 1, written down: these numbers are the same on every Python and in
#: any language that follows docs/dice.md (the first was checked by hand against
#: `printf 'pbp-dice-v1\n3\nlucy.fouille\n0' | openssl dgst -sha256 -hmac secret`)
V1_FACES = [
    (("secret", 3, "lucy.fouille", [6] * 5), (1, 3, 3, 2, 6)),
    (("secret", 3, "lucy.fouille", [20, 100, 1000, 2, 1]), (7, 27, 676, 2, 1)),
    (("secret", -1, "kira.physique", [10] * 3), (3, 8, 5)),
    (("Sel de mer ☂", 12, "bob.combat.2", [6, 300, 65536, 100000]), (1, 182, 1115, 88119)),
]


@pytest.mark.parametrize("args, faces", V1_FACES)
def test_version_1_gives_the_faces_written_down(args, faces):
    from pbp.model.dice_versions import faces_v1

    assert faces_v1(*args) == faces
    secret, turn, label, sides = args
    expr = "+".join(f"1d{s}" for s in sides)
    assert dice.Dice(secret, turn).roll(label, expr).faces == faces  # the roller's default: version 1


def reference_v1(secret: str, turn: int, label: str, sides: list[int]) -> tuple[int, ...]:
    """docs/dice.md's version 1 written a second way: the whole byte stream first, then read."""
    import hashlib
    import hmac

    stream = b"".join(hmac.new(secret.encode(), f"pbp-dice-v1\n{turn}\n{label}\n{i}".encode(), hashlib.sha256).digest()
                      for i in range(64))
    out, pos = [], 0
    for s in sides:
        k = 1
        while 256 ** k < s:
            k += 1
        while True:
            x = int.from_bytes(stream[pos:pos + k], "big")
            pos += k
            if x < 256 ** k - 256 ** k % s:
                out.append(x % s + 1)
                break
    return tuple(out)


@given(st.text(max_size=20), st.integers(-5, 10 ** 6), st.text(min_size=1, max_size=30),
       st.lists(st.sampled_from([1, 2, 3, 6, 7, 10, 20, 100, 255, 256, 257, 1000, 65535, 65536, 65537, 100000]),
                max_size=40))
def test_version_1_is_the_documented_derivation(secret, turn, label, sides):
    from pbp.model.dice_versions import faces_v1

    assert faces_v1(secret, turn, label, sides) == reference_v1(secret, turn, label, sides)


def test_version_0_is_kept_as_it_was():
    """The faces archives made before versions hold (CPython's Mersenne Twister)."""
    d = dice.Dice("secret", 3, version=0)
    assert d.roll("lucy.fouille", "5d6").faces == (4, 3, 2, 3, 1)  # as pbp gave it before versions
    assert d.version == 0 and dice.Dice("secret", 3).version == 1


@pytest.mark.parametrize("version", [2, -1, "1", True, [1], None])
def test_an_unknown_dice_version_is_refused_by_name(version):
    with pytest.raises(PbpError) as err:
        dice.Dice("s", 1, version=version)
    assert err.value.key == "dice_version_unknown"


def test_every_bundled_example_is_played_with_version_1():
    from pbp.engine.campaign import open_campaign
    from pbp.engine.turn_record import record_of
    from pbp.render.render import package_dir

    examples = [d for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists()]
    assert examples
    for root in examples:
        campaign = open_campaign(root)
        assert [record_of(campaign, n).get("dice") for n in campaign.resolved_turns()] == \
            [1] * len(campaign.resolved_turns()), root.name


FIXTURE_V0 = Path(__file__).parent / "fixtures" / "dice_v0"


@pytest.fixture
def archive_v0(tmp_path):
    """The d100 example as it was archived before dice versions (turns 0 to 2;
    posts left out, so that a change of template leaves it alone)."""
    target = tmp_path / "v0"
    shutil.copytree(FIXTURE_V0, target)
    return target


def test_an_archive_from_before_versions_replays_plays_on_with_version_0_and_audits(archive_v0, tmp_path):
    from tests.helpers import pbp

    r = pbp("verify", cwd=archive_v0)
    assert r.exit_code == 0, r.output
    assert "3 tours rejoués à l'identique." in r.output
    assert pbp("run", "--no-commit", cwd=archive_v0).exit_code == 0
    # its next turn keeps the dice it was set up with (docs/dice.md): version 0, recorded by absence
    assert "dice" not in yamlio.load_file(archive_v0 / "turns/003/turn.yaml")
    seeded = dice.Dice(open_campaign(archive_v0).secret, 3, version=0)
    for roll in yamlio.load_file(archive_v0 / "turns/003/rolls.yaml"):
        assert roll.get("forced") or list(seeded.roll(roll["label"], roll["expr"]).faces) == roll["faces"]
    assert pbp("verify", cwd=archive_v0).exit_code == 0
    bundle = tmp_path / "v0.tar.gz"
    assert pbp("reveal", "--before-end", "--output", bundle, cwd=archive_v0).exit_code == 0
    r = pbp("audit", bundle)
    assert r.exit_code == 0 and "Verdict : tout concorde (4 tours)." in r.output, r.output


def test_a_turn_recorded_with_other_dice_than_its_campaigns_replays_different(archive_v0):
    """No MJ picks the dice version once the secret is known: a turn that says
    version 1 in a campaign set up with version 0 is not what pbp plays."""
    from tests.helpers import pbp

    record = archive_v0 / "turns/002/turn.yaml"
    record.write_text(record.read_text(encoding="utf-8") + "dice: 1\n", encoding="utf-8")
    r = pbp("verify", cwd=archive_v0)
    assert r.exit_code == 1
    assert "tour 1 : identique" in r.output and "tour 2 : DIFFÉRENT" in r.output


def test_a_record_with_an_unknown_dice_version_is_refused_cleanly(archive_v0):
    from tests.helpers import pbp

    record = archive_v0 / "turns/000/turn.yaml"
    record.write_text(record.read_text(encoding="utf-8") + "dice: 7\n", encoding="utf-8")
    r = pbp("verify", cwd=archive_v0)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "version de dés 7 inconnue de ce pbp (il connaît : 0, 1)" in r.output


# -- the forum's dice notation (pbp/model/dice_notation.py) ------------------------------------

@pytest.mark.parametrize("text, canonical, low, high", [
    ("2d20kh1", "2d20kh1", 1, 20),
    ("2d20KL1".lower(), "2d20kl1", 1, 20),
    ("4d6dl1", "4d6dl1", 3, 18),
    ("4d6dh1", "4d6dh1", 3, 18),
    ("10d10k3", "10d10kh3", 3, 30),
    ("3d6!", "3d6!", 3, 18 * 11),
    ("1d6!>=5", "1d6!>=5", 1, 6 * 11),
    ("4d6r1", "4d6r1", 4, 24),
    ("4d6ro1", "4d6ro1", 4, 24),
    ("1d20r<3", "1d20r<3", 1, 20),
    ("6d6>=4", "6d6>=4", 0, 6),
    ("6d6>=4f1", "6d6>=4f1", -6, 6),
    ("4dF", "4dF", -4, 4),
    ("4df+1", "4dF+1", -3, 5),
    ("2d20kh1 + 5", "2d20kh1+5", 6, 25),
])
def test_the_notation_reads_and_its_bounds_are_the_exact_ones(text, canonical, low, high):
    expr = dice.parse(text)
    assert (str(expr), expr.minimum, expr.maximum) == (canonical, low, high)
    odds = expr.exact()
    assert (min(odds), max(odds), sum(odds.values())) == (low, high, 1)


@pytest.mark.parametrize("text, canonical, low, high", [
    # exploding on the highest face, then counting successes: `3d6!>=5` would explode on 5 and 6
    ("3d6!=6>=5", "3d6!=6>=5", 0, 33),
    ("3d6!=6=6", "3d6!=6=6", 0, 33),
    ("3d6!>=5", "3d6!>=5", 3, 18 * 11),
])
def test_the_notation_shown_reads_back_as_the_same_dice(text, canonical, low, high):
    """The canonical text is what the roll line, the odds and the explanation print: an MJ
    who copies it must get the same dice (an exploding pool once printed as `3d6!>=5`,
    which explodes on 5 and sums). Each die of an explosion counts as a success of its own:
    3 dice exploding at most 10 times each count up to 33."""
    expr = dice.parse(text)
    assert (str(expr), expr.minimum, expr.maximum) == (canonical, low, high)
    again = dice.parse(str(expr))
    assert (str(again), again.minimum, again.maximum) == (canonical, low, high)


def enumerate_roller(expr) -> dict:
    """The roller's own distribution, by walking every sequence of faces it can
    read (each face 1/sides): an exact check of the odds that shares no code with them."""
    from fractions import Fraction

    class More(Exception):
        pass

    out: dict = {}
    pending = [((), Fraction(1))]
    while pending:
        prefix, p = pending.pop()
        faces = iter(prefix)
        wanted = []

        def read(sides):
            face = next(faces, None)
            if face is None:
                wanted.append(sides)
                raise More
            return face

        try:
            _, total, _ = expr.throw(read)
        except More:
            pending += [(prefix + (f,), p / wanted[0]) for f in range(1, wanted[0] + 1)]
            continue
        out[total] = out.get(total, 0) + p
    return out


@pytest.mark.parametrize("text", ["2d4kh1", "3d4dl1", "2d3dh1", "2d4!", "1d3!>=2", "2d4r1", "3d3ro1kh2",
                                  "1d4r<3", "4d3>=2f1", "3dF", "3dFkh2", "2d4!kh1+1", "1d3ro1!-1d2", "3d4<2",
                                  "1d3!=3>=2", "1d4!=4>=3f1"])
def test_the_odds_are_what_the_roller_rolls(text):
    expr = dice.parse(text)
    assert expr.exact() == enumerate_roller(expr)


def test_pbp_odds_answers_the_notation_exactly():
    from fractions import Fraction

    from pbp.balance.odds import distribution
    from tests.helpers import pbp

    r = pbp("odds", "10d10kh3")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "10d10kh3" and "30  7.0 %   7.0 %" in lines and "3   0.0 %   100.0 %" in lines
    # 30: three 10s or more among ten d10
    assert distribution("10d10kh3")[30] == 1 - Fraction(9, 10) ** 10 - 10 * Fraction(1, 10) * Fraction(9, 10) ** 9 \
        - 45 * Fraction(1, 100) * Fraction(9, 10) ** 8
    r = pbp("odds", "2d20kh1", "--ge", "15")
    assert r.exit_code == 0 and "2d20kh1 ≥ 15  51/100 (51.0 %)" in r.output  # 1 - (14/20)²
    assert distribution("4dF")[0] == Fraction(19, 81)
    r = pbp("odds", "3d6!")
    assert r.exit_code == 0 and "au plus 10 dés de plus par dé" in r.output
    r = pbp("odds", "1000d1000")
    assert r.exit_code == 1 and "trop de dés et de faces pour des chances exactes (au plus 4000000" in r.stderr


@pytest.mark.parametrize("expr, faces, shown", [
    ("4d6dl1", [6, 4, 3, 1], "4d6dl1 (6+4+3+~~1~~ = 13)"),
    ("2d20kh1", [7, 15], "2d20kh1 (~~7~~+15 = 15)"),
    ("2d20kl1+2", [7, 15], "2d20kl1+2 (7+~~15~~+2 = 9)"),
    ("3d6!", [6, 6, 2, 3, 1], "3d6! (6!+6!+2+3+1 = 18)"),
    ("4d6r1", [1, 1, 5, 2, 3, 4], "4d6r1 (~~1~~+~~1~~+5+2+3+4 = 14)"),
    ("2d6ro1", [1, 1, 4], "2d6ro1 (~~1~~+1+4 = 5)"),
    ("6d6>=4f1", [5, 2, 6, 1, 4, 3], "6d6>=4f1 (5✔ 2 6✔ 1✘ 4✔ 3 = 2)"),
    ("4dF", [1, 2, 3, 3], "4dF (-1 0 +1 +1 = 1)"),
    ("1d20ro1", [1, 12], "1d20ro1 (~~1~~+12 = 12)"),
    # an exploding pool: the 6 explodes into a 5, two successes from one die
    ("3d6!=6>=5", [6, 5, 2, 1], "3d6!=6>=5 (6!✔+5✔ 2 1 = 2)"),
])
def test_the_forum_shows_every_die_the_dropped_and_rerolled_struck(expr, faces, shown):
    roll = dice.Dice("s", 1, forced={"x": faces}).roll("x", expr)
    assert str(roll) == shown and roll.faces == tuple(faces)


@pytest.mark.parametrize("expr, faces", [("3d6!", [6, 2]), ("3d6!", [6, 2, 3, 4, 5]), ("2d6r1", [1, 1]),
                                         ("2d6kh1", [7, 1]), ("2dF", [0, 1])])
def test_forced_faces_of_the_notation_are_read_in_order(expr, faces):
    with pytest.raises(PbpError) as err:
        dice.Dice("s", 1, forced={"x": faces}).roll("x", expr)
    assert err.value.key == "forced_faces_read"


def test_a_forced_total_the_notation_cannot_give_is_refused():
    assert dice.Dice("s", 1, forced={"x": 7}).roll("x", "2d6>=4f1+5").total == 7
    with pytest.raises(PbpError) as err:  # within 1..66, but no exploding d6 totals 6 or 12
        dice.Dice("s", 1, forced={"x": 12}).roll("x", "1d6!")
    assert err.value.key == "forced_range"


@pytest.mark.parametrize("expr, key, says", [
    ("1d6" * 100, "dice_too_long", "at most 200 characters"),
    ("1001d6kh1", "dice_too_many", "at most 1000 dice in one term, and 100000 sides a die"),
    ("3d6!>=1", "dice_explode_all", "at most 10 extra dice a die"),
    ("3d6!>", "bad_dice", "examples: 1d10"),
    ("3d6r<=6", "dice_reroll_all", "pbp rerolls at most 10 times"),
    ("4d6kh5", "dice_keep_range", "keep or drop from 1 to 4 dice"),
    ("4d6dl4", "dice_keep_range", "keep or drop from 1 to 3 dice"),
    ("4d6kh0", "dice_keep_range", "keep or drop from 1 to 4 dice"),
    ("4dF!", "dice_fate_modifier", "Fate dice (dF) neither reroll nor explode"),
    ("4d6!kh2>=5", "dice_keep_exploding_pool", "an exploding pool counts every die of every explosion"),
    ("4d6kh1r1", "bad_dice", "examples"),
    ("2d6>=", "bad_dice", "examples"),
])
def test_a_strangers_expression_is_refused_cleanly_saying_the_limits(expr, key, says):
    with pytest.raises(PbpError) as err:
        dice.parse(expr)
    assert err.value.key == key and says in err.value.text("en")


def test_pbp_roll_rolls_the_notation():
    from tests.helpers import pbp

    r = pbp("roll", "4d6dl1", "--seed", "3")
    assert r.exit_code == 0 and r.output == "4d6dl1 (2+5+5+~~2~~ = 12)\n"  # of equal dice, the first thrown is kept
    r = pbp("roll", "3d6!>=0")
    assert r.exit_code == 1 and "Traceback" not in r.output


NOTATION_TEXT = st.builds(
    lambda count, sides, reroll, explode, keep, count_op, const: (
        f"{count}d{sides}{reroll}{explode}{keep}{count_op}{const}"),
    st.sampled_from(["", "1", "2", "3", "5", "0", "1001"]),
    st.sampled_from(["1", "2", "4", "6", "10", "20", "%", "F", "0", "100001"]),
    st.sampled_from(["", "r1", "ro1", "r<3", "r>=5", "ro<=2", "r<=6", "r0"]),
    st.sampled_from(["", "!", "!>=5", "!>3", "!=1", "!>=1", "!<2"]),
    st.sampled_from(["", "kh1", "kl1", "dh1", "dl1", "k2", "kh0", "dl5"]),
    st.sampled_from(["", ">=4", "<2", "=1", ">=4f1", ">=0f<=-1", ">"]),
    st.sampled_from(["", "+1", "-2", "+1d4", "-1d6kh1", "+2dF"]))


def shown_parts_sum(text: str, total_shown: str) -> int:
    """The sum of the parts a forum line shows (struck parts left out; ✔ 1, ✘ -1 when counting)."""
    import re

    body = text[text.index("(") + 1:text.rindex(" = " + total_shown + ")")]
    body = re.sub(r"~~[^~]*~~", "", body).replace("!", "")
    notation = text.split(" ")[0]
    if "✔" in body or "✘" in body or any(sign in notation for sign in "<>="):  # successes counted
        return None
    return sum(int(x) for x in re.findall(r"[+-]?\d+", body.replace("+", " +").replace("-", " -")))


@settings(deadline=None)  # an exact distribution's first computation (icepool) may take a while
@given(st.one_of(NOTATION_TEXT, st.text(alphabet="0123456789dDfFkhlr!<>=%+- ", max_size=16)),
       st.integers(0, 2 ** 32))
def test_every_notation_rolls_within_its_exact_odds_or_raises_pbp_error(text, seed):
    """As avrae/d20: any expression either rolls (its total one the exact odds
    give, and the sum of the parts shown) or is refused with pbp's own error."""
    try:
        expr = dice.parse(text)
    except PbpError:
        return
    roll = dice.FreeDice(seed).roll("x", expr)
    if expr.cost() <= 200_000:
        odds = expr.exact()
        assert sum(odds.values()) == 1 and odds.get(roll.total, 0) > 0
        assert expr.minimum <= roll.total <= expr.maximum
    shown = dice.forum(roll)
    assert shown.startswith(str(expr))
    single = len(expr.dice) == 1 and expr.dice[0].sign > 0
    if single and "(" in shown and " = " in shown:
        parts = shown_parts_sum(shown, str(roll.total))
        assert parts is None or parts == roll.total, shown
    replayed = dice.Dice("s", 1, forced={"x": list(roll.faces)}).roll("x", expr) if roll.faces else roll
    assert replayed.total == roll.total  # the log's faces give the total again (what verify and forum rely on)
