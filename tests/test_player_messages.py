"""What players read of their orders (issue 23): receipts without the MJ's paths or
invisible characters ("line 6 of your orders", or nothing after a private message),
YAML mistakes explained in the campaign's language at the right line with how to fix
the two common ones, and a Windows-1252 file read with a note. Through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import main

from tests.helpers import copy_example, pbp


def _campaign(tmp_path: Path, lang: str) -> Path:
    root = copy_example("manhunt", tmp_path / lang)
    for old in (root / "turns/004/orders").iterdir():
        old.unlink()
    if lang == "en":
        config = root / "campaign.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    return root


def _orders(root: Path, player: str, content: bytes | str) -> None:
    path = root / "turns/004/orders" / f"{player}.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


@pytest.fixture
def fr(tmp_path):
    return _campaign(tmp_path, "fr")


@pytest.fixture
def en(tmp_path):
    return _campaign(tmp_path, "en")


TOO_MANY = "player: lucy\nturn: 4\nactions:\n  - fouille\n  - repos\n"


@pytest.mark.parametrize("lang, said", [
    ("fr", "[*]ligne 5 de vos ordres : ces actions coûtent 4 points ; 2 au plus par tour.\n"),
    ("en", "[*]line 5 of your orders: these actions cost 4 points; 2 at most a turn.\n"),
])
def test_a_receipt_names_the_line_of_your_orders_never_the_mj_s_path(tmp_path, lang, said):
    root = _campaign(tmp_path, lang)
    _orders(root, "lucy", TOO_MANY)
    r = pbp("receipt", "--player", "lucy", cwd=root)
    assert said in r.output
    assert "turns/" not in r.output and "\u2060" not in r.output


def test_a_receipt_after_a_private_message_names_no_line(fr, en):
    for root, said in ((fr, "[*]Ces actions coûtent 4 points ; 2 au plus par tour.\n"),
                       (en, "[*]These actions cost 4 points; 2 at most a turn.\n")):
        r = CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "lucy", "--write"],
                               input="Je fouille puis je me repose.")
        assert said in r.output and "turns/" not in r.output.split("\n\n", 2)[-1]
        assert "\u2060" not in r.output
        receipt = pbp("receipt", "--player", "lucy", cwd=root)
        assert said in receipt.output and "turns/" not in receipt.output and "\u2060" not in receipt.output


UNINDENTED = "player: johannes\nturn: 4\nactions:\n  - se_cacher\nroleplay: |\nJohannes se tapit dans l'ombre.\n"
EMOTE = "player: ysolde\nturn: 4\nactions:\n  - se_cacher\nroleplay: *nerveusement* elle se cache.\n"


def test_yaml_mistakes_explained_at_their_line_in_the_campaign_language(fr, en):
    for root in (fr, en):
        _orders(root, "johannes", UNINDENTED)
        _orders(root, "ysolde", EMOTE)
    r = pbp("check", cwd=fr)
    assert r.exit_code == 1
    assert ("turns/004/orders/johannes.yaml:6: YAML invalide : le texte sous « roleplay: | » doit être indenté. "
            "Mettez deux espaces au début de chacune de ses lignes, à partir de celle-ci.") in r.stderr
    assert ("turns/004/orders/ysolde.yaml:5: YAML invalide : un texte qui commence par « * », « & », « ! », « % », "
            "« @ » ou « ` » doit être entre guillemets") in r.stderr
    assert "could not find" not in r.stderr and "did not find" not in r.stderr
    r = pbp("check", cwd=en)
    assert ("turns/004/orders/johannes.yaml:6: invalid YAML: the text under `roleplay: |` must be indented. "
            "Put two spaces at the start of each of its lines, from this one on.") in r.stderr
    assert ("turns/004/orders/ysolde.yaml:5: invalid YAML: a text starting with `*`, `&`, `!`, `%`, `@` or a "
            "backquote must be in quotes") in r.stderr
    receipt = pbp("receipt", "--player", "johannes", cwd=en)
    assert "[*]line 6 of your orders: invalid YAML: the text under `roleplay: |` must be indented." in receipt.output


def test_an_unknown_yaml_mistake_is_said_in_french_within_the_file(fr):
    _orders(fr, "ysolde", "player: ysolde\nturn: 4\nactions:\n  - fouille: [x\n")
    r = pbp("check", cwd=fr)
    assert ("turns/004/orders/ysolde.yaml:4: YAML invalide à cette ligne (le lecteur n'a pas pu la lire). "
            "Vérifiez l'indentation, les deux-points et les tirets.") in r.stderr


def test_a_windows_1252_file_is_read_with_a_note_and_its_problems_said_in_one_pass(fr):
    _orders(fr, "corbin", "player: corbin\nturn: 4\nactions:\n  - se_cacher\nroleplay: |\n"
                          "  Corbin se glisse à l’abri, «\u00a0sans un bruit\u00a0».\n".encode("cp1252"))
    _orders(fr, "ysolde", "player: ysolde\nturn: 4\nactions:\n  - se_planquér\n".encode("cp1252"))
    r = pbp("check", cwd=fr)
    assert ("turns/004/orders/corbin.yaml:6: note : le fichier n'est pas en UTF-8 ; lu en Windows-1252") in r.stderr
    assert "Valides (1) : corbin (1 action)" in r.stdout
    assert "turns/004/orders/ysolde.yaml:4: action inconnue « se_planquér »" in r.stderr
    receipt = pbp("receipt", "--player", "corbin", cwd=fr)
    assert "Corbin se glisse à l’abri, «\u00a0sans un bruit\u00a0»." in receipt.output


def test_a_file_half_utf8_is_not_guessed(fr):
    _orders(fr, "corbin", "player: corbin\nturn: 4\nactions:\n  - se_cacher\nroleplay: |\n  é".encode("utf-8") + b"\xe9\n")
    r = pbp("check", cwd=fr)
    assert "turns/004/orders/corbin.yaml:6: le fichier n'est pas en UTF-8 ; enregistrez-le en UTF-8." in r.stderr
