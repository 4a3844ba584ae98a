"""An English campaign is English down to the GM report and the skeleton `pbp init`
writes (rooms, sheets, comments); a French one's skeleton speaks French too."""

from __future__ import annotations

import re

import pytest

from pbp.base import yamlio
from tests.helpers import pbp

RULESETS = ["manhunt", "murder", "skirmish", "d100"]


def comments(root) -> str:
    return "\n".join(line for name in ("campaign.yaml", "world.yaml", "characters.yaml")
                     for line in (root / name).read_text(encoding="utf-8").splitlines()
                     if line.lstrip().startswith("#"))


#: words only one of the two languages writes in a comment
FRENCH = re.compile(r"\b(les|des|une|puis|pseudo|fiches?|par|pour|avec)\b")
ENGLISH = re.compile(r"\b(the|then|each|with|handle|sheets?|run)\b")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_skeleton_speaks_the_campaigns_language_and_sets_up(tmp_path, ruleset_id):
    for lang, own, other in (("fr", FRENCH, ENGLISH), ("en", ENGLISH, FRENCH)):
        root = tmp_path / lang
        assert pbp("init", root, "--ruleset", ruleset_id, "--lang", lang, "--no-git").exit_code == 0
        text = comments(root)
        assert own.search(text) and not other.search(text), (lang, text)
        assert yamlio.load_file(root / "campaign.yaml")["lang"] == lang
        r = pbp("setup", cwd=root)
        assert r.exit_code == 0, r.output


def test_an_english_murder_has_english_rooms_and_sheets(tmp_path):
    root = tmp_path / "murder"
    assert pbp("init", root, "--ruleset", "murder", "--lang", "en", "--no-git").exit_code == 0
    rooms = [r["name"] for r in yamlio.load_file(root / "world.yaml")["rooms"].values()]
    assert len(rooms) == 14 and all(name.startswith("the ") for name in rooms), rooms
    sheets = yamlio.load_file(root / "characters.yaml")
    assert len(sheets["innocents"]) + len(sheets["murderers_investigators"]) == 27
    assert sheets["innocents"][1]["job"] == "Microbiology intern"
    assert sheets["murderers_investigators"][2]["job"] == "Detective superintendent"
    assert pbp("setup", cwd=root).exit_code == 0
    start = pbp("post", "--player", "player1", cwd=root).output
    assert "Starting room: the " in start and "Starting room: l" not in start


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_english_gm_report_is_the_gm_report_in_words(tmp_path, ruleset_id):
    root = tmp_path / ruleset_id
    assert pbp("init", root, "--ruleset", ruleset_id, "--example", "--lang", "en", "--no-git").exit_code == 0
    (root / "campaign.yaml").write_text((root / "campaign.yaml").read_text() + "nmr: {flag_after: 1}\n")
    orders = sorted((root / "turns").glob("*/orders/*.yaml"))[-1]
    orders.unlink()  # one player sends nothing: the report says who to chase
    assert pbp("run", cwd=root).exit_code == 0
    report = pbp("post", "--gm", cwd=root).output
    assert re.match(r"\[size=\d+\]\[b\]GM report — ", report), report[:80]
    assert not re.search(r"\bMJ\b", report), report
    for internal in ("standing", "missed_orders", "(GM)", "(public)"):
        assert f"] {internal}" not in report and f"{internal}\n" not in report, (internal, report)
    assert "Orders follow-up" in report


def test_the_french_gm_report_shows_no_internal_ids_either(tmp_path):
    root = tmp_path / "murder"
    assert pbp("init", root, "--ruleset", "murder", "--example", "--no-git").exit_code == 0
    assert pbp("run", cwd=root).exit_code == 0
    report = pbp("post", "--gm", cwd=root).output
    assert "(public) standing" not in report and "(MJ) missed_orders" not in report
    assert "standing" not in report and "missed_orders" not in report
