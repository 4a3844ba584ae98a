"""Secrecy: audiences are types, so that no forum handle can be taken for the
public thread or the MJ, and the handles that look like one are refused; whose
roleplay is public is the ruleset's decision."""

from __future__ import annotations

import pickle

import pytest

from pbp import events as ev, ruleset, turn as turns, yamlio
from pbp.campaign import TURN_FOLDER, open_campaign
from pbp.errors import PbpError
from pbp.render import package_dir
from tests.helpers import copy_example, pbp, write

EXAMPLES = sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists())


# -- audiences as types -------------------------------------------------------------------------

def test_no_handle_is_the_public_thread_or_the_mj():
    assert ev.Players("gm") != ev.GM and ev.Players("public") != ev.PUBLIC
    assert ev.GM != "gm" and ev.PUBLIC != "public" and ev.Players("lucy") != ("lucy",)
    grouped = ev.by_audience([ev.private("gm", "x"), ev.gm("y"), ev.public("z")])
    assert [e.kind for e in grouped[ev.Players("gm")]] == ["x"]
    assert [e.kind for e in grouped[ev.GM]] == ["x", "y", "z"] and [e.kind for e in grouped[ev.PUBLIC]] == ["z"]
    assert turns.post_path(ev.Players("gm"), "bbcode") == "private/gm.bbcode"
    assert turns.post_path(ev.GM, "md") == "gm.md" and turns.post_path(ev.PUBLIC, "md") == "public.md"
    with pytest.raises(TypeError):
        ev.Event("x", {}, "public")
    with pytest.raises(TypeError):
        turns.post_path(ev.Players("a", "b"), "md")


def test_events_yaml_keeps_the_readable_form_and_reads_it_back():
    events = [ev.public("a"), ev.gm("b"), ev.private("lucy", "c"), ev.private(["lucy", "gm"], "d")]
    dumped = [e.to_dict()["audience"] for e in events]
    assert dumped == ["public", "gm", ["lucy"], ["lucy", "gm"]]
    back = [ev.Event.from_dict(yamlio.loads(yamlio.dumps(e.to_dict()))) for e in events]
    assert back == events and back[0].audience is ev.PUBLIC and back[1].audience is ev.GM
    assert pickle.loads(pickle.dumps(ev.PUBLIC)) is ev.PUBLIC


@pytest.mark.parametrize("lang, message", [
    ("fr", "turns/001/events.yaml: fichier d'événements illisible (not an audience: 'everyone' (public, gm, or a "
           "list of handles)) : il est écrit par « pbp run » ; « pbp undo » puis « pbp run » le réécrivent."),
    ("en", "turns/001/events.yaml: unreadable events file (not an audience: 'everyone' (public, gm, or a list of "
           "handles)): it is written by `pbp run`; `pbp undo` then `pbp run` write it again."),
])
def test_an_events_file_with_an_unknown_audience_is_refused(tmp_path, lang, message):
    root = copy_example("murder", tmp_path)
    config = (root / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", f"lang: {lang}")
    (root / "campaign.yaml").write_text(config, encoding="utf-8")
    path = root / "turns" / "001" / "events.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("audience: public", "audience: everyone", 1),
                    encoding="utf-8")
    r = pbp("post", "--turn", "1", cwd=root)
    assert r.exit_code == 1 and r.stderr.strip() == message


def test_post_player_gm_is_a_player_never_the_mj_report(tmp_path):
    root = copy_example("murder", tmp_path)
    r = pbp("post", "--player", "gm", cwd=root)
    assert r.exit_code == 1 and "joueur inconnu « gm »" in r.stderr and "Rapport MJ" not in r.output
    mj = pbp("post", "--gm", cwd=root)
    assert mj.exit_code == 0 and "Rapport MJ" in mj.output
    alice = pbp("post", "--player", "alice", cwd=root)
    assert alice.exit_code == 0 and "Rapport privé — Alice Morel" in alice.output
    assert "Rapport MJ" not in alice.output


# -- reserved handles -----------------------------------------------------------------------------

def test_every_name_a_turn_folder_holds_is_a_reserved_handle():
    """Checked on the examples' real turn folders, so that a new output file
    cannot be forgotten here."""
    from pbp.campaign import RESERVED_HANDLES

    held = {p.name for name in EXAMPLES for folder in (package_dir("campaigns") / name / "turns").iterdir()
            for p in folder.iterdir()}
    assert held and held <= set(TURN_FOLDER)
    assert {n.casefold() for n in held} | {n.split(".")[0] for n in held} <= RESERVED_HANDLES
    assert {"gm", "public", "mj", "all", "tous"} <= RESERVED_HANDLES


@pytest.mark.parametrize("handle", ["gm", "GM", "Public", "mj", "all", "TOUS", "state", "events", "orders",
                                    "private", "rolls", "public.bbcode"])
def test_a_reserved_handle_is_refused_when_the_campaign_opens(toy_campaign, handle):
    write(toy_campaign, "campaign.yaml", f"""
        ruleset: toy
        secret: s3cret
        players:
          lucy: Lucy
          {handle}: Bob
    """)
    r = pbp("status", cwd=toy_campaign)
    assert r.exit_code == 1
    assert r.stderr.startswith(f"campaign.yaml:5: le pseudo « {handle} » est réservé (il désigne le fil public, "
                               f"le MJ ou un fichier du dossier d'un tour) : choisissez-en un autre")
    assert "Traceback" not in r.output
    with pytest.raises(PbpError) as caught:
        open_campaign(toy_campaign)
    assert caught.value.text("en") == (
        f"campaign.yaml:5: the handle `{handle}` is reserved (it names the public thread, the MJ or a file of a "
        f"turn's folder): choose another one, e.g. `{handle}_1`. Reserved handles (any case): all, events, gm, mj, "
        "orders, private, public, rolls, state, tous.")


def test_handles_that_only_look_alike_are_fine(toy_campaign):
    write(toy_campaign, "campaign.yaml", """
        ruleset: toy
        secret: s3cret
        players:
          gm_1: Lucy
          publicity: Bob
          tous2: Zoé
    """)
    assert list(open_campaign(toy_campaign).roster) == ["gm_1", "publicity", "tous2"]


# -- whose roleplay is public ---------------------------------------------------------------------

def test_by_default_the_roleplay_of_a_player_who_plays_is_public_and_anyone_elses_the_mjs():
    from tests.toy import Toy

    rs, scenario = Toy(), ruleset.Scenario({}, {}, {"lucy": {}, "bob": {}})
    state = {"players": {"lucy": {"room": 0, "coins": 0}, "bob": {"room": 5, "coins": 0}}}
    assert rs.roleplay_audience(state, scenario, "lucy") is ev.PUBLIC
    assert rs.roleplay_audience(state, scenario, "bob") is ev.GM
