"""An English campaign made from a French example (`pbp init --example --lang
en`) names the bundled board's rooms in English where the ruleset's data has
them (murder's data.yaml `room_names`), in the posts, the refusals and
`pbp status`; a player may type either name; the turns played in French still
replay byte for byte."""

from __future__ import annotations

from tests.helpers import pbp, write


def _english_murder(tmp_path):
    root = tmp_path / "m"
    assert pbp("init", root, "--ruleset", "murder", "--example", "--lang", "en").exit_code == 0
    return root


def test_an_english_murder_example_names_its_rooms_in_english(tmp_path):
    root = _english_murder(tmp_path)
    run = pbp("run", "--dry-run", cwd=root)
    assert run.exit_code == 0, run.output
    assert "[b]Chloé Vidal[/b] goes from the Archives to the Science Library (3 squares): 2d6 (5+4 = 9)." \
        in run.output
    assert "goes from the Entrance Hall to the Cafeteria, through the Central Corridor" in run.output
    assert "la Cafétéria" not in run.output and "le Hall d'accueil" not in run.output
    status = pbp("status", cwd=root).output
    assert "Armed traps: the Cold Room (set by Yann Le Goff on turn 6)." in status
    assert "- The Entrance Hall: Yann Le Goff, Bruno Lacaze and Gaëlle Dumas" in status
    verify = pbp("verify", cwd=root)
    assert verify.exit_code == 0 and "9 turns replayed identically." in verify.output


def test_an_english_player_may_name_a_room_in_either_language(tmp_path):
    root = _english_murder(tmp_path)
    for room in ("Science Library", "Bibliothèque scientifique"):
        write(root, "turns/009/orders/chloe.yaml", f"actions:\n  - move: {room}\n")
        r = pbp("check", cwd=root)
        assert r.exit_code == 0 and "chloe (1 action)" in r.output, (room, r.output)
    write(root, "turns/009/orders/chloe.yaml", "actions:\n  - move: Kitchen\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert "unknown room `Kitchen`. Valid values: Entrance Hall, Central Corridor, Cafeteria, Science Library," \
        in r.output, r.output
