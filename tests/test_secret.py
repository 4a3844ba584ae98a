"""The dice secret stays out of the git history (pbp/engine/secret.py): `pbp init` puts it
in secret.yaml, which git ignores; `pbp reveal` still publishes it; a campaign made
before, its secret in campaign.yaml, keeps working and is told how to move it."""

from __future__ import annotations

import shutil
import subprocess
import tarfile

import pytest

from pbp.base import yamlio
from pbp.render.render import package_dir
from tests.helpers import pbp, write


def git(root, *args) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout


def history(root) -> str:
    """Every version of every file git ever archived of the campaign."""
    return git(root, "log", "-p", "--all", "--format=%H")


WARNING = {"fr": "Attention : la graine secrète des dés est dans campaign.yaml, que git archive à chaque tour",
           "en": "Warning: the secret dice seed is in campaign.yaml, which git archives with every turn"}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_new_campaign_never_commits_its_secret(tmp_path, lang):
    root = tmp_path / "event"
    assert pbp("init", root, "--ruleset", "manhunt", "--lang", lang).exit_code == 0
    secret = yamlio.load_file(root / "secret.yaml")["secret"]
    assert len(secret) == 32 and "secret" not in yamlio.load_file(root / "campaign.yaml")
    assert "secret.yaml" in (root / ".gitignore").read_text().splitlines()
    s = pbp("setup", cwd=root)
    assert s.exit_code == 0 and WARNING[lang] not in s.output, s.output
    assert secret not in history(root) and "secret.yaml" not in git(root, "ls-files")
    assert git(root, "status", "--short") == ""  # nothing left to commit: the secret is ignored
    r = pbp("status", cwd=root)
    assert r.exit_code == 0 and WARNING[lang] not in r.output


def test_pbps_commits_leave_the_secret_out_even_without_the_gitignore(tmp_path):
    root = tmp_path / "event"
    assert pbp("init", root, "--ruleset", "manhunt").exit_code == 0
    (root / ".gitignore").write_text(".pbp.lock\n")
    assert pbp("setup", cwd=root).exit_code == 0
    secret = yamlio.load_file(root / "secret.yaml")["secret"]
    assert "secret.yaml" not in git(root, "ls-files") and secret not in history(root)


def test_an_example_is_laid_out_as_a_new_campaign_and_its_bundle_carries_the_secret(tmp_path):
    root = tmp_path / "chasse"
    assert pbp("init", root, "--ruleset", "manhunt", "--example").exit_code == 0
    secret = yamlio.load_file(package_dir("campaigns") / "manhunt" / "campaign.yaml")["secret"]
    assert yamlio.load_file(root / "secret.yaml")["secret"] == secret
    assert "secret:" not in (root / "campaign.yaml").read_text()
    assert pbp("run", cwd=root).exit_code == 0
    assert secret not in history(root)
    bundle = tmp_path / "chasse.tar.gz"
    assert pbp("reveal", "--before-end", "--output", bundle, cwd=root).exit_code == 0
    with tarfile.open(bundle) as tar:
        assert yamlio.loads(tar.extractfile("campaign/secret.yaml").read().decode())["secret"] == secret
    a = pbp("audit", bundle)
    assert a.exit_code == 0 and "Verdict : tout concorde (5 tours)." in a.output, a.output


def legacy(tmp_path, lang="fr"):
    """A campaign made before secret.yaml: the bundled example as it is, its secret in
    campaign.yaml, committed to git."""
    root = tmp_path / "ancienne"
    shutil.copytree(package_dir("campaigns") / "manhunt", root)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", f"lang: {lang}"), encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "old")
    return root


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_campaign_with_its_secret_in_campaign_yaml_plays_and_is_told_how_to_move_it(tmp_path, lang):
    root = legacy(tmp_path, lang)
    secret = yamlio.load_file(root / "campaign.yaml")["secret"]
    r = pbp("status", cwd=root)
    assert r.exit_code == 0 and r.stderr.count(WARNING[lang]) == 1, r.stderr
    assert {"fr": "« pbp secret move » la range dans secret.yaml",
            "en": "`pbp secret move` moves it to secret.yaml"}[lang] in r.stderr
    assert pbp("verify", cwd=root).exit_code == 0
    m = pbp("secret", "move", cwd=root)
    assert m.exit_code == 0, m.output
    assert {"fr": "Graine secrète des dés déplacée de campaign.yaml dans secret.yaml",
            "en": "Secret dice seed moved from campaign.yaml to secret.yaml"}[lang] in m.output
    assert {"fr": "L'historique git contient encore l'ancienne ligne",
            "en": "The git history still holds the old line"}[lang] in m.output
    assert yamlio.load_file(root / "secret.yaml")["secret"] == secret
    assert "secret" not in yamlio.load_file(root / "campaign.yaml")
    assert secret not in git(root, "show", "HEAD:campaign.yaml") and "secret.yaml" not in git(root, "ls-files")
    assert git(root, "status", "--short") == ""
    assert WARNING[lang] not in pbp("status", cwd=root).output
    assert pbp("verify", cwd=root).exit_code == 0
    r = pbp("run", cwd=root)
    assert r.exit_code == 0 and secret not in git(root, "show", "HEAD")
    again = pbp("secret", "move", cwd=root)
    assert again.exit_code == 0 and {"fr": "déjà dans secret.yaml", "en": "already in secret.yaml"}[lang] in again.output


def test_run_and_setup_tell_it_too(tmp_path):
    root = legacy(tmp_path)
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0 and r.stderr.count(WARNING["fr"]) == 1


@pytest.mark.parametrize("lang, expected", [
    ("fr", "secret.yaml: fichier absent : la graine secrète des dés est dans secret.yaml, que git n'archive pas. "
           "Remettez-y la copie que vous en avez gardée"),
    ("en", "secret.yaml: file missing: the secret dice seed lives in secret.yaml, which git does not archive. "
           "Put back the copy you kept of it"),
])
def test_a_clone_without_its_secret_says_what_to_put_back(tmp_path, lang, expected):
    root = tmp_path / "event"
    assert pbp("init", root, "--ruleset", "manhunt", "--example", "--lang", lang).exit_code == 0
    (root / "secret.yaml").unlink()
    for command in ("run", "verify"):
        r = pbp(command, cwd=root)
        assert r.exit_code == 1 and expected in r.stderr, r.stderr


def test_two_different_secrets_or_a_bad_file_are_refused(tmp_path):
    root = tmp_path / "event"
    assert pbp("init", root, "--ruleset", "manhunt").exit_code == 0
    config = root / "campaign.yaml"
    config.write_text(config.read_text() + "secret: autre\n")
    r = pbp("setup", cwd=root)
    assert r.exit_code == 1 and "secret.yaml: campaign.yaml et secret.yaml donnent deux secrets différents" in r.stderr
    config.write_text(config.read_text().replace("secret: autre\n", ""))
    write(root, "secret.yaml", "# rien\nsecret:\n")
    r = pbp("setup", cwd=root)
    assert r.exit_code == 1 and "secret.yaml:2: secret.yaml doit contenir une ligne « secret: »" in r.stderr
