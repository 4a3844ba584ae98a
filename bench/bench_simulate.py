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
Prints figures, asserts nothing.

    python bench/bench_simulate.py [--quick] [--rounds N] [--games 10000]
"""

from __future__ import annotations

import json
import statistics
import tempfile
from pathlib import Path

from _timing import PBP, Results, Step, figure, header, parser, progress, rounds, rounds_of, run, seconds

GOAL_SECONDS = 12.0
GOAL_GAMES = 10_000
#: games per ruleset for the one-process rate: a few seconds each at today's speed,
#: fixed so that figures from before and after a change compare
RATE_GAMES = {"manhunt": 1000, "murder": 200, "d100": 300, "skirmish": 40}


def simulating_rulesets() -> list[str]:
    from pbp import ruleset

    return [rid for rid in ruleset.ids() if ruleset.SIMULATE in ruleset.load_class(rid).capabilities]


def simulate(rid: str, games: int, jobs: int, *extra: str) -> list[str]:
    return [*PBP, "simulate", rid, "--games", str(games), "--jobs", str(jobs), "--json", *extra]


def same_json(rid: str, games: int, work: Path) -> bool:
    """Does --jobs 2 give byte for byte the JSON of --jobs 1?"""
    one, two = work / f"{rid}-1.json", work / f"{rid}-2.json"
    run(simulate(rid, games, 1, "--seed", "7"), stdout=one)
    run(simulate(rid, games, 2, "--seed", "7"), stdout=two)
    return one.read_bytes() == two.read_bytes()


def main() -> None:
    p = parser(__doc__, rounds_default=3, rounds_quick=1)
    p.add_argument("--games", type=int, default=None,
                   help=f"games of the goal run (default {GOAL_GAMES}; 1000 with --quick)")
    args = p.parse_args()
    count = rounds_of(args)
    games = args.games or (1000 if args.quick else GOAL_GAMES)
    scale = 5 if args.quick else 1
    header("bench_simulate: pbp simulate, the real command, on its default world", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-simulate-") as tmp:
        work = Path(tmp)
        out = work / "goal.json"
        goal_steps = [Step("goal", simulate("manhunt", games, 2), memory=True)]
        results: Results = rounds(goal_steps, count, warmup=0, label="goal run: ")
        run(simulate("manhunt", 1, 1), stdout=out)  # what world it played: the report says
        report = json.loads(out.read_text(encoding="utf-8"))
        goal = GOAL_SECONDS * games / GOAL_GAMES
        wall = results.median("goal")
        print(f"  goal run: pbp simulate manhunt --games {games} --jobs 2 ({report['players']} players, "
              f"the ruleset's synthetic labyrinth, seed {report['seed']}); median of {count} runs")
        print(figure(f"pbp simulate manhunt --games {games} --jobs 2", wall, goal, unit=" s",
                     detail=f"{games / wall:.0f} games/s; CPU {seconds(results.median('goal', 'cpu'))}; "
                            f"peak {results.peak('goal'):.0f} MB"))
        print(f"    (the goal needs {GOAL_GAMES / GOAL_SECONDS / 2:.0f} games/s on each of 2 processes)")

        rids = simulating_rulesets()
        print("  same seed, --jobs 1 and --jobs 2: the same JSON byte for byte?")
        for rid in rids:
            n = max(20, RATE_GAMES.get(rid, 100) // (5 * scale))
            progress(f"{rid}: --jobs 1 and --jobs 2 ({n} games)")
            same = same_json(rid, n, work)
            progress("")
            print(f"  {rid:<10} {n:>5} games, seed 7: {'same JSON' if same else 'DIFFERENT JSON'}")

        steps = []
        for rid in rids:
            n = max(10, RATE_GAMES.get(rid, 100) // scale)
            steps += [Step(f"{rid} {n}", simulate(rid, n, 1)), Step(f"{rid} 1", simulate(rid, 1, 1))]
        rates = rounds(steps, count, label="games/s: ")
        print(f"  games per second on one process (--jobs 1; `--games N` paired with `--games 1`, "
              f"median of {count})")
        for step in steps[::2]:
            rid, n = step.name.split()
            n = int(n)
            per_pair = [(n - 1) / max(a.wall - b.wall, 1e-9)
                        for a, b in zip(rates.samples[step.name], rates.samples[f"{rid} 1"], strict=True)]
            rate = statistics.median(per_pair)
            print(f"  {rid:<10} {rate:>8.0f} games/s   ({n} games in {seconds(rates.median(step.name))}, "
                  f"start-up and world {seconds(rates.median(f'{rid} 1'))}; "
                  f"{1000 / rate:.1f} ms a game)")


if __name__ == "__main__":
    main()
