"""What makes pbp fast, held by counting, never by timing (speed itself is
measured by the scripts in bench/): one Renderer per campaign and format for a
command, each template read and compiled once, compiled templates kept on disk
between commands, a commit in two git processes, rolls stored once (events.yaml
names them by label, templates still get them whole), turn files written by a
YAML emitter that writes PyYAML's very bytes, a simulation that builds no event
it drops, data bots that judge an order of several actions by adding up,
and commands that import only what they use."""

from __future__ import annotations

import datetime
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter

import jinja2
import pytest
import yaml
from hypothesis import given, settings, strategies as st

from pbp.base import usercache, yamldump, yamlio
from pbp.engine import archive, turn, turn_posts, turn_record
from pbp.engine.campaign import open_campaign
from pbp.model import dice as dice_mod, events as ev
from pbp.render import render
from tests.helpers import REPO, copy_example, pbp, write


@pytest.fixture
def counted(monkeypatch):
    """Counts, for what runs in the test: Renderers built, template sources read
    (by name), templates compiled."""
    counts = {"renderers": 0, "sources": Counter(), "compiled": Counter()}
    init, get_source, compile_ = render.Renderer.__init__, jinja2.FileSystemLoader.get_source, \
        jinja2.Environment.compile

    def counting_init(self, *args, **kwargs):
        counts["renderers"] += 1
        init(self, *args, **kwargs)

    def counting_get_source(self, environment, template):
        counts["sources"][template] += 1
        return get_source(self, environment, template)

    def counting_compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        counts["compiled"][name] += 1
        return compile_(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(render.Renderer, "__init__", counting_init)
    monkeypatch.setattr(jinja2.FileSystemLoader, "get_source", counting_get_source)
    monkeypatch.setattr(jinja2.Environment, "compile", counting_compile)
    return counts


@pytest.fixture
def cold(monkeypatch, tmp_path):
    """A process that has compiled nothing yet, with an empty cache folder of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(render, "_BYTECODE_CACHE", None)
    monkeypatch.setitem(usercache._STATE, "folders", {})
    monkeypatch.setitem(usercache._STATE, "wanted", True)
    monkeypatch.delitem(usercache._STATE, "keys", raising=False)  # its folder's key, put back after
    render.forget_renderers()
    yield tmp_path / "cache"
    render.forget_renderers()


def new_process(monkeypatch):
    """What a new command's process starts from: no Renderer, nothing compiled
    in memory (the cache folder stays)."""
    monkeypatch.setattr(render, "_BYTECODE_CACHE", None)
    render.forget_renderers()


# -- rendering ---------------------------------------------------------------------------

def test_verify_builds_one_renderer_and_reads_and_compiles_each_template_once(tmp_path, counted, cold):
    camp = copy_example("murder", tmp_path)
    r = pbp("verify", cwd=camp)
    assert r.exit_code == 0 and "9 tours rejoués à l'identique." in r.output, r.output
    # 9 turns, 12 posts each, all BBCode: one environment
    assert counted["renderers"] == 1
    assert counted["sources"] and max(counted["sources"].values()) == 1, counted["sources"]
    assert counted["compiled"] and max(counted["compiled"].values()) == 1, counted["compiled"]
    # each template found was compiled; a name looked for and not found (public.bbcode.j2) is looked for once
    found = {name for name in counted["sources"] if name in counted["compiled"]}
    assert found == set(counted["compiled"])


def test_an_edited_template_is_compiled_again_and_a_cache_folder_that_cannot_be_made_is_no_error(
        tmp_path, monkeypatch, counted, cold):
    folder = tmp_path / "tpl"
    write(folder, "t.j2", "un {{ x }}\n")
    assert render.renderer_for([folder], "bbcode").render("t", x=1) == "un 1\n"
    new_process(monkeypatch)
    write(folder, "t.j2", "deux {{ x }}\n")
    assert render.renderer_for([folder], "bbcode").render("t", x=1) == "deux 1\n"
    assert counted["compiled"]["t.j2"] == 2
    # a file where the cache folder should be: rendered all the same, nothing cached
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    monkeypatch.setitem(usercache._STATE, "folders", {})
    new_process(monkeypatch)
    assert render.renderer_for([folder], "markdown").render("t", x=2) == "deux 2\n"


def test_a_new_command_generates_no_template_again_and_an_edited_one_is(tmp_path, monkeypatch, counted, cold):
    """jinja2's Python code for a template is kept in the user's cache, by the
    template's text: a new process compiles it without generating it again (the
    most of a template's cost); an edited template, or an entry someone else
    wrote, is generated again."""
    camp = copy_example("manhunt", tmp_path)
    first = pbp("run", "--dry-run", cwd=camp)
    assert first.exit_code == 0 and counted["compiled"]
    generated = sum(counted["compiled"].values())
    counted["compiled"].clear()
    new_process(monkeypatch)
    again = pbp("run", "--dry-run", cwd=camp)
    assert again.output == first.output and not counted["compiled"]
    new_process(monkeypatch)
    folder = tmp_path / "tpl"
    write(folder, "t.j2", "un {{ x }}\n")
    assert render.renderer_for([folder], "bbcode").render("t", x=1) == "un 1\n"
    new_process(monkeypatch)
    write(folder, "t.j2", "deux {{ x }}\n")
    assert render.renderer_for([folder], "bbcode").render("t", x=1) == "deux 1\n"
    assert counted["compiled"]["t.j2"] == 2
    for entry in next(cold.glob("pbp/templates-*")).iterdir():  # entries not sealed with this cache's key
        entry.write_bytes(b"pbp-cache-1\n" + bytes(16) + entry.read_bytes()[28:])
    new_process(monkeypatch)
    counted["compiled"].clear()
    damaged = pbp("run", "--dry-run", cwd=camp)
    assert damaged.stdout == first.stdout and "Cache de pbp : une entrée endommagée" in damaged.stderr
    assert sum(counted["compiled"].values()) == generated


def test_a_command_keeps_one_renderer_per_campaign_and_format(tmp_path):
    campaign = open_campaign(copy_example("manhunt", tmp_path))
    bbcode = turn_posts.renderer(campaign)
    assert turn_posts.renderer(campaign) is bbcode and turn_posts.renderer(campaign, "bbcode") is bbcode
    assert turn_posts.renderer(campaign, "markdown") is not bbcode
    assert turn_posts.renderer(turn_record.as_recorded(campaign, turn_record.record_of(campaign, 3))) is bbcode
    pbp("status", cwd=campaign.root)  # each command starts from no Renderer
    assert turn_posts.renderer(campaign) is not bbcode


def test_a_turn_played_as_the_campaign_is_now_is_replayed_with_its_world_read_once(tmp_path):
    campaign = open_campaign(copy_example("manhunt", tmp_path))
    scenario = campaign.scenario
    record = turn_record.record_of(campaign, 2)
    assert turn_record.as_recorded(campaign, record) is campaign
    other = turn_record.as_recorded(campaign, dict(record, render=dict(record["render"], format="markdown")))
    assert other.format == "markdown" and other.scenario is scenario and other.ruleset is campaign.ruleset
    fewer = dict(record, roster={h: v for h, v in list(record["roster"].items())[:2]})
    assert list(turn_record.as_recorded(campaign, fewer).scenario.roster) == list(fewer["roster"])


def test_post_prints_the_post_the_turn_wrote_and_renders_again_only_when_asked_otherwise(tmp_path):
    """The archived post is what the turn's seal covers: `pbp post` prints it (no
    template, no events read); another format, or a dialect changed since, is
    rendered again from the turn's events."""
    root = copy_example("manhunt", tmp_path)
    archived = root / "turns/003/public.bbcode"
    title = "[size=200][b]La chasse à l'homme — tour 3[/b][/size]"
    written = archived.read_text(encoding="utf-8")
    assert written.startswith(title + "\n")
    archived.write_text(written.replace(title, "[b]Le post que le tour a écrit[/b]"), encoding="utf-8")
    printed = pbp("post", "--turn", "3", cwd=root)
    assert printed.exit_code == 0 and printed.output.startswith("[b]Le post que le tour a écrit[/b]\n")
    assert pbp("post", "--turn", "3", "--format", "bbcode", cwd=root).output == printed.output
    markdown = pbp("post", "--turn", "3", "--format", "markdown", cwd=root)
    assert markdown.exit_code == 0 and markdown.output.startswith("## La chasse à l'homme — tour 3\n")
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("dialect: phpbb", "dialect: xenforo"),
                      encoding="utf-8")
    again = pbp("post", "--turn", "3", cwd=root)
    assert again.exit_code == 0 and again.stdout.startswith(title.replace("200", "6") + "\n"), again.output[:80]
    assert "rendu à nouveau" in again.stderr  # the MJ is told it is not the sealed text


def test_post_computes_no_code_for_the_post_the_turn_wrote(tmp_path, monkeypatch):
    """An archived post has its codes in it already: `pbp post` prints it without
    walking the seal chain; a post rendered again in another format needs its
    code, and gets the archive's."""
    from pbp.engine import seal

    root = copy_example("manhunt", tmp_path)
    computed = []
    real = seal.archive_codes

    def counting(campaign, *args, **kwargs):
        computed.append(kwargs.get("upto"))
        return real(campaign, *args, **kwargs)

    monkeypatch.setattr(seal, "archive_codes", counting)
    printed = pbp("post", "--turn", "3", cwd=root)
    assert printed.exit_code == 0 and printed.output == (root / "turns/003/public.bbcode").read_text(encoding="utf-8")
    assert computed == []
    markdown = pbp("post", "--turn", "3", "--format", "markdown", cwd=root)
    code = real(open_campaign(root))[3]
    assert computed == [3] and f"pbp#3/{seal.short(code)}" in markdown.output


# -- the user's cache of package data ----------------------------------------------------

def test_a_data_file_is_parsed_once_read_back_after_and_parsed_again_once_edited(tmp_path, monkeypatch, cold):
    monkeypatch.setattr(usercache, "SETTLED_NS", 0)  # the file was just written: remembered all the same
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\nb: [x, 2.5, null]\n", encoding="utf-8")
    parsed = []

    def parse(text):
        parsed.append(text)
        return yamlio.loads(text)

    assert usercache.load_data(data, parse) == {"a": 1, "b": ["x", 2.5, None]}
    monkeypatch.setitem(usercache._STATE, "folders", {})  # what a new command starts from
    assert usercache.load_data(data, parse) == {"a": 1, "b": ["x", 2.5, None]}
    assert len(parsed) == 1 and len(list((cold / "pbp").glob("data-*/*.marshal"))) == 1
    data.write_text("a: 2\n", encoding="utf-8")
    assert usercache.load_data(data, parse) == {"a": 2} and len(parsed) == 2
    data.write_text("a: 3\n", encoding="utf-8")  # the same size: its time tells
    stamp = data.stat().st_mtime_ns + 1_000_000_000
    os.utime(data, ns=(stamp, stamp))
    assert usercache.load_data(data, parse) == {"a": 3} and len(parsed) == 3


def test_a_data_file_rewritten_with_its_size_and_modification_time_is_read_again(tmp_path, monkeypatch, cold):
    """The one cache rule (pbp/base/usercache.py): a ruleset's data.yaml edited to the
    same size with its modification time put back (`os.utime`, as a copy or an
    archive tool does) is read again: its change time, which no program sets
    back, differs. It used to stay 2 for every later command."""
    monkeypatch.setattr(usercache, "SETTLED_NS", 0)
    data = tmp_path / "data.yaml"
    data.write_text("cost: 2\n", encoding="utf-8")
    before = data.stat()
    assert yamlio.load_data_file(data) == {"cost": 2}
    monkeypatch.setitem(usercache._STATE, "folders", {})  # the next command
    assert yamlio.load_data_file(data) == {"cost": 2}  # read back from the cache
    time.sleep(0.05)  # past a tick of the kernel's file clock (the settling window's reason)
    data.write_text("cost: 7\n", encoding="utf-8")
    os.utime(data, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = data.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    monkeypatch.setitem(usercache._STATE, "folders", {})
    assert yamlio.load_data_file(data) == {"cost": 7}


def test_a_rulesets_data_yaml_edited_to_its_size_and_time_is_what_the_next_command_rolls(tmp_path, monkeypatch,
                                                                                         cold):
    """The same case as the MJ meets it (issue 25): a ruleset's data.yaml says
    `attack: 1d2`; it is edited to `1d7`, the same size, and its modification time
    put back. The next `pbp run --dry-run` rolls the 1d7 (it used to roll 1d2 for
    every later command, from the user's cache)."""
    import shutil

    from pbp.model import ruleset
    from tests.duel import Duel

    monkeypatch.setattr(usercache, "SETTLED_NS", 0)
    folder = tmp_path / "duel"
    shutil.copytree(REPO / "tests/duel", folder)
    data = folder / "data.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("attack: 1d6", "attack: 1d2"), encoding="utf-8")
    camp = tmp_path / "camp"

    def command(*args):
        class Copy(Duel):  # a new process: its class has read no data.yaml yet
            @classmethod
            def folder(cls):
                return folder

        monkeypatch.setitem(ruleset._loaded, "duel", Copy)
        monkeypatch.setitem(usercache._STATE, "folders", {})  # what a new command starts from
        r = pbp(*args, cwd=camp)
        assert r.exit_code == 0, r.output
        return r.output

    write(camp, "campaign.yaml", "ruleset: duel\ntitle: Duel\nlang: fr\nformat: bbcode\nplayers: {ana: Ana, bo: Bo}\n")
    write(camp, "secret.yaml", "secret: sel\n")
    command("setup", "--no-commit")
    for handle in ("ana", "bo"):
        write(camp, f"turns/001/orders/{handle}.yaml", f"player: {handle}\nturn: 1\nactions: [attaquer]\n")
    assert "ana.attaque : 1d2 → " in command("run", "--dry-run")
    assert "ana.attaque : 1d2 → " in command("run", "--dry-run")  # read back from the cache
    before = data.stat()
    time.sleep(0.05)  # past a tick of the kernel's file clock
    data.write_text(data.read_text(encoding="utf-8").replace("attack: 1d2", "attack: 1d7"), encoding="utf-8")
    os.utime(data, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (data.stat().st_size, data.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert "ana.attaque : 1d7 → " in command("run", "--dry-run")


def test_a_data_file_changed_moments_ago_is_not_remembered_by_its_times(tmp_path, cold):
    """Within the settling window two writes may leave the same times: such a file
    is parsed, and no entry is kept for it."""
    data = tmp_path / "data.yaml"
    data.write_text("cost: 2\n", encoding="utf-8")
    assert yamlio.load_data_file(data) == {"cost": 2}
    assert not list((cold / "pbp").glob("data-*/*.marshal"))


def test_a_new_tag_removes_the_folders_of_its_kind_unused_for_a_week(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setitem(usercache._STATE, "folders", {})
    monkeypatch.setitem(usercache._STATE, "wanted", True)
    base = tmp_path / "cache" / "pbp"
    week = usercache.STALE_AFTER_S
    for name, age in (("yaml-old", week + 3600), ("yaml-recent", 3600), ("data-old", week + 3600)):
        (base / name).mkdir(parents=True)
        (base / name / "x.marshal").write_bytes(b"x")
        os.utime(base / name, (time.time() - age, time.time() - age))
    (base / "yaml-notes.txt").write_text("not a folder")
    assert usercache.folder("yaml", "new") == base / "yaml-new"
    kept = sorted(p.name for p in base.iterdir())
    assert kept == ["data-old", "yaml-new", "yaml-notes.txt", "yaml-recent"]  # only its own kind, only stale folders
    monkeypatch.setitem(usercache._STATE, "folders", {})
    os.utime(base / "yaml-recent", (time.time() - week - 60, time.time() - week - 60))
    assert usercache.folder("yaml", "new") == base / "yaml-new"  # an existing folder: nothing removed
    assert (base / "yaml-recent").is_dir()


def test_a_damaged_entry_a_date_or_no_cache_folder_only_costs_a_parse(tmp_path, monkeypatch, cold):
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\n", encoding="utf-8")
    assert usercache.load_data(data, yamlio.loads) == {"a": 1}
    for entry in (cold / "pbp").glob("data-*/*.marshal"):
        entry.write_bytes(b"\x00 not marshal")
    assert usercache.load_data(data, yamlio.loads) == {"a": 1}
    dated = tmp_path / "dated.yaml"
    dated.write_text("le: 2026-12-06\n", encoding="utf-8")  # no date in marshal: parsed each time
    assert usercache.load_data(dated, yamlio.loads) == usercache.load_data(dated, yamlio.loads) == {
        "le": datetime.date(2026, 12, 6)}
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    monkeypatch.setitem(usercache._STATE, "folders", {})
    assert usercache.folder("data", "x") is None and usercache.load_data(data, yamlio.loads) == {"a": 1}


SECOND_COMMAND = """
import sys
from pbp.base import yamlio
from pbp.cli import main
read = []
loads = yamlio.loads
yamlio.loads = lambda text, source="<text>", **kw: read.append(str(source)) or loads(text, source, **kw)
try:
    main(["check"])
except SystemExit:
    pass
print("\\n" + "|".join(read))
"""


def test_a_second_command_parses_only_the_campaigns_files(tmp_path):
    camp = copy_example("d100", tmp_path / "c")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    first, second = (subprocess.run([sys.executable, "-c", SECOND_COMMAND], capture_output=True, text=True,
                                    cwd=camp, env=env).stdout.splitlines()[-1].split("|") for _ in range(2))
    package = str(REPO / "pbp")
    assert any(s.startswith(package) and s.endswith("data.yaml") for s in first), first
    assert second and not [s for s in second if s.startswith(package)], second
    assert "campaign.yaml" in second and "world.yaml" in second


# -- events.yaml -------------------------------------------------------------------------

def test_events_yaml_names_the_logs_rolls_and_templates_get_them_whole(tmp_path):
    camp = copy_example("skirmish", tmp_path)
    campaign = open_campaign(camp)
    out = turn.compute(campaign, 1)
    stored = yamlio.loads(out.files["events.yaml"].decode())
    log = yamlio.loads(out.files["rolls.yaml"].decode())
    attack = next(e for e in stored if e["kind"] == "attack" and e["audience"] == "public")
    assert attack["data"]["attack"]["roll"] == {"roll": "bran.attaque"}
    whole = next(r for r in log if r["label"] == "bran.attaque")
    assert whole == {"label": "bran.attaque", "expr": "1d100", "faces": [86], "total": 86, "reason": "tir -> brute"}
    # no roll of the log is written whole in events.yaml (a ruleset's own breakdown of
    # a total, e.g. skirmish's damage terms with their faces, is event data, not a roll)
    def whole_rolls(value):
        if isinstance(value, dict):
            here = [value] if value in log else []
            return here + [r for v in value.values() for r in whole_rolls(v)]
        if isinstance(value, list):
            return [r for v in value for r in whole_rolls(v)]
        return []
    assert whole_rolls(stored) == []
    # read back: the very data the templates got when the turn was run
    assert [e.to_dict() for e in turn_record.stored_events(campaign, 1)] == [e.to_dict() for e in out.events]


def test_a_roll_that_is_not_the_logs_stays_whole():
    log = [{"label": "a.x", "expr": "1d6", "faces": [3], "total": 3}]
    other = {"label": "a.x", "expr": "1d6", "faces": [5], "total": 5}  # forced elsewhere, say
    events = [ev.public("k", mine=dict(log[0]), other=other, rolls=[dict(log[0])])]
    stored = turn_record.stored_form(events, log)
    assert stored[0]["data"] == {"mine": {"roll": "a.x"}, "other": other, "rolls": [{"roll": "a.x"}]}
    assert turn_record.resolve_rolls(stored[0], {"a.x": log[0]})["data"] == events[0].data
    with pytest.raises(ValueError, match="reference to a roll"):
        turn_record.stored_form([ev.public("k", odd={"roll": "a.x"})], log)


def test_an_archive_with_rolls_written_whole_reads_the_same_and_a_change_is_still_seen(tmp_path):
    camp = copy_example("skirmish", tmp_path)
    campaign = open_campaign(camp)
    for n in campaign.resolved_turns():  # as pbp wrote events.yaml before rolls were named by label
        path = campaign.turn_dir(n) / "events.yaml"
        path.write_text(yamldump.dumps([e.to_dict() for e in turn_record.stored_events(campaign, n)]), encoding="utf-8")
    assert "faces:" in (campaign.turn_dir(1) / "events.yaml").read_text(encoding="utf-8")
    r = pbp("verify", cwd=camp)
    # the events are read the same (no events.yaml difference); the turn codes, a hash
    # of every file of the turn, change with the file's bytes: only the seal lines differ
    assert r.exit_code == 1 and "events.yaml" not in r.output, r.output
    assert "tour 1 : DIFFÉRENT (gm.bbcode, public.bbcode)" in r.output, r.output
    path = campaign.turn_dir(2) / "events.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("total: ", "total: 1", 1), encoding="utf-8")
    r = pbp("verify", cwd=camp)
    assert r.exit_code == 1 and "tour 2 : DIFFÉRENT (events.yaml" in r.output, r.output


# -- YAML out ----------------------------------------------------------------------------

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30) | st.sampled_from(
    ["", "null", "yes", "No", "~", "1e3", "0x1F", "12", "3.5", "-", "- a", "a: b", "#x", "x #y", " lead", "trail ",
     "a\nb", "a\n\nb\n", "'q'", '"q"', "é à ç", "[x]", "{y}", "*a", "&b", "!c", "%d", "@e", "`f", "2024-01-01",
     "\u2028", "\x85", "\ufeff", "=", "<<", "."])
_scalar = st.none() | st.booleans() | st.integers(-10**20, 10**20) | \
    st.floats(allow_nan=True, allow_infinity=True) | _text
_plain = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(_text | st.integers(0, 99), inner, max_size=4), max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(_plain)
def test_the_fast_yaml_writer_writes_pyyamls_bytes(data):
    assert yamldump.dumps(data) == yamlio.dumps(data)


def test_the_fast_yaml_writer_leaves_what_it_does_not_know_to_pyyaml():
    shared = {"a": 1}
    assert yamldump.dumps([shared, shared]) == yamlio.dumps([shared, shared])  # an anchor and an alias
    assert yamldump.dumps({"t": (1, 2)}) == yamlio.dumps({"t": (1, 2)}) == "t:\n- 1\n- 2\n"
    with pytest.raises(yaml.representer.RepresenterError):  # what PyYAML refuses, refused the same way
        yamldump.dumps([yamlio])
    deep = []
    node = deep
    for _ in range(3000):  # no recursion in the writer: any depth a state may have
        node.append([])
        node = node[0]
    assert yamldump.dumps(deep).count("-") == 3000


def test_the_turn_files_of_every_example_are_written_as_pyyaml_writes_them(tmp_path):
    camp = copy_example("murder", tmp_path)
    campaign = open_campaign(camp)
    for n in (0, 4, 8):
        out = turn.compute(campaign, n)
        for name in ("state.yaml", "rolls.yaml", "turn.yaml"):
            assert out.files[name] == yamlio.dumps(yamlio.loads(out.files[name].decode())).encode()


# -- a long campaign ---------------------------------------------------------------------

def test_the_last_turns_are_found_without_looking_at_every_turns_state(tmp_path, monkeypatch):
    """What every command asks (the last turn; the last ten, which a commit
    stages) reads the names in turns/ and the state.yaml of the last turns only:
    a stat of every turn's is the seal chain's alone (some 4 ms of CPU at 500
    turns, docs/design.md). The turns found are the ones the full listing finds,
    gaps, a turn folder not resolved yet and a turn past 999 included."""
    camp = tmp_path / "c"
    for n in [*range(0, 9), 10, 11, 1000, 1001]:
        write(camp, f"turns/{n:03d}/state.yaml", "{}\n")
    write(camp, "turns/009/orders/a.yaml", "player: a\n")  # an unresolved turn in the middle
    write(camp, "turns/1002/gm.yaml", "turn: 1002\n")  # the next turn's inputs
    write(camp, "turns/notes/x.txt", "x\n")
    from pbp.engine.campaign import Campaign

    campaign = Campaign(camp, {})  # its turn folders alone
    resolved = campaign.resolved_turns()
    assert resolved == [*range(0, 9), 10, 11, 1000, 1001]
    looked = []
    real_stat = os.stat

    def counting_stat(path, *args, **kwargs):
        looked.append(os.fspath(path))
        return real_stat(path, *args, **kwargs)

    def states(*names):
        return [str(camp / "turns" / name / "state.yaml") for name in names]

    monkeypatch.setattr(os, "stat", counting_stat)
    assert campaign.last_turn() == 1001
    assert sorted(looked) == states("1001", "1002")
    looked.clear()
    assert campaign.last_resolved(3) == [11, 1000, 1001]
    assert sorted(looked) == states("011", "1000", "1001", "1002")
    assert campaign.last_resolved(10) == resolved[-10:] and campaign.last_resolved(20) == resolved


# -- git ---------------------------------------------------------------------------------

def _git_calls(monkeypatch) -> list[list[str]]:
    """Each git command line pbp runs from now on."""
    calls = []
    run = subprocess.run

    def counting(cmd, *args, **kwargs):
        if cmd[0] == "git":
            calls.append(cmd[3:])
        return run(cmd, *args, **kwargs)

    monkeypatch.setattr(archive.subprocess, "run", counting)
    return calls


def _repository(camp):
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(camp), *args], check=True, capture_output=True)


def _git_out(camp, *args) -> str:
    return subprocess.run(["git", "-C", str(camp), *args], capture_output=True, text=True, check=True).stdout


def test_a_turn_is_committed_without_git_looking_at_the_whole_archive(tmp_path, monkeypatch):
    """Neither `git add -A -- .` nor `git commit`, which look at every file of
    every turn (about 65 ms of CPU each at 500 turns): the campaign's top
    entries and recent turn folders by name, and the commit written with git's
    plumbing. The commit holds what `git add -A .` would have staged."""
    camp = copy_example("manhunt", tmp_path)
    _repository(camp)
    calls = _git_calls(monkeypatch)
    r = pbp("run", cwd=camp)
    assert r.exit_code == 0 and "Archivé dans git" in r.output, r.output
    # is it a repository (the command says when not), add, what add staged, HEAD, and the commit
    assert [next(a for a in call if a != "--literal-pathspecs") for call in calls] == [
        "rev-parse", "add", "diff", "rev-parse", "write-tree", "commit-tree", "update-ref", "gc", "rev-parse"]
    assert "." not in calls[1] and ":(literal)turns/004" in calls[1] and ":(literal)campaign.yaml" in calls[1]
    log = _git_out(camp, "log", "--format=%h %s", "-1")
    assert log.split()[0] in r.output and log.split()[1:] == ["Tour", "4"]
    assert _git_out(camp, "reflog", "-1", "--format=%gs") == "commit: Tour 4\n"
    # what git's own `add -A` of the whole folder finds: nothing more
    subprocess.run(["git", "-C", str(camp), "add", "-A", "."], check=True)
    assert _git_out(camp, "status", "--porcelain") == ""
    # nothing new: nothing staged, no commit tried, and nothing is said
    calls.clear()
    assert archive.commit(camp, "rien") is None
    assert [call[0] for call in calls] == ["add", "diff"]


def test_a_turns_commit_leaves_the_older_turns_to_verify(tmp_path):
    """From `turns_from` on, every turn folder is staged, with the campaign's top
    entries (an edit, a new file, one .gitignore lists is skipped); an older
    turn's file edited by hand is not swept into the commit (pbp verify says
    it), unless named in `also` (`pbp run --accept-changes`)."""
    camp = copy_example("manhunt", tmp_path)
    (camp / ".gitignore").write_text(".pbp.lock\n*.tmp\nsecret.yaml\nbrouillons/\n")
    _repository(camp)
    write(camp, "campaign.yaml", (camp / "campaign.yaml").read_text(encoding="utf-8") + "# édité\n")
    write(camp, "notes/carte.txt", "une carte\n")
    write(camp, "brouillons/idée.txt", "ignorée\n")
    write(camp, "turns/004/orders/extra.yaml", "player: x\n")
    write(camp, "turns/003/public.bbcode", "édité à la main\n")
    write(camp, "turns/002/public.bbcode", "édité aussi\n")
    assert archive.commit(camp, "Tour", turns_from=4, also=("turns/002/public.bbcode",))
    shown = _git_out(camp, "show", "--name-only", "--format=", "HEAD").split()
    assert shown == ["campaign.yaml", "notes/carte.txt", "turns/002/public.bbcode", "turns/004/orders/extra.yaml"]
    assert _git_out(camp, "status", "--porcelain") == " M turns/003/public.bbcode\n"


def test_a_turn_in_a_campaign_inside_a_bigger_repository_is_committed_by_git_commit(tmp_path, monkeypatch):
    """The index is not the campaign's alone there: `git commit` of the campaign's
    staged paths, with the same pathspec as a campaign of its own."""
    outer = tmp_path / "jeux"
    camp = copy_example("manhunt", outer)
    _repository(outer)
    calls = _git_calls(monkeypatch)
    r = pbp("run", cwd=camp)
    assert r.exit_code == 0 and "Archivé dans git" in r.output, r.output
    assert [next(a for a in call if a != "--literal-pathspecs") for call in calls] == [
        "rev-parse", "add", "diff", "commit"]
    assert _git_out(outer, "status", "--porcelain") == ""


# -- simulation --------------------------------------------------------------------------

def test_the_quiet_collector_builds_and_keeps_nothing():
    loud, quiet = ev.collector(False), ev.collector(True)
    for events in (loud, quiet):
        events.public("a", x=1)
        events.private("lucy", "b")
        events.gm("c")
        events.append(ev.gm("d"))
        events += [ev.gm("e")]
        events.extend([ev.gm("f")])
    assert [e.kind for e in loud] == list("abcdef") and loud[1].audience == ev.Players("lucy")
    assert list(quiet) == [] and quiet.quiet and not loud.quiet


def test_the_simulations_roll_path_draws_what_the_general_one_does():
    lean = dice_mod.FreeDice(11)
    general = dice_mod.FreeDice(11)
    general.forced = {"never": 1}  # any forced label: the general path
    for expr in ["1d6", "2d6+1d4+2", "d%", "3", "-1d6", "1d20-2", "2d6-1d4", 7]:
        a, b = lean.roll("x", expr, "why"), general.roll("x", expr, "why")
        assert (a.expr, a.faces, a.total, a.reason) == (b.expr, b.faces, b.total, b.reason)
    assert lean.draws == general.draws == 1 + 3 + 1 + 0 + 1 + 1 + 3 + 0 and lean.log == []
    rng = random.Random(5)
    assert dice_mod.FreeDice(5).roll("x", "3d8").faces == tuple(rng.randint(1, 8) for _ in range(3))


def test_a_simulation_gives_the_same_results_whatever_the_jobs(tmp_path):
    out = {}
    for jobs in (1, 2):
        done = subprocess.run([sys.executable, "-m", "pbp", "simulate", "manhunt", "--games", "12", "--seed", "3",
                               "--jobs", str(jobs), "--json"], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        out[jobs] = json.loads(done.stdout)
    assert out[1] == out[2] and out[1]["games"] == 12


# -- imports -----------------------------------------------------------------------------

IMPORTED = """
import sys
from pbp.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print("\\n" + " ".join(sorted(m for m in sys.modules if m.split(".")[0] in ("pbp", "jinja2", "markdown", "yaml"))))
"""


def imported(*args, cwd) -> set[str]:
    done = subprocess.run([sys.executable, "-c", IMPORTED, *args], capture_output=True, text=True, cwd=cwd)
    return set(done.stdout.splitlines()[-1].split())


def test_each_command_imports_what_it_uses(tmp_path):
    camp = copy_example("d100", tmp_path)
    help_ = imported("--help", cwd=camp)
    # the help speaks the MJ's language, its catalogue read back from the user's cache;
    # it lists every command, so it imports every command's module of pbp.cli
    commands = {f"pbp.cli.{m}" for m in ("setup", "orders", "play", "archive", "balance", "trust", "rules")}
    assert help_ == {"pbp", "pbp.cli", "pbp.cli.common", "pbp.cli.help", "pbp.render", "pbp.render.formats",
                     "pbp.base", "pbp.base.i18n", "pbp.base.patterns", "pbp.base.usercache"} | commands
    check = imported("check", cwd=camp)
    assert "pbp.engine.loop" in check and "yaml" in check
    assert {m for m in check if m.startswith("pbp.cli.")} == {"pbp.cli.common", "pbp.cli.help", "pbp.cli.orders"}  # its own
    assert not {"jinja2", "markdown", "pbp.render.render"} & check  # nothing is rendered
    # bots, synthetic games and exact odds: `pbp simulate` and `pbp odds` alone
    assert not {m for m in check if m.endswith((".balance", ".odds"))}, check
    post = imported("post", cwd=camp)
    assert not {"jinja2", "markdown", "pbp.render.render"} & post  # the post the turn wrote
    again = imported("post", "--format", "markdown", cwd=camp)
    assert {"jinja2", "pbp.render.render"} <= again and not {"markdown", "pbp.render.narration"} & again
    # the next turn's gm.yaml has narration: converted from Markdown for the BBCode posts
    narrated = imported("run", "--dry-run", cwd=copy_example("skirmish", tmp_path / "s"))
    assert {"jinja2", "markdown", "pbp.render.narration"} <= narrated


def test_status_and_orders_read_back_every_file_without_pyyaml(tmp_path):
    """The second time, every file `pbp status` and `pbp orders` read (a dated
    deadline too) is remembered in the user's cache: PyYAML, half of `import
    click`, is not imported at all; a file changed is parsed again."""
    camp = copy_example("manhunt", tmp_path)
    with open(camp / "campaign.yaml", "a", encoding="utf-8") as out:
        out.write("deadline:\n  first: 2026-12-06 20:00:00\n  every: 7 days\n")
    player = next(iter(yamlio.load_file(camp / "campaign.yaml")["players"]))
    assert {"yaml", "pbp.base.yamlread"} <= imported("status", cwd=camp)  # parsed, then kept
    imported("orders", "--player", player, cwd=camp)  # its own files too (grammar.yaml), whatever ran before
    for args in (["status"], ["orders", "--player", player]):
        again = imported(*args, cwd=camp)
        assert not {m for m in again if m == "yaml" or m.startswith(("yaml.", "pbp.base.yamlread"))}, (args, again)
        assert {"jinja2", "pbp.render.render"} <= again  # the same command, which did its work
    (camp / "campaign.yaml").write_text((camp / "campaign.yaml").read_text(encoding="utf-8") + "\n",
                                        encoding="utf-8")
    assert "yaml" in imported("status", cwd=camp)


def test_the_benchmarks_helpers_are_importable():
    bench = REPO / "bench"
    done = subprocess.run([sys.executable, "-c", "import _timing, _play, _ab"], capture_output=True, text=True,
                          cwd=bench)
    assert done.returncode == 0, done.stderr


def test_no_pattern_is_compiled_by_importing_a_module():
    """pbp.base.patterns.Lazy: a module's regular expressions are compiled by their
    first use, and then behave as re.compile's."""
    code = ("import pbp.render.render, pbp.render.escaping, pbp.render.markdown_blocks, pbp.base.i18n, "
            "pbp.engine.seal, pbp.engine.deadline, pbp.cli.help\n"
            "from pbp.base.patterns import Lazy\n"
            "mods = (pbp.render.escaping, pbp.render.markdown_blocks, pbp.base.i18n, pbp.engine.seal, "
            "pbp.engine.deadline, pbp.cli.help)\n"
            "lazy = [v for m in mods for v in vars(m).values() if isinstance(v, Lazy)]\n"
            "assert len(lazy) >= 25, len(lazy)\n"
            "assert all(v._compiled is None for v in lazy)\n"
            "print(repr(pbp.render.escaping.normalise('a\\r\\nb\\x07c')))\n"
            "print(sum(v._compiled is not None for v in lazy))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "'a\\nbc'\n3\n"  # normalise's three patterns, compiled by that call


def test_a_record_compares_hashes_and_copies_by_its_fields():
    from pbp.model.dice import Roll
    from pbp.model.events import PUBLIC, Event
    from pbp.model.orders import PlayerOrders

    roll = Roll("attaque", "1d20", (7,), 7)
    assert roll == Roll("attaque", "1d20", (7,), 7) and roll != Roll("attaque", "1d20", (8,), 8)
    assert len({roll, Roll("attaque", "1d20", (7,), 7)}) == 1  # frozen: hashable
    assert repr(roll) == "Roll(label='attaque', expr='1d20', faces=(7,), total=7, reason='', forced=False)"
    orders = PlayerOrders("lucy", 3)
    assert orders.actions == [] and orders.actions is not PlayerOrders("bob", 3).actions  # no shared default
    again = orders.replace(roleplay="Lucy avance.")
    assert again.roleplay == "Lucy avance." and again.player == "lucy" and orders.roleplay == ""
    with pytest.raises(TypeError):
        hash(orders)  # mutable: no hash
    with pytest.raises(TypeError):
        Event("x", {}, "public")  # an audience is PUBLIC, GM or Players(...)
    assert Event("x", {"a": 1}, PUBLIC) == Event("x", {"a": 1}, PUBLIC)


def test_a_remembered_yaml_value_is_read_back_and_a_changed_text_parsed_again(tmp_path, monkeypatch):
    """yamlio.loads(remember=True): the value of a text seen before comes from
    the user's cache, keyed by the text's digest; another text is parsed."""
    from pbp.base import usercache, yamlio

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setitem(usercache._STATE, "folders", {})  # this test's cache folder, then the session's again
    text = "cells:\n" + "".join(f"  S{i:02d}: {{bruit: {i}, nom: salle {i}}}\n" for i in range(50))
    first = yamlio.loads(text, "world.yaml", remember=True)
    assert first["cells"]["S07"] == {"bruit": 7, "nom": "salle 7"}
    parsed = []
    real_walk = yamlio._walk
    monkeypatch.setattr(yamlio, "_walk", lambda *a, **k: parsed.append(1) or real_walk(*a, **k))
    again = yamlio.loads(text, "world.yaml", remember=True)
    assert again == first and again is not first and not parsed  # read back, a fresh copy
    changed = yamlio.loads(text.replace("bruit: 7,", "bruit: 8,"), "world.yaml", remember=True)
    assert changed["cells"]["S07"]["bruit"] == 8 and parsed == [1]
    assert yamlio.loads("tour: 3\n", "turn.yaml", remember=True) == {"tour": 3} and parsed == [1, 1]
    assert yamlio.loads("tour: 3\n", "turn.yaml", remember=True) == {"tour": 3} and parsed == [1, 1]  # however short


def test_remembered_dates_come_back_as_dates(tmp_path, monkeypatch):
    """A deadline is a date or a datetime, which marshal does not write: kept
    tagged, read back as the very values the parse gave."""
    from pbp.base import usercache, yamlio

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setitem(usercache._STATE, "folders", {})
    text = ("deadline:\n  first: 2026-12-05 21:00:00+01:00\n  turns: {4: 2026-12-24, 5: 2026-12-31 18:30:00}\n"
            "  fériés: [2026-12-25]\n  2027-01-01: jour de l'an\nnote: \"2026-12-03\"\n")
    first = yamlio.loads(text, "campaign.yaml", remember=True)
    paris = datetime.timezone(datetime.timedelta(hours=1))
    assert first == {"deadline": {"first": datetime.datetime(2026, 12, 5, 21, 0, tzinfo=paris),
                                  "turns": {4: datetime.date(2026, 12, 24), 5: datetime.datetime(2026, 12, 31, 18, 30)},
                                  "fériés": [datetime.date(2026, 12, 25)],
                                  datetime.date(2027, 1, 1): "jour de l'an"},
                     "note": "2026-12-03"}
    parsed = []
    real_walk = yamlio._walk
    monkeypatch.setattr(yamlio, "_walk", lambda *a, **k: parsed.append(1) or real_walk(*a, **k))
    again = yamlio.loads(text, "campaign.yaml", remember=True)
    assert not parsed and again == first
    assert again["deadline"]["first"].utcoffset() == datetime.timedelta(hours=1)
    assert type(again["deadline"]["turns"][4]) is datetime.date
    assert type(again["deadline"]["turns"][5]) is datetime.datetime and again["deadline"]["turns"][5].tzinfo is None

    def refused(*args, **kwargs):
        raise ValueError("unmarshallable object")

    monkeypatch.setattr(usercache, "write_entry", refused)  # a value marshal refuses whatever is done to it
    assert yamlio.loads(text + "autre: 1\n", "campaign.yaml", remember=True)["autre"] == 1  # parsed, no error


def test_the_remembered_values_are_pruned(tmp_path, monkeypatch):
    from pbp.base import usercache, yamlio

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setitem(usercache._STATE, "folders", {})  # this test's cache folder, then the session's again
    monkeypatch.setattr(yamlio, "REMEMBERED", 10)
    for i in range(40):
        assert yamlio.loads(f"tour: {i}\n", "state.yaml", remember=True) == {"tour": i}
    folder = next((tmp_path / "cache" / "pbp").glob("yaml-*"))
    assert 1 <= len(list(folder.iterdir())) <= 10


def test_verify_does_not_fill_the_cache_with_every_turns_state(tmp_path):
    """A pass over every turn reads its states and records without keeping them:
    hundreds of them would push out what the everyday commands read back."""
    camp = copy_example("murder", tmp_path / "c")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "pbp", "verify"], capture_output=True, text=True, cwd=camp, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    kept = list((tmp_path / "cache" / "pbp").glob("yaml-*/*.marshal"))
    turns = len(list((camp / "turns").iterdir()))
    assert turns >= 8 and len(kept) <= 5, (turns, kept)  # campaign, secret, world, characters, seals.yaml
    done = subprocess.run([sys.executable, "-m", "pbp", "status"], capture_output=True, text=True, cwd=camp, env=env)
    assert done.returncode == 0
    assert len(list((tmp_path / "cache" / "pbp").glob("yaml-*/*.marshal"))) <= len(kept) + 2  # + state, turn.yaml


def _checked_one_by_one(rs, state, scenario, handle) -> list[list]:
    """The data bots' orders as check_orders judges them, each order asked whole:
    every single action allowed, then each accepted order with one more, a layer at a
    time (what pbp/rulesets/data/balance.py must give, in this order)."""
    from pbp.model.orders import PlayerOrders
    from pbp.rulesets.data import balance, checks

    singles = [a for action_id in rs.program.data["actions"]
               for a in checks.allowed(rs, state, scenario, handle, action_id, free_text=checks.BOT_TEXT)]
    layer = options = [[a] for a in singles]
    for size in range(2, balance.MOST_ACTIONS + 1):
        layer = [o + [balance._again(a, size - 1)] for o in layer for a in singles
                 if not checks.check_orders(rs, state, scenario, PlayerOrders(
                     handle, state["turn"] + 1, o + [balance._again(a, size - 1)]))][:balance.MOST_OPTIONS]
        options = options + layer
    return options[:balance.MOST_OPTIONS] or [[]]


@pytest.mark.parametrize("rules", ["dungeon", "d100-data"])
def test_data_bots_add_up_an_order_of_several_actions(tmp_path, monkeypatch, rules):
    """Rules without places: the bots judge each single action once on the state
    (checks.judge), and an order of several by adding up its count, its repeats and
    its costs (points 3, a cost that depends on a gauge, an action once a turn), not
    by asking check_orders about each of up to 60 orders: the same orders, in the
    same order."""
    from pbp.model import ruleset as rulesets
    from pbp.model.dice import FreeDice
    from pbp.model.orders import GmOrders, PlayerOrders
    from pbp.rulesets.data import checks
    from tests.rulesets.test_data_blocks import RULES

    if rules == "dungeon":
        write(tmp_path, "rules.yaml", RULES)
        root = tmp_path / "donjon"
        assert pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git").exit_code == 0
        write(root, "characters.yaml", {"joueur1": {"agilite": 40}})
    else:
        root = copy_example(rules, tmp_path)
    campaign = open_campaign(root)
    rs, scenario = campaign.ruleset, campaign.scenario
    calls = Counter()
    whole = checks.check_orders

    def counted(rs_, state, scenario_, orders):
        calls[len(orders.actions)] += 1
        return whole(rs_, state, scenario_, orders)

    dice, bots = FreeDice(4), random.Random(4)
    state = rs.setup(scenario, dice, quiet=True).state
    for turn in range(1, 9):
        for handle in rs.players_to_play(state, scenario):
            expected = _checked_one_by_one(rs, state, scenario, handle)
            calls.clear()
            monkeypatch.setattr(checks, "check_orders", counted)
            assert rs.legal_orders(state, scenario, handle) == expected
            monkeypatch.setattr(checks, "check_orders", whole)
            assert not calls, calls  # each action judged on its own, no order asked whole
            assert any(len(o) > 1 for o in expected)
        orders = {h: PlayerOrders(h, turn, rs.bot_orders(state, scenario, h, bots))
                  for h in rs.players_to_play(state, scenario)}
        state = rs.resolve(state, scenario, orders, GmOrders(turn, quiet=True), dice).state
