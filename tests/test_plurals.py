"""Counts agree by the language's CLDR plural rule (Babel), never "(s)" (issue 23):
French 0 and 1 singular, English 1 only; in messages, templates and through the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.base import i18n
from pbp.cli import main
from tests.helpers import REPO, copy_example, pbp


def test_the_plural_rules_are_babel_s():
    from babel.core import Locale

    for lang, rules in i18n.PLURAL_RULES.items():
        assert rules == Locale.parse(lang).plural_form.rules


def test_no_message_nor_template_says_s_in_brackets():
    found = []
    for path in [*REPO.glob("pbp/**/messages.yaml"), *REPO.glob("templates/**/*.j2")]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = re.sub(r"\{[{%#].*?[}%#]\}", "", line)  # what a template says, not its code
            if re.search(r"\w\(s\)", text):
                found.append(f"{path.relative_to(REPO)}:{n}")
    assert found == []


@pytest.mark.parametrize("lang, counts", [
    ("fr", {0: "0 problème", 1: "1 problème", 2: "2 problèmes", 1_000_000: "1000000 problèmes"}),
    ("en", {0: "0 problems", 1: "1 problem", 2: "2 problems"}),
])
def test_the_cldr_rule_of_each_language(lang, counts):
    for count, said in counts.items():
        assert i18n.t(lang, "import_check_refused", count=count).endswith(f"({said}) :" if lang == "fr"
                                                                         else f"({said}):")


def _manhunt(tmp_path: Path, lang: str) -> Path:
    root = copy_example("manhunt", tmp_path / lang)
    if lang == "en":
        config = root / "campaign.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    return root


def test_check_counts_in_french(tmp_path):
    root = _manhunt(tmp_path, "fr")
    for path in (root / "turns/004/orders").iterdir():
        path.write_text(path.read_text(encoding="utf-8").replace("actions:", "actions: 3\nx:"), encoding="utf-8")
    r = pbp("check", cwd=root)
    assert r.stdout.splitlines()[-1] == "Tour 4 : 0 valide, 4 refusés, 0 sans ordres."


@pytest.mark.parametrize("lang, said", [("fr", "pbp check refuserait ces ordres (1 problème) :"),
                                        ("en", "pbp check would refuse these orders (1 problem):")])
def test_the_import_counts_one_problem(tmp_path, lang, said):
    root = _manhunt(tmp_path, lang)
    (root / "turns/004/orders/lucy.yaml").unlink()
    r = CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "lucy"],
                           input="Je fouille puis je me repose.")
    assert said in r.stdout and "(s)" not in r.output
