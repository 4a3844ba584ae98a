"""Benchmark: `pbp verify` on a long archive (200 turns of a d100 campaign).

The archive is the bundled d100 example (`pbp init --example`: 4 turns played)
played on to turn 200 the way its MJ would: each turn a bot writes every player's
order file (checks, items, sleep; roleplay most of the time), the MJ's gm.yaml
has a Markdown narration (sometimes private parts), gauge damage and healing,
alignment and grave events and the odd fight, and `pbp run` resolves and commits
it. d100 fits: its game does not end while someone stands, and the MJ here keeps
everyone standing. The archive is cached in bench/out/.

Timed, pair by pair: `pbp verify` (every turn replayed and compared byte for
byte) and, for scale, its I/O floor: one process that loads every YAML input of
every turn with CSafeLoader and reads every output it compares. With a baseline
(`--baseline DIR`, bench/_ab.py), its `pbp verify` too, each version on an
archive it wrote itself (the same game: the same orders, gm.yaml and dice; the
files in each version's own format), so each round is A, B, floor.
Goal (for B): <= 5 s on this machine for 200 turns (<= 25 ms a turn). Prints
figures, asserts nothing.

    python bench/bench_verify.py [--quick] [--rounds N] [--turns 200] [--rebuild] [--baseline DIR]
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import _ab
from _play import init, pbp, write_orders, write_yaml
from _timing import OUT, CommandFailed, Results, Step, figure, header, parser, rounds, rounds_of, run, seconds

BUILD_VERSION = 1
GOAL_SECONDS_PER_200 = 5.0
GOAL_MS_PER_TURN = 25.0

ROLEPLAY = [
    "{name} vérifie la charge de son arme et se glisse derrière une caisse.",
    "« J'ai un mauvais pressentiment », souffle {name} en regardant la patrouille s'éloigner.",
    "{name} pianote sur son datapad : *trois minutes* avant la relève.",
    "Le cœur battant, {name} attend le signal [b]sans bouger[/b].",
    "{name} respire lentement, à l'écoute de la Force — ou de sa peur.",
]
NARRATION = [
    "Les sirènes de la base se taisent d'un coup. **Le silence est pire.**",
    "Une navette impériale se pose sur la plate-forme 3 ; *des stormtroopers* en descendent.",
    "La pluie acide de Tellis IV ruisselle sur les verrières.\n\n- Les caméras du secteur B clignotent.\n"
    "- Quelqu'un a laissé une porte de service ouverte.",
]


def mj_orders(state: dict, sheets: dict, players: list[str], n: int, rng: random.Random) -> dict:
    """What the MJ decides for turn `n` from the last state: damage (never down
    to 0 PV, so the game lasts), healing, alignment events, the odd fight."""
    chars = state["characters"]
    orders: dict[str, list] = {}
    gauges = []
    for handle in players:
        me, top = chars[handle], sheets[handle]["gauges"]["pv"]
        if me["pv"] <= 4 and me["pv"] < top:
            gauges.append({"joueur": handle, "pv": min(2, top - me["pv"]), "raison": "un medpac de fortune"})
        elif me["pv"] > 4 and rng.random() < 0.2:
            gauges.append({"joueur": handle, "pv": -rng.randint(1, 2), "raison": "un tir de blaster"})
    if gauges:
        orders["jauge"] = gauges
    for handle in players:
        light = chars[handle]["light"]
        stable = light in (0, 10)
        if not stable and rng.random() < 0.1:
            orders.setdefault("alignement", []).append({"joueur": handle, "reaction": rng.choice(["clair", "obscur"])})
        elif stable and rng.random() < 0.03:
            orders.setdefault("evenement_grave", []).append({"joueur": handle, "description": "un choix terrible"})
    if n % 10 == 0:
        orders["combat"] = "oui"
    elif n % 10 == 3 and state.get("combat"):
        orders["combat"] = "non"
    if rng.random() < 0.1:
        handle = rng.choice(players)
        orders["jet"] = [{"joueur": handle, "carac": rng.choice(["physique", "logique", "mental"]),
                          "but": "repérer l'embuscade"}]
    return orders


def play_turn(root: Path, n: int, rng: random.Random, side: _ab.Side) -> None:
    """Turn `n`'s order files (those not already there) and gm.yaml, then `pbp run`."""
    from pbp.engine.campaign import open_campaign

    campaign = open_campaign(root)
    rs, scenario, state = campaign.ruleset, campaign.scenario, campaign.state(n - 1)
    players = rs.players_to_play(state, scenario)
    for handle in players:
        path = campaign.turn_dir(n) / "orders" / f"{handle}.yaml"
        if path.exists():
            continue
        roleplay = rng.choice(ROLEPLAY).format(name=scenario.name(handle)) + "\n" if rng.random() < 0.7 else None
        write_orders(path, handle, n, rs.bot_orders(state, scenario, handle, rng), roleplay)
    gm_path = campaign.gm_file(n)
    if not gm_path.exists():
        narration = {"public": rng.choice(NARRATION) + "\n"}
        if rng.random() < 0.2:
            narration[rng.choice(players)] = "Tu sens une perturbation dans la Force, *tout près*.\n"
        gm = {"turn": n, "narration": narration}
        orders = mj_orders(state, rs.sheets(scenario), players, n, rng)
        if orders:
            gm["orders"] = orders
        write_yaml(gm_path, gm)
    pbp(root, "run", command=side.pbp, env=side.env)


def archive(turns: int, rebuild: bool, side: _ab.Side) -> Path:
    """The archive `side`'s pbp wrote (cached; written again when missing, when
    asked, or when that version no longer verifies it: its format changed)."""
    folder = OUT / f"verify-d100-t{turns}-v{BUILD_VERSION}-{side.name}"
    root = folder / "campagne"
    if not rebuild and (folder / "built").exists():
        try:
            run([*side.pbp, "-C", str(root), "verify"], env=side.env)
        except CommandFailed:
            print(f"  {side.name}: its archive no longer verifies (its format changed): built again", file=sys.stderr)
            rebuild = True
    if rebuild or not (folder / "built").exists():
        print(f"  building {side.name}'s {turns}-turn archive in {folder} (cached for the next runs)", file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        init(root, "d100", "--example", command=side.pbp)
        rng = random.Random(f"verify/{turns}")
        first = max(int(p.name) for p in (root / "turns").iterdir() if (p / "state.yaml").exists()) + 1
        for n in range(first, turns + 1):
            if n % 20 == 0:
                print(f"  building: turn {n} of {turns}", file=sys.stderr)
            play_turn(root, n, rng, side)
        (folder / "built").write_text("")
    return root


FLOOR = r'''
"""The I/O floor of `pbp verify`: every turn's YAML inputs loaded, every output read."""
import sys
from pathlib import Path
import yaml
root = Path(sys.argv[1])
for name in ("campaign.yaml", "world.yaml", "characters.yaml"):
    yaml.load((root / name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
for turn in sorted(p for p in (root / "turns").iterdir() if (p / "state.yaml").exists()):
    for path in sorted(turn.rglob("*")):
        if not path.is_file():
            continue
        if path.name == "state.yaml" or path.name == "gm.yaml" or path.parent.name == "orders":
            yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)  # an input of this turn or the next
        else:
            path.read_bytes()  # an output verify compares
'''


def main() -> None:
    p = parser(__doc__, rounds_default=3, rounds_quick=1)
    p.add_argument("--turns", type=int, default=None, help="turns of the archive (default 200; 20 with --quick)")
    p.add_argument("--rebuild", action="store_true", help="build the cached archive again")
    _ab.add_arguments(p)
    args = p.parse_args()
    turns = args.turns or (20 if args.quick else 200)
    sides = _ab.sides(args)
    header(f"bench_verify: pbp verify on a {turns}-turn d100 archive", args)
    print(f"  {_ab.describe(sides)}")
    roots = {side.name: archive(turns, args.rebuild, side) for side in sides}
    b = sides[-1]
    floor = OUT / "floor_verify.py"
    floor.write_text(FLOOR, encoding="utf-8")
    steps = [Step(side.label("verify"), [*side.pbp, "-C", str(roots[side.name]), "verify"], env=side.env,
                  memory=True) for side in sides]
    steps.append(Step("floor", [sys.executable, str(floor), str(roots[b.name])], memory=True))
    results: Results = rounds(steps, rounds_of(args))
    replayed = turns + 1  # turn 0 (set-up) is replayed too
    wall = results.median(b.label("verify"))
    size = sum(f.stat().st_size for f in (roots[b.name] / "turns").rglob("*") if f.is_file())
    print(f"  archive: {roots[b.name]} ({replayed} turns with set-up, {size / 1e6:.1f} MB); "
          f"median of {rounds_of(args)} rounds")
    goal = GOAL_SECONDS_PER_200 * turns / 200
    print(figure(f"pbp verify, {turns} turns", wall, goal, unit=" s",
                 detail=f"CPU {seconds(results.median(b.label('verify'), 'cpu'))}; peak memory "
                        f"{results.peak(b.label('verify')):.0f} MB"))
    print(figure("pbp verify, per turn", wall / turns * 1000, GOAL_MS_PER_TURN, unit=" ms", digits=1))
    lo, hi = results.spread(b.label("verify"), "floor")
    print(figure("pbp verify / its I/O floor", results.ratio(b.label("verify"), "floor"), None,
                 detail=f"floor {seconds(results.median('floor'))} [{lo:.1f}–{hi:.1f}]"))
    if len(sides) > 1:
        a = sides[0]
        size_a = sum(f.stat().st_size for f in (roots[a.name] / "turns").rglob("*") if f.is_file())
        print(figure(f"A: pbp verify, {turns} turns", results.median(a.label("verify")), None, unit=" s",
                     detail=f"CPU {seconds(results.median(a.label('verify'), 'cpu'))}; peak memory "
                            f"{results.peak(a.label('verify')):.0f} MB; its archive {size_a / 1e6:.1f} MB"))
        _ab.print_versus(results, "verify", sides, "pbp verify, B / A")


if __name__ == "__main__":
    main()
