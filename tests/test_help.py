"""`pbp --help` and every command's help in French and English: the language
(PBP_LANG, the campaign's `lang:`, the locale, English), click's own words,
usage errors, and a walk of the command tree for texts missing in a language."""

import glob
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from pbp.base import i18n
from pbp.cli import help as local_help
from pbp.cli import RulesetCommands, main
from pbp.model import ruleset
from tests.helpers import REPO, write

LOCALE_VARS = ("PBP_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def env(monkeypatch, tmp_path):
    """No language in the environment, and a current folder with no campaign."""
    for name in LOCALE_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "80")  # click wraps the help to the terminal's width
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="pbp", catch_exceptions=False)


def lines(result):
    return result.output.splitlines()


def commands(out: list[str]) -> list[str]:
    """The command list's lines, their columns closed up (the first column is as
    wide as the longest command name)."""
    return ["  " + " ".join(line.split()[:1]) + "  " + " ".join(line.split()[1:]) for line in out
            if line.startswith("  ") and not line.startswith("   ")]


def test_pbp_help_in_french(env):
    env.setenv("PBP_LANG", "fr")
    r = run("--help")
    assert r.exit_code == 0
    out = lines(r)
    assert out[0] == "Utilisation : pbp [OPTIONS] COMMANDE [ARGS]..."
    assert "Options :" in out and "Commandes :" in out
    assert "  -C CHEMIN   Dossier de la campagne (par défaut : le dossier courant)." in out
    assert "  --version   Affiche la version et quitte." in out
    assert "  -h, --help  Affiche cette aide et quitte." in out
    assert '  init  Crée un nouveau dossier de campagne (un dépôt git).' in commands(out)
    assert '  verify  Rejoue chaque tour archivé et signale toute différence.' in commands(out)
    assert "  status  Vue d'ensemble de l'état de la partie pour le MJ (secret)." in commands(out)


def test_pbp_help_in_english(env):
    env.setenv("PBP_LANG", "en")
    out = lines(run("--help"))
    assert out[0] == "Usage: pbp [OPTIONS] COMMAND [ARGS]..."
    assert "Options:" in out and "Commands:" in out
    assert "  -C PATH     Campaign folder (default: the current folder)." in out
    assert "  -h, --help  Show this message and exit." in out
    assert '  init  Create a new campaign folder (a git repository).' in commands(out)
    assert '  verify  Replay every archived turn and report any difference.' in commands(out)


def test_a_command_help_in_both_languages(env):
    env.setenv("PBP_LANG", "fr")
    assert run("receipt", "--help").output == (
        "Utilisation : pbp receipt [OPTIONS]\n"
        "\n"
        "  Ce que pbp a compris des ordres d'un joueur. Prêt à coller dans un message\n"
        "  privé.\n"
        "\n"
        "Options :\n"
        "  --player TEXTE              Le pseudo du joueur sur le forum (majuscules ou\n"
        "                              non).  [obligatoire]\n"
        "  --turn ENTIER               Le tour (par défaut : le prochain).  [x>=0]\n"
        "  --format [bbcode|markdown]  Format de sortie (par défaut : celui de la\n"
        "                              campagne).\n"
        "  -h, --help                  Affiche cette aide et quitte.\n")
    env.setenv("PBP_LANG", "en")
    assert run("receipt", "--help").output == (
        "Usage: pbp receipt [OPTIONS]\n"
        "\n"
        "  What pbp understood of a player's orders. Ready to paste into a private\n"
        "  message.\n"
        "\n"
        "Options:\n"
        "  --player TEXT               The player's forum handle (any case).  [required]\n"
        "  --turn INTEGER RANGE        Turn (default: the next one).  [x>=0]\n"
        "  --format [bbcode|markdown]  Output format (default: the campaign's).\n"
        "  -h, --help                  Show this message and exit.\n")


def test_defaults_ranges_and_arguments_in_french(env):
    env.setenv("PBP_LANG", "fr")
    out = run("simulate", "--help").output
    assert out.startswith("Utilisation : pbp simulate [OPTIONS] [JEU]\n")
    assert "  --games ENTIER         Nombre de parties.  [par défaut : 1000 ; x>=1]\n" in out
    assert "  --svg FICHIER          Écrit aussi le graphique du chiffre principal dans ce\n" in out
    assert run("init", "--help").output.startswith("Utilisation : pbp init [OPTIONS] CHEMIN\n")
    out = " ".join(run("init", "--help").output.split())
    assert "--ruleset TEXTE Le jeu de règles : manhunt, murder, skirmish, d100, data... (ou --rules)." in out
    assert "--example [NOM] Copie la campagne d'exemple du jeu de règles (ou celle nommée)" in out


def test_a_ruleset_command_help_in_both_languages(env):
    env.setenv("PBP_LANG", "en")
    out = run("d100", "generate", "--help").output
    assert out.startswith("Usage: pbp d100 generate [OPTIONS]\n\n  Draw a character's characteristics")
    assert "  --physique N[,D4,D6]  Number of d10 for Physique (1-10).  [required]\n" in out
    assert "  --dry-run             Show the result; write nothing.\n" in out
    env.setenv("PBP_LANG", "fr")
    out = run("d100", "generate", "--help").output
    assert out.startswith("Utilisation : pbp d100 generate [OPTIONS]\n\n  Tire les caractéristiques")
    assert "  --physique N[,D4,D6]  Nombre de d10 pour Physique (1 à 10).  [obligatoire]\n" in out
    assert "  --dry-run             Montre le résultat sans rien écrire.\n" in out
    group = lines(run("d100", "--help"))
    assert group[:3] == ["Utilisation : pbp d100 [OPTIONS] COMMANDE [ARGS]...", "",
                         "  Les commandes du jeu de règles d100."]


# -- which language -----------------------------------------------------------------

def test_without_any_language_the_help_is_english(env):
    assert lines(run("check", "--help"))[0] == "Usage: pbp check [OPTIONS]"


@pytest.mark.parametrize("variables, expected", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "fr_CA", "LANG": "en_US"}, "fr"),
    ({"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "fr_FR"}, "en"),
    ({"LC_ALL": "", "LANG": "fr_BE"}, "fr"),  # an empty variable is not set
    ({"PBP_LANG": "en", "LANG": "fr_FR"}, "en"),
    ({"PBP_LANG": "de", "LANG": "fr_FR"}, "fr"),  # a language pbp does not speak: ignored
])
def test_the_locale_and_pbp_lang(env, variables, expected):
    for name, value in variables.items():
        env.setenv(name, value)
    first = lines(run("check", "--help"))[0]
    assert first == {"fr": "Utilisation : pbp check [OPTIONS]", "en": "Usage: pbp check [OPTIONS]"}[expected]


@pytest.mark.parametrize("variables, expected", [
    ({}, "campaign.yaml: no campaign here (no campaign.yaml). Use -C FOLDER or create one with `pbp init`."),
    ({"LANG": "C.UTF-8"}, "campaign.yaml: no campaign here (no campaign.yaml). Use -C FOLDER or create one "
                          "with `pbp init`."),
    ({"LANG": "fr_FR.UTF-8"}, "campaign.yaml: pas de campagne ici (campaign.yaml absent). Utilisez -C DOSSIER "
                              "ou créez-en une avec « pbp init »."),
    ({"PBP_LANG": "fr", "LANG": "en_US.UTF-8"}, "campaign.yaml: pas de campagne ici (campaign.yaml absent). "
                                                "Utilisez -C DOSSIER ou créez-en une avec « pbp init »."),
])
def test_without_a_campaign_messages_speak_the_help_language(env, variables, expected):
    """Where there is no campaign (a typo in -C, a player's `pbp audit`), pbp's
    messages follow the same rule as its help, not French whatever the machine."""
    for name, value in variables.items():
        env.setenv(name, value)
    r = run("status")
    assert r.exit_code == 1 and r.stderr.splitlines() == [expected]
    env.setenv("LANG", "en_US.UTF-8")
    env.delenv("PBP_LANG", raising=False)
    assert run("roll", "1d0").stderr.startswith("invalid dice expression `1d0`")


def test_init_speaks_the_new_campaigns_language_and_an_example_takes_lang(env, tmp_path):
    env.setenv("LANG", "C.UTF-8")
    r = run("init", tmp_path / "fr", "--ruleset", "murder", "--no-git")
    assert r.exit_code == 0 and lines(r)[0] == f"Campagne « murder » créée dans {tmp_path / 'fr'}."
    r = run("init", tmp_path / "en", "--ruleset", "murder", "--example", "--lang", "en", "--no-git")
    assert r.exit_code == 0 and lines(r)[0] == f"`murder` campaign created in {tmp_path / 'en'}."
    config = (tmp_path / "en" / "campaign.yaml").read_text(encoding="utf-8")
    assert "\nlang: en\n" in config and "lang: fr" not in config
    r = run("-C", tmp_path / "en", "verify")  # the turns played in French stay French
    assert r.exit_code == 0 and lines(r)[-1] == "9 turns replayed identically."


def test_the_campaign_language_of_c_or_of_the_current_folder(env, tmp_path):
    env.setenv("LANG", "fr_FR.UTF-8")
    write(tmp_path / "camp", "campaign.yaml", "ruleset: toy\ntitle: Essai\nlang: 'en'   # the players' language\n")
    assert lines(run("-C", tmp_path / "camp", "check", "--help"))[0] == "Usage: pbp check [OPTIONS]"
    assert lines(run(f"-C{tmp_path / 'camp'}", "--help"))[0] == "Usage: pbp [OPTIONS] COMMAND [ARGS]..."
    assert lines(run("check", "--help"))[0] == "Utilisation : pbp check [OPTIONS]"  # cwd: no campaign
    env.chdir(tmp_path / "camp")
    assert lines(run("check", "--help"))[0] == "Usage: pbp check [OPTIONS]"
    env.setenv("PBP_LANG", "fr")  # the environment's PBP_LANG comes first
    assert lines(run("check", "--help"))[0] == "Utilisation : pbp check [OPTIONS]"


@pytest.mark.parametrize("content", [
    "ruleset: [toy\nlang: fr\n",          # broken YAML: its lang: line still reads
    "\x00\xff garbage lang: en\n",        # binary: no lang line, the locale decides
    "lang: fr\n" + "x" * 200_000,         # huge
    "  lang: en\nplayers:\n  lang: en\n",  # indented: not the campaign's key
])
def test_help_works_whatever_campaign_yaml_holds(env, tmp_path, content):
    env.setenv("LANG", "fr_FR")
    (tmp_path / "campaign.yaml").write_bytes(content.encode("utf-8", "surrogateescape"))
    r = run("--help")
    assert r.exit_code == 0 and lines(r)[0] == "Utilisation : pbp [OPTIONS] COMMANDE [ARGS]..."
    assert run("run", "--help").exit_code == 0


def test_help_in_a_folder_whose_campaign_yaml_is_broken_says_english_when_it_says_so(env, tmp_path):
    (tmp_path / "campaign.yaml").write_text("ruleset: manhunt\nlang: en\nplayers: {lucy: [\n")
    env.setenv("LANG", "fr_FR")
    r = run("status", "--help")
    assert r.exit_code == 0 and lines(r)[0] == "Usage: pbp status [OPTIONS]"


def test_campaign_yaml_that_is_not_a_file_is_not_read(env, tmp_path):
    (tmp_path / "campaign.yaml").mkdir()
    assert run("--help").exit_code == 0
    os.rmdir(tmp_path / "campaign.yaml")
    os.mkfifo(tmp_path / "campaign.yaml")  # reading it would wait for a writer forever
    assert local_help.campaign_lang(str(tmp_path)) is None
    assert run("--help").exit_code == 0
    assert local_help.campaign_lang("no\x00such") is None


def test_folder_in_reads_c_before_the_command_only():
    assert local_help.folder_in(["-C", "a", "run"]) == "a"
    assert local_help.folder_in(["-Ca", "run"]) == "a"
    assert local_help.folder_in(["--help", "-C", "a"]) == "a"
    assert local_help.folder_in(["run", "-C", "a"]) is None
    assert local_help.folder_in(["-C"]) is None and local_help.folder_in([]) is None


def test_the_real_entry_point_speaks_the_campaign_language(tmp_path):
    write(tmp_path, "campaign.yaml", "ruleset: toy\nlang: fr\n")
    environment = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    console_script = Path(sys.executable).parent / "pbp"
    r = subprocess.run([str(console_script), "-C", str(tmp_path), "orders", "--help"], capture_output=True,
                       text=True, env=environment, cwd=REPO, timeout=60)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "Utilisation : pbp orders [OPTIONS] COMMANDE [ARGS]..."
    assert "  --write         L'écrit dans turns/NNN/orders/<pseudo>.yaml." in r.stdout


# -- usage errors (exit 2) --------------------------------------------------------------

@pytest.mark.parametrize("args, fr, en", [
    (["post", "--tur", "3"], "Erreur : option inconnue « --tur ». Vouliez-vous dire « --turn » ?",
     "Error: no such option `--tur`. Did you mean `--turn`?"),
    (["receipt"], "Erreur : il manque l'option « --player ».", "Error: missing option `--player`."),
    (["pst"], "Erreur : commande inconnue « pst ». Vouliez-vous dire « post » ?",
     "Error: no such command `pst`. Did you mean `post`?"),
    (["post", "--format", "html"], "Erreur : valeur invalide pour « --format ». Valeurs possibles : bbcode, markdown.",
     "Error: invalid value for `--format`. Valid values: bbcode, markdown."),
    (["check", "--turn", "deux"], "Erreur : « --turn » attend un nombre entier, x>=0.",
     "Error: `--turn` expects a whole number, x>=0."),
    (["check", "--turn", "-1"], "Erreur : « --turn » attend un nombre entier, x>=0.",
     "Error: `--turn` expects a whole number, x>=0."),
    (["undo", "--to", "-1"], "Erreur : « --to » attend un nombre entier, x>=0.",
     "Error: `--to` expects a whole number, x>=0."),
    (["preview", "--output", "."], "Erreur : valeur invalide pour « --output » : « . » est un dossier : donnez un fichier.",
     "Error: invalid value for `--output`: `.` is a folder: give a file."),
    (["check", "x", "y"], "Erreur : arguments en trop : x, y.", "Error: unexpected extra arguments: x, y."),
    (["roll"], "Erreur : il manque l'argument EXPR.", "Error: missing argument EXPR."),
    (["post", "--player", "lucy", "--gm"], "Erreur : --player et --gm s'excluent : l'un ou l'autre.",
     "Error: --player and --gm exclude each other."),
    (["odds", "1d6", "--ge", "2", "--le", "5"],
     "Erreur : donnez EXPR (toutes ses valeurs), EXPR avec une seule de --ge/--gt/--le/--lt/--eq, ou EXPR --vs EXPR2, "
     "ou --rule.",
     "Error: give EXPR (all its totals), EXPR with one of --ge/--gt/--le/--lt/--eq, or EXPR --vs EXPR2, or --rule."),
])
def test_usage_errors_in_both_languages(env, args, fr, en):
    env.setenv("PBP_LANG", "fr")
    r = run(*args)
    assert r.exit_code == 2 and r.stdout == ""
    err = r.stderr.splitlines()
    assert err[-1] == fr
    assert err[0].startswith("Utilisation : pbp ")
    assert err[1] == f"Essayez « {' '.join(['pbp'] + args[:1] if args[0] != 'pst' else ['pbp'])} --help » pour l'aide."
    env.setenv("PBP_LANG", "en")
    r = run(*args)
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == en
    assert r.stderr.splitlines()[0].startswith("Usage: pbp ")


def test_a_campaign_folder_that_is_a_file_is_refused_in_the_mjs_language(env, tmp_path):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    env.setenv("PBP_LANG", "fr")
    r = run("-C", "notes.txt", "status")  # env: in tmp_path
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == (
        "Erreur : valeur invalide pour « -C » : « notes.txt » est un fichier : donnez un dossier.")
    r = run("-C", "absent", "status")  # a folder that does not exist: the command says so
    assert r.exit_code == 1 and "absent" in r.stderr


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_command_fits_its_line_in_pbp_help(env, lang):
    env.setenv("PBP_LANG", lang)
    out = lines(run("--help"))
    commands = out[out.index({"fr": "Commandes :", "en": "Commands:"}[lang]) + 1:]
    assert len(commands) >= 14 and not [line for line in commands if line.endswith("...")]


def test_no_arguments_shows_the_help(env):
    env.setenv("PBP_LANG", "fr")
    r = run()
    assert lines(r)[0] == "Utilisation : pbp [OPTIONS] COMMANDE [ARGS]..."


# -- every command, every option, both languages -------------------------------------------

def tree():
    """(command, is_root, context) for pbp, its commands, and every ruleset's commands."""
    root_ctx = click.Context(main, info_name="pbp")
    yield main, True, root_ctx
    for name in main.list_commands(root_ctx):
        command = main.get_command(root_ctx, name)
        yield command, False, click.Context(command, parent=root_ctx, info_name=name)
    for rid in ruleset.ids():
        cls = ruleset.with_commands(rid)
        if cls is None:
            continue
        group = RulesetCommands(cls)
        group_ctx = click.Context(group, parent=root_ctx, info_name=rid)
        yield group, False, group_ctx
        for name, command in group.commands.items():
            yield command, False, click.Context(command, parent=group_ctx, info_name=name)


def test_every_command_and_option_has_a_help_in_french_and_english():
    missing = []
    count = 0
    for command, root, ctx in tree():
        assert isinstance(command, local_help.LocalHelp), command.name
        keys = [[local_help.command_key(command, root)]]
        keys += [local_help.option_keys(command, p, root) for p in command.get_params(ctx)
                 if isinstance(p, click.Option)]
        for candidates in keys:
            count += 1
            found = next((k for k in candidates if i18n.has(k)), None)
            texts = i18n._catalog.get(found) or {}
            if not (texts.get("fr") and texts.get("en")):
                missing.append(f"{ctx.command_path}: {candidates[0]}")
    assert count > 80  # the walk saw the whole tree
    assert missing == []


def test_every_help_page_in_french_has_no_english_click_word(env):
    env.setenv("PBP_LANG", "fr")
    english = ("Usage:", "Options:", "Commands:", "Show this message", "[required]", "default:", "TEXT ",
               "INTEGER")
    for command, root, ctx in tree():
        path = ctx.command_path.split()[1:]
        out = run(*path, "--help").output
        assert out.startswith("Utilisation : pbp"), path
        assert not [w for w in english if w in out], (path, out)


# -- the catalogue reader --------------------------------------------------------------------

def test_the_plain_reader_reads_every_messages_file_as_yaml_does():
    for path in [REPO / "pbp/messages.yaml", *map(Path, glob.glob(str(REPO / "pbp/rulesets/*/messages.yaml")))]:
        text = path.read_text(encoding="utf-8")
        plain = i18n.read_plain(text)
        assert plain is not None, path  # pbp's own files stay plain: --help does not import PyYAML
        assert plain == yaml.safe_load(text), path


@pytest.mark.parametrize("text", [
    "a:\n  fr: 'single quoted'\n",
    "a:\n  fr: \"x\"  # comment\n",
    "a:\n  fr: \"\\x41\"\n",          # an escape the plain reader leaves to YAML
    "a:\n  fr: \"\\u00e9\"\n",
    "a:\n  fr: \"x\\\"\n",           # the closing quote escaped
    "a:\n  fr: \"x\" \"y\"\n",
    "a:\n  fr: \"x\"\na:\n  en: \"y\"\n",
    "  fr: \"orphan\"\n",
    "a: {fr: x}\n",
])
def test_the_plain_reader_leaves_anything_else_to_yaml(text):
    assert i18n.read_plain(text) is None


def test_the_plain_reader_unescapes_as_yaml_does():
    text = 'a:\n  fr: "dit \\"oui\\" \\\\ a/b\\nfin\\t."\n  en: "x"\n'
    assert i18n.read_plain(text) == yaml.safe_load(text) == {"a": {"fr": 'dit "oui" \\ a/b\nfin\t.', "en": "x"}}


def test_pbp_help_does_not_import_yaml(tmp_path):
    code = "import sys; from pbp.cli import main\ntry: main(['--help'])\nexcept SystemExit: pass\n" \
           "print('yaml' in sys.modules, 'jinja2' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                       env={**os.environ, "PBP_LANG": "fr"})
    assert r.stdout.splitlines()[-1] == "False False"


def test_a_mistyped_command_gets_a_suggestion(env):
    """pbp's commands are loaded when used: the suggestion comes from all their names."""
    env.setenv("PBP_LANG", "fr")
    r = run("stauts")
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == \
        "Erreur : commande inconnue « stauts ». Vouliez-vous dire « status » ?"
    assert run("orders", "improt").stderr.splitlines()[-1] == \
        "Erreur : commande inconnue « improt ». Vouliez-vous dire « import » ?"
    assert run("zzz").stderr.splitlines()[-1] == "Erreur : commande inconnue « zzz »."
    env.setenv("PBP_LANG", "en")
    assert run("chekc").stderr.splitlines()[-1] == "Error: no such command `chekc`. Did you mean `check`?"


def test_inside_a_campaigns_folder_pbp_says_where_the_campaign_is_in_its_language(env, tmp_path):
    env.setenv("LANG", "C.UTF-8")
    write(tmp_path / "camp", "campaign.yaml", "ruleset: toy\ntitle: Essai\nlang: fr\n")
    (tmp_path / "camp" / "turns" / "006").mkdir(parents=True)
    env.chdir(tmp_path / "camp" / "turns" / "006")
    r = run("status")
    assert r.exit_code == 1 and r.stderr.splitlines() == [
        f"campaign.yaml: pas de campagne ici (campaign.yaml absent) : vous êtes dans la campagne de "
        f"{tmp_path / 'camp'}. Lancez pbp depuis ce dossier, ou avec « -C {tmp_path / 'camp'} »."]
    assert lines(run("check", "--help"))[0] == "Utilisation : pbp check [OPTIONS]"
