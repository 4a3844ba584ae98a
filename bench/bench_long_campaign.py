"""Benchmark: does a turn cost more when the campaign is long? `pbp run`,
`status`, `check` and `post` on turn 10 against turn 500 of the same game.

The archives are bench_verify.py's d100 game (the bundled example played on by
bots and an MJ who keeps everyone standing), built to 10 and to `--turns`
turns (cached in bench/out/). Each is copied to a scratch folder, the next
turn's order files and gm.yaml are written there and committed (as the MJ
finds them before `pbp run`), and the copy's git repository is packed. Each
round then runs, for the short and the long campaign one after the other: `pbp
run` (with its git commit; the copy is put back to the prepared commit before
each run, untimed), `pbp status`, `pbp check` and `pbp post`. Each figure is the median of the pair-by-pair ratios long /
short, wall and CPU time; the issue's goal is 1.1 (within 10 %). Prints
figures, asserts nothing.

    python bench/bench_long_campaign.py [--quick] [--rounds N] [--turns 500] [--rebuild]
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

import _ab
from _play import pbp
from _timing import OUT, PBP, Results, Step, figure, git, git_reset, header, parser, rounds, rounds_of, seconds
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
    play_turn(root, n, random.Random(f"long/{n}"), side)  # writes the inputs, resolves and commits the turn
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


def main() -> None:
    p = parser(__doc__, rounds_default=7, rounds_quick=2)
    p.add_argument("--turns", type=int, default=None, help="the long campaign's turns (default 500; 40 with --quick)")
    p.add_argument("--rebuild", action="store_true", help="build the cached archives again")
    args = p.parse_args()
    long_turns = args.turns or (40 if args.quick else 500)
    side = _ab.Side("B", list(PBP), None, _ab.user_env(OUT / "cache-B"))
    header(f"bench_long_campaign: everyday commands on turn {SHORT} and turn {long_turns} of one d100 game", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-long-") as tmp:
        roots = {}
        for label, turns in (("short", SHORT), ("long", long_turns)):
            roots[label] = prepared(archive(turns, args.rebuild, side), Path(tmp) / label, side)
        steps = []
        for name, command in COMMANDS.items():
            for label, (root, commit) in roots.items():
                before = (lambda r=root, c=commit: git_reset(r, c)) if name == "run" else None
                steps.append(Step(f"{name} {label}", [*side.pbp, "-C", str(root), *command], before=before,
                                  env=side.env))
        results: Results = rounds(steps, rounds_of(args))
        print(f"  turn {SHORT} against turn {long_turns}; median of {rounds_of(args)} paired rounds")
        for name in COMMANDS:
            ratio = results.ratio(f"{name} long", f"{name} short")
            cpu = results.ratio(f"{name} long", f"{name} short", "cpu")
            lo, hi = results.spread(f"{name} long", f"{name} short")
            print(figure(f"pbp {name}, turn {long_turns} / turn {SHORT}", ratio, GOAL,
                         detail=f"CPU {cpu:.2f}×; {seconds(results.median(f'{name} short'))} → "
                                f"{seconds(results.median(f'{name} long'))} [{lo:.2f}–{hi:.2f}]"))


if __name__ == "__main__":
    main()
