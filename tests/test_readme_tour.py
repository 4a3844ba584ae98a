"""The README's MJ tour, typed as written: its lines are read from README.md
(between the mj-tour markers) and run one by one in a fresh folder through the
installed `pbp` console script, from `pbp init` to the second turn."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

START, END = "<!-- mj-tour -->", "<!-- /mj-tour -->"
HEREDOC = re.compile(r"<<-?\s*'?(\w+)'?")


def tour_commands(readme: str) -> list[str]:
    """The tour's commands: one a line, a here-document with its lines."""
    block = readme.split(START, 1)[1].split(END, 1)[0].strip()
    lines = block.splitlines()
    assert lines[0] == "```sh" and lines[-1] == "```"
    commands, body = [], iter(lines[1:-1])
    for line in body:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command = [line]
        heredoc = HEREDOC.search(line)
        if heredoc:
            for more in body:
                command.append(more)
                if more == heredoc.group(1):
                    break
            else:
                raise AssertionError(f"unterminated here-document: {line}")
        commands.append("\n".join(command))
    return commands


def words(command: str) -> list[str]:
    return shlex.split(command.splitlines()[0], comments=True)


#: (command, its occurrence in the tour) -> lines its output must hold
EXPECTED = {
    ("pbp init mon-event --ruleset manhunt", 0): ["Campagne « manhunt » créée dans mon-event.",
                                                   "Dépôt git créé : chaque tour y sera archivé."],
    ("pbp setup", 0): ["Mise en place faite : 8 fichiers dans turns/000."],
    ("pbp post --player lucy", 0): ["[size=200][b]Mélétê — départ[/b][/size]"],
    ("pbp orders --player lucy --write", 0): ["Écrit : turns/001/orders/lucy.yaml"],
    ("pbp orders --player johannes --write", 0): ["Écrit : turns/001/orders/johannes.yaml"],
    ("pbp check", 0): ["Valides (1) : lucy (1 action)",
                       # johannes's form as `pbp orders --write` wrote it: not sent back yet
                       "Sans ordres (1) : johannes (Johannes) — ordres par défaut s'ils n'envoient rien.",
                       "Tour 1 : 1 valide, 0 refusé, 1 sans ordres."],
    ("pbp receipt --player lucy", 0): ["[size=150][b]Accusé de réception — mon-event, tour 1[/b][/size]",
                                       "vos ordres sont bien arrivés et sont valides. Voici ce qui sera joué\u00a0:",
                                       "[*]déplacement normal : nord",
                                       '[quote="Mélétê"]Mélétê pousse la porte, le cœur battant.[/quote]',
                                       "Date limite des ordres du tour 1\u00a0: dimanche 6 décembre 2026 à 20 h 00."],
    ("pbp remind", 0): ["[size=150][b]mon-event — rappel des ordres du tour 1[/b][/size]",
                        "Toujours pas d'ordres de\u00a0: Johannes (johannes).",
                        "Date limite\u00a0: [b]dimanche 6 décembre 2026 à 20 h 00[/b]. Sans ordres valides à temps, "
                        "ce sont les ordres par défaut qui seront joués."],
    ("pbp run", 0): ["Tour 1 résolu : 8 fichiers dans turns/001.", "Joués selon la règle de l'échéance :",
                     "  johannes (Johannes) : rien envoyé — ordres par défaut : aucune action"],
    ("pbp post", 0): ["[size=200][b]mon-event — tour 1[/b][/size]", "[*][b]Mélétê[/b] : déplacement.",
                      "[b]Ordres du tour 2[/b]\u00a0: à envoyer avant le dimanche 13 décembre 2026 à 20 h 00."],
    ("pbp post --player lucy", 1): ["[size=200][b]Mélétê — tour 1[/b][/size]"],
    ("pbp status", 0): ["lucy      Mélétê      attendus  0", "johannes  Johannes    attendus  1",
                        "En attente\u00a0: lucy, johannes"],
    ("pbp orders --player johannes --write", 1): ["Écrit : turns/002/orders/johannes.yaml"],
    ("pbp check", 1): ["Valides (1) : johannes (1 action)",
                       "Sans ordres (1) : lucy (Mélétê) — ordres par défaut s'ils n'envoient rien.",
                       "Tour 2 : 1 valide, 0 refusé, 1 sans ordres."],
    ("pbp run", 1): ["Tour 2 résolu : 8 fichiers dans turns/002.", "Joués selon la règle de l'échéance :",
                     "  lucy (Mélétê) : rien envoyé — ordres par défaut : aucune action"],
    # (what a search finds hangs on the dice, whose seed `pbp init` draws: not checked)
    ("pbp post --gm", 0): ["[size=200][b]Rapport MJ — mon-event — tour 2[/b][/size]",
                           "[*]Mélétê (lucy)\u00a0: rien envoyé — ordres par défaut\u00a0: aucune action",
                           "[*]Mélétê (lucy)\u00a0: 1 tour sans ordres"],
    ("pbp verify", 0): ["3 tours rejoués à l'identique."],
}


def test_the_tour_covers_the_turn_loop():
    commands = [" ".join(words(c)) for c in tour_commands((REPO / "README.md").read_text(encoding="utf-8"))]
    assert commands[0] == "pbp init mon-event --ruleset manhunt"
    for needed in ("pbp setup", "pbp check", "pbp receipt --player lucy", "pbp remind", "pbp post", "pbp status",
                   "pbp verify"):
        assert needed in commands, needed
    assert commands.count("pbp run") == 2  # the first turn, then the second
    for player in ("lucy", "johannes"):  # every player gets a form, both turns
        assert commands.count(f"pbp orders --player {player} --write") == 2
    # the players' filled forms, saved over the blank ones
    assert [c for c in commands if c.startswith("cat > turns/")] == [
        "cat > turns/001/orders/lucy.yaml <<EOF", "cat > turns/002/orders/johannes.yaml <<EOF"]


@pytest.fixture
def shell_env(tmp_path):
    """The MJ's shell: the `pbp` of this environment first on PATH, a home of
    its own (no git identity: pbp commits without one), no language set."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PBP_LANG", "LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("GIT_")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", HOME=str(home),
               GIT_CONFIG_NOSYSTEM="1", LANG="C.UTF-8")
    return env


def run_as_typed(commands: list[str], cwd: Path, env: dict):
    """Each command run by bash in a new folder `cwd`, as the MJ types them (a `cd` moves
    the next ones), each one succeeding: yields (its words, what bash gave back, the folder
    it ran in)."""
    cwd.mkdir()
    for command in commands:
        argv = words(command)
        if argv[0] == "cd":  # the shell's own: the next commands run there
            cwd = cwd / argv[1]
            assert cwd.is_dir(), command
            continue
        r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"{command}\n{r.stdout}\n{r.stderr}"
        yield argv, r, cwd


def test_the_readme_tour_runs_as_written(tmp_path, shell_env):
    commands = tour_commands((REPO / "README.md").read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    checked = set()
    for argv, r, cwd in run_as_typed(commands, tmp_path / "mj", shell_env):
        command = " ".join(argv)
        assert "Traceback" not in r.stderr
        key = (command, seen.get(command, 0))
        seen[key[0]] = key[1] + 1
        out = r.stdout.splitlines()
        for line in EXPECTED.get(key, []):
            assert line in out, f"{command}: {line!r} not in\n{r.stdout}"
        checked.add(key)
    assert checked >= set(EXPECTED)  # every expectation met a command of the tour
    # the archive: one commit per step that changes the campaign
    log = subprocess.run(["git", "log", "--format=%s"], cwd=cwd, env=shell_env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert log == ["Tour 2", "Tour 1", "Mise en place (tour 0)", "pbp init (manhunt)"]
