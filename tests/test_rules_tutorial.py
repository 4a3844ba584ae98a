"""docs/rules-tutorial.md typed as written: its commands (between the
rules-tutorial markers) run one by one in a fresh folder through the installed
`pbp` console script, from the rules file to turn 1, and what the tutorial says
they print is what they print."""

from tests.helpers import REPO
from tests.test_readme_tour import run_as_typed, shell_env, tour_commands, words  # noqa: F401 (a fixture)

TUTORIAL = REPO / "docs" / "rules-tutorial.md"
START, END = "<!-- rules-tutorial -->", "<!-- /rules-tutorial -->"

#: command -> lines its output must hold (no-break spaces as the terminal gets them)
EXPECTED = {
    "pbp rules check joute.yaml": ["joute.yaml : règles correctes (actions : 2 ; jauges : 1 ; tables : 1 ; "
                                   "tests : 0)."],
    "pbp init mon-tournoi --rules joute.yaml": ["Campagne « data » créée dans mon-tournoi."],
    "pbp setup": ["Mise en place faite : 9 fichiers dans turns/000."],
    "pbp check": ["Valides (2) : joueur1 (1 action), joueur2 (1 action)"],
    "pbp run --dry-run": ["  joueur1.charger.charge : 1d6 → 6 (forcé)"],
    "pbp run": ["Tour 1 résolu : 8 fichiers dans turns/001."],
    "pbp post": ["[*]Charge de Personnage 1 : 1d6 (6) → désarçonne presque son adversaire.",
                 "[*]Endurance de Personnage 2 : 5 − 3 = 2."],
    "pbp odds --rule data.charge": ["1-2  la lance manque sa cible           coup 0  1/3 (33.3 %)"],
    "pbp verify": ["2 tours rejoués à l'identique."],
}


def commands() -> list[str]:
    text = TUTORIAL.read_text(encoding="utf-8")
    return tour_commands(text.replace(START, "<!-- mj-tour -->").replace(END, "<!-- /mj-tour -->"))


def test_the_tutorial_goes_from_a_rules_file_to_turn_one():
    said = [" ".join(words(c)) for c in commands()]
    assert said[0].startswith("cat > joute.yaml")
    for needed in ("pbp rules check joute.yaml", "pbp init mon-tournoi --rules joute.yaml", "pbp setup",
                   "pbp check", "pbp run", "pbp verify"):
        assert needed in said, needed


def test_the_rules_tutorial_runs_as_written(tmp_path, shell_env):  # noqa: F811
    checked = set()
    for argv, r, _ in run_as_typed(commands(), tmp_path / "mj", shell_env):
        command = " ".join(argv)
        out = (r.stdout + r.stderr).replace("\u00a0", " ").splitlines()  # (--dry-run lists the rolls on stderr)
        for line in EXPECTED.get(command, []):
            assert line in out, f"{command}: {line!r} not in\n{r.stdout}"
        checked.add(command)
    assert checked >= set(EXPECTED)
