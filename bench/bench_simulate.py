"""Benchmark: games per second of `pbp simulate`, per ruleset.

For each ruleset with a synthetic game: games per second on one process, the
dice drawn per game, and the ratio against drawing that many random numbers
alone (the floor of any dice game); then the target run: 10,000 games of a
6-player manhunt on a 50-cell labyrinth with --jobs 2 (target <= 30 s).
Prints figures, asserts nothing.

    python bench/bench_simulate.py [--games 1000] [--big 10000]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from pbp import ruleset
from pbp.dice import FreeDice
from pbp.simulate import Simulation, game_seed, play_game


def per_ruleset(rid: str, games: int, players: int) -> str:
    rs = ruleset.get(rid)
    try:
        scenario = rs.sample_scenario(players, random.Random(1))
    except Exception as exc:  # noqa: BLE001 - report and go on
        return f"{rid:9} no synthetic game ({exc})"
    draws = 0
    start = time.perf_counter()
    for i in range(games):
        seed = game_seed(1, i)
        dice = FreeDice(seed)
        play_game(rs, scenario, seed, 100, dice)
        draws += dice.draws
    elapsed = time.perf_counter() - start
    rng = random.Random(0)
    start = time.perf_counter()
    for _ in range(draws):
        rng.randint(1, 6)
    floor = time.perf_counter() - start
    return (f"{rid:9} {games / elapsed:8.0f} games/s on 1 process, {draws / games:6.0f} dice per game; "
            f"drawing them alone {floor:.3f} s -> ratio {elapsed / max(floor, 1e-9):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--big", type=int, default=10_000)
    args = parser.parse_args()
    for rid in ruleset.ids():
        print(per_ruleset(rid, args.games, args.players))
    rs = ruleset.get("manhunt")
    scenario = rs.sample_scenario(6, random.Random(0))
    jobs = min(2, os.cpu_count() or 1)
    start = time.perf_counter()
    Simulation("manhunt", scenario, args.big, 0, jobs).run()
    elapsed = time.perf_counter() - start
    print(f"target: {args.big} games of a 6-player manhunt on a {rs.rules['simulation']['cells']}-cell labyrinth, "
          f"--jobs {jobs}: {elapsed:.1f} s (target <= 30 s), {args.big / elapsed:.0f} games/s")


if __name__ == "__main__":
    main()
