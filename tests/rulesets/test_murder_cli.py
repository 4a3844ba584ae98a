"""The murder ruleset through the real CLI: the example campaign replays and
plays on, refused orders name their file and line and leave the state alone, a
finished game refuses further turns, `pbp init` gives a playable skeleton."""

from __future__ import annotations

import hashlib
import re
import textwrap
from pathlib import Path

import pytest

from pbp.base import yamlio
from tests.helpers import copy_example, pbp, unsealed, write

NEXT = 9  # the example's next, unresolved turn


@pytest.fixture
def example(tmp_path) -> Path:
    return copy_example("murder", tmp_path)


def last_state(root: Path) -> dict:
    return yamlio.load_file(root / "turns" / f"{NEXT - 1:03d}" / "state.yaml")


def snapshot(root: Path) -> dict[str, str]:
    """Every file of the campaign but the pending orders, hashed."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and f"turns/{NEXT:03d}/" not in str(p.relative_to(root))}


def order_file(root: Path, player: str, actions: str) -> str:
    """Writes a player's order file for the next turn; `actions` is the YAML under
    `actions:` (line 4 onwards). Returns its path as pbp prints it."""
    text = f"player: {player}\nturn: {NEXT}\nactions:{actions}\nroleplay: |\n  ...\n"
    write(root, f"turns/{NEXT:03d}/orders/{player}.yaml", text)
    return f"turns/{NEXT:03d}/orders/{player}.yaml"


def test_example_replays_identically(example):
    r = pbp("verify", cwd=example)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [f"tour {n} : identique" for n in range(NEXT)] + [
        f"{NEXT} tours rejoués à l'identique."]


def test_example_shows_an_accusation_a_trap_a_ghost_an_execution(example):
    kinds = set()
    for n in range(1, NEXT):
        kinds |= {e["kind"] for e in yamlio.load_file(example / "turns" / f"{n:03d}" / "events.yaml")}
    assert {"accusation", "trap_set", "trap_fired", "haunt", "warning", "disarmed", "interrogation",
            "executed", "plea"} <= kinds
    state = last_state(example)
    assert len(state["players"]) == 10 and state["traps"] == {"chambre_froide": {"by": "yann", "turn": 6}}
    roles = [p["role"] for p in state["players"].values()]
    assert roles.count("murderer") == 2 and roles.count("investigator") == 2
    assert {h: p["died"]["cause"] for h, p in state["players"].items() if p["status"] == "dead"} == {
        "damien": "trap", "margot": "executed"}
    world = yamlio.load_file(example / "world.yaml")
    assert len(world["rooms"]) == 14


def test_example_next_turn_plays_with_a_possession(example):
    r = pbp("run", "--no-commit", cwd=example)
    assert r.exit_code == 0, r.output
    events = yamlio.load_file(example / "turns" / f"{NEXT:03d}" / "events.yaml")
    assert "sleepwalk" in [e["kind"] for e in events]
    assert pbp("verify", cwd=example).exit_code == 0


def _refused(example, player, actions, *expected):
    before = snapshot(example)
    path = order_file(example, player, actions)
    for command in (("check",), ("run", "--no-commit")):
        r = pbp(*command, cwd=example)
        assert r.exit_code == 1, r.output
        out = r.output
        assert "Traceback" not in out
        for piece in expected:
            assert piece in out, (piece, out)
    assert not (example / "turns" / f"{NEXT:03d}" / "state.yaml").exists()
    assert snapshot(example) == before
    return path, out


def test_refused_room_full(example):
    state = last_state(example)
    full = [room for room in {p["room"] for p in state["players"].values() if p["room"]}
            if sum(1 for p in state["players"].values() if p["room"] == room and p["status"] == "alive") > 2]
    assert full, "the example ends with a room holding more than two players"
    witness = next(h for h, p in state["players"].items() if p["status"] == "alive" and p["role"] != "investigator"
                   and p["room"] not in full)
    path, out = _refused(example, witness, f"\n  - deplacer: {full[0]}", "plus de 2 joueurs", "en compte 3",
                         "Valeurs possibles")
    assert f"{path}:4: " in out


def test_refused_stayed_too_long(example):
    state = last_state(example)
    stayer = next(h for h, p in state["players"].items() if p["status"] == "alive" and p["turns_here"] >= 2)
    path, out = _refused(example, stayer, " []", "depuis 2 tours", "pas plus de 2 tours", "deplacer")
    assert f"{path}:3: " in out


def test_refused_accusation_off_day(example):
    state = last_state(example)
    investigator = next(h for h, p in state["players"].items()
                        if p["role"] == "investigator" and p["status"] == "alive")
    suspect = next(h for h, p in state["players"].items() if p["role"] != "investigator" and p["status"] == "alive")
    path, out = _refused(example, investigator, f"\n  - accuser: {suspect}", "pas d'accusation au tour 9",
                         "la prochaine est au tour 10")
    assert f"{path}:4: " in out


def test_refused_trap_when_not_alone(example):
    state = last_state(example)
    murderer = next(h for h, p in state["players"].items() if p["role"] == "murderer" and p["status"] == "alive")
    room = state["players"][murderer]["room"]
    assert any(p["room"] == room for h, p in state["players"].items() if h != murderer)
    path, out = _refused(example, murderer, "\n  - pieger", "il faut être seul dans la pièce")
    assert f"{path}:4: " in out


def test_refused_interrogation_in_another_room(example):
    state = last_state(example)
    investigator = next(h for h, p in state["players"].items()
                        if p["role"] == "investigator" and p["status"] == "alive")
    room = state["players"][investigator]["room"]
    witness = next(h for h, p in state["players"].items()
                   if p["role"] != "investigator" and p["status"] == "alive" and p["room"] != room)
    path, out = _refused(example, investigator, f"\n  - deplacer: hall\n  - interroger: {witness}",
                         "pas dans votre pièce", "au début du tour")
    assert f"{path}:5: " in out


def test_refusals_in_english(example):
    config = (example / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", "lang: en")
    (example / "campaign.yaml").write_text(config, encoding="utf-8")
    state = last_state(example)
    murderer = next(h for h, p in state["players"].items() if p["role"] == "murderer" and p["status"] == "alive")
    path = order_file(example, murderer, "\n  - pieger\n  - accuser: bruno\n  - deplacer: cuisine")
    r = pbp("check", cwd=example)
    assert r.exit_code == 1
    assert f"{path}:4: setting a trap needs you alone in the room" in r.output
    assert f"{path}:5: only investigators can `accuser`" in r.output
    assert f"{path}:6: unknown room `cuisine`" in r.output and "Valid values: Entrance Hall, Central Corridor" in r.output


def test_unknown_action_and_bad_room_say_what_is_valid(example):
    path = order_file(example, "chloe", "\n  - deplacr: hall\n  - deplacer: bibliotheque\n  - hanter: hall")
    r = pbp("check", cwd=example)
    assert r.exit_code == 1
    assert f"{path}:4: action inconnue « deplacr »" in r.output and "« deplacer » ?" in r.output
    # once the vocabulary is right, the rules checks speak
    path = order_file(example, "chloe", "\n  - deplacer: bibliotheque\n  - hanter: hall\n  - deplacer: labo")
    r = pbp("check", cwd=example)
    assert r.exit_code == 1
    assert f"{path}:5: « hanter » est réservé aux fantômes" in r.output
    assert f"{path}:6: « deplacer » est déjà dans vos ordres" in r.output


def test_gm_orders_are_refused(example):
    write(example, f"turns/{NEXT:03d}/gm.yaml", "turn: 9\norders:\n  execute: yann\n")
    r = pbp("run", "--no-commit", cwd=example)
    assert r.exit_code == 1 and f"turns/{NEXT:03d}/gm.yaml:3: ordre MJ inconnu « execute »" in r.output


def test_posts_are_the_archived_ones_and_render_in_markdown(example):
    turn8 = example / "turns" / "008"
    for args, stored in (((), "public.bbcode"), (("--gm",), "gm.bbcode"),
                         (("--player", "margot"), "private/margot.bbcode"),
                         (("--player", "alice"), "private/alice.bbcode")):
        r = pbp("post", "--turn", "8", *args, cwd=example)
        assert r.exit_code == 0, r.output
        assert r.output == (turn8 / stored).read_text(encoding="utf-8"), stored
    public = pbp("post", "--turn", "8", "--format", "markdown", cwd=example).output
    # the execution reveals Margot's sheet
    assert textwrap.dedent("""\
        #### Prison

        - **Margot Lefèvre** plaide sa cause une dernière fois, sans convaincre : exécutée par la Justice.

        **La fiche de Margot Lefèvre est révélée :**

        - **Margot Lefèvre** : meurtrière, fiche n° 4 (lot Meurtriers et Enquêteurs) ; mensonge 5, défense 5
          - Métier : Chercheuse principale en virologie (8 ans)
          - Histoire : La directrice s'apprêtait à révéler ses données falsifiées au conseil scientifique.

        #### Le plateau
        """) in public
    titles = {(): "Tour 8 — Meurtre aux Laboratoires Valmont",
              ("--gm",): "Rapport MJ — tour 8 — Meurtre aux Laboratoires Valmont",
              ("--player", "margot"): "Rapport privé — Margot Lefèvre — tour 8"}
    for fmt, heading in (("bbcode", "[size=150][b]{}[/b][/size]"), ("markdown", "### {}")):
        for args, title in titles.items():
            r = pbp("post", "--turn", "8", "--format", fmt, *args, cwd=example)
            assert r.exit_code == 0 and r.output.splitlines()[0] == heading.format(title), (fmt, args)


def test_status_shows_the_mj_table(example):
    status = pbp("status", cwd=example)
    assert status.exit_code == 0, status.output
    lines = status.output.splitlines()
    assert lines[:3] == ["Meurtre aux Laboratoires Valmont — état après le tour 8",
                         "=======================================================", ""]
    assert "Prochain tour : Jour 2, 14h – 16h." in lines
    cells = [re.split(r"\s{2,}", line.strip()) for line in lines]
    assert ["Yann Le Goff", "meurtrier", "8 (lot Meurtriers et Enquêteurs)", "mensonge 3, défense 7", "vivant",
            "le Hall d'accueil", "1", "—"] in cells
    assert ["Alice Morel", "enquêteur", "5 (lot Meurtriers et Enquêteurs)", "survie 5", "vivant",
            "le Laboratoire de chimie", "1", "la Chambre froide"] in cells
    assert ["Damien Roux", "témoin innocent", "9 (lot Témoins-Innocent)", "résilience 3, défense 6", "mort", "—",
            "0", "—"] in cells
    assert "Pièges actifs : la Chambre froide (posé par Yann Le Goff au tour 6)." in lines
    assert "- Le Hall d'accueil : Yann Le Goff, Bruno Lacaze et Gaëlle Dumas" in lines


def situation(form: str) -> list[str]:
    """The ruleset's lines of a blank order form (orders_hints.j2)."""
    lines = form.splitlines()
    start = lines.index("# --- Votre situation (secret) ---")
    return lines[start + 1:lines.index("#", start)]


def test_orders_form_lists_the_player_situation(example):
    r = pbp("orders", "--player", "hugo", cwd=example)
    assert r.exit_code == 0, r.output
    assert situation(r.output) == [
        "# Rôle : témoin innocent ; état : vivant.",
        "# Vous êtes dans le Bureau de la direction.",
        "# Déplacement (2d6) : « - deplacer: <pièce> » ; vous avancez par le plus court chemin aussi loin que le "
        "jet le permet.",
        "# ATTENTION : vous êtes ici depuis 2 tours, vous devez partir (deplacer obligatoire).",
        "# Pièces voisines : Archives (4 cases), Salle des serveurs (5 cases), Couloir central (6 cases).",
        "# Destinations possibles : Couloir central, Cafétéria, Bibliothèque scientifique, Laboratoire de chimie, "
        "Laboratoire de biologie, Animalerie, Chambre froide, Serre expérimentale, Archives, Salle des serveurs, "
        "Vestiaires, Salle de conférence.",
    ]
    assert "#   - hanter: {salle: texte, avertir: joueur}    (en anglais\u00a0: haunt)" in r.output.splitlines()
    r = pbp("orders", "--player", "margot", cwd=example)
    assert situation(r.output) == [
        "# Rôle : meurtrière ; état : morte.",
        "# Fantôme meurtrier : « - posseder: {cible: <joueur>, salle: <pièce>} » parmi Chloé Vidal, Bruno Lacaze, "
        "Elsa Kerbrat, Gaëlle Dumas, Hugo Perrin.",
    ]


SMALL_WORLD = """\
hall: hall
rooms:
  hall: {name: le Hall}
  labo: {name: le Labo}
  serre: {name: la Serre}
passages:
  - [hall, labo, 2]
  - [labo, serre, 2]
  - [hall, serre, 2]
start:
  mia: labo
  will: serre
"""

SMALL_SHEETS = """\
innocents:
  2: {story: S2, job: J2, seniority: 1 an, resilience: 5, defence: 9, alibi: A2}
  3: {story: S3, job: J3, seniority: 2 ans, resilience: 5, defence: 9, alibi: A3}
murderers_investigators:
  1: {role: murderer, story: S1, job: J1, seniority: 3 ans, lying: 5, defence: 5}
  2: {role: investigator, story: S4, job: J4, seniority: 4 ans, survival: 5}
"""


def small_game(root: Path) -> Path:
    write(root, "campaign.yaml", """\
        ruleset: murder
        title: Petit labo
        lang: fr
        format: markdown
        secret: petit-secret
        players:
          mia: Mia
          ivan: Ivan
          will: Will
        rules:
          draw_order: [mia, ivan, will]
          witness_order: [will, mia]
        """)
    write(root, "world.yaml", SMALL_WORLD)
    write(root, "characters.yaml", SMALL_SHEETS)
    write(root, "turns/000/gm.yaml", "rolls:\n  mia.fiche: 1\n  ivan.fiche: 2\n  will.fiche: 2\n")
    return root


def test_a_finished_game_refuses_further_turns(tmp_path):
    root = small_game(tmp_path / "petit")
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    state = yamlio.load_file(root / "turns/000/state.yaml")
    assert {h: p["role"] for h, p in state["players"].items()} == {"mia": "murderer", "ivan": "investigator",
                                                                    "will": "innocent"}
    # turn 1: Mia traps the lab and leaves; turn 2: Will walks in, rolls 1 against defence 9
    write(root, "turns/001/orders/mia.yaml", "player: mia\nturn: 1\nactions:\n  - pieger\n  - deplacer: hall\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    write(root, "turns/002/orders/will.yaml", "player: will\nturn: 2\nactions:\n  - deplacer: labo\n")
    write(root, "turns/002/gm.yaml", "rolls:\n  will.piege: 1\n")
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0 and "La partie est terminée." in r.output
    public = (root / "turns/002/public.md").read_text(encoding="utf-8")
    # Will has no `genre` in the roster: a neutral wording, no "mort(e)"
    assert "- **Un piège se déclenche** dans le Labo au passage de **Will** ! **Will n'y survit pas.**\n" in public
    # the winners, and every sheet revealed, one nested list
    assert unsealed(public)[public.index("### Fin de la partie"):] == textwrap.dedent("""\
        ### Fin de la partie

        **Victoire des meurtriers !** Tous les témoins innocents sont morts ou exécutés.

        Vainqueur : Mia.

        #### Toutes les fiches

        - **Will** : témoin innocent, fiche n° 2 (lot Témoins-Innocent) ; résilience 5, défense 9
          - Métier : J2 (1 an)
          - Histoire : S2
          - Alibi : A2
        - **Mia** : meurtrier, fiche n° 1 (lot Meurtriers et Enquêteurs) ; mensonge 5, défense 5
          - Métier : J1 (3 ans)
          - Histoire : S1
        - **Ivan** : enquêteur, fiche n° 2 (lot Meurtriers et Enquêteurs) ; survie 5
          - Métier : J4 (4 ans)
          - Histoire : S4

        **Où en sont les personnages**

        - Will\u00a0: victime d'un piège
        - Mia\u00a0: en jeu
        - Ivan\u00a0: en jeu
        """)
    # Will's report ends with the death: the end of the game, no ghost powers
    report = (root / "turns/002/private/will.md").read_text(encoding="utf-8")
    assert report == textwrap.dedent("""\
        ### Rapport privé — Will — tour 2

        Déplacement vers le Labo : 2d6 (1+5 = 6). Chemin le plus court : la Serre → le Labo (2 cases). Vous atteignez le Labo.

        Piège dans le Labo : 1d10 (1) < défense 9 : **le piège vous coûte la vie.** Vous devenez un fantôme.

        #### Votre situation

        - Rôle (secret) : témoin innocent
        - Votre personnage est mort au tour 2.
        - **La partie est terminée** : victoire des meurtriers.
        """)
    write(root, "turns/003/orders/ivan.yaml", "player: ivan\nturn: 3\nactions: []\n")
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 1 and "la partie est terminée (tour 2)" in r.output
    assert not (root / "turns/003/state.yaml").exists()
    assert pbp("verify", cwd=root).exit_code == 0


def test_init_gives_a_playable_skeleton_in_english(tmp_path):
    root = tmp_path / "new"
    r = pbp("init", root, "--ruleset", "murder", "--no-git", "--lang", "en")
    assert r.exit_code == 0, r.output
    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    assert "{secret}" not in config and "lang: en" in config
    r = pbp("setup", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    public = (root / "turns/000/public.bbcode").read_text(encoding="utf-8")
    assert "Order of play" in public and "The investigators start in" in public
    private = sorted((root / "turns/000/private").iterdir())
    assert len(private) == 6 and "Strictly secret" in private[0].read_text(encoding="utf-8")
    r = pbp("orders", "--player", "player1", cwd=root)
    assert r.exit_code == 0 and "# Role:" in r.output
    # the secret is random: go somewhere player1 is not
    room = yamlio.load_file(root / "turns/000/state.yaml")["players"]["player1"]["room"]
    target = "Central Corridor" if room == "hall" else "Entrance Hall"  # the English skeleton's rooms
    write(root, "turns/001/orders/player1.yaml", textwrap.dedent(f"""\
        player: player1
        turn: 1
        actions:
          - move: {target}
        """))
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    assert "Turn 1" in (root / "turns/001/public.bbcode").read_text(encoding="utf-8")
