"""A against B: the same benchmark on two versions of pbp, paired round by round.

B is the pbp of the running Python's environment (this checkout, as users run
its console script). A, the baseline, is another checkout with its own
environment, typically the commit a change started from:

    sh scripts/bench_baseline.sh <commit> bench/out/baseline
    python bench/bench_verify.py --baseline bench/out/baseline

(`--baseline` may also be set with PBP_BASELINE). Without one, the scripts time
B alone, against its floors and goals, as before.

Each side's child processes get the environment users have: no
PYTHONDONTWRITEBYTECODE (a user's Python keeps its compiled modules), and a
cache folder of its own (XDG_CACHE_HOME under bench/out/), warmed by the
warm-up round as a user's is by the commands before.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from _timing import OUT, PBP, Results, figure, seconds


@dataclass(frozen=True)
class Side:
    name: str  # "A" or "B"
    pbp: list[str]  # the command that runs this side's pbp
    checkout: Path | None  # its source tree (None: this one)
    env: dict

    def label(self, what: str) -> str:
        return f"{self.name} {what}"


def user_env(cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--baseline", metavar="DIR", default=os.environ.get("PBP_BASELINE"),
                        help="a checkout of pbp with its own .venv (scripts/bench_baseline.sh makes one): "
                             "timed as A, paired with this checkout as B")


def sides(args: argparse.Namespace) -> list[Side]:
    """[A, B] with a baseline, else [B]."""
    out = []
    if args.baseline:
        root = Path(args.baseline).resolve()
        exe = root / ".venv" / "bin" / "pbp"
        if not exe.exists():
            raise SystemExit(f"no {exe}: make the baseline with scripts/bench_baseline.sh <commit> {root}")
        out.append(Side("A", [str(exe)], root, user_env(OUT / "cache-A")))
    out.append(Side("B", list(PBP), None, user_env(OUT / "cache-B")))
    return out


def describe(all_sides: list[Side]) -> str:
    return "; ".join(f"{s.name} = {' '.join(s.pbp)}" for s in all_sides)


def versus(results: Results, what: str, all_sides: list[Side], attr: str = "wall") -> str:
    """`B/A 0.41× [0.38–0.45]; A 3.10 s`, or "" without a baseline."""
    if len(all_sides) < 2:
        return ""
    a, b = all_sides[0].label(what), all_sides[1].label(what)
    lo, hi = results.spread(b, a, attr)
    return f"B/A {results.ratio(b, a, attr):.2f}× [{lo:.2f}–{hi:.2f}]; A {seconds(results.median(a, attr))}"


def print_versus(results: Results, what: str, all_sides: list[Side], label: str) -> None:
    """One line: B's time over A's, pair by pair (no goal: it says what changed)."""
    if len(all_sides) < 2:
        return
    a, b = all_sides[0].label(what), all_sides[1].label(what)
    lo, hi = results.spread(b, a)
    print(figure(label, results.ratio(b, a), None,
                 detail=f"B {seconds(results.median(b))}, A {seconds(results.median(a))} [{lo:.2f}–{hi:.2f}]; "
                        f"CPU {results.ratio(b, a, 'cpu'):.2f}×"))
