"""Hostile order files, through the real CLI on a copy of an example campaign.

Every one ends with exit 1, a message naming the file (and line) and the limit
or what would be valid, no traceback nor internal error, and the campaign
folder byte-identical: `pbp check` and `pbp run` both.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import stat
from contextlib import contextmanager
from pathlib import Path

import pytest

from pbp.base import yamlio
from tests.helpers import copy_example, pbp

LUCY = "turns/004/orders/lucy.yaml"
HEAD = "player: lucy\nturn: 4\n"


@pytest.fixture
def camp(tmp_path):
    return copy_example("manhunt", tmp_path)


def snapshot(root: Path) -> dict:
    """Every entry of the folder: a regular file by its hash, anything else by
    its kind (a FIFO is never opened) and a link by its target."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            mode = os.lstat(path).st_mode
            rel = str(path.relative_to(root))
            if stat.S_ISLNK(mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                found[rel] = ("dir" if stat.S_ISDIR(mode) else "special", stat.S_IFMT(mode))
    return found


@contextmanager
def no_hang(seconds=60):
    """A read that blocks (a FIFO opened the plain way) fails the test instead of
    hanging the suite. Not a speed check: a correct run ends at once."""
    def hung(signum, frame):
        raise AssertionError("pbp blocked")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def refused(camp: Path, *expected: str, commands=(("check",), ("run", "--no-commit"))) -> str:
    """Runs each command; every expected line must be in its error output."""
    before = snapshot(camp)
    err = ""
    for command in commands:
        with no_hang():
            r = pbp(*command, cwd=camp)
        assert r.exit_code == 1, r.output
        assert "Traceback" not in r.output
        assert "Erreur interne" not in r.output and "internal error" not in r.output, r.output
        lines = r.stderr.splitlines()
        for line in expected:
            assert line in lines, r.stderr
        assert snapshot(camp) == before
        err = r.stderr
    assert not (camp / "turns/004/state.yaml").exists()
    return err


def orders(camp: Path, content: bytes | str, name: str = LUCY) -> Path:
    path = camp / name
    path.unlink(missing_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def english(camp: Path) -> None:
    config = camp / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")


def billion_laughs(target: str) -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 9):
        name, previous = chr(97 + i), chr(96 + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    return "\n".join(lines) + "\n" + target + "\n"


ALIAS_FR = ("l'usage ; écrivez chaque valeur en entier (un texte qui commence par « * » ou « & » "
            "se met entre guillemets).")


# -- YAML a player has no use for ----------------------------------------------------

@pytest.mark.parametrize("target", ["player: *i\nturn: 4", "player: lucy\nturn: *i",
                                    "player: lucy\nturn: 4\nactions:\n  - deplacement_normal: *i"])
def test_billion_laughs_is_refused_at_its_first_anchor(camp, target):
    orders(camp, billion_laughs(target))
    refused(camp, f"{LUCY}:1: ancre ou alias YAML (« &nom », « *nom ») refusé : les joueurs n'en ont pas " + ALIAS_FR)


def test_an_alias_in_an_argument_is_refused_on_its_line_in_english(camp):
    english(camp)
    orders(camp, HEAD + "actions:\n  - deplacement_normal: est\n  - fouille: *x\n")
    refused(camp, f"{LUCY}:5: YAML anchor or alias (`&name`, `*name`) refused: players have no use for them; "
                  "write each value out in full (put a text starting with `*` or `&` in quotes).")


def test_a_tag_is_refused_and_named(camp):
    orders(camp, HEAD + "actions:\n  - !!python/object:os.system deplacement_normal\n")
    refused(camp, f"{LUCY}:4: étiquette YAML « tag:yaml.org,2002:python/object:os.system » refusée : les joueurs "
                  "n'en ont pas l'usage ; écrivez la valeur seule (un texte qui commence par « ! » se met entre "
                  "guillemets).")


def test_duplicate_keys_non_scalar_keys_and_extra_documents(camp):
    orders(camp, HEAD + "actions: []\nplayer: bob\n")
    refused(camp, f"{LUCY}:4: clé « player » en double (déjà ligne 1) : gardez-en une seule.")
    orders(camp, HEAD + "? [a, b]\n: c\n")
    refused(camp, f"{LUCY}:3: une clé est un mot ou un nombre, pas une liste ni un dictionnaire.")
    orders(camp, HEAD + "actions: []\n---\nplayer: lucy\n")
    refused(camp, f"{LUCY}:4: un seul document YAML par fichier : retirez cette ligne « --- » et ce qui la suit.")


# -- sizes -------------------------------------------------------------------------------

def test_brackets_beyond_the_file_limit_are_refused_unread(camp):
    orders(camp, HEAD + "actions: " + "[" * 100_000 + "]" * 100_000 + "\n")
    refused(camp, f"{LUCY}: fichier trop gros : 200031 octets, au plus 65536 (limite « order_file_bytes »).")


def test_deep_nesting_within_the_file_limit_is_refused_before_parsing_further(camp):
    orders(camp, HEAD + "actions: " + "[" * 30_000 + "]" * 30_000 + "\n")
    refused(camp, f"{LUCY}:3: imbrication trop profonde : plus de 20 niveaux de listes et de dictionnaires les uns "
                  "dans les autres (limite « depth »).")


def test_a_10000_deep_argument_is_refused_in_english(camp):
    english(camp)
    orders(camp, HEAD + "actions:\n  - deplacement_normal: " + "[" * 10_000 + "]" * 10_000 + "\n")
    refused(camp, f"{LUCY}:4: nested too deep: more than 20 levels of lists and mappings inside each other "
                  "(limit `depth`).")


def test_a_5000_digit_integer_names_file_line_and_limit(camp):
    orders(camp, "player: lucy\nturn: " + "9" * 5000 + "\nactions: []\n")
    refused(camp, f"{LUCY}:2: nombre entier de 5000 chiffres : au plus 18 (limite « integer_digits »).")


def test_a_10_mb_roleplay_is_not_read_whole(camp):
    orders(camp, HEAD + "actions: []\nroleplay: " + "x" * 10_000_000 + "\n")
    refused(camp, f"{LUCY}: fichier trop gros : 10000044 octets, au plus 65536 (limite « order_file_bytes »).")


def test_a_long_roleplay_and_a_long_argument_name_the_limit(camp):
    orders(camp, HEAD + "actions:\n  - deplacement_normal: est\nroleplay: " + "x" * 30_000 + "\n")
    refused(camp, f"{LUCY}:5: roleplay de 30000 caractères : au plus 20000 (limite « roleplay_chars »).")
    orders(camp, HEAD + "actions:\n  - deplacement_normal: " + "n" * 300 + "\n  - " + "f" * 201 + "\n")
    refused(camp, f"{LUCY}:4: texte de 300 caractères : au plus 200 ici (limite « text_chars » ; seuls le roleplay "
                  "et les textes libres peuvent être longs).",
            f"{LUCY}:5: texte de 201 caractères : au plus 200 ici (limite « text_chars » ; seuls le roleplay "
            "et les textes libres peuvent être longs).")


def test_a_free_text_argument_may_be_as_long_as_a_roleplay(tmp_path):
    """d100's `but` (what a check is for) is the player's prose: `prose: true` in
    the ruleset's data gives it the roleplay's limit, not a name's."""
    d100 = copy_example("d100", tmp_path)
    kira = "turns/004/orders/kira.yaml"
    text = (d100 / kira).read_text(encoding="utf-8")
    (d100 / kira).write_text(text.replace("but: convaincre", "but: " + "x" * 1500 + " convaincre"),
                             encoding="utf-8")
    assert pbp("check", cwd=d100).exit_code == 0
    (d100 / kira).write_text(text.replace("but: convaincre l'officier de garde de baisser son arme",
                                          "but: " + "x" * 25_000), encoding="utf-8")
    refused(d100, f"{kira}:9: texte libre de 25000 caractères : au plus 20000 (limite « roleplay_chars »).")
    (d100 / kira).write_text(text.replace("competence: persuasion", "competence: " + "x" * 300), encoding="utf-8")
    refused(d100, f"{kira}:6: texte de 300 caractères : au plus 200 ici (limite « text_chars » ; seuls le roleplay "
                  "et les textes libres peuvent être longs).")


def test_a_campaign_sets_its_own_limits(camp):
    config = camp / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "limits:\n  roleplay_chars: 40\n", encoding="utf-8")
    refused(camp, "turns/004/orders/johannes.yaml:5: roleplay de 67 caractères : au plus 40 (limite « roleplay_chars »).")


def test_an_unknown_limit_is_refused_with_a_suggestion(camp):
    config = camp / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "limits:\n  roleplay_char: 40\n", encoding="utf-8")
    refused(camp, "campaign.yaml:15: limite inconnue « roleplay_char ». Vouliez-vous dire « roleplay_chars » ? "
                  "Valeurs possibles : order_file_bytes, roleplay_chars, text_chars, depth, integer_digits, "
                  "gm_file_bytes, post_chars.")
    config.write_text(config.read_text(encoding="utf-8").replace("roleplay_char: 40", "depth: oui"), encoding="utf-8")
    refused(camp, "campaign.yaml:15: la limite « depth » est un nombre entier d'au moins 1, pas « oui ».")


def test_4000_repeated_actions_are_each_placed_on_their_line(camp):
    orders(camp, HEAD + "actions:\n" + "  - fouille\n" * 4000)
    err = refused(camp, commands=(("check",),))
    assert err.splitlines() == [f"{LUCY}:4003: ces actions coûtent 8000 points ; 2 au plus par tour."] + [
        f"{LUCY}:{line}: « fouille » ne peut être fait qu'une fois par tour." for line in range(5, 4004)]


# -- text encodings -----------------------------------------------------------------------

def test_empty_and_comment_only_files(camp):
    orders(camp, b"")
    refused(camp, f"{LUCY}: fichier d'ordres vide : il faut au moins « player », « turn » et « actions ».")
    orders(camp, b"# rien\n\n")
    refused(camp, f"{LUCY}: fichier d'ordres vide : il faut au moins « player », « turn » et « actions ».")


def test_invalid_utf8_names_its_line(camp):
    # half UTF-8, half Windows-1252: no one reading (a Windows-1252 file alone is read, with a note)
    orders(camp, HEAD.encode() + b"actions: []\nroleplay: caf\xc3\xa9 ou caf\xe9\n")
    refused(camp, f"{LUCY}:4: le fichier n'est pas en UTF-8 ; enregistrez-le en UTF-8.")


def test_a_bom_and_crlf_line_ends_are_accepted(camp):
    path = camp / LUCY
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    r = pbp("check", cwd=camp)
    assert r.exit_code == 0, r.output
    assert "lucy (1 action)" in r.output and r.output.startswith("Valides (")


def test_escape_sequences_in_an_unknown_action_are_shown_escaped(camp):
    orders(camp, HEAD + 'actions:\n  - "\\e[2J\\e]0;pwned\\afouile\\u202e"\n')
    err = refused(camp, f"{LUCY}:4: action inconnue « \\x1b[2J\\x1b]0;pwned\\x07fouile\\u202e ». "
                        "Valeurs possibles : deplacement_normal, deplacement_rapide, fuite, repos, "
                        "combat, tir, utilisation_equipement, revetir_armure, recherche_pieges, fouille, se_cacher, "
                        "jeter.")
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err


def test_a_control_character_in_a_file_name_is_shown_escaped(camp):
    orders(camp, HEAD + "actions: []\n", name="turns/004/orders/\x1b[2Jzoe.yaml")
    err = refused(camp, "turns/004/orders/\\x1b[2Jzoe.yaml: « \\x1b[2Jzoe » n'est pas dans la liste des joueurs "
                        "(campaign.yaml, players). Valeurs possibles : lucy, johannes, ysolde, corbin.")
    assert "\x1b" not in err


# -- what is in orders/ --------------------------------------------------------------------

def test_a_fifo_is_refused_by_name_without_blocking(camp):
    (camp / LUCY).unlink()
    os.mkfifo(camp / LUCY)
    refused(camp, f"{LUCY}: c'est un tube nommé (FIFO), pas un fichier : pbp ne le lit pas. Remplacez-le par un vrai "
                  "fichier.")


def test_a_fifo_gm_yaml_is_refused_in_english(camp):
    english(camp)
    os.mkfifo(camp / "turns/004/gm.yaml")
    refused(camp, "turns/004/gm.yaml: this is a named pipe (FIFO), not a file: pbp does not read it. Replace it with "
                  "a real file.")


def test_a_directory_named_like_an_order_file(camp):
    (camp / LUCY).unlink()
    (camp / LUCY).mkdir()
    refused(camp, f"{LUCY}: c'est un dossier, pas un fichier d'ordres : retirez-le du dossier orders/.")


def test_a_socket_is_refused_by_name(camp, tmp_path):
    (camp / LUCY).unlink()
    cwd = os.getcwd()
    os.chdir(camp / "turns/004/orders")  # a socket path must be short
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind("lucy.yaml")
            os.chdir(cwd)
            refused(camp, f"{LUCY}: c'est une socket, pas un fichier : pbp ne la lit pas.")
    finally:
        os.chdir(cwd)


def test_a_link_outside_the_campaign_is_not_followed_and_its_keys_not_echoed(camp, tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("mot_de_passe_du_mj: hunter2\n", encoding="utf-8")
    (camp / LUCY).unlink()
    (camp / LUCY).symlink_to(outside)
    err = refused(camp, f"{LUCY}: lien symbolique qui mène hors du dossier de la campagne : pbp ne le suit pas. "
                        "Copiez-y le fichier lui-même.")
    assert "mot_de_passe" not in err and "hunter2" not in err
    (camp / LUCY).unlink()
    (camp / LUCY).symlink_to("/dev/zero")
    refused(camp, f"{LUCY}: lien symbolique qui mène hors du dossier de la campagne : pbp ne le suit pas. "
                  "Copiez-y le fichier lui-même.")


def test_a_link_loop_and_a_broken_link(camp):
    (camp / LUCY).unlink()
    (camp / LUCY).symlink_to("lucy.yaml")
    refused(camp, f"{LUCY}: lien symbolique qui boucle sur lui-même : pbp ne peut pas le lire.")
    (camp / LUCY).unlink()
    (camp / LUCY).symlink_to("absent.yaml")
    refused(camp, f"{LUCY}: lien symbolique vers un fichier qui n'existe pas.")


def test_a_link_inside_the_campaign_is_read(camp):
    kept = camp / "turns/004/lucy-orders.txt"
    (camp / LUCY).rename(kept)
    (camp / LUCY).symlink_to("../lucy-orders.txt")
    r = pbp("check", cwd=camp)
    assert r.exit_code == 0, r.output
    assert "lucy (1 action)" in r.output and r.output.startswith("Valides (")


def test_an_unreadable_file_is_refused_by_name(camp, monkeypatch):
    # the tests may run as root, who reads any file: refuse the open instead
    real_open = os.open

    def deny(path, flags, *args, **kwargs):
        if str(path).endswith("orders/lucy.yaml"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    refused(camp, f"{LUCY}: lecture impossible : Permission denied.")


def test_names_that_are_not_handle_yaml_keep_their_message_and_hidden_files_stay_ignored(camp):
    (camp / "turns/004/orders/.lucy.yaml.swp").write_bytes(b"\x00\xff binary editor state")
    assert pbp("check", cwd=camp).exit_code == 0
    orders(camp, (camp / LUCY).read_bytes(), name="turns/004/orders/lucy.yaml~")
    orders(camp, b"hello", name="turns/004/orders/lucy.txt")
    refused(camp, "turns/004/orders/lucy.yaml~: une copie de sauvegarde d'éditeur, pas un fichier d'ordres (pbp ne "
                  "lit que <pseudo>.yaml) : supprimez-la ou sortez-la du dossier orders/.",
            "turns/004/orders/lucy.txt: les ordres doivent être dans un fichier <pseudo>.yaml.")


def test_gm_yaml_refuses_aliases_and_places_its_refusals(camp):
    (camp / "turns/004/gm.yaml").write_text("turn: 4\nnarration: &n texte\nrolls: *n\n", encoding="utf-8")
    refused(camp, "turns/004/gm.yaml:2: ancre ou alias YAML (« &nom », « *nom ») : pbp ne les lit pas dans les "
                  "fichiers de campagne ; écrivez chaque valeur en entier (un texte qui commence par « * » ou « & » "
                  "se met entre guillemets).")
    (camp / "turns/004/gm.yaml").write_text("tour: 5\njets: 3\n", encoding="utf-8")
    refused(camp, "turns/004/gm.yaml:1: ordres pour le tour 5, mais c'est le tour 4 qui se joue.",
            "turns/004/gm.yaml:2: « rolls » associe des étiquettes de jets à des valeurs (lucy.fouille.table: 12).")


# -- the loader itself -----------------------------------------------------------------------

SAMPLES = [
    "player: lucy\nturn: 4\nactions:\n  - deplacement_normal: nord\n  - {jet: {carac: physique}}\nroleplay: |\n  x\n",
    "a: [1, -2, 0x1F, 0o7, 017, 1_000, 1:30, +5]\nb: [1.5, .inf, -.Inf, 1e3, 6.8523015e+5]\n",
    "a: [yes, No, on, off, true, ~, null, '', \"\"]\nb: 2024-01-31\nc: 2024-01-31 10:00:00\n",
    "? a\n: b\n'3': x\n3: y\nnull: z\n",
    "- - - deep\n    - x\n- {}\n- []\n",
    "--- plain\n...\n",
    "a: \"\\t\\u00e9\"\nb: 'it''s'\nc: >\n  folded\n  text\n",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_the_untrusted_loader_reads_what_the_safe_loader_reads(text):
    """PyYAML's own safe loader, not pbp's reader again (issue 25: this test used to
    compare pbp's reader with itself); tests/test_yaml_reader.py draws many more."""
    import yaml

    value, _ = yamlio.load_untrusted(text.encode(), "f.yaml")
    assert value == yaml.safe_load(text) == yamlio.loads(text)


def test_lines_place_fields_inside_an_action_and_spelled_differently():
    from pbp.model.orders import normalize_id

    text = ("player: lucy\nturn: 1\nactions:\n  - jet:\n      Compétence: blaster\n      carac: physique\n"
            "  - sort: {sort: soin, cible: aria}\n  - deplacement_normal: nord\n")
    _, lines = yamlio.load_untrusted(text, "f.yaml", normalize=normalize_id)
    assert [lines.line(p) for p in [(), ("turn",), ("actions",), ("actions", 0), ("actions", 0, "competence"),
                                    ("actions", 0, "carac"), ("actions", 0, "jet", "carac"), ("actions", 1, "sort"),
                                    ("actions", 2, "cible"), ("actions", 7), ("nothing",)]] == \
        [1, 2, 3, 4, 5, 6, 6, 7, 8, 3, 1]


def test_line_of_builds_a_text_index_once():
    text = "a: 1\nb:\n  c: [x, y]\n"
    assert yamlio.line_of(text, ("b", "c", 1)) == 3
    assert yamlio.lines_of(text) is yamlio.lines_of(text)
    assert yamlio.line_of("a: &x {b: 1}\nc: *x\n? [1]\n: 2\nd: 4\n", ("d",)) == 5  # the MJ's YAML may use them
