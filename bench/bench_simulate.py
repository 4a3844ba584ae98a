"""Benchmark: `pbp simulate`, the real command, on its own default world.

- The goal run: `pbp simulate manhunt --games 10000 --jobs 2`, timed as the MJ
  runs it (start-up, the 6-player default synthetic 50-cell labyrinth, the
  statistics, the JSON out). Goal: <= 12 s wall on this machine.
- Reproducibility: the same seed gives the same JSON with --jobs 1 and --jobs 2
  (on fewer games), for every ruleset that simulates.
- Games per second on one process (--jobs 1) for each ruleset with its `pbp
  simulate` defaults (6 players, seed 0, 100 turns at most): `--games N` paired
  with `--games 1` (A B A B ...), so that start-up and building the world are
  taken out pair by pair: (N - 1) / (time of N - time of 1).
With a baseline (`--baseline DIR`, bench/_ab.py): the goal run and the rates
of A paired with B's, and the same seed gives A and B the same JSON (`pbp
simulate ID --games 300 --seed 3 --json`, every ruleset): a faster simulation
that plays other games would be no faster simulation.
Prints figures, asserts nothing.

    python bench/bench_simulate.py [--quick] [--rounds N] [--games 10000] [--baseline DIR]
"""

from __future__ import annotations

import json
import statistics
import tempfile
from pathlib import Path

import _ab
from _timing import Results, Step, figure, header, parser, progress, rounds, rounds_of, run, seconds

GOAL_SECONDS = 12.0
GOAL_GAMES = 10_000
#: games per ruleset for the one-process rate: a few seconds each at today's speed,
#: fixed so that figures from before and after a change compare
RATE_GAMES = {"manhunt": 1000, "murder": 200, "d100": 300, "skirmish": 40}


def simulating_rulesets() -> list[str]:
    from pbp.model import ruleset

    return [rid for rid in ruleset.ids() if ruleset.SIMULATE in ruleset.load_class(rid).capabilities]


def simulate(side: _ab.Side, rid: str, games: int, jobs: int, *extra: str) -> list[str]:
    return [*side.pbp, "simulate", rid, "--games", str(games), "--jobs", str(jobs), "--json", *extra]


def same_json(side: _ab.Side, rid: str, games: int, work: Path) -> bool:
    """Does --jobs 2 give byte for byte the JSON of --jobs 1?"""
    one, two = work / f"{rid}-1.json", work / f"{rid}-2.json"
    run(simulate(side, rid, games, 1, "--seed", "7"), stdout=one, env=side.env)
    run(simulate(side, rid, games, 2, "--seed", "7"), stdout=two, env=side.env)
    return one.read_bytes() == two.read_bytes()


def same_as_baseline(sides: list[_ab.Side], rid: str, work: Path) -> bool:
    """Does B give byte for byte A's JSON for the same seed?"""
    out = []
    for side in sides:
        path = work / f"{rid}-{side.name}.json"
        run(simulate(side, rid, 300, 2, "--seed", "3"), stdout=path, env=side.env)
        out.append(path.read_bytes())
    return out[0] == out[1]


def main() -> None:
    p = parser(__doc__, rounds_default=3, rounds_quick=1)
    p.add_argument("--games", type=int, default=None,
                   help=f"games of the goal run (default {GOAL_GAMES}; 1000 with --quick)")
    _ab.add_arguments(p)
    args = p.parse_args()
    count = rounds_of(args)
    games = args.games or (1000 if args.quick else GOAL_GAMES)
    scale = 5 if args.quick else 1
    sides = _ab.sides(args)
    b = sides[-1]
    header("bench_simulate: pbp simulate, the real command, on its default world", args)
    print(f"  {_ab.describe(sides)}")
    with tempfile.TemporaryDirectory(prefix="pbp-bench-simulate-") as tmp:
        work = Path(tmp)
        out = work / "goal.json"
        goal_steps = [Step(side.label("goal"), simulate(side, "manhunt", games, 2), env=side.env, memory=True)
                      for side in sides]
        results: Results = rounds(goal_steps, count, warmup=0, label="goal run: ")
        run(simulate(b, "manhunt", 1, 1), stdout=out, env=b.env)  # what world it played: the report says
        report = json.loads(out.read_text(encoding="utf-8"))
        goal = GOAL_SECONDS * games / GOAL_GAMES
        wall = results.median(b.label("goal"))
        print(f"  goal run: pbp simulate manhunt --games {games} --jobs 2 ({report['players']} players, "
              f"the ruleset's synthetic labyrinth, seed {report['seed']}); median of {count} runs")
        print(figure(f"pbp simulate manhunt --games {games} --jobs 2", wall, goal, unit=" s",
                     detail=f"{games / wall:.0f} games/s; CPU {seconds(results.median(b.label('goal'), 'cpu'))}; "
                            f"peak {results.peak(b.label('goal')):.0f} MB"))
        print(f"    (the goal needs {GOAL_GAMES / GOAL_SECONDS / 2:.0f} games/s on each of 2 processes)")
        _ab.print_versus(results, "goal", sides, f"pbp simulate manhunt --games {games}, B / A")

        rids = simulating_rulesets()
        print("  same seed, --jobs 1 and --jobs 2: the same JSON byte for byte?")
        for rid in rids:
            n = max(20, RATE_GAMES.get(rid, 100) // (5 * scale))
            progress(f"{rid}: --jobs 1 and --jobs 2 ({n} games)")
            same = same_json(b, rid, n, work)
            progress("")
            print(f"  {rid:<10} {n:>5} games, seed 7: {'same JSON' if same else 'DIFFERENT JSON'}")
        if len(sides) > 1:
            print("  same seed, A and B: the same JSON byte for byte? (--games 300 --seed 3)")
            for rid in rids:
                progress(f"{rid}: A and B (300 games)")
                same = same_as_baseline(sides, rid, work)
                progress("")
                print(f"  {rid:<10}   300 games, seed 3: {'same JSON' if same else 'DIFFERENT JSON'}")

        steps = []
        for rid in rids:
            n = max(10, RATE_GAMES.get(rid, 100) // scale)
            for side in sides:
                steps += [Step(side.label(f"{rid} {n}"), simulate(side, rid, n, 1), env=side.env),
                          Step(side.label(f"{rid} 1"), simulate(side, rid, 1, 1), env=side.env)]
        rates = rounds(steps, count, label="games/s: ")
        print(f"  games per second on one process (--jobs 1; `--games N` paired with `--games 1`, "
              f"median of {count})")
        for step in steps[::2 * len(sides)]:
            rid, n = step.name.split()[1:]
            n = int(n)
            line = {}
            for side in sides:
                per_pair = [(n - 1) / max(x.wall - y.wall, 1e-9) for x, y in
                            zip(rates.samples[side.label(f"{rid} {n}")], rates.samples[side.label(f"{rid} 1")],
                                strict=True)]
                line[side.name] = statistics.median(per_pair)
            rate = line[b.name]
            text = (f"  {rid:<10} {rate:>8.0f} games/s   ({n} games in {seconds(rates.median(b.label(f'{rid} {n}')))}, "
                    f"start-up and world {seconds(rates.median(b.label(f'{rid} 1')))}; {1000 / rate:.1f} ms a game)")
            if "A" in line:
                text += f"; A {line['A']:.0f} games/s: B/A {rate / line['A']:.2f}× the rate"
            print(text)


if __name__ == "__main__":
    main()
