"""Forum handles may hold spaces ("Vieux Loup", common on phpBB and Forumactif):
their files take a name derived from them (Vieux_Loup.yaml, in any case), two
handles that would share one are refused, and every post prints the real handle.
A name in an order matches by any unambiguous part, in every ruleset."""

from __future__ import annotations

import pytest

from tests.helpers import copy_example, pbp, write


def with_vieux_loup(tmp_path, lang):
    root = tmp_path / lang
    assert pbp("init", root, "--ruleset", "manhunt", "--lang", lang, "--no-git").exit_code == 0
    for name in ("campaign.yaml", "characters.yaml"):
        path = root / name
        path.write_text(path.read_text(encoding="utf-8").replace("  johannes:", "  Vieux Loup:"), encoding="utf-8")
    assert pbp("setup", cwd=root).exit_code == 0
    return root


@pytest.mark.parametrize("lang, reminder, written", [
    ("fr", "Toujours pas d'ordres de\u00a0: Mélétê (lucy), Johannes (Vieux Loup).", "Écrit : turns/001/orders/Vieux_Loup.yaml"),
    ("en", "Still no orders from: Mélétê (lucy), Johannes (Vieux Loup).", "Written: turns/001/orders/Vieux_Loup.yaml"),
])
def test_a_handle_with_a_space_plays_a_whole_turn(tmp_path, lang, reminder, written):
    root = with_vieux_loup(tmp_path, lang)
    assert (root / "turns/000/private/Vieux_Loup.bbcode").is_file()
    r = pbp("orders", "--player", "vieux loup", "--write", cwd=root)
    assert r.exit_code == 0 and written in r.output, r.output
    assert reminder in pbp("remind", cwd=root).output
    (root / "turns/001/orders/Vieux_Loup.yaml").unlink()
    write(root, "turns/001/orders/vieux_loup.yaml", "actions:\n  - se_cacher\n")  # any case
    write(root, "turns/001/orders/lucy.yaml", "actions:\n  - se_cacher\n")
    c = pbp("check", cwd=root)
    assert c.exit_code == 0 and "Vieux Loup" in c.output, c.output
    assert "Vieux Loup" in pbp("receipt", "--player", "Vieux Loup", cwd=root).output
    assert pbp("run", cwd=root).exit_code == 0
    assert (root / "turns/001/private/Vieux_Loup.bbcode").is_file()
    assert "Johannes" in pbp("post", "--player", "Vieux Loup", cwd=root).output
    assert pbp("verify", cwd=root).exit_code == 0


@pytest.mark.parametrize("lang, expected", [
    ("fr", "campaign.yaml:10: les pseudos « Vieux Loup » et « vieux_loup » auraient le même fichier d'ordres "
           "(vieux_loup.yaml, les espaces devenant « _ », majuscules ou non) : changez-en un."),
    ("en", "campaign.yaml:10: the handles `Vieux Loup` and `vieux_loup` would share one order file "
           "(vieux_loup.yaml: spaces become `_`, in any case): change one of them."),
])
def test_two_handles_sharing_a_file_name_are_refused(tmp_path, lang, expected):
    root = tmp_path / lang
    assert pbp("init", root, "--ruleset", "manhunt", "--lang", lang, "--no-git").exit_code == 0
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("  lucy: Mélétê", "  Vieux Loup: Mélétê")
                      .replace("  johannes: Johannes", "  vieux_loup: Johannes"), encoding="utf-8")
    r = pbp("status", cwd=root)
    assert r.exit_code == 1 and expected in r.stderr, r.stderr


@pytest.mark.parametrize("handle", ["Vieux  Loup", " Vieux", "Vieux ", "a/b"])
def test_a_handle_is_still_refused_when_it_cannot_be_a_file_name(tmp_path, handle):
    root = tmp_path / "c"
    assert pbp("init", root, "--ruleset", "manhunt", "--no-git").exit_code == 0
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("  lucy: Mélétê", f'  "{handle}": Mélétê'),
                      encoding="utf-8")
    r = pbp("status", cwd=root)
    assert r.exit_code == 1 and "pseudo" in r.stderr and "invalide" in r.stderr, r.stderr


@pytest.mark.parametrize("lang, expected", [
    ("fr", "Li-Wei Lacaze"),
    ("en", "Li-Wei Lacaze"),
])
def test_murder_names_a_player_by_any_unambiguous_part(tmp_path, lang, expected):
    root = copy_example("murder", tmp_path)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("Bruno Lacaze", "Li-Wei Lacaze")
                      .replace("lang: fr", f"lang: {lang}"), encoding="utf-8")
    write(root, "turns/009/orders/fabien.yaml", "actions:\n  - interroger: Wei\n")
    r = pbp("check", cwd=root)
    # Fabien is in the corridor, Li-Wei in the hall: refused for that, not as an unknown player
    assert expected in r.output and "inconnu" not in r.output and "unknown" not in r.output, r.output
    write(root, "turns/009/orders/fabien.yaml", "actions:\n  - interroger: Ma\n")  # Margot? Marchetti?
    r = pbp("check", cwd=root)
    assert {"fr": "« Ma » peut désigner plusieurs joueurs", "en": "`Ma` may mean several players"}[lang] in r.output
