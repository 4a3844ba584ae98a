"""A rules file is a stranger's input (issue 26): huge, deeply nested, a formula
that would loop or explode, a table of a million rows, names that collide with
the language's own, YAML bombs and tags. Each is refused at its file:line (or
plays within its limits), never runs code nor reads another file. Time and
memory of each: bench/bench_hostile_rules.py."""

from __future__ import annotations

import os
import time
import tracemalloc

import pytest

from tests.helpers import pbp, write

#: a small rules file the cases below spoil: `{value}` is the amount an action adds
BASE = """\
gauges:
  hp: {{start: 10, min: 0, max: 100}}
actions:
  grow:
    effects:
      - add: {{hp: "{value}"}}
"""


@pytest.fixture(autouse=True)
def _french(monkeypatch):
    monkeypatch.setenv("PBP_LANG", "fr")  # outside a campaign: the help's language


def check(tmp_path, text: str):
    path = write(tmp_path, "rules.yaml", text)
    r = pbp("-C", tmp_path, "rules", "check", path)
    assert "Traceback" not in r.output
    return r, path


@pytest.mark.parametrize("what,text,line,said", [
    ("nested deeper than 12 levels",
     "actions:\n  a:\n    effects:\n" + "".join("  " * (i + 3) + "- if: true\n" + "  " * (i + 4) + "then:\n"
                                             for i in range(20)),
     12, "imbrication trop profonde"),
    ("a formula nested deeper than it may", BASE.format(value="abs(" * 70 + "1" + ")" * 70), 6,
     "formule trop imbriquée"),
    ("a power tower", BASE.format(value="10**10**10"), 6, "pas de puissance dans les formules"),
    ("a power tower, written with ^", BASE.format(value="10^10^10"), 6, "pas de puissance dans les formules"),
    ("dice of dice", BASE.format(value="(1d6)d6"), 6, "inattendu"),
    ("a billion dice", BASE.format(value="999999999d999999999"), 6, "au plus 1000 dés"),
    ("a die that explodes on every face", BASE.format(value="1d1!"), 6, "le dé exploserait sur toutes ses faces"),
    ("a product growing past 10^18", BASE.format(value="999999999 * " * 5 + "1"), 6, "au plus 10^18"),
    ("a table on a die of a million faces",
     "tables:\n  t:\n    dice: 1d1000000\n    rows:\n      - {roll: 1-1000000, v: 1}\n" + BASE.format(value="1"), 3,
     "1d1000000"),
    ("a table of more rows than allowed",
     "tables:\n  t:\n    rows:\n" + "      - {v: 1}\n" * 1001 + BASE.format(value="1"), 3, "1000"),
    ("a stat called name", "stats:\n  name: {default: 1}\n" + BASE.format(value="1"), 2,
     "« name » ne peut pas être un de vos noms : c'est un nom que pbp donne lui-même"),
    ("a gauge called target", BASE.format(value="1").replace("  hp:", "  target: {start: 1}\n  hp:"), 2,
     "« target » ne peut pas être un de vos noms"),
    ("a table called turn", "tables:\n  turn:\n    rows: [{v: 1}]\n" + BASE.format(value="1"), 2,
     "« turn » ne peut pas être un de vos noms"),
    ("a Python dunder", "stats:\n  __class__: {default: 1}\n" + BASE.format(value="__class__"), 2,
     "« __class__ » ne peut pas être un de vos noms : c'est un nom réservé"),
    ("a billion laughs", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" + BASE.format(value="1"), 1, "ancre ou alias YAML"),
    ("a merge key", "base: &base {start: 1}\ngauges:\n  hp:\n    <<: *base\n" + BASE.format(value="1")[7:], 1,
     "ancre ou alias YAML"),
    ("a message that is a list", BASE.format(value="1") + "      - say: [1]\n", 7,
     "un message est un texte, `{fr: ..., en: ...}`"),
    ("a table named by a mapping, in a branch",
     BASE.format(value="1") + "      - if: true\n        else:\n          - roll: {}\n", 9,
     "« {} » n'est pas dans `tables`"),
    ("a check named by a list, in a branch",
     BASE.format(value="1") + "      - if: true\n        then:\n          - check: [risk]\n", 9,
     "n'est pas dans `checks`"),
])
def test_a_hostile_rules_file_is_refused_at_its_line(tmp_path, what, text, line, said):
    r, path = check(tmp_path, text)
    assert r.exit_code == 1, (what, r.output)
    assert f"{path}:{line}" in r.output, (what, r.output)
    assert said in r.output.replace("\xa0", " "), (what, r.output)


def test_a_name_that_is_a_word_of_the_formulas_plays(tmp_path):
    """`or` is gold in French: a gauge may be called so, added to and said; only a
    formula cannot read it (it joins two conditions there). A gauge called `min`
    is read by a formula as the gauge."""
    text = "jauges:\n  or: {départ: 0}\n  min: {départ: 0}\nactions:\n  miner:\n    effets:\n" \
           "      - ajouter: {or: 5, min: \"min + 1\"}\n      - dire: \"{name} a {or} pièces d'or.\"\n"
    r, _ = check(tmp_path, text)
    assert r.exit_code == 0, r.output


def test_a_python_tag_runs_nothing(tmp_path):
    text = "actions: !!python/object/apply:os.system ['touch pwned']\n"
    r, path = check(tmp_path, text)
    assert r.exit_code == 1 and f"{path}:1:" in r.output and "étiquette YAML" in r.output
    assert not any(p.name == "pwned" for p in tmp_path.rglob("*")) and not os.path.exists("pwned")


def test_a_rules_file_names_no_other_file_to_read(tmp_path):
    """A sub-table is a table of the same file, never a path: `table: /etc/passwd` is an unknown table."""
    text = "tables:\n  t:\n    dice: 1d2\n    rows:\n      - {roll: 1, table: /etc/passwd}\n      - {roll: 2}\n" \
           + BASE.format(value="1")
    r, path = check(tmp_path, text)
    assert r.exit_code == 1 and f"{path}:5:" in r.output and "/etc/passwd" in r.output
    assert "root:" not in r.output


def test_a_rules_file_of_a_gigabyte_is_refused_unread(tmp_path):
    path = tmp_path / "rules.yaml"
    with open(path, "wb") as handle:  # sparse: a gigabyte on no disk
        handle.truncate(1 << 30)
    tracemalloc.start()
    r = pbp("-C", tmp_path, "rules", "check", path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert r.exit_code == 1
    assert f"le fichier de règles fait {1 << 30} octets ; au plus 262144." in r.output.replace("\xa0", " ")
    assert peak < 200 * 1024 * 1024


def test_a_table_of_a_million_rows_is_refused_by_its_size(tmp_path):
    rows = "".join(f"      - {{roll: {i}}}\n" for i in range(1, 1_000_001))
    r, path = check(tmp_path, "tables:\n  t:\n    dice: 1d1000000\n    rows:\n" + rows + BASE.format(value="1"))
    assert r.exit_code == 1 and "au plus 262144" in r.output.replace("\xa0", " ")


@pytest.fixture
def campaign(tmp_path):
    root = tmp_path / "camp"
    write(root, "campaign.yaml", "ruleset: data\ntitle: Essai\nplayers:\n  lucy: Lucy\n  bob: Bob\n")
    write(root, "secret.yaml", "secret: s3cret\n")
    return root


def test_a_threshold_every_one_point_of_a_gauge_moved_by_a_hundred_billion_stops_at_the_limit(campaign):
    """`every: 1` crossed 10**11 times: each time counts against the 20,000 effects of a turn."""
    write(campaign, "rules.yaml", """
        gauges:
          hp:
            start: 0
            min: 0
            max: 100000000000
            thresholds:
              - every: 1
                effects: []
        actions:
          grow:
            effects:
              - add: {hp: 100000000000}
    """)
    assert pbp("setup", "--no-commit", cwd=campaign).exit_code == 0
    write(campaign, "turns/001/orders/lucy.yaml", "actions: [grow]\n")
    started = time.process_time()
    r = pbp("run", "--no-commit", cwd=campaign)
    assert time.process_time() - started < 5
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "plus de 20000 effets en un tour" in r.output.replace("\xa0", " ")
    assert not (campaign / "turns/001/state.yaml").exists()


def test_thresholds_that_set_each_other_off_stop_at_the_chain_limit(campaign):
    write(campaign, "rules.yaml", """
        gauges:
          a:
            start: 0
            thresholds:
              - every: 1
                effects: [{add: {b: 1}}]
          b:
            start: 0
            thresholds:
              - every: 1
                effects: [{add: {a: 1}}]
        actions:
          push:
            effects:
              - add: {a: 1}
    """)
    assert pbp("setup", "--no-commit", cwd=campaign).exit_code == 0
    write(campaign, "turns/001/orders/lucy.yaml", "actions: [push]\n")
    r = pbp("run", "--no-commit", cwd=campaign)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "se déclenchent l'un l'autre plus de 50 fois de suite" in r.output.replace("\xa0", " ")
