"""Folders and repositories in states pbp never makes (a campaign received from
someone else, a git killed mid-way, another user's repository): each is a clear
refusal naming what is wrong and what to do, exit 1, never an internal error."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile

import pytest

from tests.helpers import copy_example, pbp, write

NO_INTERNAL = ("Erreur interne", "Internal error", "Traceback")


def refused(r) -> str:
    assert r.exit_code == 1, r.output
    assert not any(s in r.output for s in NO_INTERNAL), r.output
    return r.stderr


@pytest.fixture
def ready(toy_campaign):
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    return toy_campaign


def committed(root):
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=mj", "-c", "user.email=mj@x", "commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)
    return root


# -- turn folders ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [("³", "NNN"), ("0002", "002"), ("2", "002")])
def test_a_folder_named_like_a_turn_but_not_a_turn_is_refused_by_name(tmp_path, name, expected):
    camp = copy_example("manhunt", tmp_path)
    shutil.copytree(camp / "turns/002", camp / "turns" / name)
    for command in (["status"], ["verify"], ["run", "--no-commit"]):
        err = refused(pbp(*command, cwd=camp))
        assert err == (f"turns/{name}: dossier de tour mal nommé : un tour s'appelle turns/NNN, son numéro en chiffres "
                       f"0 à 9 sur trois chiffres au moins (turns/{expected}) ; renommez ce dossier ou sortez-le de "
                       "turns/.\n")


def test_a_bundle_with_turn_0002_beside_002_is_not_audited_as_another_turn(tmp_path):
    camp = copy_example("manhunt", tmp_path)
    bundle = tmp_path / "b.tar.gz"
    assert pbp("reveal", "--before-end", "--output", bundle, cwd=camp).exit_code == 0
    members = {}
    with tarfile.open(bundle) as tar:
        for m in tar.getmembers():
            members[m.name] = tar.extractfile(m).read()
    for name, data in list(members.items()):
        if name.startswith("campaign/turns/002/"):
            members[name.replace("/002/", "/0002/")] = data
    forged = tmp_path / "forged.tar.gz"
    with tarfile.open(forged, "w:gz") as tar:
        for name, data in sorted(members.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    r = pbp("audit", forged)
    assert r.exit_code == 1 and "tout concorde" not in r.output
    assert "turns/0002: " in r.stderr and "(turns/002)" in r.stderr


def test_a_ruleset_longer_than_a_file_name_is_an_unknown_ruleset(ready):
    config = ready / "campaign.yaml"
    config.write_text(config.read_text().replace("ruleset: toy", "ruleset: " + "a" * 300))
    err = refused(pbp("status", cwd=ready))
    assert err.startswith("campaign.yaml:1: jeu de règles inconnu « aaaa") and "Valeurs possibles" in err


# -- git ------------------------------------------------------------------------------------

def test_init_without_git_installed_writes_nothing_and_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    target = tmp_path / "nouvelle"
    err = refused(pbp("init", target, "--ruleset", "manhunt", "--lang", "fr"))
    assert err == ("git n'est pas installé (ou pas dans le PATH) : pbp archive chaque tour dans git. Installez git, "
                   "ou créez la campagne sans : pbp init --no-git. Rien n'a été écrit.\n")
    assert not target.exists()
    assert pbp("init", target, "--ruleset", "manhunt", "--no-git").exit_code == 0


def test_a_stale_index_lock_is_said_whole_with_what_to_do(ready):
    committed(ready)
    lock = ready / ".git" / "index.lock"
    lock.write_text("")
    err = refused(pbp("run", "--no-orders", cwd=ready))
    lines = err.splitlines()
    assert lines[0] == (f"les fichiers sont écrits, mais git est verrouillé (git add -A) : {lock} reste d'un git "
                        "interrompu, ou un autre git travaille dans ce dépôt. Si aucun autre git ne tourne, supprimez "
                        "ce fichier, puis archivez à la main : git add -A && git commit (dans le dossier de la "
                        "campagne). git dit :")
    assert lines[1] == f"  fatal: Unable to create '{lock}': File exists."
    assert "  remove the file manually to continue." in lines and "\\n" not in err


def test_a_repository_git_refuses_is_said_and_the_run_fails(ready, monkeypatch):
    committed(ready)
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")  # git's own switch for "another user's repository"
    err = refused(pbp("run", "--no-orders", cwd=ready))
    assert err.startswith("git refuse ce dépôt (git rev-parse --show-toplevel) : il appartient à un autre "
                          "utilisateur.")
    assert "  fatal: detected dubious ownership in repository at" in err
    assert "git config --global --add safe.directory" in err


def test_a_commit_on_a_detached_head_says_where_it_went(ready):
    committed(ready)
    subprocess.run(["git", "-C", str(ready), "checkout", "-q", "--detach", "HEAD"], check=True)
    err = refused(pbp("run", "--no-orders", cwd=ready))
    head = subprocess.run(["git", "-C", str(ready), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    assert subprocess.run(["git", "-C", str(ready), "log", "-1", "--format=%s"], capture_output=True,
                          text=True).stdout.strip() == "Tour 1"
    assert err == (f"archivé dans le commit {head}, mais sur aucune branche (HEAD détachée) : il serait perdu au "
                   "prochain changement de branche. Gardez-le sur une branche : git switch -c <nom> (ou git branch "
                   f"<nom> {head}, puis fusionnez-la dans la vôtre).\n")
