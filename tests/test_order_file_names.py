"""Files in a turn's orders/ folder that are no order file, as an MJ's editor leaves them."""

from __future__ import annotations

import pytest

from tests.helpers import copy_example, pbp


@pytest.mark.parametrize("name", ["lucy.yaml~", "lucy.yaml.bak", "lucy.orig"])
def test_an_editors_backup_copy_is_named_as_such(tmp_path, name):
    root = copy_example("manhunt", tmp_path)
    orders = root / "turns/004/orders"
    (orders / name).write_bytes((orders / "lucy.yaml").read_bytes())
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert f"turns/004/orders/{name}: une copie de sauvegarde d'éditeur, pas un fichier d'ordres (pbp ne lit que " \
           "<pseudo>.yaml) : supprimez-la ou sortez-la du dossier orders/." in r.stderr.splitlines(), r.stderr
    (orders / name).unlink()
    (orders / "lucy.txt").write_bytes((orders / "lucy.yaml").read_bytes())
    (orders / "lucy.yaml").unlink()
    r = pbp("check", cwd=root)
    assert "turns/004/orders/lucy.txt: les ordres doivent être dans un fichier <pseudo>.yaml." in r.stderr.splitlines()


@pytest.mark.parametrize("written, expected", [
    ("'4'", None),  # quoted, it is still turn 4, as the player meant
    ("5", "ordres pour le tour 5, mais c'est le tour 4 qui se joue."),
    ("'05'", "ordres pour le tour 5, mais c'est le tour 4 qui se joue."),
    ("true", "« turn » est le numéro du tour, ici 4, pas « true »."),
    ("4.5", "« turn » est le numéro du tour, ici 4, pas « 4.5 »."),
    ("[4]", "« turn » est le numéro du tour, ici 4, pas « [4] »."),
])
def test_turn_as_written(tmp_path, written, expected):
    root = copy_example("manhunt", tmp_path)
    lucy = root / "turns/004/orders/lucy.yaml"
    lucy.write_text(lucy.read_text(encoding="utf-8").replace("turn: 4", f"turn: {written}"), encoding="utf-8")
    r = pbp("check", cwd=root)
    if expected is None:
        assert r.exit_code == 0, r.stderr
    else:
        assert r.exit_code == 1 and r.stderr.splitlines() == [f"turns/004/orders/lucy.yaml:2: {expected}"]
