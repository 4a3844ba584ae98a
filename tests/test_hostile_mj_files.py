"""The MJ's own files are read as carefully as a stranger's: a FIFO named like a
campaign file is refused by name (never waited on), a file nested thousands
deep is refused on its line (libyaml's C composer would crash the process),
anchors are refused, and a forced roll names its line in gm.yaml."""

from __future__ import annotations

import os

import pytest

from tests.helpers import copy_example, pbp
from tests.test_hostile_orders import no_hang, snapshot


@pytest.fixture
def camp(tmp_path):
    return copy_example("manhunt", tmp_path)


def refused(camp, *command):
    before = snapshot(camp)
    with no_hang():
        r = pbp(*command, cwd=camp)
    assert r.exit_code == 1, r.output
    assert "Erreur interne" not in r.output and "Traceback" not in r.output, r.output
    assert snapshot(camp) == before
    return r.stderr


@pytest.mark.parametrize("name", ["campaign.yaml", "world.yaml", "characters.yaml", "turns/003/state.yaml"])
def test_a_fifo_in_place_of_an_mj_file_is_refused_by_name(camp, name):
    (camp / name).unlink()
    os.mkfifo(camp / name)
    err = refused(camp, "check")
    assert err.startswith(f"{name}: ") and "tube nommé (FIFO)" in err, err


def test_a_fifo_gm_yaml_does_not_block_the_set_up(tmp_path):
    root = tmp_path / "event"
    assert pbp("init", root, "--ruleset", "manhunt", "--no-git").exit_code == 0
    (root / "turns/000").mkdir(parents=True)
    os.mkfifo(root / "turns/000/gm.yaml")
    err = refused(root, "setup", "--no-commit")
    assert err.startswith("turns/000/gm.yaml: ") and "tube nommé (FIFO)" in err, err


@pytest.mark.parametrize("name, depth_text", [
    ("world.yaml", "cells: " + "[" * 30000 + "]" * 30000 + "\n"),
    ("characters.yaml", "pejis:\n  lucy:\n    " + "- " * 200 + "x\n"),
])
def test_an_mj_file_nested_too_deep_is_refused_on_its_line(camp, name, depth_text):
    (camp / name).write_text(depth_text, encoding="utf-8")
    err = refused(camp, "check")
    assert err.startswith(f"{name}:") and "imbrication" in err, err


def test_an_anchor_in_an_mj_file_is_refused_with_what_to_do(camp):
    path = camp / "characters.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "extra: &x [1]\nagain: *x\n", encoding="utf-8")
    err = refused(camp, "check")
    assert "ancre ou alias YAML (« &nom », « *nom ») : pbp ne les lit pas dans les fichiers de campagne" in err


def test_a_forced_roll_out_of_range_names_its_line_in_gm_yaml(camp):
    gm = camp / "turns/004/gm.yaml"
    text = gm.read_text(encoding="utf-8") if gm.exists() else "turn: 4\n"
    gm.write_text(text.rstrip("\n") + "\nrolls:\n  lucy.fouille.table: 99\n" if "rolls:" not in text else text,
                  encoding="utf-8")
    r = pbp("run", "--no-commit", cwd=camp)
    lines = gm.read_text(encoding="utf-8").splitlines()
    wanted = next(i for i, line in enumerate(lines, 1) if "lucy.fouille.table" in line)
    if r.exit_code == 1:
        assert r.stderr.startswith(f"turns/004/gm.yaml:{wanted}: "), r.stderr
    else:  # lucy does not search this turn: the label is reported unused, on its line
        assert f"turns/004/gm.yaml:{wanted}: attention : le jet forcé « lucy.fouille.table »" in r.stderr, r.stderr


@pytest.mark.parametrize("old, new, said", [
    ("doors:\n", "doors: null\nx_doors:\n",
     "turns/003/state.yaml:67: `doors:` du plan est une table (clé : valeur) que pbp tient à jour, pas « null ».\n"),
    ("  S01|S05: open\n", "",
     "turns/003/state.yaml:67: la porte « S01|S05 » manque dans `doors:` (open, closed ou locked).\n"),
    ("hidden: {}\n", "hidden: 3\n",
     "turns/003/state.yaml:84: `hidden:` du plan est une table (clé : valeur) que pbp tient à jour, pas « 3 ».\n"),
    ("floor: {}\n", "floor: {S01: [zzz]}\n", "turns/003/state.yaml:83: « zzz » n'est pas un objet des règles"),
    ("    items:\n", "    items: -7\n    x_items:\n",
     "turns/003/state.yaml:17: les objets de « lucy » (`items:`) sont une liste, pas « -7 ».\n"),
])
def test_a_data_campaigns_map_in_state_yaml_edited_wrong_is_refused_at_its_line(tmp_path, old, new, said):
    """The doors, and the items on the floor or hidden, of a campaign whose rules
    have a map (manhunt-data): the turn reads them all, so each is checked first."""
    camp = copy_example("manhunt-data", tmp_path)
    state = camp / "turns/003/state.yaml"
    assert old in state.read_text()
    state.write_text(state.read_text().replace(old, new, 1))
    for command in ("check", "run"):
        assert said in refused(camp, command, *(["--no-commit"] if command == "run" else []))


def test_an_mj_input_kept_in_state_yaml_with_a_wrong_type_is_refused_at_its_line(tmp_path):
    """An input the MJ gave per character (investigation-event's `salle_autorisee`,
    yes or no), edited by hand in state.yaml: state.yaml's line is named, not the
    formula of rules.yaml that would read it."""
    camp = copy_example("investigation-event", tmp_path)
    state = camp / "turns/003/state.yaml"
    state.write_text(state.read_text().replace("    salle_autorisee: true\n", "    salle_autorisee: {}\n", 1))
    for command in ("check", "run"):
        err = refused(camp, command, *(["--no-commit"] if command == "run" else []))
        assert "turns/003/state.yaml:30: attendu oui/non (true/false), trouvé {}." in err.splitlines(), err


def test_a_stat_kept_in_state_yaml_of_another_kind_is_refused_at_its_line(tmp_path):
    """village-vote's `camp` is a text its formulas compare (`camp = "loups"`):
    a number in its place names state.yaml's line, not the formula."""
    camp = copy_example("village-vote", tmp_path)
    state = camp / "turns/003/state.yaml"
    state.write_text(state.read_text().replace("      camp: loups\n", "      camp: -7\n", 1))
    for command in ("check", "run"):
        err = refused(camp, command, *(["--no-commit"] if command == "run" else []))
        assert "turns/003/state.yaml:5: « camp » de « anna » est un texte, pas « -7 »." in err.splitlines(), err
