"""Secrecy, checked on the public post as `pbp run` writes it.

Every public post below is made by exactly the production path: turn.compute
then turn_posts.render_all for the example campaigns' archived turns; for the turns
played by bots (no campaign folder), the steps compute takes once the orders are
read (Ruleset.resolve, turn.extra_events, the events stored as turn._finish
stores them), then turn_posts.render_all.
Each post is checked three ways:

1. the public template was handed public events only (what the one audience
   filter, events.by_audience, gave render_post);
2. no secret value the ruleset declares for the state the turn led to
   (Ruleset.secret_values) is in the post, nor in the data of a public event
   (printed or not) — the words the players and the MJ chose to say in public
   (roleplay, narration) aside;
3. no private or MJ-only roleplay or narration is in the post.

Then the test of the test: with events.by_audience broken so that private
events also go public, the same check fails — on every turn, and on the very
words when the MJ's private narration, or the MJ's whole report, reaches the
public post (so the secret values are declared the way the posts print them).
"""

from __future__ import annotations

import functools
import html
import os
import pickle
import random
import re
from pathlib import Path

import pytest

from pbp.base import yamlio
from pbp.base.errors import PbpError
from pbp.engine import turn as turns, turn_inputs, turn_posts
from pbp.engine.campaign import FORMATS, Campaign, open_campaign
from pbp.engine.campaign_config import TURN_FOLDER
from pbp.model import events as ev, ruleset
from pbp.model.dice import Dice
from pbp.model.orders import GmOrders, PlayerOrders
from pbp.render.render import Renderer, package_dir
from tests.helpers import as_stored, copy_example, pbp, write

LANGS = ("fr", "en")
EXAMPLES = sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists())
RULESETS = ruleset.ids()
#: bot turns per ruleset and example: 70 play games to their end (or BOT_GAME_TURNS) and
#: bring every kind of event up at least once, manhunt's and murder's rarest aside;
#: PBP_SECRECY_TURNS=200 (README, "For developers") is the long run that brings those up too
BOT_TURNS = int(os.environ.get("PBP_SECRECY_TURNS", "70"))
BOT_PLAYERS = 4
BOT_GAME_TURNS = 40  # a game longer than this is cut short, as `pbp simulate --max-turns` does
#: (lang, format, dialect) of the bot turns' posts, in turn: every turn goes through one
VARIANTS = [(lang, fmt, dialect) for lang in LANGS
            for fmt, dialect in (("bbcode", "forumactif"), ("markdown", "phpbb"))]
SPOKEN = ("roleplay", "narration")  # the core's event kinds carrying the players' and the MJ's own words
CORE_KINDS = SPOKEN + ("defaulted", "forced_unused")  # the events turn.compute adds to a ruleset's


# -- the check ---------------------------------------------------------------------------------

class PublicTemplate:
    """Records the events the production path hands the public post's template
    (wraps Renderer.render; the rendering itself is unchanged)."""

    def __init__(self, monkeypatch):
        self.handed: list[list[ev.Event]] = []
        render = Renderer.render

        def spy(renderer, name, **context):
            if name in ("public", "setup_public"):
                self.handed.append(list(context["events"]))
            return render(renderer, name, **context)

        monkeypatch.setattr(Renderer, "render", spy)

    def take(self) -> list[ev.Event]:
        handed = [e for events in self.handed for e in events]
        self.handed.clear()
        return handed


def plain(post: str) -> str:
    """A post as its reader sees the words: escapes undone (the invisible zero-width
    spaces and word joiners, Markdown's entities and backslashes), markup marks dropped."""
    text = post.replace("\u200b", "").replace("\u2060", "").replace("\u00a0", " ")
    text = html.unescape(text).replace("\u200b", "")
    text = re.sub(r"\\(.)", r"\1", text)
    text = re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", text)
    return re.sub(r"[ \t]+", " ", text)


def found(value: str, text: str) -> bool:
    """`value` as a whole word (or words) of `text`, any case."""
    return re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", text, re.IGNORECASE) is not None


def found_among(values, text: str) -> set[str]:
    """Which of `values` are whole words of `text`: one pass finds where any of
    them starts, then each is tried there (one may start where another does)."""
    if not values:
        return set()
    hits = set()
    for m in _starts(frozenset(values)).finditer(text):
        rest = text[m.start():]
        hits |= {v for v in values if re.match(re.escape(v) + r"(?!\w)", rest, re.IGNORECASE)}
    return hits


@functools.lru_cache(maxsize=256)
def _starts(values: frozenset):
    return re.compile(r"(?<!\w)(?=" + "|".join(re.escape(v) for v in values) + ")", re.IGNORECASE)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def lines_of(text: str) -> list[str]:
    """The lines of a roleplay or narration long enough to be recognised in a post
    (Markdown marks dropped: the narration is converted)."""
    out = []
    for line in str(text).splitlines():
        line = re.sub(r"[*_`#>]", "", line).strip()
        line = re.sub(r"\s+", " ", line)
        if len(line) >= 12:
            out.append(line)
    return out


def leaks(rs, scenario, state, events, handed, post) -> list[str]:
    """Everything of the three checks that fails for one public post; `state` is
    the state the turn led to, `events` the turn's events, `handed` what the
    public template got."""
    problems = [f"{e.kind} event for {e.audience!r} handed to the public post"
                for e in handed if e.audience is not ev.PUBLIC]
    text = plain(post)
    public = [e for e in events if e.audience is ev.PUBLIC]
    said = "\n".join(s for e in public if e.kind in SPOKEN for s in strings(e.data))
    declared = rs.secret_values(state, scenario)
    secrets = declared - found_among(declared, said)
    shown = "\n".join(s for e in public if e.kind not in SPOKEN for s in strings(e.data))
    in_post, in_data = found_among(secrets, text), found_among(secrets, shown)
    for secret in sorted(secrets):
        if secret in in_post:
            problems.append(f"secret value {secret!r} in the public post")
        if secret in in_data:
            problems.append(f"secret value {secret!r} in a public event's data")
    for e in events:
        if e.kind in SPOKEN and e.audience is not ev.PUBLIC:
            for line in lines_of(e.data.get("text") or e.data.get("markdown") or ""):
                if line.casefold() in re.sub(r"\s+", " ", text).casefold() and not found(line, said):
                    problems.append(f"{e.kind} for {e.audience!r} in the public post: {line!r}")
    return problems


PRODUCTION_FILTER = ev.by_audience


def leaky_by_audience(events):
    """The production filter, broken: every event also goes public."""
    grouped = PRODUCTION_FILTER(events)
    grouped[ev.PUBLIC] = list(events)
    return grouped


# -- (a) every archived turn of every example --------------------------------------------------

def in_language(campaign: Campaign, lang: str) -> Campaign:
    """The same campaign in another language: same folder, ruleset and scenario."""
    other = campaign.replace(config={**campaign.config, "lang": lang})
    other.__dict__.update(ruleset=campaign.ruleset, scenario=campaign.scenario)
    return other


def example_posts(name: str, spy: PublicTemplate):
    """(turn, lang, format, post, handed events, output) for every archived turn
    of an example, recomputed and rendered by the production path, in both
    languages and both formats; then the archived public post itself."""
    campaign = open_campaign(package_dir("campaigns") / name)
    for n in campaign.resolved_turns():
        out = turns.compute(campaign, n)
        for lang in LANGS:
            local = in_language(campaign, lang)
            for fmt, ext in FORMATS.items():
                turn_posts.render_all(local, out, fmt)
                yield n, lang, fmt, out.files[f"public.{ext}"].decode(), spy.take(), out
        for ext in FORMATS.values():
            archived = campaign.turn_dir(n) / f"public.{ext}"
            if archived.exists():
                yield n, campaign.lang, "archive", archived.read_text(encoding="utf-8"), [], out


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_public_post_of_an_example_keeps_the_secrets(name, monkeypatch):
    campaign = open_campaign(package_dir("campaigns") / name)
    rs, scenario = campaign.ruleset, campaign.scenario
    spy = PublicTemplate(monkeypatch)
    checked, with_secrets, private = 0, 0, 0
    for n, lang, fmt, post, handed, out in example_posts(name, spy):
        assert leaks(rs, scenario, out.state, out.events, handed, post) == [], (name, n, lang, fmt)
        checked += 1
        with_secrets += bool(rs.secret_values(out.state, scenario))
        private += any(e.audience is not ev.PUBLIC for e in out.events)
    turns_done = len(campaign.resolved_turns())
    assert checked == turns_done * (len(LANGS) * len(FORMATS) + 1)
    # the check had something to look for: declared secrets, private events
    assert with_secrets >= checked * 0.8 and private == checked


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_example_check_fails_when_private_events_go_public(name, monkeypatch):
    campaign = open_campaign(package_dir("campaigns") / name)
    spy = PublicTemplate(monkeypatch)
    monkeypatch.setattr(ev, "by_audience", leaky_by_audience)
    failed = []
    for n, lang, fmt, post, handed, out in example_posts(name, spy):
        if fmt != "archive":
            failed.append(leaks(campaign.ruleset, campaign.scenario, out.state, out.events, handed, post) != [])
    assert failed and all(failed)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_secrets_are_found_if_the_thread_got_the_mj_report(name, tmp_path, monkeypatch):
    """The secret values are declared the way the posts print them: had the MJ's
    report, with every event, been pasted in the thread, the check finds them."""
    root = copy_example(name, tmp_path)
    write(root, "templates/public.j2", '{% include "gm.j2" %}\n')
    write(root, "templates/setup_public.j2", '{% include "setup_gm.j2" %}\n')
    campaign = open_campaign(root)
    spy = PublicTemplate(monkeypatch)
    monkeypatch.setattr(ev, "by_audience", leaky_by_audience)
    found_secrets = {}
    for n in campaign.resolved_turns():
        out = turns.compute(campaign, n)
        for lang in LANGS:
            turn_posts.render_all(in_language(campaign, lang), out, "bbcode")
            problems = leaks(campaign.ruleset, campaign.scenario, out.state, out.events, spy.take(),
                             out.files["public.bbcode"].decode())
            found_secrets[n, lang] = [p for p in problems if p.startswith("secret value") and "post" in p]
    assert all(found_secrets.values()), found_secrets


# -- (b) turns played by bots -------------------------------------------------------------------

def bot_campaign(root: Path, rs, scenario, lang: str, fmt: str, dialect: str) -> Campaign:
    """A campaign with no files: what render_all needs (roster, title, language,
    format, ruleset, scenario)."""
    config = {"ruleset": rs.id, "title": f"Bots {rs.id}", "lang": lang, "format": fmt, "dialect": dialect,
              "secret": f"bots-{rs.id}", "players": dict(scenario.roster)}
    campaign = Campaign(root, config)
    campaign.__dict__.update(ruleset=rs, scenario=scenario)
    return campaign


@functools.lru_cache(maxsize=None)
def example_campaign(name: str) -> Campaign:
    """A bundled example, opened once: its rules compiled once for all its games."""
    return open_campaign(package_dir("campaigns") / name)


def bot_scenario(rs, game: int, root: Path, example: str | None = None):
    """A synthetic world and sheets, as `pbp simulate` makes them; for a ruleset
    that cannot make one (no SIMULATE), its skeleton's (or example's) own; with
    `example`, that example campaign's."""
    if example is not None:
        return example_campaign(example).scenario
    if ruleset.SIMULATE in type(rs).capabilities:
        return rs.sample_scenario(BOT_PLAYERS, random.Random(game))
    folder = root / f"{rs.id}-campaign"
    if not folder.exists():
        example = not (type(rs).folder() / "skeleton" / "campaign.yaml").is_file()
        r = pbp("init", folder, "--ruleset", rs.id, "--no-git", *(["--example"] if example else []))
        assert r.exit_code == 0, r.output
    return open_campaign(folder).scenario


def bot_turns(rid: str, count: int, root: Path, example: str | None = None):
    """`count` turns (set-ups included) of games played by the ruleset's bots, the
    way `pbp simulate` plays them, each rendered by render_all in one of VARIANTS.
    Every turn the MJ narrates in public, to the MJ alone and to one player, and
    every player writes some roleplay. Yields (rs, scenario, output, campaign)."""
    made, game = 0, 0
    while made < count:
        rs = ruleset.get(rid) if example is None else example_campaign(example).ruleset
        scenario = bot_scenario(rs, game, root, example)
        bots = random.Random(game ^ 0x5EED)
        campaigns = [bot_campaign(root, rs, scenario, *v) for v in VARIANTS]
        secret = f"secrecy:{rid}:{game}"
        dice = Dice(secret, 0)
        setup = rs.setup(scenario, dice)
        state = setup.state
        yield rs, scenario, output(0, state, setup.events), campaigns[made % 4]
        made += 1
        n = 0
        while made < count and not rs.is_over(state) and n < BOT_GAME_TURNS:
            n += 1
            playing = rs.players_to_play(state, scenario)
            orders = {h: PlayerOrders(h, n, list(rs.bot_orders(state, scenario, h, bots)),
                                      roleplay=f"{scenario.name(h)} parle au tour {n}, à haute voix.")
                      for h in scenario.roster if h in playing}
            first = next(iter(scenario.roster))
            narration = {"public": f"Le MJ raconte le tour {n} à tout le fil.",
                         "gm": f"Note du MJ pour lui seul, tour {n}.",
                         first: f"Un secret pour {scenario.name(first)} seul, tour {n}."}
            # every other turn is quiet, as in `pbp simulate` (d100's simulated MJ plays then)
            gm = GmOrders(n, narration=narration, quiet=n % 2 == 0)
            dice = Dice(secret, n)
            result = rs.resolve(pickle.loads(pickle.dumps(state)), scenario, orders, gm, dice)
            campaign = campaigns[made % 4]
            events = list(result.events) + turns.extra_events(campaign, turn_inputs.TurnInputs(orders, gm, []), state)
            yield rs, scenario, output(n, result.state, events), campaign
            made += 1
            state = result.state
        game += 1


def output(n: int, state: dict, events) -> turns.TurnOutput:
    """A turn's output as render_all gets it from compute: the events as they are
    stored (plain YAML values). The state, roll and event files a bot turn does
    not need are not written (dumping them is most of a turn's time)."""
    return turns.TurnOutput(n, state, as_stored(events))


def bot_post(campaign, out) -> str:
    turn_posts.render_all(campaign, out)
    return out.files[f"public.{FORMATS[campaign.format]}"].decode()


def other_examples(rid: str) -> list[str]:
    """The example campaigns of `rid` beyond its own (`Ruleset.example`): the data
    ruleset has one per event written as data, each with its own rules."""
    own = ruleset.load_class(rid).example
    return [name for name in EXAMPLES if name != own
            and yamlio.load_file(package_dir("campaigns") / name / "campaign.yaml").get("ruleset") == rid]


BOT_SOURCES = [(rid, None) for rid in RULESETS] + [(rid, name) for rid in RULESETS for name in other_examples(rid)]
BOT_IDS = [rid if name is None else f"{rid}-{name}" for rid, name in BOT_SOURCES]


@pytest.mark.parametrize("rid, example", BOT_SOURCES, ids=BOT_IDS)
def test_bot_turns_keep_the_secrets(rid, example, tmp_path, monkeypatch):
    spy = PublicTemplate(monkeypatch)
    checked, with_secrets, kinds = 0, 0, set()
    for rs, scenario, out, campaign in bot_turns(rid, BOT_TURNS, tmp_path, example):
        post = bot_post(campaign, out)  # first: the spy sees what this turn's post was handed
        assert leaks(rs, scenario, out.state, out.events, spy.take(), post) == [], (rid, out.turn, campaign.lang)
        checked += 1
        with_secrets += bool(rs.secret_values(out.state, scenario))
        kinds |= {(e.kind, type(e.audience)) for e in out.events}
    assert checked == BOT_TURNS
    # events of every audience went through the check (the core's narration is one of each)
    assert {ev.Public, ev.Gm, ev.Players} <= {audience for _, audience in kinds}
    # a ruleset that tells anything in private declares what must stay so
    if any(audience is not ev.Public for kind, audience in kinds if kind not in CORE_KINDS):
        assert with_secrets >= checked * 0.8, "the ruleset declares no secret in most states"


@pytest.mark.parametrize("rid, example", BOT_SOURCES, ids=BOT_IDS)
def test_the_bot_check_fails_when_private_events_go_public(rid, example, tmp_path, monkeypatch):
    spy = PublicTemplate(monkeypatch)
    monkeypatch.setattr(ev, "by_audience", leaky_by_audience)
    caught, words = 0, 0
    for rs, scenario, out, campaign in bot_turns(rid, 12, tmp_path, example):
        try:
            post = bot_post(campaign, out)
        except Exception:  # a public template may choke on a private event: what it was handed still counts
            post = None
        problems = leaks(rs, scenario, out.state, out.events, spy.take(), post or "")
        if any(e.audience is not ev.PUBLIC for e in out.events):
            assert any("handed to the public post" in p for p in problems), (rid, out.turn)
            caught += 1
        if post is not None and f"Le MJ raconte le tour {out.turn} à tout le fil." in plain(post):
            # a post that quotes the MJ's narration quotes the private one too: the words are found
            assert any(p.startswith("narration for GM in the public post") for p in problems), (rid, out.turn)
            words += 1
    assert caught >= 5  # turns with private events (a set-up may have none)
    # every bundled ruleset's post quotes the narration (a ruleset's own template may not)
    assert words >= 5 or rid not in ruleset._builtin_ids()


def test_the_check_names_each_kind_of_leak():
    """One fabricated turn per layer: a private event handed over, a secret in the
    post, a secret in a field no template prints, a private roleplay quoted."""
    rs = ruleset.get("murder")
    campaign = open_campaign(package_dir("campaigns") / "murder")
    state = campaign.state(1)
    alibi = next(s for s in rs.secret_values(state, campaign.scenario) if s.startswith("Elle préparait"))
    sneaky = ev.public("moved", player="bruno", path=["Hall"], note=alibi)
    ghost = ev.gm("roleplay", player="damien", character="Damien Roux", text="Je hante la serre, moi, Damien.")
    problems = leaks(rs, campaign.scenario, state, [sneaky, ghost], [ghost],
                     f"[b]Bruno[/b] : {alibi[:30]}\u200b{alibi[30:]}\n[quote]Je hante la serre, moi, Damien.[/quote]")
    assert problems == [
        "roleplay event for GM handed to the public post",
        f"secret value {alibi!r} in the public post",
        f"secret value {alibi!r} in a public event's data",
        "roleplay for GM in the public post: 'Je hante la serre, moi, Damien.'",
    ]
    # what a player says in public is theirs to say
    said = ev.public("roleplay", player="bruno", character="Bruno Lacaze", text=alibi)
    assert leaks(rs, campaign.scenario, state, [said], [said], alibi) == []


# -- audiences as types -------------------------------------------------------------------------

def test_no_handle_is_the_public_thread_or_the_mj():
    assert ev.Players("gm") != ev.GM and ev.Players("public") != ev.PUBLIC
    assert ev.GM != "gm" and ev.PUBLIC != "public" and ev.Players("lucy") != ("lucy",)
    grouped = ev.by_audience([ev.private("gm", "x"), ev.gm("y"), ev.public("z")])
    assert [e.kind for e in grouped[ev.Players("gm")]] == ["x"]
    assert [e.kind for e in grouped[ev.GM]] == ["x", "y", "z"] and [e.kind for e in grouped[ev.PUBLIC]] == ["z"]
    assert turn_posts.post_path(ev.Players("gm"), "bbcode") == "private/gm.bbcode"
    assert turn_posts.post_path(ev.GM, "md") == "gm.md" and turn_posts.post_path(ev.PUBLIC, "md") == "public.md"
    with pytest.raises(TypeError):
        ev.Event("x", {}, "public")
    with pytest.raises(TypeError):
        turn_posts.post_path(ev.Players("a", "b"), "md")


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
    r = pbp("post", "--turn", "1", "--format", "markdown", cwd=root)  # rendered again from its events
    assert r.exit_code == 1 and r.stderr.strip().splitlines()[-1] == message  # after the language warning


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
    from pbp.engine.campaign_config import RESERVED_HANDLES

    held = {p.name for name in EXAMPLES for folder in (package_dir("campaigns") / name / "turns").iterdir()
            for p in folder.iterdir()}
    assert held and held <= set(TURN_FOLDER)
    assert {n.casefold() for n in held} | {n.split(".")[0] for n in held} <= RESERVED_HANDLES
    assert {"gm", "public", "mj", "all", "tous"} <= RESERVED_HANDLES


@pytest.mark.parametrize("handle", ["gm", "GM", "Public", "mj", "all", "TOUS", "state", "events", "orders",
                                    "private", "rolls", "public.bbcode", "rules"])
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
        f"campaign.yaml:5: the handle `{handle}` is reserved (it names the public thread, the GM or a file of a "
        f"turn's folder): choose another one, e.g. `{handle}_1`. Reserved handles (any case): all, events, gm, mj, "
        "orders, private, public, rolls, rules, state, tous, turn.")


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
