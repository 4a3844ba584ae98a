"""d100's posts as the forum reads them: a chance shown term by term with each
term named (French and English), the die in the public post and never the
chance (`public_check`), criticals with their range, a manipulation's chance,
agreement by the sheet's `genre`, a character at 0 PV (no recovery, the report
ends), the public standing, English forms in English, and every post of the
example through independent parsers (markdown-it-py with GFM options, bbcodepy)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
# the independent parsers come with pyproject's `test` extra
bbcodepy = pytest.importorskip("bbcodepy", reason="a test dependency: pip install -e '.[test]'")
from markdown_it import MarkdownIt

from pbp.base import i18n, yamlio
from pbp.engine.campaign import open_campaign
from pbp.engine.turn_posts import render_post, renderer
from pbp.engine.turn_record import stored_events
from pbp.model import events as ev
from pbp.render.render import Renderer, template_paths
from pbp.rulesets.d100 import D100
from tests.helpers import copy_example, pbp, write

from .test_d100_support import of, orders_from, resolve, ruleset, scenario, setup_state, sheet


def render(events, template="public", lang="fr", fmt="markdown", player=None, sc=None):
    sc = sc or scenario()
    rend = Renderer(template_paths("d100", lang, None, D100.folder()), fmt, "phpbb", lang)
    audience = ev.PUBLIC if template == "public" else ev.GM if template == "gm" else ev.Players(player)
    names = {h: sc.name(h) for h in sc.roster}
    return rend.render(template, turn=1, title="T", events=ev.by_audience(events).get(audience, []), names=names,
                       audience=audience, player=player, character=names.get(player), by_player={})


def play(actions=None, gm=None, forced=None, rules=None, sc=None):
    rs = ruleset(rules)
    sc = sc or scenario()
    state = setup_state(rs, sc)
    return resolve(rs, sc, state, actions or {}, gm=gm, forced=forced)


CHECK = {"jet": {"carac": "mental", "competence": "persuasion", "modificateur": -10, "faction": "syndicat",
                 "but": "convaincre le passeur"}}
GM = {"situation": [{"joueur": "kira", "de": "1d6", "plage": 2, "raison": "l'alarme"}],
      "confiance": [{"faction": "syndicat", "niveau": 2}]}


# -- the chance, term by term ----------------------------------------------------------------

def test_the_chance_names_each_term_then_sums_them():
    _, events, _ = play({"kira": [CHECK]}, gm=GM, forced={"kira.situation": 6, "kira.jet": 44})
    [detail] = of(events, "check_detail", "kira")
    assert detail.data["chance"] == 74
    report = render(events, "private", player="kira")
    assert ("Jet de Mental + persuasion (« convaincre le passeur ») : 1d100 (44) ≤ 74 : **réussite**\n\n"
            "Chance : Mental 60 + 10 persuasion (Maîtrise) − 10 modificateur + 10 situation « l'alarme » "
            "(+2 points) + 4 confiance Syndicat de la Bordure (+2, doublée car tout le groupe est du même côté : "
            "+4) = 74. Confiance Syndicat de la Bordure : +1 en fin de tour.\n") in report
    assert "Confiance envers Syndicat de la Bordure : +2 + 1 = +3.\n" in report
    report = render(events, "private", player="kira", lang="en")
    assert ("Check: Mind + persuasion (“convaincre le passeur”): 1d100 (44) ≤ 74: **success**\n\n"
            "Chance: Mind 60 + 10 persuasion (Mastery) − 10 modifier + 10 situation “l'alarme” (+2 points) + 4 "
            "trust Syndicat de la Bordure (+2, doubled as the whole group is on one side: +4) = 74. Trust Syndicat "
            "de la Bordure: +1 at the end of the turn.\n") in report


def test_a_skill_noted_with_a_die_and_a_zero_trust_show_their_parts():
    _, events, _ = play({"kira": [{"jet": {"carac": "physique", "competence": "pilotage", "faction": "empire"}}]},
                        forced={"kira.situation": 5, "kira.jet": 80})
    report = render(events, "private", player="kira")
    assert ("Jet de Physique + pilotage : 1d100 (80) > 55 : **échec**\n\n"
            "Chance : Physique 50 + 5 pilotage (dé de situation 1d6 (5), plage ±2 : +1 point) + 0 confiance Empire "
            "galactique (+0) = 55.") in report


@pytest.mark.parametrize("roll, line, private", [
    (3, "1d100 (3), **réussite critique** (1 à 5)",
     "1d100 (3) : **réussite critique** (1 à 5, quelle que soit la chance de 50)"),
    (97, "1d100 (97), **échec critique** (96 à 100)",
     "1d100 (97) : **échec critique** (96 à 100, quelle que soit la chance de 50)"),
])
def test_a_critical_says_why_the_chance_did_not_matter(roll, line, private):
    _, events, _ = play({"kira": [{"jet": "physique"}]}, forced={"kira.jet": roll})
    assert f"- **Kira Vel** — jet de Physique : {line}\n" in render(events)
    assert f"Jet de Physique : {private}\n" in render(events, "private", player="kira")


# -- what the thread reads of a check -----------------------------------------------------------

def test_the_thread_reads_the_die_never_the_chance():
    _, events, _ = play({"kira": [CHECK]}, gm=GM, forced={"kira.situation": 6, "kira.jet": 44})
    [check] = of(events, "check", "kira")
    assert check.audience == ev.PUBLIC and check.data["roll"]["total"] == 44 and "chance" not in check.data
    public = render(events)
    assert "- **Kira Vel** — jet de Mental (« convaincre le passeur »), face à Syndicat de la Bordure : 1d100 " \
           "(44), **réussite**\n" in public
    assert "74" not in public and "≤" not in public and "Mental 60" not in public
    assert "- **Kira Vel** — Mind check (“convaincre le passeur”), facing Syndicat de la Bordure: 1d100 (44), " \
           "**success**\n" in render(events, lang="en")
    # `public_check: outcome`: the outcome alone
    _, events, _ = play({"kira": [CHECK]}, gm=GM, forced={"kira.situation": 6, "kira.jet": 44},
                        rules={"public_check": "outcome"})
    [check] = of(events, "check", "kira")
    assert check.data["roll"] is None
    assert "- **Kira Vel** — jet de Mental (« convaincre le passeur »), face à Syndicat de la Bordure : " \
           "**réussite**\n" in render(events)


def test_a_bad_public_check_is_refused(tmp_path):
    root = copy_example("d100", tmp_path)
    config = (root / "campaign.yaml").read_text(encoding="utf-8") + "rules:\n  public_check: tout\n"
    write(root, "campaign.yaml", config)
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert ("campaign.yaml:15: rules.public_check : « tout » n'est pas une valeur possible (die : le dé et le "
            "résultat ; outcome : le résultat seul). Valeurs possibles : die, outcome.") in r.output


def test_a_manipulation_shows_its_chance():
    _, events, _ = play(gm={"manipulation": [{"joueur": "tia", "chance": 55, "modificateur": -10,
                                              "description": "l'Inquisiteur"}]},
                        forced={"tia.manipulation": 30})
    report = render(events, "private", player="tia")
    assert ("Manipulation (« l'Inquisiteur ») : 1d100 (30) ≤ 45 : **réussite**. Chance : chance du PNJ 55 − 10 "
            "modificateur = 45. L'état stable est rompu (10 → 9 points clairs).") in report
    _, events, _ = play(gm={"manipulation": [{"joueur": "tia", "par": "brann", "carac": "mental",
                                              "competence": "intimidation"}]}, forced={"tia.manipulation": 60})
    assert ("Votre manipulation de Tia Rook : 1d100 (60) > 55 : **échec**. Chance : Mental 45 + 10 intimidation "
            "(Maîtrise) = 55.") in render(events, "private", player="brann")


# -- a character at 0 PV ---------------------------------------------------------------------------

@pytest.mark.parametrize("genre, words", [("f", "morte ou capturée"), ("m", "mort ou capturé"),
                                          (None, "hors de combat")])
def test_a_character_at_0_pv_goes_down_and_their_report_ends(genre, words):
    sheets = {"kira": sheet(**({"genre": genre} if genre else {})), "brann": sheet(nom="Brann Dask", force=0)}
    sc = scenario(sheets)
    # a quiet turn (nobody acts): everyone in play recovers, but not Kira, whose last PV go
    new, events, _ = play(gm={"jauge": [{"joueur": "kira", "pv": -10, "raison": "le tir"}]}, sc=sc,
                          forced={})
    assert new["characters"]["kira"]["down"] and new["characters"]["kira"]["action"] == 4
    assert [e.data["player"] for e in of(events, "recovery")] == ["brann"]
    assert f"- **Kira Vel** s'effondre, {words}.\n" in render(events, sc=sc)
    report = render(events, "private", player="kira", sc=sc)
    assert report.split("\n\n")[1:] == [
        "Le MJ (« le tir ») : PV 10 − 10 → 0/10.",
        "**Vous êtes hors de combat** : votre personnage n'a plus de PV ; le MJ dira s'il est mort ou capturé.",
        "#### Fiche en fin de tour",
        "**Jauges** : PV 0/10, Force 3/3, Action 4/4 — hors de combat",
        "**Alignement** : 6 points clairs, 4 points obscurs",
        "**Consommables** : Medpac ×1\n"]


def test_the_standing_tells_who_is_in_play():
    rs = ruleset()
    sc = scenario()
    state = setup_state(rs, sc)
    state["characters"]["brann"]["down"] = True
    standing = rs.standing(state, sc)
    assert standing == [{"name": "Kira Vel", "handle": "kira", "status": "d100.standing_playing"},
                        {"name": "Brann Dask", "handle": "brann", "status": "d100.standing_down"},
                        {"name": "Tia Rook", "handle": "tia", "status": "d100.standing_playing"}]
    assert [i18n.t("fr", s["status"]) for s in standing] == [
        "en jeu", "hors de combat (mort ou capturé, selon le MJ)", "en jeu"]
    assert i18n.t("en", "d100.standing_down") == "out of action (dead or captured, as the GM tells)"


# -- English forms ------------------------------------------------------------------------------

FRENCH_IDS = ["jet", "utiliser", "dormir", "rien", "carac", "competence", "modificateur", "intention", "but",
              "objet", "cible", "physique", "logique", "clair", "obscur", "complexe", "oui", "non"]


def test_an_english_form_shows_english_words_and_they_are_accepted(tmp_path):
    root = copy_example("d100", tmp_path)
    write(root, "campaign.yaml", (root / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", "lang: en"))
    form = pbp("orders", "--player", "tia", cwd=root).output
    lines = form.splitlines()
    assert ("#   - check: {stat: physical | logic | mind, skill: text, modifier: number, intent: light | dark, faction: "
            "text, type: simple | complex | instinct, purpose: text}    (French id: jet)") in lines
    assert "#   - use: {item: text, target: player, intent: light | dark, purpose: text}    (French id: utiliser)" \
        in lines
    assert "#   Physical 25, Logic 55, Mind 49" in lines
    assert "#   Alignment: 0 light points, 10 dark points — stable state (dark side): dark intent only (+10 %)" in lines
    # the core's form names each French id once, in parentheses; the sheet's own words aside, nothing is French
    rest = re.sub(r"\(French id: \w+\)", "", form)
    for words in _mj_words(open_campaign(root)):
        rest = rest.replace(words, "¤")
    assert [w for w in FRENCH_IDS if re.search(rf"(?<![\w-]){w}(?![\w-])", rest)] == []
    # an English order file, as the form suggests, is understood
    rs, sc = ruleset(), scenario()
    parsed = orders_from(rs, sc, "tia", [{"check": {"stat": "logic", "skill": "piratage", "intent": "light",
                                                    "modifier": 10, "type": "complex", "purpose": "open"}},
                                         {"use": {"item": "kit de crochetage", "target": "kira"}}])
    assert [(a.id, a.arg) for a in parsed.actions] == [
        ("jet", {"carac": "logique", "competence": "piratage", "intention": "clair", "modificateur": 10,
                 "type": "complexe", "but": "open", "faction": None}),
        ("utiliser", {"objet": "kit de crochetage", "cible": "kira", "intention": None, "but": None})]


# -- structure, through independent parsers -------------------------------------------------------

class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.count: dict[str, int] = {}
        self.stack: list[str] = []
        self.paragraphs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        if tag == "p":
            self.paragraphs.append("")
        if tag not in ("br", "img", "hr"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]

    def handle_data(self, data):
        if "p" in self.stack[-2:]:
            self.paragraphs[-1] += data


def _parsed(html):
    tags = _Tags()
    tags.feed(html)
    tags.close()
    return tags


def _mj_words(campaign) -> list[str]:
    """The MJ's and the players' own words (French in the example): every text and key
    of the sheets and the world, every text of the order files."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for k, v in value.items():
                found.add(str(k))
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            found.add(value)

    walk(campaign.scenario.characters)
    walk(campaign.scenario.world)
    for path in campaign.root.glob("turns/*/orders/*.yaml"):
        walk(yamlio.load_file(path).get("actions"))
    return sorted((w for w in found if len(w) > 2), key=len, reverse=True)


FRENCH_WORDS = FRENCH_IDS + ["tour", "réussite", "échec", "chance :", "jauges", "confiance", "compétences",
                             "caractéristiques", "travers", "point clair", "points clairs", " : "]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_post_of_the_example_is_well_formed_and_english_when_english(tmp_path, lang):
    root = copy_example("d100", tmp_path)
    write(root, "campaign.yaml", (root / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr",
                                                                                              f"lang: {lang}"))
    campaign = open_campaign(root)
    rends = {fmt: renderer(campaign, fmt) for fmt in ("markdown", "bbcode")}
    mj_words = _mj_words(campaign)
    bbpy = bbcodepy.Parser()
    posts = 0
    for n in campaign.resolved_turns():
        # the MJ's narration and the players' roleplay are their own words
        events = [e for e in stored_events(campaign, n) if e.kind not in ("narration", "roleplay")]
        for audience in (ev.PUBLIC, ev.GM, *[ev.Players(h) for h in campaign.roster]):
            for fmt, rend in rends.items():
                text = render_post(campaign, n, events, audience, rend)
                where = (n, audience, fmt)
                posts += 1
                if fmt == "markdown":
                    tags = _parsed(MarkdownIt("gfm-like").render(text))
                    assert tags.count.get("li", 0) == len([x for x in text.splitlines() if re.match(r"\s*- ", x)])
                    assert [p for p in tags.paragraphs if "\n" in p.strip()] == [], where
                else:
                    assert [x for x in text.splitlines() if re.match(r"\s*(- |\d+\. )", x)] == [], where
                    tags = _parsed(bbpy.to_html(text))
                    assert tags.count.get("li", 0) == text.count("[*]") and text.count("[list]") == text.count(
                        "[/list]") == tags.count.get("ul", 0), where
                if lang == "en":
                    rest = text
                    for words in mj_words:
                        rest = rest.replace(words, "¤")
                    assert [w for w in FRENCH_WORDS
                            if re.search(rf"(?i)(?<![\w-]){re.escape(w)}(?![\w-])", rest)] == [], where
    assert posts == 4 * 5 * 2
