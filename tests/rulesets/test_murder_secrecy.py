"""Secrecy, murder's own layers (the core's tests/test_secrecy.py checks every
public post against Murder.secret_values: sheets, scores, armed rooms):

1. every public event has a known kind and only the fields that kind may carry
   (printed or not), with no secret field;
2. the public post, without the reveal events and the players' own words, has
   no role, score, sheet, ghost or warning vocabulary, and talks of traps only
   for traps that went off;
3. a ghost's roleplay is not quoted in the public post: the MJ's report has it,
   and the ghost's own report when `ghost_roleplay.own_report` is true.

Checked on the example campaign's archive and on turns played in memory by bots
(random legal orders), the public events picked by the production filter
(events.by_audience), the posts rendered by the real templates in both languages
and both formats.
"""

from __future__ import annotations

import pickle
import random

import pytest

from pbp.base import yamlio
from pbp.engine import turn_posts
from pbp.engine.campaign import open_campaign
from pbp.engine.turn_record import stored_events
from pbp.model import events as ev
from pbp.model.dice import FreeDice
from pbp.model.orders import PlayerOrders
from pbp.render.render import Renderer, package_dir, template_paths
from pbp.rulesets.murder import Murder
from tests.helpers import as_stored, copy_example, pbp, unsealed, write

SHEET_KEYS = {"player", "role", "lot", "sheet", "scores", "story", "job", "seniority", "alibi"}
CLOCK = {"turn", "day", "start", "end", "accusation_day"}
ROLL = {"label", "expr", "faces", "total", "reason", "forced"}
MOVE_WHY = {"stop", "stop_room", "stop_squares", "limit", "stop_with", "obliged", "max_stay", "obliged_with", "stuck"}
PUBLIC_FIELDS = {
    "setup": {"investigators", "witnesses", "play_order", "hall", "rooms", "rules"},
    "clock": CLOCK,
    "next": CLOCK,
    "positions": {"rooms", "prison", "dead"},
    "genres": {"genres"},
    # why a move did not go as ordered: the rule, and the room or the people it concerns (the
    # board, the positions and the stays are public)
    "moved": {"player", "path", "steps", "roll", "forced", *MOVE_WHY},
    "stayed": {"player", "room", "roll", *MOVE_WHY},
    "trap_fired": {"player", "room", "survived", "roll", "score"},
    "sleepwalk": {"player", "path", "steps"},
    "interrogation": {"investigator", "witness", "room", "others"},
    "interrogation_missed": {"investigator", "witness", "room"},
    "plea": {"player", "released", "left", "room"},
    "accusation": {"count", "jailed", "tie", "prison_turns"},
    "executed": SHEET_KEYS,
    "game_over": {"winner", "reason", "winners", "sheets"},
    "narration": {"markdown"},
    "roleplay": {"player", "character", "text"},
    "standing": {"players"},  # the core's: Ruleset.standing, at the end of the post
}
NESTED = {("setup", "investigators"): {"player", "survival"},
          ("setup", "rules"): {"movement", "witness_room_limit", "max_stay", "accusation_every", "hours_per_turn",
                               "turns_per_day", "prison_turns", "majority", "vote_count"},
          ("positions", "rooms"): {"room", "players"}, ("positions", "dead"): {"player", "cause", "turn"},
          ("accusation", "count"): {"tally", "not_voting", "void", "investigators", "majority", "needed", "jailed",
                                    "tie"},
          ("standing", "players"): {"name", "handle", "status", "params"}}
REVEALS = {"executed", "game_over"}
PLAYER_WORDS = {"narration", "roleplay"}
# Vocabulary the ruleset's public output may only use in a reveal (lower case).
FORBIDDEN = ["meurtrier", "meurtrière", "murderer", "innocent ", "témoin innocent", "innocent witness",
             "résilience", "resilience", "défense", "defence", "mensonge", "lying", "alibi", "fiche n°",
             "sheet #", "fantôme", "ghost", "averti", "warn", "murmure", "whisper", "hant", "haunt",
             "possé", "possess", "complice", "accomplice", "désamor", "disarm"]
TRAP_WORDS = ("piège", "piégé", "trap")


def renderers():
    rs = Murder
    return {(lang, fmt): Renderer(template_paths("murder", lang, None, rs.folder()), fmt, "forumactif", lang)
            for lang in ("fr", "en") for fmt in ("bbcode", "markdown")}


def render_public(rend, n, events, names, title="T"):
    """The public template on the public events the production filter picks."""
    template = "setup_public" if n == 0 else "public"
    return rend.render(template, turn=n, title=title, events=ev.by_audience(events)[ev.PUBLIC], names=names,
                       audience=ev.PUBLIC, player=None, character=None)


def check_public_events(events, state, over):
    """Layer 1, on the plain events of one turn; `state` is the state after it."""
    players = state["players"]
    for e in events:
        if e.audience != ev.PUBLIC:
            continue
        assert e.kind in PUBLIC_FIELDS, f"unexpected public event {e.kind}"
        assert set(e.data) <= PUBLIC_FIELDS[e.kind], (e.kind, set(e.data) - PUBLIC_FIELDS[e.kind])
        for (kind, key), fields in NESTED.items():
            if e.kind == kind:
                for item in (e.data[key] if isinstance(e.data[key], list) else [e.data[key]]):
                    assert item is None or set(item) <= fields, (kind, key, item)
        for key in ("roll",):
            if e.data.get(key):
                assert set(e.data[key]) <= ROLL
        if e.kind == "trap_fired" and (e.data["roll"] is not None or e.data["score"] is not None):
            assert players[e.data["player"]]["role"] == "investigator", e.data
            assert e.data["score"] == players[e.data["player"]]["scores"]["survival"]
        if e.kind == "executed":
            died = players[e.data["player"]]["died"]
            assert died["cause"] == "executed" and died["turn"] == state["turn"]
        if e.kind == "game_over":
            assert over


def check_rendered(rend, n, events, names, title="T"):
    """Layer 2 on one turn's public post."""
    bare = render_public(rend, n, [e for e in events if e.kind not in REVEALS | PLAYER_WORDS], names, title).lower()
    for word in FORBIDDEN:
        assert word not in bare, (n, word, bare)
    fired_rooms = [e.data["room"].lower() for e in events if e.kind == "trap_fired"]
    for line in bare.splitlines():
        if any(w in line for w in TRAP_WORDS):
            assert "†" in line or any(room in line for room in fired_rooms), (n, line)


# -- the example campaign -------------------------------------------------------------------

def test_example_campaign_public_posts_keep_the_secrets():
    root = package_dir("campaigns") / "murder"
    campaign = open_campaign(root)
    scenario = campaign.scenario
    names = {h: scenario.name(h) for h in campaign.roster}
    rends = renderers()
    phpbb = Renderer(template_paths("murder", "fr", None, Murder.folder()), "bbcode", "phpbb", "fr")
    turns = campaign.resolved_turns()
    assert turns == list(range(9))
    checked = 0
    for n in turns:
        state = campaign.state(n)
        events = stored_events(campaign, n)  # as events.yaml records them, rolls given by label put back
        check_public_events(events, state, state.get("over"))
        stored = (root / "turns" / f"{n:03d}" / "public.bbcode").read_text(encoding="utf-8")
        for rend in rends.values():
            check_rendered(rend, n, events, names, campaign.title)
            checked += 1
        # the archived post is what these templates render from these events, then the core's footer
        assert unsealed(stored).startswith(render_public(phpbb, n, events, names, campaign.title).rstrip("\n"))
        assert unsealed(stored) == unsealed(turn_posts.render_post(campaign, n, events, ev.PUBLIC, turn_posts.renderer(campaign)))
    assert checked == 4 * len(turns)
    # and the example does reveal a sheet: Margot's execution
    executed = [e for n in turns for e in yamlio.load_file(root / "turns" / f"{n:03d}" / "events.yaml")
                if e["kind"] == "executed"]
    assert executed and executed[0]["data"]["role"] == "murderer"


# -- simulated turns ----------------------------------------------------------------------------

def simulate(total_turns=600, max_turns=40):
    campaign = open_campaign(package_dir("campaigns") / "murder")
    scenario = campaign.scenario
    names = {h: scenario.name(h) for h in campaign.roster}
    rends = list(renderers().values())
    seen_public, seen_private = set(), set()
    turns = games = 0
    while turns < total_turns:
        rng = random.Random(games)
        composition = [{"murderers": 2, "investigators": 2}, {"murderers": 1, "investigators": 3},
                       {"murderers": 3, "investigators": 1}][games % 3]
        rs = Murder({"composition": composition})
        dice = FreeDice(games)
        setup = rs.setup(scenario, dice)
        state = setup.state
        events = as_stored(setup.events)
        check_public_events(events, state, False)
        check_rendered(rends[games % len(rends)], 0, events, names)
        games += 1
        while not rs.is_over(state) and state["turn"] < max_turns and turns < total_turns:
            orders = {}
            for h in rs.players_to_play(state, scenario):
                actions = rng.choice(rs.legal_orders(state, scenario, h))
                orders[h] = PlayerOrders(h, state["turn"] + 1, list(actions))
                assert rs.check_orders(state, scenario, orders[h]) == [], (h, actions)
            result = rs.resolve(pickle.loads(pickle.dumps(state)), scenario, orders, None, dice)
            state = result.state
            events = as_stored(result.events)
            check_public_events(events, state, state["over"])
            check_rendered(rends[turns % len(rends)], state["turn"], events, names)
            seen_public |= {e.kind for e in events if e.audience is ev.PUBLIC}
            seen_private |= {e.kind for e in events if isinstance(e.audience, ev.Players)}
            turns += 1
    return turns, games, seen_public, seen_private


def test_simulated_turns_keep_the_secrets():
    turns, games, seen_public, seen_private = simulate()
    assert turns == 600 and games > 10
    # the bots met every rule that could leak a secret, so the checks above meant something
    assert {"trap_fired", "interrogation", "accusation", "plea", "executed", "sleepwalk", "game_over",
            "moved", "positions"} <= seen_public
    assert {"trap_set", "haunt", "warning", "possession", "possessed", "interrogated", "plea_roll",
            "trap_roll", "situation"} <= seen_private


def test_the_checks_catch_a_leak():
    """The checks fail on a public event carrying a role, and on a post talking
    of a trap that did not go off."""
    campaign = open_campaign(package_dir("campaigns") / "murder")
    state = campaign.state(1)
    leak = [ev.public("moved", player="alice", path=["Hall"], roll=None, forced=False, role="investigator")]
    with pytest.raises(AssertionError):
        check_public_events(as_stored(leak), state, False)
    rend = renderers()[("fr", "bbcode")]
    names = {h: campaign.scenario.name(h) for h in campaign.roster}
    leak = [ev.public("moved", player="bruno", path=["Hall", "Cave"], steps=[2], roll=None, forced=False),
            ev.public("narration", markdown="x"), ev.public("stayed", player="yann", room="le piège", roll={
                "label": "yann.deplacement", "expr": "2d6", "faces": [1, 1], "total": 2})]
    with pytest.raises(AssertionError):
        check_rendered(rend, 1, as_stored(leak), names)


# -- a ghost's roleplay ---------------------------------------------------------------------------

GHOST_WORDS = "Le fantôme de Damien effleure la nuque de Bruno."


def test_a_ghosts_roleplay_goes_to_the_mj_and_their_own_report_never_the_thread():
    """In the example, Damien (a dead innocent) haunts and writes roleplay on turn 5."""
    root = package_dir("campaigns") / "murder"
    turn5 = root / "turns" / "005"
    assert GHOST_WORDS in (turn5 / "orders" / "damien.yaml").read_text(encoding="utf-8")
    assert open_campaign(root).state(4)["players"]["damien"]["status"] == "dead"
    roleplay = [e for e in yamlio.load_file(turn5 / "events.yaml") if e["kind"] == "roleplay"]
    assert {e["data"]["player"]: e["audience"] for e in roleplay}["damien"] == ["damien"]
    assert all(e["audience"] == "public" for e in roleplay if e["data"]["player"] != "damien")
    assert GHOST_WORDS not in (turn5 / "public.bbcode").read_text(encoding="utf-8")
    mine = (turn5 / "private" / "damien.bbcode").read_text(encoding="utf-8")
    assert ("[size=120][b]Votre roleplay[/b][/size]\n\nVotre roleplay de fantôme n'est pas cité dans le fil public "
            "(il dirait quel fantôme a agi) : seul le MJ le lit.\n\n[quote=\"Damien Roux\"]" + GHOST_WORDS) in mine
    gm = (turn5 / "gm.bbcode").read_text(encoding="utf-8")
    assert "Roleplay hors du fil public" in gm and f"[quote=\"Damien Roux\"]{GHOST_WORDS}[/quote]" in gm
    # the living are quoted in the thread as before
    assert "[quote=\"Chloé Vidal\"]" in (turn5 / "public.bbcode").read_text(encoding="utf-8")


@pytest.mark.parametrize("own_report, lang", [(False, "fr"), (True, "en")])
def test_the_campaign_decides_whether_a_ghost_reads_their_own_roleplay(tmp_path, own_report, lang):
    root = copy_example("murder", tmp_path)
    config = (root / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", f"lang: {lang}")
    config = config.replace("rules:\n", f"rules:\n  ghost_roleplay: {{own_report: {str(own_report).lower()}}}\n")
    write(root, "campaign.yaml", config)
    write(root, "turns/009/orders/margot.yaml", """
        player: margot
        turn: 9
        actions:
          - posseder: {cible: elsa, salle: couloir}
        roleplay: |
          Margot, d'outre-tombe, souffle à Elsa de marcher.
    """)
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    turn9 = root / "turns" / "009"
    words = "Margot, d'outre-tombe, souffle à Elsa de marcher."
    assert words not in (turn9 / "public.bbcode").read_text(encoding="utf-8")
    assert words in (turn9 / "gm.bbcode").read_text(encoding="utf-8")
    mine = (turn9 / "private" / "margot.bbcode").read_text(encoding="utf-8")
    assert (words in mine) is own_report
    if own_report:
        assert "Your ghost's roleplay is not quoted in the public thread" in mine
    audience = next(e["audience"] for e in yamlio.load_file(turn9 / "events.yaml")
                    if e["kind"] == "roleplay" and e["data"]["player"] == "margot")
    assert audience == (["margot"] if own_report else "gm")
