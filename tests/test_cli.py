"""The command line on a toy campaign: every command docs/design.md lists, the
exit codes, the messages with file and line, and nothing written on bad input."""

import subprocess

import pytest

from click.testing import CliRunner

from pbp.base import yamlio
from pbp.cli import main
from tests.helpers import pbp, write


def files_of(root):
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


def orders(root, turn, player, body):
    return write(root, f"turns/{turn:03d}/orders/{player}.yaml", body)


@pytest.fixture
def ready(toy_campaign):
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    return toy_campaign


def test_setup_writes_turn_zero(toy_campaign):
    r = pbp("setup", "--no-commit", cwd=toy_campaign)
    assert r.exit_code == 0, r.output
    state = yamlio.load_file(toy_campaign / "turns/000/state.yaml")
    assert state == {"players": {"lucy": {"room": 0, "coins": 0}, "bob": {"room": 0, "coins": 0}}}
    again = pbp("setup", cwd=toy_campaign)
    assert again.exit_code == 1 and "déjà mise en place" in again.stderr


def test_run_resolves_renders_and_replays(ready):
    orders(ready, 1, "lucy", """
        player: lucy
        turn: 1
        actions:
          - avancer: 2
          - pile_ou_face
        roleplay: Lucy [b]avance[/b].
    """)
    write(ready, "turns/001/gm.yaml", "turn: 1\nrolls: {lucy.piece: 5}\nnarration: La **nuit** tombe.\n")
    check = pbp("check", cwd=ready)
    assert check.exit_code == 0 and "bob" in check.output and "2 action" in check.output
    r = pbp("run", "--no-commit", cwd=ready)
    assert r.exit_code == 0, r.output
    folder = ready / "turns/001"
    state = yamlio.load_file(folder / "state.yaml")
    assert state["players"]["lucy"] == {"room": 2, "coins": 1}
    assert yamlio.load_file(folder / "rolls.yaml") == [
        {"label": "lucy.piece", "expr": "1d6", "faces": [], "total": 5, "forced": True}]
    public = (folder / "public.bbcode").read_text()
    assert "[b]Lucy[/b] avance jusqu'à la salle 2." in public
    assert "La [b]nuit[/b] tombe." in public
    assert '[quote="Lucy"]Lucy [\u200bb]avance[\u200b/b].[/quote]' in public
    assert "Pièce : 1d6 (5) — pièces : 1" in (folder / "private/lucy.bbcode").read_text()
    assert not (folder / "private/bob.bbcode").exists()
    # the coin result is private: not in the public post
    assert "Pièce" not in public
    post = pbp("post", "--format", "markdown", cwd=ready)
    assert post.exit_code == 0 and "**Lucy** avance jusqu'à la salle 2." in post.output
    assert pbp("post", "--player", "lucy", cwd=ready).output == (folder / "private/lucy.bbcode").read_text()
    assert pbp("post", "--gm", cwd=ready).output == (folder / "gm.bbcode").read_text()
    v = pbp("verify", cwd=ready)
    assert v.exit_code == 0 and "2 tours rejoués" in v.output


def test_verify_reports_a_tampered_archive(ready):
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions: [avancer: 1]\n")
    assert pbp("run", "--no-commit", cwd=ready).exit_code == 0
    public = ready / "turns/001/public.bbcode"
    public.write_text(public.read_text().replace("salle 1", "salle 3"))
    v = pbp("verify", cwd=ready)
    assert v.exit_code == 1 and "DIFFÉRENT" in v.output and "public.bbcode" in v.output


def test_undo_then_run_gives_the_same_bytes(ready):
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions: [pile_ou_face]\n")
    assert pbp("run", "--no-commit", cwd=ready).exit_code == 0
    first = files_of(ready)
    u = pbp("undo", "--no-commit", cwd=ready)
    assert u.exit_code == 0 and not (ready / "turns/001/state.yaml").exists()
    assert (ready / "turns/001/orders/lucy.yaml").exists()
    assert pbp("run", "--no-commit", cwd=ready).exit_code == 0
    assert files_of(ready) == first


@pytest.mark.parametrize("body, expected", [
    ("player: lucy\nturn: 1\nactions:\n  - avancr: 1\n", "turns/001/orders/lucy.yaml:4: action inconnue « avancr »"),
    ("player: lucy\nturn: 1\nactions:\n  - avancer: 9\n", "turns/001/orders/lucy.yaml:4: 9 est hors limites (-3 à 3)"),
    ("player: bob\nturn: 1\nactions: []\n", "turns/001/orders/lucy.yaml:1: ce fichier est celui de « lucy »"),
    ("player: lucy\nturn: 2\nactions: []\n", "turns/001/orders/lucy.yaml:2: ordres pour le tour 2"),
    ("player: lucy\nturn: 1\nactions:\n  - avancer: 1\n   - x\n", "turns/001/orders/lucy.yaml:5: YAML invalide"),
    ("player: lucy\nturn: 1\nactions:\n  - avancer: 1\n  - avancer: 1\n  - pile_ou_face\n",
     "turns/001/orders/lucy.yaml:6: trop d'actions"),
    ("player: lucy\nturn: 1\nactions:\n  - avancer: -1\n", "turns/001/orders/lucy.yaml:4: on n'avance pas à reculons"),
    ("player: lucy\nturn: 1\nactoins: []\n", "turns/001/orders/lucy.yaml:3: clé inconnue « actoins ». Vouliez-vous dire « actions » ?"),
    ("- avancer: 1\n- a list\n", "turns/001/orders/lucy.yaml:2: action inconnue « a list »"),
    ("just a text\n", "turns/001/orders/lucy.yaml: un fichier d'ordres est un dictionnaire"),
])
def test_bad_orders_name_file_line_and_leave_state_untouched(ready, body, expected):
    orders(ready, 1, "lucy", body)
    before = files_of(ready)
    for command in ("check", "run"):
        r = pbp(command, cwd=ready)
        assert r.exit_code == 1, r.output
        assert expected in r.stderr, r.stderr
        assert "Traceback" not in r.output
    assert files_of(ready) == before


def test_unknown_action_suggests_and_lists_valid(ready):
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions:\n  - pile_ou_fac\n")
    err = pbp("check", cwd=ready).stderr
    assert "Vouliez-vous dire « pile_ou_face » ?" in err and "Valeurs possibles : avancer, pile_ou_face." in err


def test_english_aliases_and_english_messages(ready):
    config = ready / "campaign.yaml"
    config.write_text(config.read_text() + "lang: en\n")
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions:\n  - advance: 1\n  - flipp\n")
    err = pbp("check", cwd=ready).stderr
    assert "turns/001/orders/lucy.yaml:5: unknown action `flipp`. Did you mean `flip`?" in err


def test_order_file_of_unknown_player(ready):
    orders(ready, 1, "lucie", "player: lucie\nturn: 1\n")
    r = pbp("check", cwd=ready)
    assert r.exit_code == 1 and "turns/001/orders/lucie.yaml: « lucie » n'est pas dans la liste" in r.stderr
    assert "Vouliez-vous dire « lucy » ?" in r.stderr


def test_wrong_turn_numbers(ready):
    assert "le tour 3 ne peut pas encore être joué ; le prochain est le tour 1" in pbp("run", "--turn", "3", cwd=ready).stderr
    assert pbp("run", "--no-commit", "--no-orders", cwd=ready).exit_code == 0
    r = pbp("run", "--turn", "1", cwd=ready)
    assert r.exit_code == 1 and "le tour 1 est déjà résolu" in r.stderr


def test_gm_yaml_errors(ready):
    write(ready, "turns/001/gm.yaml", "turn: 1\nrolls: {lucy.piece: 9}\n")
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions: [pile_ou_face]\n")
    r = pbp("run", cwd=ready)
    assert r.exit_code == 1 and "turns/001/gm.yaml:2: jet forcé « lucy.piece » : 9 est impossible avec 1d6" in r.stderr
    write(ready, "turns/001/gm.yaml", "turn: 1\nrolls: {lucy.pice: 3}\nnarration: {public: x, zoe: y}\n")
    r = pbp("run", cwd=ready)
    assert r.exit_code == 1 and "turns/001/gm.yaml:3: destinataire de narration inconnu « zoe »" in r.stderr


def test_unused_forced_roll_is_a_warning(ready):
    write(ready, "turns/001/gm.yaml", "turn: 1\nrolls: {lucy.pice: 3}\n")
    r = pbp("run", "--no-commit", "--no-orders", cwd=ready)
    assert r.exit_code == 0 and "le jet forcé « lucy.pice » n'a servi à aucun jet" in r.stderr
    assert "lucy.pice" in (ready / "turns/001/gm.bbcode").read_text().replace("\u2060", "")  # autolinks defused


def test_dry_run_writes_nothing(ready):
    before = files_of(ready)
    r = pbp("run", "--dry-run", cwd=ready)
    assert r.exit_code == 0 and "Tour 1" in r.output and files_of(ready) == before


def test_lock_refuses_a_second_run(ready):
    (ready / ".pbp.lock").write_text("1")  # pid 1 always runs
    r = pbp("run", cwd=ready)
    assert r.exit_code == 1 and ".pbp.lock: la campagne est verrouillée" in r.stderr
    (ready / ".pbp.lock").write_text("999999999")  # a dead process: stale lock, taken over
    assert pbp("run", "--no-commit", "--no-orders", cwd=ready).exit_code == 0
    assert not (ready / ".pbp.lock").exists()


def test_finished_game_refuses_turns(ready):
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions: [avancer: 3]\n")
    orders(ready, 1, "bob", "player: bob\nturn: 1\nactions: [avancer: 3]\n")
    orders(ready, 2, "lucy", "player: lucy\nturn: 2\nactions: [avancer: 3]\n")
    orders(ready, 2, "bob", "player: bob\nturn: 2\nactions: [avancer: 3]\n")
    assert pbp("run", "--no-commit", cwd=ready).exit_code == 0
    r = pbp("run", "--no-commit", cwd=ready)
    assert r.exit_code == 0 and "La partie est terminée." in r.output
    for command in ("run", "check"):
        r = pbp(command, cwd=ready)
        assert r.exit_code == 1 and "la partie est terminée (tour 2)" in r.stderr


@pytest.mark.parametrize("content, expected", [
    ("ruleset: toy\nsecret: x\nplayers: {lucy: Lucy}\nlang: de\n", "campaign.yaml:4: « de » n'est pas une valeur possible."),
    ("ruleset: tyo\nsecret: x\nplayers: {lucy: Lucy}\n", "campaign.yaml:1: jeu de règles inconnu « tyo »."),
    ("ruleset: toy\nsecret: x\nplayers: {lucy: Lucy}\nrules: {romos: 3}\n", "campaign.yaml:4: règle inconnue « romos »"),
    ("ruleset: toy\nsecret: x\nplayers: {lucy: Lucy}\nplayrs: {}\n", "Vouliez-vous dire « players » ?"),
    ("ruleset: toy\nsecret: x\nplayers: {../x: Lucy}\n", "campaign.yaml:3: pseudo « ../x » invalide"),
])
def test_bad_campaign_file(tmp_path, content, expected):
    write(tmp_path, "campaign.yaml", content)
    r = pbp("status", cwd=tmp_path)
    assert r.exit_code == 1 and expected in r.stderr, r.stderr


def test_no_campaign_here(tmp_path):
    r = pbp("status", cwd=tmp_path)
    assert r.exit_code == 1 and "pas de campagne ici" in r.stderr


def test_rule_overrides_change_the_numbers(ready):
    config = ready / "campaign.yaml"
    config.write_text(config.read_text() + "rules: {coin_wins: 7}\n")
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions: [pile_ou_face]\n")
    write(ready, "turns/001/gm.yaml", "turn: 1\nrolls: {lucy.piece: 6}\n")
    assert pbp("run", "--no-commit", cwd=ready).exit_code == 0
    assert yamlio.load_file(ready / "turns/001/state.yaml")["players"]["lucy"]["coins"] == 0


def test_git_commit_per_turn(ready):
    subprocess.run(["git", "init", "-q", str(ready)], check=True)
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 0 and "Archivé dans git" in r.output
    log = subprocess.run(["git", "-C", str(ready), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines() == ["Tour 1"]
    tracked = subprocess.run(["git", "-C", str(ready), "ls-files"], capture_output=True, text=True).stdout
    assert "turns/001/state.yaml" in tracked and ".pbp.lock" not in tracked


def test_run_outside_git_says_so(ready):
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 0 and "pas dans un dépôt git" in r.output


def test_orders_form_lists_actions(ready):
    r = pbp("orders", "--player", "lucy", cwd=ready)
    assert r.exit_code == 0
    assert "#   - avancer: nombre" in r.output and "player: lucy\nturn: 1\n" in r.output
    write(ready, "turns/001/orders/lucy.yaml", r.output)  # the blank form is itself valid
    assert pbp("check", cwd=ready).exit_code == 0
    w = pbp("orders", "--player", "bob", "--write", cwd=ready)
    assert w.exit_code == 0 and (ready / "turns/001/orders/bob.yaml").exists()
    assert "joueur inconnu « bobby »" in pbp("orders", "--player", "bobby", cwd=ready).stderr


def test_status(ready):
    r = pbp("status", cwd=ready)
    assert r.exit_code == 0 and "En attente\u00a0: lucy, bob" in r.output


def test_roll():
    r = pbp("roll", "2d6+1", "--seed", "3")
    assert r.exit_code == 0 and r.output.startswith("2d6+1 (")
    bad = pbp("roll", "2x6")
    assert bad.exit_code == 1 and "expression de dés invalide « 2x6 »" in bad.stderr


def test_usage_error_is_exit_2():
    assert pbp("post", "--nope").exit_code == 2


def test_commit_while_locked_and_ignored_lock(ready):
    """The lock exists during the commit and .gitignore lists it (as `pbp init` writes it)."""
    subprocess.run(["git", "init", "-q", str(ready)], check=True)
    (ready / ".gitignore").write_text(".pbp.lock\n")
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 0 and "Archivé dans git" in r.output, r.output
    tracked = subprocess.run(["git", "-C", str(ready), "ls-files"], capture_output=True, text=True).stdout
    assert ".pbp.lock" not in tracked and "turns/001/public.bbcode" in tracked


def test_a_turns_commit_takes_what_is_staged_in_the_campaign_and_nothing_outside(tmp_path, ready):
    """archive.commit names the staged paths to git (not the folder, which git would
    read whole again): a file the MJ staged by hand goes with the turn, so does one
    whose name git would read as a pattern; a change staged outside the campaign's
    folder stays staged, out of the turn's commit."""
    git = ["git", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"], check=True)
    (tmp_path / "notes.txt").write_text("not the campaign's\n")
    subprocess.run([*git, "add", "notes.txt"], check=True)
    write(ready, "notes/:mj*.txt", "a name git would read as a pattern\n")
    write(ready, "notes/staged.txt", "staged by hand\n")
    subprocess.run(["git", "-C", str(ready), "add", "notes/staged.txt"], check=True)
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 0 and "Archivé dans git" in r.output, r.output
    shown = subprocess.run([*git, "show", "--name-only", "--format=", "HEAD"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    rel = ready.relative_to(tmp_path).as_posix()
    assert f"{rel}/turns/001/state.yaml" in shown and f"{rel}/notes/staged.txt" in shown
    assert f"{rel}/notes/:mj*.txt" in shown and "notes.txt" not in shown
    staged = subprocess.run([*git, "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout
    assert staged == "notes.txt\n"


@pytest.mark.parametrize("ruleset_id", ["manhunt"])
def test_init_new_campaign_from_the_skeleton_sets_up(tmp_path, ruleset_id):
    target = tmp_path / "event"
    r = pbp("init", target, "--ruleset", ruleset_id, "--lang", "en")
    assert r.exit_code == 0, r.output
    config = yamlio.load_file(target / "campaign.yaml")
    secret = yamlio.load_file(target / "secret.yaml")["secret"]
    assert config["lang"] == "en" and "secret" not in config and len(secret) == 32 and secret != "{secret}"
    s = pbp("setup", cwd=target)
    assert s.exit_code == 0, s.output
    assert "Committed" in s.output or "Archived" in s.output
    again = pbp("init", target, "--ruleset", ruleset_id)
    assert again.exit_code == 1 and "n'est pas vide" in again.stderr


def test_init_unknown_ruleset(tmp_path):
    r = pbp("init", tmp_path / "x", "--ruleset", "manhnt")
    assert r.exit_code == 1 and "Vouliez-vous dire « manhunt » ?" in r.stderr


def test_init_example_by_its_name_alone(tmp_path):
    """`--example d100-data` says which ruleset it plays: no --ruleset needed."""
    r = pbp("init", tmp_path / "x", "--example", "d100-data", "--no-git")
    assert r.exit_code == 0, r.output
    assert "ruleset: data" in (tmp_path / "x" / "campaign.yaml").read_text(encoding="utf-8")
    r = pbp("init", tmp_path / "y", "--example", "d100-dta", "--no-git")
    assert r.exit_code == 1 and not (tmp_path / "y").exists()
    assert "« d100-dta » n'est pas une campagne d'exemple de pbp. Vouliez-vous dire « d100-data » ?" in r.stderr


def test_campaign_templates_override_the_defaults(ready):
    write(ready, "templates/public.j2", "Notre forum — tour {{ turn }}\n{% include \"roleplay.j2\" %}\n")
    orders(ready, 1, "lucy", "player: lucy\nturn: 1\nactions: []\nroleplay: Bonjour [i]tout le monde[/i]\n")
    assert pbp("run", "--no-commit", cwd=ready).exit_code == 0
    public = (ready / "turns/001/public.bbcode").read_text()
    assert public.startswith("Notre forum — tour 1\n") and "[\u200bi]tout le monde" in public
    # the private report still comes from the ruleset's default template
    assert (ready / "turns/001/private/lucy.bbcode").exists() is False


def test_map_fields_accept_their_english_names_and_a_list_short_form():
    from pbp.model import orders as od, ruleset
    from pbp.model.ruleset import Scenario

    rs = ruleset.get("skirmish")
    problems = ruleset.Refusals()
    actions = od.parse_actions([{"move": [3, 4]}, {"melee": {"character": "aria", "target": "brute"}},
                                {"melee": {"cibel": "x"}}], rs, Scenario({}, {}, {}), problems)
    # skirmish reads a square as text (`4-2`, or the list [4, 2]): its rules turn it into numbers
    assert [a.arg for a in actions] == [{"vers": ["3", "4"], "perso": None},
                                        {"perso": "aria", "cible": "brute", "arme": None}]
    assert [r.key for r in problems] == ["unknown_field", "field_missing"]
    assert "Vouliez-vous dire « cible » ?" in od.place(problems, "t", yamlio.Lines())[0].text()


@pytest.mark.parametrize("inside_repo", [False, True], ids=["outside-git", "inside-git"])
def test_init_with_a_relative_path_commits(tmp_path, monkeypatch, inside_repo):
    """`pbp init mon-event` as the README types it: a relative path, from the
    folder that will hold the campaign (itself in a git repository or not)."""
    import subprocess

    if inside_repo:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    r = pbp("init", "mon-event", "--ruleset", "manhunt")
    assert r.exit_code == 0, r.output
    log = subprocess.run(["git", "-C", str(tmp_path / "mon-event"), "log", "--format=%s", "--", "."],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert log == ["pbp init (manhunt)"]
    status = subprocess.run(["git", "-C", str(tmp_path / "mon-event"), "status", "--porcelain", "--", "."],
                            capture_output=True, text=True, check=True).stdout
    assert status == ""


def test_an_internal_error_after_writing_says_what_was_written(tmp_path, monkeypatch):
    from pbp.engine import archive

    root = tmp_path / "chasse"
    assert pbp("init", root, "--ruleset", "manhunt", "--example").exit_code == 0

    def broken(*args, **kwargs):
        raise RuntimeError("disque plein")

    monkeypatch.setattr(archive, "commit", broken)
    r = CliRunner().invoke(main, ["-C", str(root), "run"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "Erreur interne de pbp (un bug, pas votre faute) : RuntimeError: disque plein." in r.stderr
    assert "Rien n'a été écrit" not in r.stderr
    assert "Déjà écrit avant l'erreur (" in r.stderr and "turns/004/state.yaml" in r.stderr


def test_an_internal_error_before_writing_says_nothing_was_written(tmp_path, monkeypatch):
    from pbp.engine import turn

    root = tmp_path / "chasse"
    assert pbp("init", root, "--ruleset", "manhunt", "--example").exit_code == 0
    monkeypatch.setattr(turn, "compute", lambda *a, **k: 1 / 0)
    r = CliRunner().invoke(main, ["-C", str(root), "run"])
    assert r.exit_code == 1
    assert r.stderr.startswith("Erreur interne de pbp (un bug, pas votre faute) : ZeroDivisionError")
    assert "Rien n'a été écrit." in r.stderr


def test_a_closed_output_pipe_ends_quietly(tmp_path):
    import sys

    root = tmp_path / "chasse"
    assert pbp("init", root, "--ruleset", "manhunt", "--example").exit_code == 0
    done = subprocess.run(f"{sys.executable} -m pbp -C {root} verify | head -c 1", shell=True,
                          capture_output=True, text=True)
    assert done.stdout == "t" and done.stderr == ""


def test_undo_to_a_turn_removes_every_later_turn(tmp_path):
    root = tmp_path / "chasse"
    assert pbp("init", root, "--ruleset", "manhunt", "--example").exit_code == 0
    before = {p: p.read_bytes() for p in (root / "turns").rglob("*") if p.is_file()}
    r = pbp("undo", "--to", "1", cwd=root)
    assert r.exit_code == 0, r.output
    assert r.output.count("annulé (10 fichiers retirés ; les ordres restent).") == 2
    assert r.output.startswith("Tour 3 annulé") and "Tour 2 annulé" in r.output and "Tour 1 annulé" not in r.output
    assert [n for n in (0, 1, 2, 3) if (root / f"turns/00{n}/state.yaml").exists()] == [0, 1]
    assert (root / "turns/003/orders").is_dir() and (root / "turns/002/gm.yaml").exists()
    log = subprocess.run(["git", "-C", str(root), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines()[:2] == ["Tour 2 annulé", "Tour 3 annulé"]
    # replaying gives back the same bytes
    assert pbp("run", cwd=root).exit_code == 0 and pbp("run", cwd=root).exit_code == 0
    assert {p: p.read_bytes() for p in (root / "turns").rglob("*") if p.is_file()} == before
    ahead = pbp("undo", "--to", "7", cwd=root)
    assert ahead.exit_code == 1 and "--to 7 : le dernier tour résolu est le tour 3 ; rien à défaire." in ahead.stderr


def test_simulate_writes_a_chart_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = pbp("simulate", "manhunt", "--games", "5", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert list(tmp_path.iterdir()) == []
