"""Benchmark: one representative manhunt turn, as an MJ runs it, against its I/O floor.

The campaign: a synthetic labyrinth of 2,000 cells and 500 Péjis (one hunter per
10 Péjis), already some turns into the game: hunters on the map and tracking,
fights, traps, searches, Péjis dead or escaped. It is built by playing: `pbp
init`, the MJ's files, `pbp setup`, then `pbp run` turn after turn on order files
a bot writes for every player (a few players miss a turn), then the measured
turn's orders and a gm.yaml with Markdown narration (public, MJ and per-player
parts), forced rolls and hunter orders. It is cached in bench/out/.

Timed, A B A B ... with the ratio taken pair by pair:
- `pbp run` with its git commit (the campaign is a git repository), rendered in
  BBCode (the campaign's format) and in Markdown (`--format markdown`);
- its I/O floor: one process that loads the same YAML inputs with CSafeLoader
  and writes the same output bytes, then one `git add -A && git commit`;
- the same turn with 1,000 Péjis (and as many more hunters).

With a baseline (`--baseline DIR`, bench/_ab.py), its `pbp run` of the same
turn too: each round is A, B, then the floor, for each size and format.

Goals (for B): pbp run <= 2.5x its floor at 500 Péjis; 1,000 Péjis <= 2.2x the
time of 500; peak memory <= 150 MB at 500 (the OS's figure for the child and
the git it runs, read through GNU time: see _timing.run). Prints figures,
asserts nothing.

    python bench/bench_turn.py [--quick] [--rounds N] [--pejis 500] [--cells 2000] [--rebuild] [--baseline DIR]
"""

from __future__ import annotations

import random
import shutil
import sys
from collections import Counter
from pathlib import Path

import yaml

import _ab
from _play import ROLEPLAY, init, pbp, write_orders, write_yaml
from _timing import OUT, Results, Step, figure, git, git_reset, header, parser, rounds, rounds_of, seconds

#: bump when the built campaign changes, so a stale cache is not reused
BUILD_VERSION = 1
SECRET = "banc-d-essai-0001"
PLAYED_TURNS = 4  # turns played before the measured one
GOALS = {"floor": 2.5, "growth": 2.2, "peak_mb": 150}

DOORS = ["ouverture", "ouverture", "porte", "grille", "rideau"]
OPPOSITE = {"nord": "sud", "sud": "nord", "est": "ouest", "ouest": "est"}
STEP = {"nord": (0, -1), "sud": (0, 1), "est": (1, 0), "ouest": (-1, 0)}
PLACES = ["la Salle", "l'Atelier", "la Crypte", "le Puits", "la Galerie", "le Vestibule", "l'Ossuaire",
          "la Chapelle", "le Cellier", "la Citerne"]
OF = ["des Pendus", "aux Chiens", "du Tanneur", "des Éveils", "sans Nom", "des Murmures", "d'Os", "Noire"]
DESCRIPTIONS = [
    "Des paillasses moisies, une odeur de cire froide. Des griffures comptent les jours sur le mur.",
    "Des peaux tendues sur des cadres de bois ; des crochets pendent du plafond.",
    "Une fosse carrée au centre, des chaînes rouillées scellées dans la pierre.",
    "L'eau noire clapote contre les margelles ; chaque pas résonne.",
    "Des manteaux vides pendent à des cordes. L'un d'eux bouge encore.",
    "Un couloir voûté, éclairé de loin en loin par des torches mourantes.",
    "Des statues décapitées montent la garde devant une porte murée.",
    "Le sol est couvert de feuilles mortes, venues d'on ne sait où.",
]
FIRST_NAMES = [("Mélétê", "f"), ("Johannes", "m"), ("Ysolde", "f"), ("Corbin", "m"), ("Aëlis", "f"),
               ("Bastien", "m"), ("Clémence", "f"), ("Dorian", "m"), ("Élodie", "f"), ("Gaspard", "m")]
HUNTERS = [("Grimnir le Traqueur", "hache runique", "2d6+1", 1, 8), ("Sœur Vesper", "fouet barbelé", "1d6+3", 0, 6),
           ("le Boucher de Morn", "couperet", "2d6+2", 2, 8), ("Isarn l'Elfe noir", "lame elfique", "2d6", 1, 9),
           ("Tavok le Borgne", "masse cloutée", "1d6+2", 1, 7), ("Maëlle la Silencieuse", "stylets", "2d6", 0, 7),
           ("Orrin Main-de-Fer", "poing d'acier", "1d6+4", 2, 8), ("le Veneur Pâle", "épieu", "2d6+1", 1, 8),
           ("Sylas l'Elfe sylvain", "lame de saule", "2d6", 2, 9)]


# -- the campaign --------------------------------------------------------------------

def make_world(cells: int, rng: random.Random) -> dict:
    """A connected maze on a grid (a random spanning tree plus extra passages),
    doors of every kind, a few exits on the border, one trap per 50 cells."""
    width = max(2, round(cells ** 0.5))
    ids = [f"C{i:04d}" for i in range(cells)]
    pos = {cid: (i % width, i // width) for i, cid in enumerate(ids)}
    at = {xy: cid for cid, xy in pos.items()}
    world = {cid: {"name": f"{rng.choice(PLACES)} {rng.choice(OF)} ({cid})",
                   "orientation": rng.choice(["N-S", "E-W"]), "description": rng.choice(DESCRIPTIONS),
                   "exits": {}} for cid in ids}

    def link(a, b, d):
        door = rng.choice(DOORS)
        exit_ = {"to": b, "door": door}
        if door != "ouverture":
            exit_["state"] = "fermee" if rng.random() < 0.6 else "ouverte"
        world[a]["exits"][d] = exit_
        world[b]["exits"][OPPOSITE[d]] = dict(exit_, to=a)

    def around(cid):
        x, y = pos[cid]
        return [(d, at[(x + dx, y + dy)]) for d, (dx, dy) in STEP.items() if (x + dx, y + dy) in at]

    seen, stack = {ids[0]}, [ids[0]]
    while stack:
        fresh = [(d, o) for d, o in around(stack[-1]) if o not in seen]
        if not fresh:
            stack.pop()
            continue
        d, other = rng.choice(fresh)
        link(stack[-1], other, d)
        seen.add(other)
        stack.append(other)
    for cid in ids:
        for d, other in around(cid):
            if d not in world[cid]["exits"] and rng.random() < 0.075:
                link(cid, other, d)
    border = [c for c in ids if pos[c][0] in (0, width - 1) or pos[c][1] == 0]
    for cid in rng.sample(border, max(1, cells // 500)):
        world[cid]["exit"] = True
    inside = [c for c in ids if not world[c].get("exit")]
    traps = [{"cell": c} for c in rng.sample(inside, cells // 50)]
    return {"cells": world, "traps": traps}


def make_characters(pejis: int, hunters: int, world: dict, items: list[str], rng: random.Random):
    inside = [c for c, cell in world["cells"].items() if not cell.get("exit")]
    roster, sheets = {}, {}
    for i in range(pejis):
        handle = f"p{i + 1:04d}"
        first, genre = FIRST_NAMES[i % len(FIRST_NAMES)]
        roster[handle] = f"{first} {i + 1}"
        sheets[handle] = {"name": roster[handle], "genre": genre, "start": rng.choice(inside),
                          "inventory": [rng.choice(items)] if rng.random() < 0.3 else []}
    squad = {}
    for i in range(hunters):
        name, weapon, damage, protection, defence = HUNTERS[i % len(HUNTERS)]
        # a third start on the map (and take a Péji they find as prey); the others
        # wait for the noise to call them
        squad[f"h{i + 1}"] = {"name": f"{name} {i // len(HUNTERS) + 1}" if i >= len(HUNTERS) else name,
                              "weapon": {"name": weapon, "damage": damage}, "protection": protection,
                              "defence": defence, "start": rng.choice(inside) if i % 3 == 0 else None}
    return roster, {"pejis": sheets, "hunters": squad}


def bot_turn(root: Path, n: int, rng: random.Random, skip: float = 0.03) -> dict:
    """Every expected player's order file for turn `n`, chosen by the ruleset's
    bot on the last state; a few players send nothing (default orders)."""
    from pbp.engine.campaign import open_campaign

    campaign = open_campaign(root)
    rs, scenario, state = campaign.ruleset, campaign.scenario, campaign.state(n - 1)
    for handle in rs.players_to_play(state, scenario):
        if rng.random() < skip:
            continue
        actions = rs.bot_orders(state, scenario, handle, rng)
        roleplay = rng.choice(ROLEPLAY).format(name=scenario.name(handle)) + "\n" if rng.random() < 0.6 else None
        write_orders(campaign.turn_dir(n) / "orders" / f"{handle}.yaml", handle, n, actions, roleplay)
    return state


def narration(n: int, rng: random.Random, players: list[str]) -> dict:
    out = {
        "public": (f"Le tour {n} s'achève dans un fracas de grilles. **Les chasseurs resserrent l'étau.**\n\n"
                   "- Au nord, des torches s'allument une à une.\n"
                   "- Au sud, *un rire* résonne dans les conduits.\n\n"
                   "> Nul ne sort du labyrinthe sans y laisser quelque chose.\n"),
        "gm": ("Relancer les silencieux avant jeudi. Les chasseurs suivent leur trace ; "
               "**ne pas** révéler les pièges des salles fouillées.\n"),
    }
    for handle in rng.sample(players, len(players) // 10):
        out[handle] = f"Tu entends ton nom, *murmuré* derrière une porte. Ton cœur s'emballe (tour {n}).\n"
    return out


def build(folder: Path, pejis: int, cells: int, hunters: int) -> tuple[Path, int]:
    """The campaign, its history committed, the measured turn's inputs committed
    on top. Returns (campaign folder, measured turn)."""
    from pbp.model import ruleset

    rng = random.Random(f"{pejis}/{cells}/{hunters}")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    root = folder / "campagne"
    init(root, "manhunt")
    world = make_world(cells, rng)
    items = sorted(ruleset.get("manhunt").rules["items"])
    roster, characters = make_characters(pejis, hunters, world, items, rng)
    config = {"ruleset": "manhunt", "title": f"La chasse à l'homme — banc d'essai ({pejis} Péjis)", "lang": "fr",
              "format": "bbcode", "dialect": "phpbb", "secret": SECRET, "players": roster,
              "rules": {"turn_limit": 30}}
    write_yaml(root / "campaign.yaml", config)
    write_yaml(root / "world.yaml", world)
    write_yaml(root / "characters.yaml", characters)
    pbp(root, "setup")
    measured = PLAYED_TURNS + 1
    for n in range(1, measured):
        print(f"  building: turn {n} of {PLAYED_TURNS} ({pejis} Péjis)", file=sys.stderr)
        bot_turn(root, n, rng)
        if n % 2 == 0:
            write_yaml(root / f"turns/{n:03d}/gm.yaml", {"turn": n, "narration": narration(n, rng, [])["public"]})
        pbp(root, "run")
    # the measured turn: the players' orders, then the MJ's gm.yaml
    state = bot_turn(root, measured, rng)
    active = [h for h, p in state["pejis"].items() if p["status"] == "active"]
    gm = {"turn": measured, "narration": narration(measured, rng, active),
          "orders": {"chasseurs": hunter_orders(root, state)}}
    write_yaml(root / f"turns/{measured:03d}/gm.yaml", gm)
    gm["rolls"] = forced_rolls(root, measured, rng)
    write_yaml(root / f"turns/{measured:03d}/gm.yaml", gm)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", f"tour {measured} : ordres reçus")
    return root, measured


def hunter_orders(root: Path, state: dict) -> dict:
    """The MJ holds one hunter back and walks another: dictated hunters."""
    world = yaml.load((root / "world.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)["cells"]
    placed = [h for h, x in state["hunters"].items() if x["cell"] and not x["out"]]
    orders = {}
    if placed:
        orders[placed[0]] = "attendre"
    if len(placed) > 1:
        hid = placed[1]
        exits = world[state["hunters"][hid]["cell"]]["exits"]
        orders[hid] = {"aller": exits[sorted(exits)[0]]["to"]}
    return orders


def forced_rolls(root: Path, n: int, rng: random.Random) -> dict:
    """Dice the MJ rolled live: some searches and some first assaults, picked among
    the rolls this turn makes; kept only if the turn still asks for them."""
    from pbp.model.dice import parse

    def rolled() -> dict:
        pbp(root, "run", "--no-commit")
        log = yaml.load((root / f"turns/{n:03d}/rolls.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        pbp(root, "undo", "--no-commit")
        return {r["label"]: r for r in log}

    log = rolled()
    searches = [label for label in log if label.endswith(".fouille.table")]
    assaults = [label for label in log if label.startswith("p") and ".combat." in label and label.endswith(".1")]
    forced = {label: 12 for label in rng.sample(searches, min(5, len(searches)))}
    # the lowest total of the Péji's weapon: a bad first assault
    forced.update({label: parse(log[label]["expr"]).minimum for label in rng.sample(assaults, min(5, len(assaults)))})
    gm_path = root / f"turns/{n:03d}/gm.yaml"
    gm = yaml.load(gm_path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    for _ in range(3):
        write_yaml(gm_path, dict(gm, rolls=forced))
        used = rolled()
        unused = [label for label in forced if label not in used]
        if not unused:
            break
        for label in unused:
            del forced[label]
    return forced


def campaign(pejis: int, cells: int, hunters: int, rebuild: bool) -> tuple[Path, int, str]:
    """The cached campaign (built when missing): (folder, measured turn, base commit)."""
    folder = OUT / f"turn-p{pejis}-c{cells}-h{hunters}-v{BUILD_VERSION}"
    root = folder / "campagne"
    done = folder / "built.yaml"
    if rebuild or not done.exists():
        print(f"  building the {pejis}-Péji campaign in {folder} (cached for the next runs)", file=sys.stderr)
        root, measured = build(folder, pejis, cells, hunters)
        done.write_text(yaml.safe_dump({"turn": measured, "base": git(root, "rev-parse", "HEAD")}))
    info = yaml.safe_load(done.read_text())
    return root, info["turn"], info["base"]


# -- the floor -------------------------------------------------------------------------

FLOOR = r'''
"""The I/O floor of one turn: load its YAML inputs, write its outputs, commit."""
import subprocess, sys
from pathlib import Path
import yaml
root, n, ref = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
turn = root / "turns" / f"{n:03d}"
inputs = [root / "campaign.yaml", root / "world.yaml", root / "characters.yaml",
          root / "turns" / f"{n - 1:03d}" / "state.yaml", turn / "gm.yaml", *sorted((turn / "orders").iterdir())]
for path in inputs:
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
for path in sorted(ref.rglob("*")):
    if path.is_file():
        target = turn / path.relative_to(ref)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", f"tour {n}"], check=True)
'''


def reference_outputs(root: Path, n: int, base: str, fmt: str, ref: Path) -> None:
    """One untimed `pbp run` (it warms the caches too): its outputs, which the
    floor writes byte for byte."""
    git_reset(root, base)
    pbp(root, "run", "--format", fmt)
    shutil.rmtree(ref, ignore_errors=True)
    turn = root / "turns" / f"{n:03d}"
    for path in turn.rglob("*"):
        rel = path.relative_to(turn)
        if path.is_file() and rel.parts[0] != "orders" and rel.name != "gm.yaml":
            (ref / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, ref / rel)
    git_reset(root, base)


def what_happens(ref: Path) -> str:
    """What the measured turn holds, from its events: proof that it is not turn 1."""
    events = yaml.load((ref / "events.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    state = yaml.load((ref / "state.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    kinds = Counter(e["kind"] for e in events)
    pejis = Counter(p["status"] for p in state["pejis"].values())
    hunters = state["hunters"].values()
    on_map = sum(1 for h in hunters if h["cell"] and not h["out"])
    tracking = sum(1 for h in hunters if h["target"] and not h["out"])
    rolls = yaml.load((ref / "rolls.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    size = sum(p.stat().st_size for p in ref.rglob("*") if p.is_file())
    posts = sum(1 for p in ref.rglob("*") if p.suffix in (".bbcode", ".md"))
    return (f"{pejis['active']} Péjis active, {pejis.get('dead', 0)} dead, {pejis.get('escaped', 0)} escaped; "
            f"{on_map} hunters on the map ({tracking} tracking, {sum(1 for h in hunters if h['out'])} out); "
            f"this turn: {kinds['combat']} fights, {kinds['piege_public']} traps fired, "
            f"{sum(1 for r in rolls if r['label'].endswith('.fouille.table'))} searches, "
            f"{kinds['chasseur_arrive']} hunters called, {kinds['roleplay']} roleplays, {len(rolls)} rolls "
            f"({sum(1 for r in rolls if r.get('forced'))} forced); {posts} posts, {size / 1e6:.1f} MB written")


def steps(size: str, root: Path, n: int, base: str, refs: dict[str, Path], floor: Path, formats,
          sides: list[_ab.Side]) -> list[Step]:
    reset = lambda: git_reset(root, base)  # noqa: E731
    out = []
    for fmt in formats:
        for side in sides:
            out.append(Step(side.label(f"run {fmt} {size}"), [*side.pbp, "-C", str(root), "run", "--format", fmt],
                            reset, env=side.env, memory=True))
        out.append(Step(f"floor {fmt} {size}", [sys.executable, str(floor), str(root), str(n), str(refs[fmt])],
                        reset, memory=True))
    return out


def main() -> None:
    p = parser(__doc__, rounds_default=5, rounds_quick=2)
    p.add_argument("--pejis", type=int, default=None, help="Péjis of the main campaign (default 500; 100 quick)")
    p.add_argument("--cells", type=int, default=None, help="cells of the labyrinth (default 2000; 400 quick)")
    p.add_argument("--rebuild", action="store_true", help="build the cached campaigns again")
    _ab.add_arguments(p)
    args = p.parse_args()
    pejis = args.pejis or (100 if args.quick else 500)
    cells = args.cells or (400 if args.quick else 2000)
    count = rounds_of(args)
    sides = _ab.sides(args)
    header("bench_turn: one representative manhunt turn (pbp run + git commit) against its I/O floor", args)
    print(f"  {_ab.describe(sides)}")
    floor = OUT / "floor_turn.py"
    OUT.mkdir(parents=True, exist_ok=True)
    floor.write_text(FLOOR, encoding="utf-8")
    sizes = {}
    for label, n_pejis in (("small", pejis), ("large", pejis * 2)):
        root, n, base = campaign(n_pejis, cells, max(9, n_pejis // 10), args.rebuild)
        git_reset(root, base)
        formats = ("bbcode", "markdown") if label == "small" else ("bbcode",)
        refs = {fmt: root.parent / f"ref-{fmt}" for fmt in formats}
        for fmt in formats:
            reference_outputs(root, n, base, fmt, refs[fmt])
        sizes[label] = (n_pejis, root, n, base, refs, formats)
    all_steps = []
    for label, (n_pejis, root, n, base, refs, formats) in sizes.items():
        all_steps += steps(label, root, n, base, refs, floor, formats, sides)
    results: Results = rounds(all_steps, count, warmup=1 if len(sides) > 1 else 0)  # (the reference run warms B)
    for _, root, _, base, _, _ in sizes.values():
        git_reset(root, base)

    b = sides[-1]
    small, large = sizes["small"][0], sizes["large"][0]
    print(f"  campaign: {cells} cells, {small} Péjis and {max(9, small // 10)} hunters, turn {sizes['small'][2]} "
          f"after {PLAYED_TURNS} played; cached in {sizes['small'][1].parent}")
    print(f"  turn {sizes['small'][2]}: {what_happens(sizes['small'][4]['bbcode'])}")
    print(f"  median of {count} rounds; each ratio is the median of the ratios taken pair by pair "
          f"(A B floor, A B floor ..., spread in brackets)")
    for fmt in ("bbcode", "markdown"):
        a, f = b.label(f"run {fmt} small"), f"floor {fmt} small"
        lo, hi = results.spread(a, f)
        detail = (f"{seconds(results.median(a))} vs {seconds(results.median(f))} [{lo:.2f}–{hi:.2f}]; "
                  f"CPU {results.ratio(a, f, 'cpu'):.2f}×")
        if len(sides) > 1:
            detail += f"; A {results.ratio(sides[0].label(f'run {fmt} small'), f):.2f}× its floor"
        print(figure(f"pbp run ({fmt}), {small} Péjis / I/O floor", results.ratio(a, f), GOALS["floor"],
                     detail=detail))
    print(figure(f"peak memory of pbp run, {small} Péjis", results.peak(b.label("run bbcode small")), GOALS["peak_mb"],
                 unit=" MB", digits=0, detail=f"markdown {results.peak(b.label('run markdown small')):.0f} MB; "
                                              f"floor {results.peak('floor bbcode small'):.0f} MB" +
                                              (f"; A {results.peak(sides[0].label('run bbcode small')):.0f} MB"
                                               if len(sides) > 1 else "")))
    big, little = b.label("run bbcode large"), b.label("run bbcode small")
    lo, hi = results.spread(big, little)
    floor_growth = results.ratio("floor bbcode large", "floor bbcode small")
    detail = f"{seconds(results.median(big))} [{lo:.2f}–{hi:.2f}]; floor grows {floor_growth:.2f}×"
    if len(sides) > 1:
        detail += (f"; A grows {results.ratio(sides[0].label('run bbcode large'), sides[0].label('run bbcode small')):.2f}×")
    print(figure(f"pbp run, {large} Péjis / {small} Péjis", results.ratio(big, little), GOALS["growth"], detail=detail))
    print(figure(f"pbp run (bbcode), {large} Péjis / I/O floor", results.ratio(big, "floor bbcode large"), None,
                 detail=f"peak memory {results.peak(big):.0f} MB"))
    for fmt, size in (("bbcode", "small"), ("markdown", "small"), ("bbcode", "large")):
        _ab.print_versus(results, f"run {fmt} {size}", sides,
                         f"pbp run ({fmt}), {sizes[size][0]} Péjis, B / A")


if __name__ == "__main__":
    main()
