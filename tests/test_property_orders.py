"""Property: whatever a player sends, pbp answers with exit 0 (valid) or a
clean error naming the file (exit 1), never a traceback, and a refused turn
leaves the campaign untouched."""

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbp.base import yamlio
from pbp.render.render import package_dir
from tests.helpers import pbp

ACTIONS = ["deplacement_normal", "deplacement_rapide", "fuite", "repos", "combat", "tir", "fouille",
           "utilisation_equipement", "revetir_armure", "recherche_pieges", "se_cacher", "jeter", "fuit", "move",
           "search", "", "nord"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.sampled_from(
    ["nord", "est", "sud", "ouest", "north", "h1", "Grimnir le Traqueur", "épée large", "lucy", "x" * 300, "[b]"]),
    st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=6)
action = st.one_of(st.sampled_from(ACTIONS), st.dictionaries(st.sampled_from(ACTIONS), values, min_size=1, max_size=2),
                   values)
order_file = st.fixed_dictionaries(
    {},
    optional={"player": st.sampled_from(["lucy", "bob", "Lucy", 3, None]),
              "turn": st.sampled_from([4, 3, 5, "4", None, -1]),
              "actions": st.one_of(st.lists(action, max_size=4), values),
              "roleplay": st.one_of(st.text(max_size=40), values),
              "joueur": values, "actoins": values})
raw_text = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(list("-:[]{}\n \t#&*!|>'\"%@`") + ["actions", "player", "turn: 4", "nord", "lucy"]),
             max_size=40).map("".join),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    root = tmp_path_factory.mktemp("prop") / "manhunt"
    shutil.copytree(package_dir("campaigns") / "manhunt", root)
    return root


def snapshot(root):
    """Every file of the campaign but the order files, with its bytes (os.walk: three
    times an attempt, where Path.rglob cost more than reading the files)."""
    files = {}
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "orders"]
        files.update((os.path.join(folder, name), Path(folder, name).read_bytes()) for name in names)
    return files


def attempt(campaign, text_or_bytes):
    path = campaign / "turns/004/orders/lucy.yaml"
    original = path.read_bytes()
    before = snapshot(campaign)
    try:
        if isinstance(text_or_bytes, bytes):
            path.write_bytes(text_or_bytes)
        else:
            path.write_text(text_or_bytes, encoding="utf-8")
        for command in ("check", "run"):
            r = pbp(command, "--dry-run" if command == "run" else "--turn", *([] if command == "run" else ["4"]),
                    cwd=campaign)
            assert r.exit_code in (0, 1), r.output
            assert "Traceback" not in r.output and "Erreur interne" not in r.output, r.output
            if r.exit_code == 1:
                assert "turns/004/orders/lucy.yaml" in r.stderr, r.stderr
            assert snapshot(campaign) == before
    finally:
        path.write_bytes(original)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order_file)
def test_random_order_files_are_accepted_or_refused_cleanly(campaign, data):
    attempt(campaign, yamlio.dumps(data))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw_text)
def test_malformed_order_files_are_refused_cleanly(campaign, text):
    attempt(campaign, text)


def test_not_utf8(campaign):
    attempt(campaign, "player: lucy\nturn: 4\nroleplay: é\n".encode("latin-1"))
