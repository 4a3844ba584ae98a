"""The bundled werewolf village (campaigns/village-vote): its archived turns say
the numbers of its votes, a secret hunt stays out of the thread, the guard's
protection holds for its night, and its next turn plays (the wolves' hunt)."""

from __future__ import annotations

from pbp.base import yamlio
from tests.helpers import copy_example, pbp, turn_post


post = turn_post


def test_the_village_votes_hunts_and_plays_on(tmp_path):
    root = copy_example("village-vote", tmp_path)
    assert pbp("verify", cwd=root).exit_code == 0
    day = post(root, 1)
    assert "Jour 1, phase « jour »." in day
    assert "Dépouillement, Le bûcher : Denis : 3 voix ; Anna : 2 voix ; Bruno : 1 voix (6 bulletins, 6 votants) → Denis." \
        in day and "Camp de Denis : village." in day
    night = post(root, 2)
    # the wolves' tie (Chloé, Élise) drawn by the MJ's forced roll: Élise, guarded that night
    assert "Dévorer" not in night and "La chasse" not in night and "Sous bonne garde" not in night
    assert "Au matin, les loups sont repartis bredouilles." in night
    assert "→ égalité entre Chloé, Élise : Élise." in post(root, 2, "gm")
    assert "[b]Fanny[/b] : Protéger → Élise." in post(root, 2, "fanny")
    assert "Camp de Bruno : loups." in post(root, 3)
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    state = yamlio.load_file(root / "turns/004/state.yaml")
    # one wolf against Chloé: a single ballot, she is devoured; 1 wolf and 2 villagers left, the game goes on
    assert state["characters"]["chloe"]["out"] and not state["over"]
    assert "Au matin, on retrouve le corps de Chloé." in post(root, 4)
