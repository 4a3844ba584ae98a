"""The smaller points of the MJ's loop: what preview's help says, a lost turn's
form, preview pages and git, a post printed after a dialect change, French
slips in reports and receipts."""

from __future__ import annotations

import subprocess

import pytest

from tests.helpers import pbp, write


@pytest.mark.parametrize("lang, expected", [
    ("fr", "le dernier résolu, celui que « pbp post » affiche"),
    ("en", "the last resolved one, the one `pbp post` prints"),
])
def test_preview_help_says_it_shows_the_last_resolved_turn(monkeypatch, lang, expected):
    monkeypatch.setenv("PBP_LANG", lang)
    r = pbp("preview", "--help")
    text = " ".join(r.output.split())
    assert r.exit_code == 0 and expected in text, r.output
    assert "prochain" not in text and "next one" not in text


def panicked(tmp_path, lang):
    """Mélétê panics on turn 1 (a trap's stress over a lowered panic threshold): her turn 2 is lost."""
    root = tmp_path / lang
    assert pbp("init", root, "--ruleset", "manhunt", "--lang", lang, "--no-git").exit_code == 0
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("  turn_limit: 12", "  stress: {panic: 4}"),
                      encoding="utf-8")
    assert pbp("setup", cwd=root).exit_code == 0
    write(root, "turns/001/orders/lucy.yaml", "actions:\n  - deplacement_normal: nord\n")
    write(root, "turns/001/orders/johannes.yaml", "actions:\n  - fouille\n")
    assert pbp("run", cwd=root).exit_code == 0
    return root


@pytest.mark.parametrize("lang, notice, lost", [
    ("fr", "# VOUS PERDEZ CE TOUR\u00a0: le Péji se remet de sa panique. Vos actions ne seront pas jouées",
     "prochain tour"),
    ("en", "# YOU LOSE THIS TURN: ", "lose next turn"),
])
def test_a_lost_turn_is_said_at_the_top_of_the_form_and_once_in_the_report(tmp_path, lang, notice, lost):
    root = panicked(tmp_path, lang)
    form = pbp("orders", "--player", "lucy", cwd=root).output.splitlines()
    at = next(i for i, line in enumerate(form) if line.startswith(notice))
    assert at < 6, form[:8]
    report = pbp("post", "--player", "lucy", cwd=root).output
    assert report.count(lost) == 1, report


def test_preview_pages_are_not_left_untracked_in_git(tmp_path):
    root = tmp_path / "c"
    assert pbp("init", root, "--ruleset", "manhunt", "--example").exit_code == 0
    for args in ([], ["--gm"], ["--player", "lucy"]):
        assert pbp("preview", *args, cwd=root).exit_code == 0
    assert (root / "turns/003/preview.html").is_file()
    status = subprocess.run(["git", "-C", str(root), "status", "--short"], capture_output=True, text=True).stdout
    assert status == "", status


@pytest.mark.parametrize("lang, expected", [
    ("fr", "Attention : le tour 3 a été écrit et scellé en phpbb ; campaign.yaml dit maintenant forumactif. "
           "Le message est rendu à nouveau : ce n'est pas celui que couvre le sceau du tour"),
    # the example's turns were played in French: an English campaign prints them rendered again too
    ("en", "Warning: turn 3 was written and sealed in fr, phpbb; campaign.yaml now says en, forumactif. "
           "The post is rendered again: it is not the one the turn's seal covers"),
])
def test_post_after_a_dialect_change_says_it_prints_another_text(tmp_path, lang, expected):
    root = tmp_path / "c"
    assert pbp("init", root, "--ruleset", "manhunt", "--example", "--lang", lang).exit_code == 0
    assert lang == "en" or pbp("post", cwd=root).stderr == ""
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("dialect: phpbb", "dialect: forumactif"),
                      encoding="utf-8")
    r = pbp("post", cwd=root)
    assert r.exit_code == 0 and expected in r.stderr, r.stderr
    if lang == "fr":  # asked for, and markdown has no dialect
        assert pbp("post", "--format", "markdown", cwd=root).stderr == ""


def test_french_reports_and_receipts_read_as_french(tmp_path):
    root = tmp_path / "c"
    assert pbp("init", root, "--ruleset", "manhunt", "--no-git").exit_code == 0
    assert pbp("setup", cwd=root).exit_code == 0
    write(root, "turns/001/orders/lucy.yaml", "actions:\n  - recherche_pieges\n  - deplacement_normal: nord\n")
    write(root, "turns/001/orders/johannes.yaml", "actions:\n  - fouille\n")
    receipt = pbp("receipt", "--player", "lucy", cwd=root).output
    assert "[*]recherche de pièges\n[*]déplacement normal : nord\n" in receipt, receipt
    write(root, "turns/001/gm.yaml", "rolls: {johannes.fouille.table: 2, johannes.fouille.arme: 7}\n")
    assert pbp("run", cwd=root).exit_code == 0
    found = pbp("post", "--player", "johannes", cwd=root).output
    assert "1d20 (7) : vous trouvez une [b]bombe flash[/b] !" in found, found
