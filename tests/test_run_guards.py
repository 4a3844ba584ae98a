"""`pbp run` at 1 a.m.: what it refuses to do without being asked.

- A turn for which not a single player has sent orders (most often a second
  `pbp run` typed by mistake) is refused, naming who is expected; `--no-orders`
  plays it, everyone on their default orders; `--dry-run` shows it anyway.
- Before a turn, what `pbp status` says of the codes is said (stderr), and a
  turn is not sealed on top of archived files edited since the last commit, nor
  are they swept into its commit: refused, naming the files, unless
  `--accept-changes`.

Through the real command, on fresh example campaigns (`pbp init X --ruleset R
--example`, a git repository)."""

from __future__ import annotations

import subprocess

import pytest

from tests.helpers import copy_example, pbp

NO_ORDERS = ("Aucun ordre reçu pour le tour 5 : aucun joueur n'a envoyé d'ordres dans turns/005/orders "
             "(attendus : alice, bob, carol). Un second « pbp run » par mégarde ? Le tour n'a pas été joué. "
             "Pour le jouer quand même, chacun avec ses ordres par défaut : pbp run --no-orders.\n")

#: what `pbp run` says everyone played when nobody sent orders
PLAYED = ["Joués selon la règle de l'échéance :",
          "  alice (Aria et Bran) : rien envoyé — ordres par défaut : aucune action",
          "  bob (Dag et Eli) : rien envoyé — ordres par défaut : aucune action",
          "  carol (Cyra et Fenn) : rien envoyé — ordres par défaut : aucune action"]


def git(root, *args) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout


def files_of(root):
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


@pytest.fixture
def skirmish(tmp_path):
    root = tmp_path / "rt"
    assert pbp("init", root, "--ruleset", "skirmish", "--example").exit_code == 0
    return root


def test_a_second_run_is_refused_and_plays_nothing(skirmish):
    first = pbp("run", cwd=skirmish)  # the example's turn 4, every order in
    assert first.exit_code == 0 and first.output.startswith("Tour 4 résolu"), first.output
    before, log = files_of(skirmish), git(skirmish, "log", "--format=%s")
    again = pbp("run", cwd=skirmish)
    assert again.exit_code == 1 and again.stdout == ""
    assert again.stderr == NO_ORDERS
    assert files_of(skirmish) == before and git(skirmish, "log", "--format=%s") == log
    forced = pbp("run", "--no-orders", cwd=skirmish)
    assert forced.exit_code == 0, forced.output
    assert forced.stdout.splitlines()[:5] == ["Tour 5 résolu : 9 fichiers dans turns/005."] + PLAYED
    assert git(skirmish, "log", "-1", "--format=%s") == "Tour 5\n"


def test_a_blank_form_is_no_orders(skirmish):
    assert pbp("run", cwd=skirmish).exit_code == 0
    assert pbp("orders", "--player", "alice", "--write", cwd=skirmish).exit_code == 0
    form = skirmish / "turns/005/orders/alice.yaml"  # sent back blank (untouched, it is not sent yet)
    form.write_text(form.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    r = pbp("run", cwd=skirmish)
    assert r.exit_code == 1 and r.stderr == NO_ORDERS
    (skirmish / "turns/005/orders/bob.yaml").write_text("actions: []\nroleplay: J'attends.\n", encoding="utf-8")
    r = pbp("run", cwd=skirmish)  # one player sent something: the turn is played
    # Alice's form came back with nothing in it: a blank form, played as nothing sent
    assert r.exit_code == 0 and r.stdout.splitlines()[1:4] == [
        "Joués selon la règle de l'échéance :",
        "  alice (Aria et Bran) : formulaire renvoyé vierge — ordres par défaut : aucune action",
        "  carol (Cyra et Fenn) : rien envoyé — ordres par défaut : aucune action"], r.output


def test_a_dry_run_shows_the_turn_and_says_a_run_would_refuse(skirmish):
    assert pbp("run", cwd=skirmish).exit_code == 0
    before = files_of(skirmish)
    r = pbp("run", "--dry-run", cwd=skirmish)
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [NO_ORDERS.rstrip("\n")] + PLAYED
    assert r.stdout.endswith("(essai : rien n'a été écrit pour le tour 5)\n")
    assert files_of(skirmish) == before


def test_no_orders_in_english(tmp_path):
    root = tmp_path / "rt"
    assert pbp("init", root, "--ruleset", "skirmish", "--example", "--lang", "en").exit_code == 0
    assert pbp("run", cwd=root).exit_code == 0
    r = pbp("run", cwd=root)
    assert r.exit_code == 1
    assert r.stderr == ("No orders received for turn 5: no player has sent orders in turns/005/orders (expected: "
                        "alice, bob, carol). A second `pbp run` by mistake? The turn was not played. To play it "
                        "anyway, everyone on their default orders: pbp run --no-orders.\n")


# -- an archive edited by hand -----------------------------------------------------------

SEAL_CHANGED = ("Tour 8 : l'archive ne correspond plus au sceau que pbp a imprimé (pbp#8/{printed}) ; elle donne "
                "maintenant pbp#8/{now} (un fichier de ce tour ou d'un tour précédent a changé).\n")


@pytest.fixture
def murder(tmp_path):
    root = tmp_path / "m1"
    assert pbp("init", root, "--ruleset", "murder", "--example").exit_code == 0
    return root


def _seal_warning(root) -> str:
    """What `pbp status` says of the archive (its last lines: the codes' problems)."""
    status = pbp("status", cwd=root)
    assert status.exit_code == 0
    return status.output.splitlines()[-1] + "\n"


def test_run_refuses_to_seal_a_turn_on_an_edited_archive(murder):
    with open(murder / "turns/008/orders/alice.yaml", "a", encoding="utf-8") as handle:
        handle.write("# edited\n")
    warning = _seal_warning(murder)
    assert warning.startswith("Tour 8 : l'archive ne correspond plus au sceau que pbp a imprimé (pbp#8/")
    before, log = files_of(murder), git(murder, "log", "--format=%s")
    r = pbp("run", cwd=murder)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == warning + (
        "Des fichiers de tours déjà joués ont changé depuis le dernier commit : turns/008/orders/alice.yaml. "
        "Le tour 9 serait scellé par-dessus et son commit les emporterait ; il n'a pas été joué. Remettez-les tels "
        "qu'ils étaient (git checkout -- FICHIER) ; pour rejouer le tour 8 corrigé : pbp undo --to 7, puis pbp run ; "
        "pour les garder tels quels : pbp run --accept-changes.\n")
    assert files_of(murder) == before and git(murder, "log", "--format=%s") == log
    # put back as it was: the run goes on, and says nothing of the codes
    git(murder, "checkout", "--", "turns/008/orders/alice.yaml")
    r = pbp("run", cwd=murder)
    assert r.exit_code == 0 and r.stderr == "", r.stderr
    assert git(murder, "show", "--name-only", "--format=%s", "HEAD").splitlines()[0] == "Tour 9"
    assert "turns/008/orders/alice.yaml" not in git(murder, "show", "--name-only", "--format=", "HEAD")


def test_accept_changes_goes_on_and_says_what_the_commit_takes(murder):
    with open(murder / "turns/008/orders/alice.yaml", "a", encoding="utf-8") as handle:
        handle.write("# edited\n")
    warning = _seal_warning(murder)
    r = pbp("run", "--accept-changes", cwd=murder)
    assert r.exit_code == 0, r.output
    assert r.stderr == warning + (
        "Fichiers de tours déjà joués changés depuis le dernier commit, gardés tels quels (--accept-changes) : "
        "le tour 9 est scellé par-dessus et son commit les emporte : turns/008/orders/alice.yaml.\n")
    assert "turns/008/orders/alice.yaml" in git(murder, "show", "--name-only", "--format=", "HEAD")


def test_outside_git_the_run_says_what_status_says(tmp_path):
    root = copy_example("murder", tmp_path)  # no repository: nothing to compare with but the codes
    with open(root / "turns/008/orders/alice.yaml", "a", encoding="utf-8") as handle:
        handle.write("# edited\n")
    warning = _seal_warning(root)
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0
    assert r.stderr.startswith(warning)


def test_a_post_longer_than_post_chars_is_said(tmp_path):
    """A roleplay within its limit may still make a post a forum refuses: escaped
    for Markdown, each `&` is five characters."""
    root = copy_example("manhunt", tmp_path)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("format: bbcode", "format: markdown"),
                      encoding="utf-8")
    lucy = root / "turns/004/orders/lucy.yaml"
    lucy.write_text(lucy.read_text(encoding="utf-8").split("roleplay:")[0] + 'roleplay: "' + "&" * 19990 + '"\n',
                    encoding="utf-8")
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0
    length = len((root / "turns/004/public.md").read_text(encoding="utf-8"))
    assert length > 100_000  # 19,990 characters written
    assert [line for line in r.stderr.splitlines() if "post_chars" in line] == [
        f"turns/004/public.md : {length} caractères, plus que 32000 (limite « post_chars ») : le forum risque de "
        "refuser ce message. Coupez-le en plusieurs (pbp post --split le fait sans couper de balise ni de "
        "citation), ou donnez à « post_chars » la limite de votre forum."]  # Markdown: Discourse's 32,000
    assert pbp("undo", cwd=root).exit_code == 0
    config.write_text(config.read_text(encoding="utf-8") + "limits:\n  post_chars: 200000\n", encoding="utf-8")
    assert "post_chars" not in pbp("run", "--dry-run", cwd=root).stderr
