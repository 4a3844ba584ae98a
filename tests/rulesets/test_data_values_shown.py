"""A value a data post prints reads as a forum reader reads it: a list as its
items, a value per character as "Kira Vel : 1 ; Tia Rook : 2", a truth as oui/non
(yes/no) — never Python's own spelling ([...], {...}, True). Checked on the
bundled examples' archived posts, which tests/test_examples.py replays."""

from __future__ import annotations

from pbp.render.render import package_dir


def post(campaign: str, turn: int, name: str) -> str:
    return (package_dir("campaigns") / campaign / "turns" / f"{turn:03d}" / name).read_text(encoding="utf-8") \
        .replace("\xa0", " ")


def test_an_mj_input_per_character_names_the_characters():
    gm = post("d100-data", 1, "gm.bbcode")
    assert "[*]Décision du MJ : confiance_syndicat = Kira Vel : 1 ; Tia Rook : 1 ; Brann Dask : 2." in gm
    assert "{'" not in gm


def test_a_list_stat_prints_its_items_and_an_empty_one_says_so():
    gm = post("d100-data", 0, "gm.bbcode")
    assert "Pouvoirs de Force telekinesie, sens_de_la_force, " in gm
    assert "Pouvoirs de Force aucun, " in gm
    assert "['" not in gm.replace("\u200b", "") and "[\u200b'" not in gm


def test_a_truth_reads_oui_or_non():
    assert "[*]Décision du MJ : combat = oui." in post("energy-duel", 1, "gm.bbcode")
    private = post("wizard-duels", 1, "private/lena.bbcode")
    assert "Légilimens oui" in private and "True" not in private and "False" not in private
