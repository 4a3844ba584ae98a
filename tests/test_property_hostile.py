"""Property: on every example campaign, whatever bytes a hostile player puts in
their order file (aliases, deep nesting, huge values, control characters, CR,
tags, URLs, HTML, binary, invalid UTF-8, BOM, nothing, wrong types, any action
of the ruleset's vocabulary with any argument), `pbp check` and `pbp run
--no-commit` end with exit 0 or 1, never a traceback or an internal error, and
a refusal names the file and leaves the campaign folder as it was."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbp.base import yamlio
from pbp.engine.campaign import open_campaign
from pbp.model import ruleset
from tests.helpers import copy_example, pbp

EXAMPLES = ["manhunt", "murder", "skirmish", "d100"]

HOSTILE_TEXTS = ["[url=javascript:alert(1)]clic[/url]", "<script>alert(1)</script>", "https://evil.example/x",
                 "www.evil.example", "**gras** ~~barré~~ ```code```", "[/quote][b]", "&amp; &lt;", "\x1b[2J\x1b]0;t\x07",
                 "\u202eesrever", "a\rb\r\nc", "x" * 300, "é" * 25_000, "*soupir*", "&ancre", "!tag", "%YAML 1.1",
                 "@todo", "`cmd`", "---", "...", "? clé", "- liste"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.integers(-10 ** 25, 10 ** 25),
                    st.floats(allow_nan=True), st.sampled_from(HOSTILE_TEXTS),
                    st.text(st.characters(codec="utf-8"), max_size=30))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(scalars.filter(lambda v: v == v), inner,
                                                                       max_size=3)),
                      max_leaves=8)


def vocabulary(rs: ruleset.Ruleset) -> list[str]:
    """Every spelling of every action, and of every choice an argument takes."""
    words = []
    for action_id, spec in rs.actions.items():
        spec = spec or {}
        words += [action_id, spec.get("en"), *(spec.get("aliases") or [])]
    for spec in (rs.rules.get("arg_types") or {}).values():
        if isinstance(spec, dict):
            words += [str(v) for v in spec.get("values") or []] + [str(a) for a in spec.get("aliases") or {}]
            words += list(spec.get("fields") or {})
    return sorted({w for w in words if w})


def mutate(data: bytes, how: str) -> bytes:
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "crlf":
        return data.replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    if how == "alias":
        return data.replace(b"actions:", b"actions: &a", 1) + b"x: *a\n"
    if how == "tag":
        return data.replace(b"turn:", b"turn: !!str", 1)
    if how == "deep":
        return data + b"extra: " + b"[" * 40 + b"]" * 40 + b"\n"
    if how == "truncate":
        return data[: len(data) // 2]
    if how == "invalid_utf8":
        return data + b"roleplay2: \xff\xfe\n"
    if how == "nul":
        return data.replace(b"\n", b"\x00\n", 1)
    if how == "empty":
        return b""
    if how == "huge":
        return data + b"roleplay: " + b"x" * 70_000 + b"\n"
    return data


MUTATIONS = ["none"] * 8 + ["bom", "crlf", "cr", "alias", "tag", "deep", "truncate", "invalid_utf8",
             "nul", "empty", "huge"]


@st.composite
def order_files(draw, example):
    rs, handle, turn = CONTEXT[example][1:4]
    words = vocabulary(rs)
    argument = st.one_of(st.sampled_from(words), values, st.dictionaries(st.sampled_from(words), values, max_size=3))
    action = st.one_of(st.sampled_from(words), st.dictionaries(st.sampled_from(words), argument, min_size=1,
                                                               max_size=2), values)
    doc = draw(st.fixed_dictionaries(
        {"player": st.one_of(st.just(handle), st.just(handle), st.just(handle), values),
         "turn": st.one_of(st.just(turn), st.just(turn), st.just(turn), values)},
        optional={"actions": st.one_of(st.lists(action, max_size=4), values),
                  "roleplay": st.one_of(st.sampled_from(HOSTILE_TEXTS), values), "joueur": values}))
    how = draw(st.sampled_from(MUTATIONS))
    if draw(st.integers(0, 19)) == 0:
        return draw(st.binary(min_size=1, max_size=200))  # not YAML at all
    return mutate(yamlio.dumps(doc).encode("utf-8"), how)


def files(root):
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


def restore(root, before: dict) -> None:
    """Back to `before` after a turn was resolved (or a file was written)."""
    for path in list(root.rglob("*")):
        if path.is_file() and path not in before:
            path.unlink()
    for path, data in before.items():
        if path.read_bytes() != data:
            path.write_bytes(data)


CONTEXT: dict = {}


@pytest.fixture(scope="module", autouse=True)
def campaigns(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    for example in EXAMPLES:
        root = copy_example(example, base)
        campaign = open_campaign(root)
        turn = campaign.last_turn() + 1
        state = campaign.state(turn - 1)
        handle = campaign.ruleset.players_to_play(state, campaign.scenario)[0]
        path = campaign.turn_dir(turn) / "orders" / f"{handle}.yaml"
        CONTEXT[example] = (root, campaign.ruleset, handle, turn, path)
    yield


def attempt(example: str, data: bytes, commands) -> None:
    root, _, _, _, path = CONTEXT[example]
    rel = str(path.relative_to(root))
    original = path.read_bytes()
    path.write_bytes(data)
    before = files(root)
    try:
        for command in commands:
            r = pbp(*command, cwd=root)
            assert r.exit_code in (0, 1), r.output
            assert "Traceback" not in r.output, r.output
            assert "Erreur interne" not in r.output and "internal error" not in r.output, r.output
            if r.exit_code == 1:
                assert rel in r.stderr, r.stderr
                assert files(root) == before
            else:
                restore(root, before)
    finally:
        path.write_bytes(original)


CHECK = (("check",),)
BOTH = (("check",), ("run", "--no-commit"))
FAST = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
FULL = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("example", EXAMPLES)
def test_hostile_order_files_are_checked_cleanly(example):
    @FAST
    @given(order_files(example))
    def run(data):
        attempt(example, data, CHECK)

    run()


@pytest.mark.parametrize("example", EXAMPLES)
def test_hostile_order_files_are_run_cleanly(example):
    @FULL
    @given(order_files(example))
    def run(data):
        attempt(example, data, BOTH)

    run()
