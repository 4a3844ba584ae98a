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
