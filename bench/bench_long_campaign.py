"""Benchmark: does a turn cost more when the campaign is long? `pbp run`,
`status`, `check` and `post` on turn 10 against turn 500 of the same game.

The archives are bench_verify.py's d100 game (the bundled example played on by
bots and an MJ who keeps everyone standing), built to 10 and to `--turns`
turns (cached in bench/out/). Each is copied to a scratch folder, the next
turn's order files and gm.yaml are written there and committed (as the MJ
finds them before `pbp run`), and the copy's git repository is packed. Each
round then runs, for the short and the long campaign one after the other (the
long one first every other round): `pbp run` (with its git commit; the copy is
put back to the prepared commit before each run, untimed), `pbp status`, `pbp
check` and `pbp post`. `--command NAME` (again for more) times those alone.

The figure is CPU time: the child's user + system time and its children's
(git), from wait4, which the machine's other work moves much less than the wall
time. Each figure is the median of the pair-by-pair ratios long / short, with
the middle half of the pair ratios (first to third quartile) and the lowest and
highest pair; the issue's goal is 1.1 (within 10 %). On a loaded 2-core
machine a pair ratio moves by ±30 %: 15 pairs make the median good to a few
per cent, and a quartile range that straddles the goal says "not proven".
Prints figures, asserts nothing.

Measured (issue 25; load 12 to 14 on 2 cores, 15 pairs, CPU): before the last turns were found
without a stat of every turn's state.yaml, run 1.08× [1.02–1.17], status 1.06× [0.98–1.16];
after, run 1.03× [0.99–1.15] (434 → 456 ms), status 1.06× [1.00–1.09], check 0.99×
[0.95–1.02], post 0.99× [0.96–1.05]. The round before this script's pairs were fixed (7 pairs,
wall time, another next turn on each campaign): run 1.01, status 1.11, check 1.19 (0.72–1.54
between rounds), post 1.11. What still grows: docs/design.md, "The turn's commit".

`--profile`: instead of timing, each command once under cProfile (in a child
Python, the user's cache warmed first) on both campaigns, and the functions
whose number of calls or time grows from the short to the long one: a cost
that grows with the campaign's length shows as a call count that does.

    python bench/bench_long_campaign.py [--quick] [--rounds N] [--turns 500] [--rebuild]
                                        [--command run ...] [--profile]
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

import _ab
from _play import pbp
from _timing import OUT, PBP, Results, Step, figure, git, git_reset, header, parser, rounds, rounds_of, run, seconds
from bench_verify import archive, play_turn

SHORT = 10
GOAL = 1.1
COMMANDS = {"run": ["run"], "status": ["status"], "check": ["check"], "post": ["post"]}


def prepared(built: Path, scratch: Path, side: _ab.Side) -> tuple[Path, str]:
    """A copy of the archive `built` whose next turn's inputs are written and
    committed, unresolved; and that commit."""
    root = scratch / built.parent.name
    shutil.copytree(built, root, symlinks=True)
    turns = [int(p.name) for p in (root / "turns").iterdir() if (p / "state.yaml").exists()]
    n = max(turns) + 1
    # the same draws on both campaigns: the bots and the MJ choose from the same random
    # sequence (their states are alike), so the turn each run plays is of the same size and
    # the ratio is the campaign's length, not a busier turn (it moved the ratios by 5 to 15 %)
    play_turn(root, n, random.Random("long/next"), side)  # writes the inputs, resolves and commits the turn
    pbp(root, "undo", command=side.pbp, env=side.env)  # its outputs go; its inputs stay
    git(root, "add", "-A", ".")
    git(root, "commit", "-q", "--allow-empty", "-m", f"turn {n}'s inputs")
    # a user's repository is packed by git's automatic gc as it grows; the copy is packed
    # once, and no gc starts in the middle of a timed run (thousands of loose objects
    # would start one at every commit)
    # (--force: the copy may hold the lock of a gc git started in the background in the original)
    git(root, "config", "gc.auto", "0")
    (root / ".git" / "gc.log").unlink(missing_ok=True)
    git(root, "gc", "-q", "--force")
    return root, git(root, "rev-parse", "HEAD")


PROFILER = r'''
"""`pbp ARGS` in this process under cProfile; the statistics to the file argv[1]."""
import cProfile
import sys

from pbp.cli import main

profile = cProfile.Profile()
profile.enable()
try:
    main(sys.argv[2:], standalone_mode=False)
except SystemExit:
    pass
profile.disable()
profile.dump_stats(sys.argv[1])
'''


def _where(key: tuple) -> str:
    file, line, function = key
    return f"{Path(file).name}:{line} {function}" if line else function


def _grown_caller(key: tuple, short: dict, long: dict) -> str:
    """The caller of `key` whose calls to it grow most (a builtin's is the line that matters)."""
    was = short.get(key, (0, 0, 0, 0.0, {}))[4]
    callers = long[key][4]
    if not callers:
        return ""
    best = max(callers, key=lambda c: callers[c][1] - (was.get(c, (0, 0))[1]))
    return f"  ← {_where(best)}"


def profile(roots: dict, names: list[str], side: _ab.Side, top: int = 15) -> None:
    """Each command under cProfile on both campaigns; what grows from one to the
    other: the functions called more often on the long campaign (each with the
    caller whose calls grow most), then those whose time grows most (the
    profiler's times move with the machine's load: the counts are what tell)."""
    import pstats

    script = OUT / "profile_command.py"
    script.write_text(PROFILER, encoding="utf-8")
    for name in names:
        stats = {}
        for label, (root, commit) in roots.items():
            for _ in range(2):  # once to warm the user's cache, as the timed rounds do
                if name == "run":
                    git_reset(root, commit)
                target = OUT / f"profile-{name}-{label}.prof"
                run([sys.executable, str(script), str(target), "-C", str(root), *COMMANDS[name]], env=side.env)
            stats[label] = pstats.Stats(str(target)).stats
        short, long = stats["short"], stats["long"]
        rows = []
        for key, (_, calls, _, cumulative, _) in long.items():
            _, was_calls, _, was_cumulative, _ = short.get(key, (0, 0, 0, 0.0, {}))
            rows.append((calls - was_calls, cumulative - was_cumulative, was_calls, calls, was_cumulative,
                         cumulative, key))
        own = [sum(v[2] for v in stats[label].values()) * 1000 for label in ("short", "long")]
        print(f"\n  pbp {name}: {own[0]:.0f} ms on the short campaign, {own[1]:.0f} ms on the long one "
              f"(under the profiler)")
        print("    calls that grow:")
        for row in sorted(rows, key=lambda r: -r[0])[:top]:
            if row[0] > 0:
                print(f"      {row[2]:>7} → {row[3]:<7} calls  {row[4] * 1000:7.1f} → {row[5] * 1000:7.1f} ms  "
                      f"{_where(row[6])}{_grown_caller(row[6], short, long)}")
        print("    time that grows (cumulative):")
        for row in sorted(rows, key=lambda r: -r[1])[:top]:
            print(f"      {row[2]:>7} → {row[3]:<7} calls  {row[4] * 1000:7.1f} → {row[5] * 1000:7.1f} ms  "
                  f"{_where(row[6])}")


def main() -> None:
    p = parser(__doc__, rounds_default=15, rounds_quick=3)
    p.add_argument("--turns", type=int, default=None, help="the long campaign's turns (default 500; 40 with --quick)")
    p.add_argument("--rebuild", action="store_true", help="build the cached archives again")
    p.add_argument("--command", action="append", choices=list(COMMANDS), default=None,
                   help="time this command alone (again for more; default: all four)")
    p.add_argument("--profile", action="store_true", help="profile each command on both campaigns instead of timing")
    args = p.parse_args()
    long_turns = args.turns or (40 if args.quick else 500)
    names = args.command or list(COMMANDS)
    side = _ab.Side("B", list(PBP), None, _ab.user_env(OUT / "cache-B"))
    header(f"bench_long_campaign: everyday commands on turn {SHORT} and turn {long_turns} of one d100 game", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-long-") as tmp:
        roots = {}
        for label, turns in (("short", SHORT), ("long", long_turns)):
            roots[label] = prepared(archive(turns, args.rebuild, side), Path(tmp) / label, side)
        if args.profile:
            profile(roots, names, side)
            return
        steps = []
        for name in names:
            for label, (root, commit) in roots.items():
                before = (lambda r=root, c=commit: git_reset(r, c)) if name == "run" else None
                steps.append(Step(f"{name} {label}", [*side.pbp, "-C", str(root), *COMMANDS[name]], before=before,
                                  env=side.env))
        results: Results = rounds(steps, rounds_of(args), alternate=True)
    print(f"  turn {SHORT} against turn {long_turns}; median of {rounds_of(args)} paired rounds (CPU: the command "
          f"and its git); [first–third quartile of the pair ratios] (lowest–highest)")
    for name in names:
        a, b = f"{name} long", f"{name} short"
        cpu = results.ratio(a, b, "cpu")
        q1, q3 = results.quartiles(a, b, "cpu")
        lo, hi = results.spread(a, b, "cpu")
        print(figure(f"pbp {name}, turn {long_turns} / turn {SHORT}, CPU", cpu, GOAL,
                     detail=f"[{q1:.2f}–{q3:.2f}] ({lo:.2f}–{hi:.2f}); {seconds(results.median(b, 'cpu'))} → "
                            f"{seconds(results.median(a, 'cpu'))}; wall {results.ratio(a, b):.2f}×"))


if __name__ == "__main__":
    main()
