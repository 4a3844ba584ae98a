"""Benchmark: what each of the user's caches (pbp/base/usercache.py) saves an everyday
command, in CPU time, so that a cache that does not pay for itself can go.

On a copy of a bundled example (`pbp init PATH --ruleset ID --example`), each
round runs the command with every cache (A), then with one kind of cache off (B:
`usercache.folder` answers None for that kind, as when no cache folder can be
made), for each kind in turn; both sides through the same small launcher, so
they pay the same start-up. Each figure is the median of the pair-by-pair CPU
ratios B/A: 1.10 means the command costs 10 % more without that cache. The
warm-up round fills the caches, as the MJ's previous command would have.
Prints figures, asserts nothing.

    python bench/bench_caches.py [--quick] [--rounds N] [--ruleset ID] [--command C ...]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _play import init
from _timing import Results, Step, figure, header, parser, rounds, rounds_of, seconds

KINDS = ("data", "yaml", "orders", "seals")
COMMANDS = {"check": ["check"], "post": ["post"], "status": ["status"]}
#: runs pbp with the caches named in argv[1] (comma-separated) turned off
LAUNCHER = """
import sys
from pbp.base import usercache
off = set(sys.argv[1].split(",")) - {""}
kept = usercache.folder
usercache.folder = lambda kind, tag: None if kind in off else kept(kind, tag)
from pbp.cli import main
main(sys.argv[2:], prog_name="pbp")
"""


def main() -> None:
    p = parser(__doc__, rounds_default=9, rounds_quick=2)
    p.add_argument("--ruleset", default="manhunt", help="the bundled example (default manhunt)")
    p.add_argument("--command", action="append", choices=sorted(COMMANDS), help="only these commands")
    args = p.parse_args()
    count = rounds_of(args)
    header(f"bench_caches: each cache's gain, CPU time without it / with all, on the {args.ruleset} example", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-caches-") as tmp:
        root = Path(tmp) / "campaign"
        init(root, args.ruleset, "--example")
        for label in args.command or list(COMMANDS):
            steps = [Step("all", [sys.executable, "-c", LAUNCHER, "", *COMMANDS[label]], cwd=root)]
            steps += [Step(kind, [sys.executable, "-c", LAUNCHER, kind, *COMMANDS[label]], cwd=root)
                      for kind in KINDS]
            results = rounds(steps, count, label=f"{label}: ")
            base = results.median("all", "cpu")
            print(f"  pbp {label}: {seconds(base)} of CPU with every cache")
            for kind in KINDS:
                ratio = results.ratio(kind, "all", "cpu")
                low, high = results.spread(kind, "all", "cpu")
                gain = statistics.median(b.cpu - a.cpu for a, b in zip(results.samples["all"], results.samples[kind]))
                print(figure(f"  without the {kind} cache", ratio,
                             detail=f"{gain * 1000:+.1f} ms (pairs {low:.2f}–{high:.2f})"))
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
