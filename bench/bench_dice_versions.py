"""Benchmark: the cost of the dice derivations, version 0 (CPython's Mersenne
Twister) against version 1 (HMAC-SHA256, docs/dice.md), in process, paired
(A B A B ...): 1,000,000 d6 as 1,000 labelled rolls of 1000d6 (the stream's
own cost), and 100,000 labelled rolls of 1d6 (a turn's many small rolls: the
cost of starting a stream per label). Prints figures, asserts nothing.

    python bench/bench_dice_versions.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from pbp.model.dice import Dice


def big(version: int) -> float:
    dice = Dice("bench secret", 1, version=version)
    start = time.process_time()
    for i in range(1000):
        dice.roll(f"x{i}", "1000d6")
    return time.process_time() - start


def small(version: int) -> float:
    dice = Dice("bench secret", 1, version=version)
    start = time.process_time()
    for i in range(100_000):
        dice.roll(f"x{i}", "1d6")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for name, what in (("1,000,000 d6 (1,000 rolls of 1000d6)", big), ("100,000 rolls of 1d6", small)):
        times = {0: [], 1: []}
        for _ in range(args.rounds):
            for version in (0, 1):
                times[version].append(what(version))
        v0, v1 = statistics.median(times[0]), statistics.median(times[1])
        print(f"{name}: version 0 {v0:.2f} s, version 1 {v1:.2f} s CPU (median of {args.rounds}; v1/v0 {v1 / v0:.2f})")


if __name__ == "__main__":
    main()
