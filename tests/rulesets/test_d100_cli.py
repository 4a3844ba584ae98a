"""d100 through the real command line, on scratch copies of the example
campaign: verify, refused orders (file:line, exit 1, nothing written), the
`pbp d100 generate` command, `pbp init`, and secrecy of the public posts."""

from __future__ import annotations

import random
import re

import pytest

from pbp.base import yamlio
from pbp.engine.campaign import open_campaign
from pbp.model import events as ev, ruleset
from pbp.model.dice import Dice
from pbp.model.orders import GmOrders, PlayerOrders
from pbp.render.render import Renderer, package_dir, template_paths
from tests.helpers import copy_example, pbp, unsealed, write

EXAMPLE = package_dir("campaigns") / "d100"


@pytest.fixture
def example(tmp_path):
    return copy_example("d100", tmp_path)


def snapshot(root):
    """Every file of the campaign, to prove a refused run wrote nothing."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# -- the example --------------------------------------------------------------------------------

def test_example_verifies_through_the_cli(example):
    r = pbp("verify", cwd=example)
    assert r.exit_code == 0, r.output
    assert "4 tours rejoués à l'identique." in r.output


def test_example_next_turn_plays(example):
    r = pbp("run", "--no-commit", cwd=example)
    assert r.exit_code == 0, r.output
    state = yamlio.load_file(example / "turns" / "004" / "state.yaml")
    # Brann's stimulant: +2 Action (4 -> 5, the gauge's maximum) before his instinctive shot (-1)
    assert state["characters"]["brann"]["uses"]["stimulant"] == 0
    assert state["characters"]["brann"]["action"] == 4
    public = unsealed((example / "turns" / "004" / "public.bbcode").read_text())
    assert public == (
        "[size=18][b]Sauvetage sur Tellis IV — tour 4[/b][/size]\n\n"
        "[size=15][b]Actions du tour[/b][/size]\n\n"
        "[list]\n"
        "[*][b]Kira Vel[/b] — jet de Mental (« convaincre l'officier de garde de baisser son arme »), face à "
        "Garnison impériale : 1d100 (9), [b]réussite[/b]\n"
        "[*][b]Brann Dask[/b] utilise Stimulant\n"
        "[*][b]Brann Dask[/b] — jet de Physique (« couvrir la retraite ») : 1d100 (94), [b]échec[/b]\n"
        "[*][b]Tia Rook[/b] — jet de Logique (« saboter les tourelles du hangar, tant pis pour les techniciens ») : "
        "1d100 (50), [b]réussite[/b]\n"
        "[/list]\n\n"
        "[size=15][b]Roleplay des joueurs[/b][/size]\n\n"
        "[quote=\"Kira Vel\"]« Vous n'êtes pas obligé de mourir pour eux, lieutenant. »[/quote]\n\n"
        "[quote=\"Brann Dask\"]Brann s'injecte le stimulant et se poste à l'angle du couloir.[/quote]\n\n"
        "[quote=\"Tia Rook\"]Tia arrache un panneau et commence à croiser les câbles.[/quote]\n\n"
        "[b]Où en sont les personnages[/b]\n[list]\n[*]Kira Vel\u00a0: en jeu\n[*]Brann Dask\u00a0: en jeu\n"
        "[*]Tia Rook\u00a0: en jeu\n[/list]\n")
    brann = (example / "turns" / "004" / "private" / "brann.bbcode").read_text()
    assert brann == (
        "[size=18][b]Rapport privé de Brann Dask — tour 4[/b][/size]\n\n"
        "Stimulant (équipement) : effet appliqué ; plus aucune utilisation.\n\n"
        "Brann Dask, Stimulant : Action 4 + 2 → 5/5.\n\n"
        "Jet de Physique + blaster (« couvrir la retraite ») : 1d100 (94) > 62 : [b]échec[/b]\n\n"
        "Chance : Physique 47 + 15 blaster (Expertise) = 62. Coût : 1 point d'Action.\n\n"
        "[size=15][b]Fiche en fin de tour[/b][/size]\n\n"
        "[b]Jauges[/b] : PV 9/15, Action 4/5\n\n"
        "[b]Alignement[/b] : 5 points clairs, 5 points obscurs\n\n"
        "[b]Confiance[/b] : Syndicat de la Bordure +2, Garnison impériale -2\n\n"
        "[b]Consommables[/b] : Stimulant ×0\n")
    assert pbp("verify", cwd=example).exit_code == 0


def test_example_shows_the_rules_in_its_archive():
    campaign = open_campaign(EXAMPLE)
    from pbp.engine import turn_record

    kinds = set()
    for n in campaign.resolved_turns():
        kinds |= {e.kind for e in turn_record.stored_events(campaign, n)}
    assert {"check", "check_detail", "trust_set", "trust_change", "situation", "alignment_event", "rupture",
            "gauge_change", "recovery", "quiet_turn", "use", "sleep", "summary", "deadline_played"} <= kinds
    final = campaign.state(3)["characters"]
    assert final["kira"]["light"] == 9  # the grave event broke her stable state
    assert final["tia"]["light"] == 0   # the alignment event made her stable (dark)


STATUS_BODY = """
Niveau 1

Kira Vel (kira)
---------------

Jauges : PV 11/11, Force 5/5, Action 3/4

Alignement : 9 points clairs, 1 point obscur

Confiance : Syndicat de la Bordure +2, Garnison impériale -2

Consommables : Medpac ×2

Brann Dask (brann)
------------------

Jauges : PV 9/15, Action 4/5

Alignement : 5 points clairs, 5 points obscurs

Confiance : Syndicat de la Bordure +2, Garnison impériale -2

Consommables : Stimulant ×1

Tia Rook (tia)
--------------

Jauges : PV 11/11, Action 5/5

Alignement : 0 point clair, 10 points obscurs — état stable (côté obscur)

Confiance : Syndicat de la Bordure +1, Garnison impériale -3

Consommables : Medpac ×1
"""

TIA_HINTS = """\
# Votre fiche (Tia Rook) :
#   Physique 25, Logique 55, Mental 49
#   Jauges : PV 11/11, Action 5/5
#   Alignement : 0 point clair, 10 points obscurs — état stable (côté obscur) : intention « obscur » seulement (+10 %)
#   compétence blaster (Armes et pouvoirs de Force) : +1
#   compétence piratage (Techniques) : +3
#   compétence electronique (Techniques) : +2
#   compétence mecanique (Techniques) : +1
#   compétence discretion (Autres) : +2
#   compétence bluff (Autres) : +1
#   compétence athletisme (Autres) : -1
#   objet Charges de thermite (inventaire)
#   objet Kit de piratage (équipement)
#   objet Medpac (équipement), 1 utilisation au départ
#   objet Blaster de poche (armement)
#   reste : Medpac ×1
#   Factions : empire (Garnison impériale), syndicat (Syndicat de la Bordure)
"""


def test_example_status_and_orders_form(example):
    r = pbp("status", cwd=example)
    assert r.exit_code == 0
    assert STATUS_BODY in r.output  # the ruleset's part (status_body.j2), after the core's title
    r = pbp("orders", "--player", "tia", cwd=example)
    assert r.exit_code == 0
    head = r.output.split("\nplayer: tia")[0]
    assert all(line.startswith("#") for line in head.splitlines())
    assert "\n#\n" + TIA_HINTS + "#\n# Exemples :\n" in head  # orders_hints.j2, between the core's lines
    assert yamlio.loads(r.output)["player"] == "tia"  # the form is valid YAML


# -- refused orders, through the CLI ---------------------------------------------------------------

def refused(example, handle, body, *expected, command=("run", "--no-commit")):
    write(example, f"turns/004/orders/{handle}.yaml", body)
    before = snapshot(example)
    r = pbp(*command, cwd=example)
    assert r.exit_code == 1, r.output
    for text in expected:
        assert text in r.output, r.output
    assert "Traceback" not in r.output
    assert snapshot(example) == before  # state untouched, nothing written
    assert not (example / "turns" / "004" / "state.yaml").exists()
    return r.output


def test_cli_unknown_characteristic(example):
    refused(example, "kira", """
        player: kira
        turn: 4
        actions:
          - jet:
              carac: agilite
    """, "turns/004/orders/kira.yaml:5: « agilite » n'est pas une valeur possible.",
        "Valeurs possibles : physique, logique, mental.")


def test_cli_unknown_skill(example):
    refused(example, "brann", """
        player: brann
        turn: 4
        actions:
          - jet:
              carac: physique
              competence: blastre
              but: tirer
    """, "turns/004/orders/brann.yaml:6: compétence inconnue « blastre » : elle n'est pas sur la fiche de brann (characters.yaml).",
        "Vouliez-vous dire « blaster » ?")


def test_cli_opposite_intent_in_a_stable_state(example):
    # Tia is in the stable dark state since turn 3
    refused(example, "tia", """
        player: tia
        turn: 4
        actions:
          - jet:
              carac: mental
              intention: clair
              but: sauver le technicien
    """, "turns/004/orders/tia.yaml:6: tia est dans l'état stable « obscur » : seules les actions d'intention "
         "« obscur » sont possibles, pas « clair ». Valeurs possibles : obscur.")


def test_cli_action_gauge_exhausted(example):
    # Kira has 3 Action points left after turn 3
    refused(example, "kira", """
        player: kira
        turn: 4
        actions:
          - jet: {carac: physique, type: complexe}
          - jet: {carac: physique, type: instinct}
          - jet: {carac: logique, type: complexe}
          - jet: {carac: mental, type: complexe}
    """, "turns/004/orders/kira.yaml:7: jauge « action » épuisée : kira a 3 points et il en faut 4",
        command=("check",))


def test_cli_refusals_in_english_list_every_problem(example):
    config = example / "campaign.yaml"
    config.write_text(config.read_text().replace("lang: fr", "lang: en"))
    out = refused(example, "kira", """
        player: kira
        turn: 4
        actions:
          - check: {carac: mental, competence: sens_de_la_force}
          - use: holocron
    """, "turns/004/orders/kira.yaml:4: `sens_de_la_force` is a passive skill: only the GM can trigger it",
        "turns/004/orders/kira.yaml:5: unknown item `holocron`")
    assert out.count("turns/004/orders/kira.yaml:") == 2


def test_cli_refused_gm_order(example):
    write(example, "turns/004/gm.yaml", """
        orders:
          evenement_grave:
            - joueur: brann
    """)
    before = snapshot(example)
    r = pbp("run", "--no-commit", cwd=example)
    assert r.exit_code == 1
    assert "turns/004/gm.yaml:3: brann n'est pas dans un état stable : il n'y a rien à rompre." in r.output
    assert snapshot(example) == before


def test_cli_forced_rolls_from_gm_yaml(example):
    write(example, "turns/004/gm.yaml", """
        rolls:
          kira.jet: 96
          tia.jet: 3
    """)
    r = pbp("run", "--no-commit", cwd=example)
    assert r.exit_code == 0, r.output
    public = (example / "turns" / "004" / "public.bbcode").read_text()
    assert "[b]Kira Vel[/b] — jet de Mental (« convaincre l'officier de garde de baisser son arme »), face à " \
           "Garnison impériale : 1d100 (96), [b]échec critique[/b] (96 à 100)" in public
    assert ("saboter les tourelles du hangar, tant pis pour les techniciens ») : 1d100 (3), [b]réussite critique[/b] "
            "(1 à 5)") in public
    tia = (example / "turns" / "004" / "private" / "tia.bbcode").read_text()
    assert "1d100 (3) : [b]réussite critique[/b] (1 à 5, quelle que soit la chance de 75)" in tia
    assert "+ 10 état stable, intention côté obscur" in tia


def test_cli_sheet_problems_name_the_items_line(example):
    """An item's problem is placed on the item's own line (a list position), not on its slot's."""
    path = example / "characters.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("    - Comlink\n", "    - {nom: Comlink, effet: {pv: deux}}\n", 1)
    text = text.replace("{nom: Kit de piratage, jet: {carac: logique, competence: piratage}}",
                        "{nom: Kit de piratage, jet: {carac: logique, competence: piratag}}")
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    comlink = lines.index("    - {nom: Comlink, effet: {pv: deux}}") + 1
    kit = next(i for i, line in enumerate(lines, 1) if "competence: piratag}" in line)
    r = pbp("check", cwd=example)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.stderr == (
        f"characters.yaml:{comlink}: kira.equipement.2 : « effet » associe une jauge à un nombre de points "
        "(pv: 3). Valeurs possibles : pv, force, action.\n"
        f"characters.yaml:{kit}: tia.equipement : l'objet « Kit de piratage » demande la compétence « piratag », "
        "absente de la fiche. Valeurs possibles : blaster, piratage, electronique, mecanique, discretion, bluff, "
        "athletisme.\n")


# -- pbp d100 generate ---------------------------------------------------------------------------------

def generate(campaign, *args):
    """`pbp -C CAMPAIGN d100 generate ARGS`, as the MJ types it."""
    return pbp("d100", "generate", *args, cwd=campaign)


@pytest.fixture
def fresh(tmp_path):
    """A new campaign from the skeleton, with a third player who has no sheet yet."""
    target = tmp_path / "fresh"
    assert pbp("init", target, "--ruleset", "d100", "--no-git").exit_code == 0
    config = target / "campaign.yaml"
    config.write_text(config.read_text().replace("  joueur2: Personnage 2\n",
                                                 "  joueur2: Personnage 2\n  zed: Zed Orrin\n"))
    return target


def test_generate_writes_a_sheet_with_forum_style_rolls(fresh):
    example = fresh
    r = pbp("setup", "--no-commit", cwd=example)
    assert r.exit_code == 1 and "pas de fiche pour le joueur « zed »" in r.output
    before = (example / "characters.yaml").read_text()
    r = generate(example, "--player", "zed", "--physique", "3", "--logique", "9,2,2", "--mental", "5",
                 "--pv", "2d6+4", "--action", "4", "--roll", "zed.physique=30", "--roll", "zed.physique.bonus=3,1,2",
                 "--roll", "zed.logique=85", "--roll", "zed.logique.malus=2,3", "--roll", "zed.mental=40",
                 "--roll", "zed.pv=9", "--roll", "zed.alignement=6")
    assert r.exit_code == 0, r.output
    assert "Tirage des caractéristiques de Zed Orrin (zed)" in r.output
    assert "Physique : 3d10 (30) ≤ 30 : + 3d4 (3+1+2 = 6) → 36" in r.output
    assert "Logique : 9d10 (85) ≥ 80 : − 2d6 (2+3 = 5) → 80" in r.output
    assert "Mental : 5d10 (40) → 40" in r.output
    assert "PV : 2d6+4 (9) → 9" in r.output
    assert "Alignement : 1d10 (6) → 6 points clairs, 4 obscurs" in r.output
    text = (example / "characters.yaml").read_text()
    assert text.startswith(before)  # appended: the MJ's comments and sheets stay as written
    sheet = yamlio.loads(text)["zed"]
    assert (sheet["physique"], sheet["logique"], sheet["mental"], sheet["pv"], sheet["action"], sheet["force"],
            sheet["alignement"]) == (36, 80, 40, 9, 4, 0, 6)
    # the new sheet is valid: the campaign sets up, and zed's report shows the sheet
    r = pbp("setup", "--no-commit", cwd=example)
    assert r.exit_code == 0, r.output
    report = (example / "turns" / "000" / "private" / "zed.bbcode").read_text()
    assert "Physique 36, Logique 80, Mental 40" in report
    assert "[b]Jauges[/b] : PV 9/9, Action 4/4" in report


def test_generate_follows_pbp_dash_c(example):
    r = generate(example, "--player", "nova", "--name", "Nova", "--physique", "5", "--logique", "5", "--mental", "5")
    assert r.exit_code == 0, r.output
    assert "nova" in yamlio.load_file(example / "characters.yaml")
    assert "« nova » n'est pas encore dans campaign.yaml (players) : ajoutez « nova: Nova »." in r.output


def test_generate_refuses_to_overwrite_and_bad_counts(example):
    before = (example / "characters.yaml").read_bytes()
    r = generate(example, "--player", "kira", "--physique", "5", "--logique", "5", "--mental", "5")
    assert r.exit_code == 1 and "« kira » a déjà une fiche dans characters.yaml ; --replace" in r.output
    r = generate(example, "--player", "new", "--physique", "11", "--logique", "5", "--mental", "5")
    assert r.exit_code == 1 and "--physique : « 11 » ; donnez le nombre de d10 (de 1 à 10)" in r.output
    r = generate(example, "--player", "new", "--physique", "5", "--logique", "5", "--mental", "5", "--dry-run")
    assert r.exit_code == 0 and "(essai : rien n'a été écrit)" in r.output
    assert (example / "characters.yaml").read_bytes() == before


def test_generate_replace_and_new_draws_are_reproducible(example):
    args = ["--player", "kira", "--physique", "5", "--logique", "6", "--mental", "7", "--pv", "2d4+6",
            "--force", "1d4+1", "--action", "1d4+2", "--roll", "kira.alignement=10", "--replace"]
    r = generate(example, *args)
    assert r.exit_code == 0, r.output
    first = yamlio.load_file(example / "characters.yaml")["kira"]["generation"]
    assert generate(example, *args).exit_code == 0  # the same draw again: the same sheet
    assert yamlio.load_file(example / "characters.yaml")["kira"]["generation"] == first
    assert generate(example, *args, "--draw", "2").exit_code == 0
    assert yamlio.load_file(example / "characters.yaml")["kira"]["generation"] != first
    # the example's sheet was drawn before dice versions: its lines are what
    # version 0 gives the same draw (docs/dice.md), and version 1 gives others
    from pbp.rulesets.d100.commands import draw_lines
    from pbp.rulesets.d100.rules import generate_sheet

    campaign = open_campaign(example)
    rules = campaign.ruleset.rules
    counts = {"physique": 5, "logique": 6, "mental": 7}
    gauges = {"pv": "2d4+6", "force": "1d4+1", "action": "1d4+2"}
    # (the example's lines were written when counts said "(s)": agreed now by the plural rule)
    plural = re.compile(r"(\d+) (point|clair|obscur)\(s\)(?: clair\(s\))?")

    def agreed(line: str) -> str:
        return plural.sub(lambda m: m.group(0).replace("(s)", "s" if int(m.group(1)) > 1 else ""), line)

    original = [agreed(line) for line in yamlio.load_file(EXAMPLE / "characters.yaml")["kira"]["generation"]]
    for version, lines in ((0, original), (1, first)):
        dice = Dice(campaign.secret, -1, {"kira.alignement": 10}, version)
        _, draw = generate_sheet(rules, dice, "kira", "Kira Vel", counts, gauges)
        assert draw_lines(draw, rules, "fr") == lines
    assert first != original


def test_generate_is_reachable_as_pbp_d100(example):
    r = pbp("d100", "generate", "--player", "nova", "--physique", "4", "--logique", "4", "--mental", "4",
            "--dry-run", "--roll", "nova.physique=20", "--roll", "nova.physique.bonus=1,2,3,4", "--roll",
            "nova.logique=22", "--roll", "nova.logique.bonus=4,4,4,4", "--roll", "nova.mental=31", "--roll",
            "nova.alignement=10", cwd=example)
    assert r.exit_code == 0, r.output
    assert r.stdout == ("Tirage des caractéristiques de nova (nova)\n"
                        "  Physique : 4d10 (20) ≤ 30 : + 4d4 (1+2+3+4 = 10) → 30\n"
                        "  Logique : 4d10 (22) ≤ 30 : + 4d4 (4+4+4+4 = 16) → 38\n"
                        "  Mental : 4d10 (31) → 31\n"
                        "  PV : 10\n"
                        "  Force : 0\n"
                        "  Action : 5\n"
                        "  Alignement : 1d10 (10) → 10 points clairs, 0 obscur\n"
                        "(essai : rien n'a été écrit)\n")
    assert r.stderr == "« nova » n'est pas encore dans campaign.yaml (players) : ajoutez « nova: nova ».\n"


# -- pbp init ----------------------------------------------------------------------------------------------

def test_init_skeleton_sets_up_and_plays(tmp_path):
    target = tmp_path / "camp"
    assert pbp("init", target, "--ruleset", "d100", "--no-git").exit_code == 0
    assert "{secret}" not in (target / "campaign.yaml").read_text()
    r = pbp("setup", "--no-commit", cwd=target)
    assert r.exit_code == 0, r.output
    write(target, "turns/001/orders/joueur1.yaml", """
        player: joueur1
        turn: 1
        actions:
          - jet: {carac: mental, competence: persuasion, faction: empire}
    """)
    write(target, "turns/001/gm.yaml", """
        rolls:
          joueur1.jet: 60
    """)
    r = pbp("run", "--no-commit", cwd=target)
    assert r.exit_code == 0, r.output
    public = unsealed((target / "turns" / "001" / "public.bbcode").read_text())
    assert public.endswith("[*][b]Personnage 1[/b] — jet de Mental, face à Empire galactique : 1d100 (60), "
                           "[b]réussite[/b]\n[/list]\n\n[b]Où en sont les personnages[/b]\n[list]\n"
                           "[*]Personnage 1\u00a0: en jeu\n[*]Personnage 2\u00a0: en jeu\n[/list]\n")
    report = (target / "turns" / "001" / "private" / "joueur1.bbcode").read_text()
    assert ("Jet de Mental + persuasion : 1d100 (60) ≤ 65 : [b]réussite[/b]\n\n"
            "Chance : Mental 60 + 5 persuasion (Connaissance) + 0 confiance Empire galactique (+0) = 65. "
            "Confiance Empire galactique : +1 en fin de tour.\n\n"
            "Confiance envers Empire galactique : +0 + 1 = +1.\n\n") in report
    assert "[b]Confiance[/b] : Empire galactique +1\n" in report
    assert pbp("verify", cwd=target).exit_code == 0


# -- secrecy --------------------------------------------------------------------------------------------------

PUBLIC_KEYS = {
    # the die is public (`public_check: die`), never the chance
    "check": {"player", "carac", "purpose", "origin", "faction_name", "item", "outcome", "roll", "critical"},
    "use": {"player", "item", "target", "purpose", "outcome"},
    "sleep": {"player"}, "down": {"player", "genre"}, "up": {"player"}, "joined": {"player"}, "quiet_turn": set(),
    "situation": {"player", "reason", "roll", "range", "points"},
    "cast": {"players"}, "narration": {"markdown"}, "roleplay": {"player", "character", "text"},
    "standing": {"players"},  # the core's: Ruleset.standing, at the end of the post
}


def check_public_events(events):
    for e in events:
        if e.audience == ev.PUBLIC:
            assert e.kind in PUBLIC_KEYS, e.kind
            assert set(e.data) <= PUBLIC_KEYS[e.kind], (e.kind, e.data)


# The vocabulary of the private reports, never in a public post (the values themselves,
# flaws, characteristics, gauges, alignment and trust, are d100's secret_values, checked on
# every public post by tests/test_secrecy.py).
MARKERS = ("Chance", "chance", "≤", "confiance", "Confiance", "trust", "Trust", "point clair", "points clairs",
           "point obscur", "points obscurs", "light point", "dark point",
           "Alignement", "Alignment", "stable", "Jauges", "Gauges", "PV ", "HP ", "Travers", "Flaw")


def leaks(text):
    return [m for m in MARKERS if m in text]


def public_events(events):
    """What the production filter gives the public post, the players' own words aside."""
    return [e for e in ev.by_audience(events)[ev.PUBLIC] if e.kind != "roleplay"]


def test_example_archive_public_posts_hold_no_secret():
    from pbp.engine import turn_posts, turn_record

    campaign = open_campaign(EXAMPLE)
    names = {h: campaign.scenario.name(h) for h in campaign.roster}
    checked = 0
    for n in campaign.resolved_turns():
        events = turn_record.stored_events(campaign, n)
        check_public_events(events)
        for fmt in ("bbcode", "markdown"):
            rend = turn_posts.renderer(campaign, fmt)
            text = rend.render("setup_public" if n == 0 else "public", turn=n, title=campaign.title, names=names,
                               player=None, character=None, events=public_events(events))
            assert leaks(text) == [], (n, fmt)
            checked += 1
        # and each private report only speaks of its own player
        for handle in campaign.roster:
            private = campaign.turn_dir(n) / "private" / f"{handle}.bbcode"
            for other, sheet in campaign.scenario.characters.items():
                if other != handle and sheet.get("travers"):
                    assert sheet["travers"] not in private.read_text()
    assert checked == 8


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_bot_games_keep_secrets_and_invariants(lang):
    campaign = open_campaign(EXAMPLE)
    scenario = campaign.scenario
    rs = ruleset.get("d100")
    renderer = Renderer(template_paths("d100", lang), "bbcode", lang=lang)
    names = {h: scenario.name(h) for h in scenario.roster}
    kinds = set()
    for game in range(10):
        bots = random.Random(game)
        state = rs.setup(scenario, Dice(f"g{game}", 0)).state
        for n in range(1, 9):
            idle = bots.random() < 0.3  # sometimes nobody acts: a quiet turn
            orders = {}
            for h in rs.players_to_play(state, scenario):
                options = rs.legal_orders(state, scenario, h)
                if idle:
                    options = [o for o in options if o[0].id in ("rien", "dormir")]
                orders[h] = PlayerOrders(h, n, bots.choice(options))
            gm = {"jauge": [{"joueur": bots.choice(list(scenario.roster)), "pv": -bots.randint(0, 6)}]}
            if n % 3 == 0:
                gm["alignement"] = [{"joueur": "brann", "reaction": bots.choice(["clair", "obscur"])}]
                gm["confiance"] = [{"faction": "empire", "niveau": bots.randint(-5, 5)}]
            gm_orders = GmOrders(n, orders=gm)
            if rs.check_gm(state, scenario, gm_orders):
                gm_orders = GmOrders(n)
            result = rs.resolve(state, scenario, orders, gm_orders, Dice(f"g{game}", n))
            state = result.state
            check_public_events(result.events)
            kinds |= {e.kind for e in result.events}
            text = renderer.render("public", turn=n, title="t", events=public_events(result.events), names=names,
                                   player=None, character=None)
            assert leaks(text) == []
            for handle, c in state["characters"].items():
                sheet = rs.sheets(scenario)[handle]
                assert all(0 <= c[g] <= sheet["gauges"][g] for g in ("pv", "force", "action"))
                assert 0 <= c["light"] <= 10
                assert all(-5 <= v <= 5 for v in c["trust"].values())
                assert c["down"] == (c["pv"] == 0)
            # private reports render too
            for handle in scenario.roster:
                renderer.render("private", turn=n, title="t", names=names, player=handle, character=names[handle],
                                events=ev.by_audience(result.events).get(ev.Players(handle), []))
            renderer.render("gm", turn=n, title="t", names=names, player=None, character=None, events=result.events)
            if rs.is_over(state):
                break
    assert {"check", "check_detail", "use", "sleep", "recovery", "quiet_turn", "down", "trust_change",
            "alignment_event"} <= kinds, kinds


# -- player text is inert ----------------------------------------------------------------------------------

NASTY = '[url=http://evil.example]clic[/url] [/quote][b]x[/b] <script>alert(1)</script> ![i](http://e.x/i.png) # titre'


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_player_text_in_purposes_and_item_targets_makes_no_markup(example, fmt):
    import bbcode
    import markdown

    write(example, "turns/004/orders/kira.yaml", {"player": "kira", "turn": 4, "roleplay": NASTY,
                                                 "actions": [{"jet": {"carac": "mental", "but": NASTY}}]})
    r = pbp("run", "--no-commit", "--format", fmt, cwd=example)
    assert r.exit_code == 0, r.output
    folder = example / "turns" / "004"
    for name in ["public", "gm", "private/kira"]:
        text = (folder / f"{name}.{'bbcode' if fmt == 'bbcode' else 'md'}").read_text()
        if fmt == "bbcode":
            html = bbcode.Parser(replace_links=False).format(text)
        else:
            html = markdown.markdown(text, extensions=["tables"])
        tags = set(re.findall(r"<(\w+)", html))
        assert not tags & {"a", "script", "img", "h1", "h2", "em", "i"}, (name, tags)
        assert "<script" not in html


def test_generate_is_refused_on_a_campaign_of_another_ruleset(tmp_path):
    other = copy_example("manhunt", tmp_path)
    r = pbp("d100", "generate", "--player", "x", "--physique", "3", "--logique", "3", "--mental", "3", cwd=other)
    assert r.exit_code == 1
    assert r.stderr == ("« pbp d100 generate » est une commande du jeu de règles de son nom ; "
                        "cette campagne utilise « manhunt ».\n")


def test_generate_help_comes_from_the_declared_command(monkeypatch):
    monkeypatch.setenv("PBP_LANG", "fr")  # help follows PBP_LANG, the campaign, the locale, else English
    r = pbp("d100", "generate", "--help")
    assert r.exit_code == 0
    assert "Tire les caractéristiques d'un personnage" in r.output
    assert "--physique N[,D4,D6]" in r.output and "Nombre de d10 pour Physique (1 à 10)." in r.output
    assert "--dry-run" in r.output
