"""Files the MJ names on the command line (`pbp preview --output`, `pbp dice-report
--svg`, `pbp simulate --svg`, `pbp reveal --output`): one rule for all of them
(pbp.cli.common.output_target). Never over a campaign file, never inside the
turns' archive, never over a file pbp did not write as that kind of output (but
over its own earlier page or chart: MJs preview again and again), never in a
folder that does not exist (no folder made), and a place that cannot be written
is a refusal naming it, not an internal error. Through the real command, as an
MJ types it from the campaign folder."""

from __future__ import annotations

import errno
import os
import subprocess

import pytest

from tests.helpers import pbp

NOT_A_PAGE = ("{path}: existe déjà et n'est pas une page d'aperçu écrite par pbp preview : il n'a pas été remplacé "
              "(pbp ne remplace un fichier que s'il l'a écrit lui-même, par le même genre de commande). "
              "Choisissez un autre --output, ou supprimez ce fichier.\n")
NOT_A_CHART = ("{path}: existe déjà et n'est pas un graphique SVG écrit par pbp : il n'a pas été remplacé "
               "(pbp ne remplace un fichier que s'il l'a écrit lui-même, par le même genre de commande). "
               "Choisissez un autre --svg, ou supprimez ce fichier.\n")
IN_ARCHIVE = ("{path}: est dans l'archive des tours (turns/, couverte par les sceaux) : pbp n'y écrit pas ce "
              "fichier. Choisissez un autre {option}, hors de turns/.\n")
NO_FOLDER = ("{path}: « {folder} » n'est pas un dossier existant, et pbp ne crée pas de dossier pour {option} : "
             "créez-le d'abord, ou choisissez un autre {option}.\n")


def files_of(root):
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


@pytest.fixture
def skirmish(tmp_path, monkeypatch):
    """`pbp init X --ruleset skirmish --example; cd X`."""
    root = tmp_path / "X"
    assert pbp("init", root, "--ruleset", "skirmish", "--example").exit_code == 0
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def murder(tmp_path, monkeypatch):
    """An example whose dice give a chart (2d6 is rolled often enough to be tested)."""
    root = tmp_path / "M"
    assert pbp("init", root, "--ruleset", "murder", "--example").exit_code == 0
    monkeypatch.chdir(root)
    return root


def test_preview_never_writes_over_a_campaign_file(skirmish):
    before = files_of(skirmish)
    r = pbp("preview", "--output", "campaign.yaml")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == NOT_A_PAGE.format(path="campaign.yaml")
    assert files_of(skirmish) == before


def test_preview_never_writes_inside_the_archive(skirmish):
    before = files_of(skirmish)
    for path in ("turns/003/public.bbcode", "turns/003/nouveau.html", str(skirmish / "turns/003/orders/alice.yaml")):
        r = pbp("preview", "--output", path)
        assert r.exit_code == 1
        assert r.stderr == IN_ARCHIVE.format(path=path, option="--output")
    assert files_of(skirmish) == before
    assert pbp("verify").exit_code == 0  # the archived post is still the one sealed


def test_preview_writes_its_own_pages_in_the_turn_folder(skirmish):
    r = pbp("preview", "--output", "turns/003/preview-essai.html")
    assert r.exit_code == 0, r.output
    assert r.output == ("Aperçu écrit dans turns/003/preview-essai.html (ouvrez-le dans un navigateur, "
                        "ou relancez avec --open).\n")


def test_preview_again_at_the_same_place_replaces_its_page_and_nothing_else(skirmish, tmp_path):
    page = tmp_path / "p.html"
    assert pbp("preview", "--output", page, "--turn", "2").exit_code == 0
    r = pbp("preview", "--output", page)  # the MJ looks at the next post at the same place
    assert r.exit_code == 0, r.output
    assert "post public du tour 3" in page.read_text(encoding="utf-8")
    notes = tmp_path / "notes.html"
    notes.write_text("<!DOCTYPE html>\n<html><body>mes notes</body></html>\n", encoding="utf-8")
    r = pbp("preview", "--output", notes)
    assert r.exit_code == 1 and r.stderr == NOT_A_PAGE.format(path=notes)
    assert notes.read_text(encoding="utf-8") == "<!DOCTYPE html>\n<html><body>mes notes</body></html>\n"
    pipe = tmp_path / "tube.html"
    os.mkfifo(pipe)  # never opened (it would block): not a page pbp wrote
    r = pbp("preview", "--output", pipe)
    assert r.exit_code == 1 and r.stderr == NOT_A_PAGE.format(path=pipe)


def test_a_folder_that_does_not_exist_is_refused_never_made(skirmish, tmp_path):
    target = tmp_path / "absent" / "x.html"
    r = pbp("preview", "--output", target)
    assert r.exit_code == 1
    assert r.stderr == NO_FOLDER.format(path=target, folder=target.parent, option="--output")
    assert not target.parent.exists()
    svg = tmp_path / "absent" / "d.svg"
    r = pbp("dice-report", "--svg", svg)
    assert r.exit_code == 1 and r.stdout == ""  # refused before the report
    assert r.stderr == NO_FOLDER.format(path=svg, folder=svg.parent, option="--svg")
    bundle = tmp_path / "absent" / "x.tar.gz"
    r = pbp("reveal", "--before-end", "--output", bundle)
    assert r.exit_code == 1
    assert r.stderr == NO_FOLDER.format(path=bundle, folder=bundle.parent, option="--output")
    assert not target.parent.exists()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc, where no file can be made")
def test_a_place_that_cannot_be_written_is_a_refusal_not_a_bug(skirmish):
    r = pbp("preview", "--output", "/proc/x.html")
    assert r.exit_code == 1
    assert r.stderr == (f"/proc/x.html: impossible d'écrire ce fichier ({os.strerror(errno.ENOENT)}) : choisissez un "
                        "autre --output, dans un dossier où vous pouvez écrire.\n")


def test_dice_report_svg_never_writes_over_a_campaign_file(murder, tmp_path):
    before = files_of(murder)
    r = pbp("dice-report", "--svg", "campaign.yaml")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == NOT_A_CHART.format(path="campaign.yaml")
    assert files_of(murder) == before
    r = pbp("dice-report", "--svg", "turns/008/chart.svg")
    assert r.exit_code == 1 and r.stderr == IN_ARCHIVE.format(path="turns/008/chart.svg", option="--svg")
    chart = tmp_path / "d.svg"
    for _ in range(2):  # its own chart is replaced
        r = pbp("dice-report", "--svg", chart)
        assert r.exit_code == 0 and r.output.endswith(f"Graphique de d6 : {chart}\n")
    page = tmp_path / "p.html"
    assert pbp("preview", "--output", page).exit_code == 0
    r = pbp("dice-report", "--svg", page)  # a preview page is not a chart
    assert r.exit_code == 1 and r.stderr == NOT_A_CHART.format(path=page)
    r = pbp("simulate", "--games", "2", "--jobs", "1", "--svg", "world.yaml")  # refused before the games
    assert r.exit_code == 1 and r.stderr == NOT_A_CHART.format(path="world.yaml")
    assert files_of(murder) == before


def test_reveal_follows_the_same_rule(skirmish):
    r = pbp("reveal", "--before-end", "--output", "turns/004/x.tar.gz")
    assert r.exit_code == 1 and r.stderr == IN_ARCHIVE.format(path="turns/004/x.tar.gz", option="--output")
    r = pbp("reveal", "--before-end", "--output", "campaign.yaml")
    assert r.exit_code == 1
    assert r.stderr == "campaign.yaml: existe déjà : choisissez un autre --output, ou supprimez ce fichier.\n"


def test_refusals_in_english(tmp_path, monkeypatch):
    root = tmp_path / "X"
    assert pbp("init", root, "--ruleset", "skirmish", "--example", "--lang", "en").exit_code == 0
    monkeypatch.chdir(root)
    r = pbp("preview", "--output", "campaign.yaml")
    assert r.exit_code == 1
    assert r.stderr == ("campaign.yaml: already exists and is not a preview page written by pbp preview: it was not "
                        "replaced (pbp replaces a file only if it wrote it itself, with the same kind of command). "
                        "Choose another --output, or remove this file.\n")
    r = pbp("preview", "--output", "nulle-part/x.html")
    assert r.exit_code == 1
    assert r.stderr == ("nulle-part/x.html: `nulle-part` is not an existing folder, and pbp does not create folders "
                        "for --output: create it first, or choose another --output.\n")
    status = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True, check=True).stdout
    assert status == ""
