"""No secret of manhunt reaches a public post: positions (cells), traps, the
Péjis' inventories, the hunters' targets. Checked on the example campaign's
archive and on games played by bots."""

import copy
import random
import re

import pytest

from pbp import events as ev, ruleset
from pbp.campaign import open_campaign
from pbp.dice import Dice
from pbp.orders import GmOrders, PlayerOrders
from pbp.render import Renderer, package_dir, template_paths

EXAMPLE = package_dir("campaigns") / "manhunt"
FORBIDDEN_KEYS = {"cell", "target", "trace", "inventory", "place", "src", "dst", "weapon", "item", "effects"}


def secrets(scenario, *states):
    world = scenario.world
    out = set()
    for cid, cell in world["cells"].items():
        out |= {cid, cell["name"], cell.get("description", "")}
    for trap in world.get("traps", []):
        out.add(trap.get("description", ""))
    for state in states:
        for p in state["pejis"].values():
            out |= set(p["inventory"]) | set(p["worn"])
    return {s for s in out if s}


def leaks(text, secret_values):
    return [s for s in secret_values if re.search(r"(?<!\w)" + re.escape(s) + r"(?!\w)", text)]


def public_text(renderer, turn, events, names, title="t"):
    shown = [e for e in events if e.kind != "roleplay"]  # players may say what they like
    return renderer.render("public", turn=turn, title=title, events=ev.by_audience(shown)[ev.PUBLIC], names=names,
                           player=None, character=None)


def check_public_events(events):
    for e in events:
        if e.audience is ev.PUBLIC:
            assert not FORBIDDEN_KEYS & set(e.data), (e.kind, e.data)


def test_example_archive_public_posts_hold_no_secret():
    from pbp import turn as turns

    campaign = open_campaign(EXAMPLE)
    checked = 0
    for n in campaign.resolved_turns():
        events = turns.stored_events(campaign, n)
        check_public_events(events)
        before = campaign.state(max(n - 1, 0))
        after = campaign.state(n)
        for fmt in ("bbcode", "markdown"):
            rend = turns.renderer(campaign, fmt)
            template = "setup_public" if n == 0 else "public"
            names = {h: campaign.scenario.name(h) for h in campaign.roster}
            text = rend.render(template, turn=n, title=campaign.title, names=names, player=None, character=None,
                               events=[e for e in ev.by_audience(events)[ev.PUBLIC] if e.kind != "roleplay"])
            assert leaks(text, secrets(campaign.scenario, before, after)) == []
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_bot_games_public_posts_hold_no_secret(lang):
    campaign = open_campaign(EXAMPLE)
    scenario = campaign.scenario
    rs = ruleset.get("manhunt", {"turn_limit": 8})
    renderer = Renderer(template_paths("manhunt", lang), "bbcode", lang=lang)
    names = {h: scenario.name(h) for h in scenario.roster}
    kinds = set()
    for game in range(12):
        bots = random.Random(game)
        state = rs.setup(scenario, Dice(f"g{game}", 0)).state
        for n in range(1, 9):
            orders = {}
            for handle in rs.players_to_play(state, scenario):
                actions = bots.choice(rs.legal_orders(state, scenario, handle))
                orders[handle] = PlayerOrders(handle, n, actions)
            before = copy.deepcopy(state)
            result = rs.resolve(state, scenario, orders, GmOrders(n), Dice(f"g{game}", n))
            state = result.state
            check_public_events(result.events)
            kinds |= {e.kind for e in result.events}
            assert leaks(public_text(renderer, n, result.events, names), secrets(scenario, before, state)) == []
            if rs.is_over(state):
                break
    # the games went through the interesting parts of the rules
    assert {"combat", "chasseur_en_chasse", "fouille", "panique"} <= kinds, kinds
