"""The rules a turn was played with are recorded with it (turn.yaml's `rules`):
a number changed in campaign.yaml mid-game applies from the next turn, and
`pbp verify` replays every earlier turn with its own rules, not today's."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from pbp.engine import rules_record
from tests.helpers import REPO, pbp, write
from tests.test_examples import EXAMPLES


def _flip(root, n: int, roll: int) -> None:
    """Lucy flips the coin on turn n, the die forced to `roll`."""
    write(root, f"turns/{n:03d}/orders/lucy.yaml", f"player: lucy\nturn: {n}\nactions:\n  - pile_ou_face\n")
    write(root, f"turns/{n:03d}/gm.yaml", {"turn": n, "rolls": {"lucy.piece": roll}})


def _coins(root, n: int) -> int:
    return yamlio.load_file(root / f"turns/{n:03d}/state.yaml")["players"]["lucy"]["coins"]


def test_a_rules_change_applies_from_the_next_turn_and_verify_replays_each_with_its_own(toy_campaign):
    root = toy_campaign
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    _flip(root, 1, 4)  # coin_wins 4 (the toy's data): a 4 wins a coin
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert _coins(root, 1) == 1
    assert yamlio.load_file(root / "turns/001/turn.yaml")["rules"] == {}

    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    (root / "campaign.yaml").write_text(config + "rules:\n  coin_wins: 5\n", encoding="utf-8")
    _flip(root, 2, 4)  # now a 4 is not enough
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert _coins(root, 2) == 1
    assert yamlio.load_file(root / "turns/002/turn.yaml")["rules"] == {"coin_wins": 5}

    r = pbp("verify", cwd=root)
    assert r.exit_code == 0, r.output
    assert "tour 1 : identique" in r.output and "tour 2 : identique" in r.output


def test_a_recorded_rule_the_ruleset_does_not_have_is_refused_on_its_line(toy_campaign):
    root = toy_campaign
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    _flip(root, 1, 4)
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    record = root / "turns/001/turn.yaml"
    text = record.read_text(encoding="utf-8").replace("rules: {}", "rules:\n  coins_win: 2")
    record.write_text(text, encoding="utf-8")
    r = pbp("verify", cwd=root)
    assert r.exit_code == 1
    line = text.splitlines().index("  coins_win: 2") + 1
    assert f"turns/001/turn.yaml:{line}:" in r.output and "coin_wins" in r.output
    assert "Traceback" not in r.output


# -- a data ruleset's rules file --------------------------------------------------------------

ENERGY = REPO / "campaigns/energy-duel"


@pytest.fixture
def duel(tmp_path):
    """The energy duel's rules in a fresh campaign, set up; turn 1 approves the fight."""
    root = tmp_path / "duel"
    for name in ("campaign.yaml", "characters.yaml", "rules.yaml"):
        write(root, name, (ENERGY / name).read_text(encoding="utf-8"))
    assert pbp("secret", "move", cwd=root).exit_code == 0
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    _duel_turn(root, 1, "attendre", None)
    return root


def _duel_turn(root, n: int, lyra: str, roll: int | None):
    """Turn n: Lyra does `lyra` (her loss die forced to `roll`), Tom waits."""
    write(root, f"turns/{n:03d}/orders/lyra.yaml", f"player: lyra\nturn: {n}\nactions: [{lyra}]\n")
    write(root, f"turns/{n:03d}/orders/tom.yaml", f"player: tom\nturn: {n}\nactions: [attendre]\n")
    gm = {"orders": {"combat": True}} | ({"rolls": {"lyra.attaquer.perte": roll}} if roll else {})
    write(root, f"turns/{n:03d}/gm.yaml", gm)
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    return r


def _energy(root, n: int) -> int:
    return yamlio.load_file(root / f"turns/{n:03d}/state.yaml")["characters"]["lyra"]["gauges"]["energie"]


def _edit(root, rel: str, old: str, new: str) -> int:
    """Replace `old` by `new` in a file; the line it was on."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def test_a_number_changed_in_rules_yaml_mid_game_applies_from_the_next_turn(duel):
    _duel_turn(duel, 2, "attaquer", 3)  # a 3 on the loss table: 10
    assert _energy(duel, 2) == 90
    line = _edit(duel, "rules.yaml", "{jet: 3, perte: 10,", "{jet: 3, perte: 12,")

    change = f"  rules.yaml:{line} : tables.perte.lignes[3].perte : 10 → 12\n"
    status = pbp("status", cwd=duel)
    assert "Les règles ont changé depuis le tour 2 ; elles s'appliquent à partir du tour 3 :\n" + change \
        in status.output
    played = _duel_turn(duel, 3, "attaquer", 3)
    assert change in played.output
    assert _energy(duel, 3) == 78  # the new number
    assert "Les règles ont changé" not in pbp("status", cwd=duel).output

    # the text of the rules lives once, in the folder of the turn that first played it
    record = yamlio.load_file(duel / "turns/003/turn.yaml")["rules_files"]["rules.yaml"]
    assert record["kept_in"] == 3
    assert (duel / "turns/003/rules/rules.yaml").read_bytes() == (duel / "rules.yaml").read_bytes()
    assert yamlio.load_file(duel / "turns/002/turn.yaml")["rules_files"]["rules.yaml"]["kept_in"] == 0
    assert not (duel / "turns/001/rules").exists() and not (duel / "turns/002/rules").exists()
    assert b"perte: 10," in (duel / "turns/000/rules/rules.yaml").read_bytes()

    r = pbp("verify", cwd=duel)
    assert r.exit_code == 0, r.output
    for n in range(4):
        assert f"tour {n} : identique\n" in r.output
    assert "tour 2 : joué avec des règles changées depuis ; rejoué avec les siennes " \
           "(turns/000/rules/rules.yaml).\n" in r.output

    # undone, turn 3 leaves no copy behind; played again, it keeps one again
    assert pbp("undo", "--no-commit", cwd=duel).exit_code == 0
    assert not (duel / "turns/003/rules").exists()
    assert pbp("run", "--no-commit", cwd=duel).exit_code == 0
    assert (duel / "turns/003/rules/rules.yaml").read_bytes() == (duel / "rules.yaml").read_bytes()


def test_the_audit_of_a_game_whose_rules_changed_passes_and_a_changed_copy_is_caught(duel, tmp_path):
    _duel_turn(duel, 2, "attaquer", 3)
    _edit(duel, "rules.yaml", "{jet: 3, perte: 10,", "{jet: 3, perte: 12,")
    _duel_turn(duel, 3, "attaquer", 3)
    bundle = tmp_path / "duel.tar.gz"
    assert pbp("reveal", "--before-end", "--output", bundle, cwd=duel).exit_code == 0
    r = pbp("audit", bundle)
    assert r.exit_code == 0, r.output
    assert r.output.endswith("Verdict : tout concorde (4 tours).\n")

    # the MJ rewrites the rules turn 2 was played with, to make its outcome look right
    _edit(duel, "turns/000/rules/rules.yaml", "{jet: 3, perte: 10,", "{jet: 3, perte: 0,")
    r = pbp("verify", cwd=duel)
    assert r.exit_code == 1
    # each turn played with that copy differs, saying why; the others are replayed all the same
    for n in range(3):
        assert f"tour {n} : DIFFÉRENT, il ne se rejoue pas :\n    turns/000/rules/rules.yaml: cette copie des " \
               f"règles n'est plus celle avec laquelle le tour {n} a été joué (son sha256 n'est pas celui que " \
               f"turns/00{n}/turn.yaml garde) : elle a été modifiée.\n" in r.output
    assert "tour 3 : DIFFÉRENT (gm.bbcode, public.bbcode)\n" in r.output  # only its seal: it plays today's rules
    assert "Tour 0 : l'archive ne correspond plus au sceau que pbp a imprimé" in r.output
    assert "Traceback" not in r.output
    assert pbp("reveal", "--before-end", "--output", tmp_path / "edited.tar.gz", cwd=duel).exit_code == 0
    r = pbp("audit", tmp_path / "edited.tar.gz")
    assert r.exit_code == 1
    assert "Tour 0 : DIFFÈRE" in r.output and "turns/000/rules/rules.yaml" in r.output


def _rewritten_bundle(bundle, target, rel: str, old: str, new: str):
    """A copy of `bundle` where the member campaign/`rel` has `old` replaced by `new`."""
    import io
    import tarfile

    with tarfile.open(bundle) as src, tarfile.open(target, "w:gz") as out:
        for member in src.getmembers():
            data = src.extractfile(member).read() if member.isfile() else None
            if member.name == f"campaign/{rel}":
                text = data.decode("utf-8")
                assert text.count(old) == 1
                data = text.replace(old, new).encode("utf-8")
                member.size = len(data)
            out.addfile(member, io.BytesIO(data) if data is not None else None)
    return target


def test_the_audit_of_a_bundle_whose_rules_record_was_edited_says_which_turns_differ_and_goes_on(duel, tmp_path):
    _duel_turn(duel, 2, "attaquer", 3)
    _edit(duel, "rules.yaml", "{jet: 3, perte: 10,", "{jet: 3, perte: 12,")
    _duel_turn(duel, 3, "attaquer", 3)
    bundle = tmp_path / "duel.tar.gz"
    assert pbp("reveal", "--before-end", "--output", bundle, cwd=duel).exit_code == 0
    edited = _rewritten_bundle(bundle, tmp_path / "edited.tar.gz", "turns/001/turn.yaml", "kept_in: 0", "kept_in: 7")
    line = (duel / "turns/001/turn.yaml").read_text(encoding="utf-8").splitlines().index("    kept_in: 0") + 1
    r = pbp("audit", edited)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "Tour 0 : identique" in r.output
    assert f"Tour 1 : DIFFÈRE\n  - le tour ne se rejoue pas : turns/001/turn.yaml:{line}: tour 1 : « rules_files » " \
           "n'est pas tel que pbp l'écrit" in r.output
    assert "Tour 3 : DIFFÈRE\n  - seuls les sceaux affichés" in r.output  # replayed: only its seal changed
    assert r.output.endswith("Verdict : 3 problèmes, détaillés plus haut.\n")


def test_a_recorded_digest_rewritten_to_match_a_changed_copy_breaks_the_seal(duel):
    _duel_turn(duel, 2, "attaquer", 3)
    _edit(duel, "turns/000/rules/rules.yaml", "{jet: 3, perte: 10,", "{jet: 3, perte: 0,")
    digest = rules_record.sha256((duel / "turns/000/rules/rules.yaml").read_bytes())
    for n in range(3):
        path = duel / f"turns/{n:03d}/turn.yaml"
        record = yamlio.load_file(path)
        old = record["rules_files"]["rules.yaml"]["sha256"]
        path.write_text(path.read_text(encoding="utf-8").replace(old, digest), encoding="utf-8")
    r = pbp("verify", cwd=duel)
    assert r.exit_code == 1
    assert "tour 2 : DIFFÉRENT" in r.output  # played with a loss of 10, replayed with 0


def test_a_rules_record_not_as_pbp_writes_it_is_refused_on_its_line(duel):
    path = duel / "turns/001/turn.yaml"
    text = path.read_text(encoding="utf-8")
    _edit(duel, "turns/001/turn.yaml", "kept_in: 0", "kept_in: 7")
    line = text.splitlines().index("    kept_in: 0") + 1
    r = pbp("verify", cwd=duel)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"turns/001/turn.yaml:{line}: tour 1 : « rules_files » n'est pas tel que pbp l'écrit" in r.output
    path.write_text(text.replace("  rules.yaml:", "  ../secret.yaml:"), encoding="utf-8")
    r = pbp("verify", cwd=duel)
    assert r.exit_code == 1
    assert "« ../secret.yaml » n'est pas un nom de fichier de règles" in r.output


def test_an_archive_from_before_the_record_replays_with_the_rules_of_today(tmp_path, monkeypatch):
    """A game archived before pbp recorded the rules files (played here by a pbp
    that does not stamp them): its turns replay with the campaign's rules.yaml,
    and the first turn played now keeps its own copy."""
    root = tmp_path / "duel"
    for name in ("campaign.yaml", "characters.yaml", "rules.yaml"):
        write(root, name, (ENERGY / name).read_text(encoding="utf-8"))
    assert pbp("secret", "move", cwd=root).exit_code == 0
    with monkeypatch.context() as before:
        before.setattr(rules_record, "stamp", lambda *args: {})  # the pbp of before: no record, no copy
        assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
        _duel_turn(root, 1, "attendre", None)
        _duel_turn(root, 2, "attaquer", 3)
    assert "rules_files" not in (root / "turns/002/turn.yaml").read_text(encoding="utf-8")
    assert not (root / "turns/000/rules").exists()
    _duel_turn(root, 3, "attaquer", 3)
    assert yamlio.load_file(root / "turns/003/turn.yaml")["rules_files"]["rules.yaml"]["kept_in"] == 3
    assert (root / "turns/003/rules/rules.yaml").read_bytes() == (root / "rules.yaml").read_bytes()
    r = pbp("verify", cwd=root)
    assert r.exit_code == 0, r.output
    assert all(f"tour {n} : identique\n" in r.output for n in range(4))


DATA_EXAMPLES = [name for name in EXAMPLES
                 if yamlio.load_file(REPO / "campaigns" / name / "campaign.yaml")["ruleset"] == "data"]


def test_the_bundled_data_examples_are_listed():
    assert {"energy-duel", "manhunt-data", "d100-data", "wizard-duels", "investigation-event",
            "village-vote", "arene-sombreval"} <= set(DATA_EXAMPLES)


@pytest.mark.parametrize("name", DATA_EXAMPLES)
def test_every_turn_of_a_bundled_data_example_records_the_rules_it_was_played_with(name):
    """Each archived turn names its rules file with its sha256 and the turn folder
    that keeps a copy of those very bytes; the last turn's are the campaign's."""
    root = REPO / "campaigns" / name
    turns = sorted(int(p.parent.name) for p in (root / "turns").glob("*/state.yaml"))
    assert turns == list(range(len(turns))) and len(turns) >= 4
    for n in turns:
        entries = yamlio.load_file(root / f"turns/{n:03d}/turn.yaml").get("rules_files")
        assert entries is not None and set(entries) == {"rules.yaml"}, f"turn {n} of {name} records no rules"
        entry = entries["rules.yaml"]
        assert 0 <= entry["kept_in"] <= n
        copy = root / f"turns/{entry['kept_in']:03d}/rules/rules.yaml"
        assert rules_record.sha256(copy.read_bytes()) == entry["sha256"]
    assert entry["sha256"] == rules_record.sha256((root / "rules.yaml").read_bytes())


def test_a_past_turns_post_rendered_again_names_things_as_that_turn_was_played(duel):
    """`pbp post` of a past turn in another format renders it again: with the
    rules and the roster that turn was played with, so an action renamed in
    rules.yaml and a character renamed in campaign.yaml since keep their old
    names there, as in the post the turn wrote."""
    _duel_turn(duel, 2, "attaquer", 3)
    _edit(duel, "rules.yaml", "nom: {fr: Attaquer, en: Attack}", "nom: {fr: Frapper, en: Strike}")
    _edit(duel, "campaign.yaml", "lyra: Orage", "lyra: Tempête")
    _duel_turn(duel, 3, "attaquer", 3)
    for fmt in ("markdown", "bbcode"):
        old = pbp("post", "--turn", "2", "--format", fmt, cwd=duel)
        assert old.exit_code == 0, old.output
        assert "Orage" in old.output and ": Attaquer.\n" in old.output
        assert "Tempête" not in old.output and "Frapper" not in old.output
        new = pbp("post", "--turn", "3", "--format", fmt, cwd=duel)
        assert "Tempête" in new.output and ": Frapper.\n" in new.output
        assert "Orage" not in new.output.replace("Val d'Orage", "") and "Attaquer" not in new.output
    assert pbp("preview", "--turn", "2", cwd=duel).exit_code == 0
    page = (duel / "turns/002/preview.html").read_text(encoding="utf-8")
    assert "Orage" in page and "Tempête" not in page
