import shutil
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from pbp import dice, yamlio
from pbp.campaign import open_campaign
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


# -- dice versions (pbp/dice_versions.py, docs/dice.md) ------------------------------

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
    from pbp.dice_versions import faces_v1

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
    from pbp.dice_versions import faces_v1

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
    from pbp.campaign import open_campaign
    from pbp.render import package_dir
    from pbp.turn import record_of

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
    assert "3 tour(s) rejoué(s) à l'identique." in r.output
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
