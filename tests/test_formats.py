"""Output formats are registered in one place (pbp/render/formats.py): every name the
MJ may give (campaign.yaml's `format:`, a turn's record, `--format`) is one of
them, and any other is a clean refusal listing the valid ones, never a post
silently rendered as plain text."""

from __future__ import annotations

import pytest

from pbp.base.errors import PbpError
from pbp.render import formats, formatters
from tests.helpers import copy_example, pbp

VALID_FR = "Valeurs possibles : bbcode, markdown."


def files_of(root):
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def skirmish(tmp_path):
    return copy_example("skirmish", tmp_path)


def test_an_unknown_format_in_campaign_yaml_is_refused_listing_the_valid_ones(skirmish):
    path = skirmish / "campaign.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("format: bbcode", "format: html"), encoding="utf-8")
    before = files_of(skirmish)
    for command in (("post",), ("check",), ("run", "--no-commit")):
        r = pbp(*command, cwd=skirmish)
        assert r.exit_code == 1, r.output
        assert r.stderr == f"campaign.yaml:4: « html » n'est pas une valeur possible. {VALID_FR}\n"
    assert files_of(skirmish) == before


@pytest.mark.parametrize("command", [("post",), ("run", "--dry-run"), ("receipt", "--player", "x"), ("remind",)])
def test_an_unknown_format_on_the_command_line_is_a_usage_error_listing_the_valid_ones(skirmish, command):
    r = pbp(*command, "--format", "html", cwd=skirmish)
    assert r.exit_code == 2
    assert "« --format »" in r.stderr and VALID_FR in r.stderr


@pytest.mark.parametrize("command", [("odds", "1d20"), ("dice-report",)])
def test_the_terminal_text_is_a_format_of_the_tables_only(skirmish, command):
    r = pbp(*command, "--format", "html", cwd=skirmish)
    assert r.exit_code == 2 and "Valeurs possibles : text, bbcode, markdown." in r.stderr


def test_a_turn_recorded_in_an_unknown_format_is_refused_not_replayed_as_plain_text(skirmish):
    """turn.yaml records the format a turn was rendered in, and `pbp verify` replays it
    that way: a name pbp does not have was replayed as plain text (and reported as a
    difference); it is a refusal naming the file and the line."""
    record = skirmish / "turns" / "001" / "turn.yaml"
    text = record.read_text(encoding="utf-8")
    assert "  format: bbcode\n" in text
    record.write_text(text.replace("  format: bbcode\n", "  format: html\n"), encoding="utf-8")
    line = text.split("\n").index("  format: bbcode") + 1
    refusal = f"turns/001/turn.yaml:{line}: « html » n'est pas une valeur possible. {VALID_FR}\n"
    r = pbp("post", "--turn", "1", cwd=skirmish)
    assert r.exit_code == 1, r.output
    assert refusal in r.stderr
    r = pbp("verify", cwd=skirmish)  # that turn differs, saying why; the others are replayed all the same
    assert r.exit_code == 1, r.output
    assert "tour 1 : DIFFÉRENT, il ne se rejoue pas :\n    " + refusal in r.stdout
    assert "tour 2 : " in r.stdout


def test_every_registered_format_writes_its_posts_and_its_preview(skirmish):
    """What the registry says is what the commands do: a campaign in each format
    runs its turn into post files of the format's extension, and previews them."""
    config = skirmish / "campaign.yaml"
    text = config.read_text(encoding="utf-8")
    for spec in formats.FORMATS.values():
        config.write_text(text.replace("format: bbcode", f"format: {spec.name}"), encoding="utf-8")
        assert pbp("undo", cwd=skirmish).exit_code == 0
        r = pbp("run", "--no-commit", cwd=skirmish)
        assert r.exit_code == 0, r.output
        last = sorted(t for t in (skirmish / "turns").iterdir() if (t / "state.yaml").is_file())[-1]
        assert (last / f"public.{spec.ext}").is_file() and (last / f"gm.{spec.ext}").is_file()
        page = pbp("preview", "--output", skirmish / f"p-{spec.name}.html", cwd=skirmish)
        assert page.exit_code == 0, page.output
        assert spec.forum.format(dialect="phpbb") in (skirmish / f"p-{spec.name}.html").read_text(encoding="utf-8")
    assert formats.EXTENSIONS == {"bbcode": "bbcode", "markdown": "md"}


def test_the_renderer_refuses_a_name_it_does_not_have():
    with pytest.raises(PbpError) as caught:
        formatters.formatter("html")
    assert caught.value.text("en") == "`html` is not a valid value. Valid values: bbcode, markdown."
    assert formatters.formatter("text").name == "text"  # the terminal's screens (pbp status, order forms)
