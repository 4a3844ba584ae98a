"""Benchmark: the MJ's everyday commands on each bundled example, against the
start-up of any click program.

Each example is copied with `pbp init PATH --ruleset ID --example` into a
temporary folder; in it, as the MJ types them: `pbp check`, `pbp post`, `pbp post
--gm`, `pbp status`, `pbp orders --player H` (the roster's first player), `pbp
run --dry-run`; and `pbp --help` once. Each is paired with `python -c "import
click"` (A B A B ..., the ratio taken pair by pair, then the median).
Goals: <= 2.5x for the everyday commands, <= 1.5x for `pbp --help`. Prints
figures, asserts nothing.

    python bench/bench_commands.py [--quick] [--rounds N] [--ruleset ID ...]
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
from pathlib import Path

import yaml

from _play import pbp
from _timing import IMPORT_CLICK, PBP, Results, Step, figure, header, parser, rounds, rounds_of, seconds

EXAMPLES = ("manhunt", "murder", "skirmish", "d100")
GOAL_EVERYDAY = 2.5
GOAL_HELP = 1.5


def commands(handle: str) -> list[tuple[str, list[str]]]:
    return [("check", ["check"]), ("post", ["post"]), ("post --gm", ["post", "--gm"]), ("status", ["status"]),
            (f"orders --player {handle}", ["orders", "--player", handle]), ("run --dry-run", ["run", "--dry-run"])]


def main() -> None:
    p = parser(__doc__, rounds_default=7, rounds_quick=2)
    p.add_argument("--ruleset", action="append", choices=EXAMPLES, help="only these examples (repeatable)")
    args = p.parse_args()
    examples = args.ruleset or list(EXAMPLES)
    count = rounds_of(args)
    header("bench_commands: everyday commands on the bundled examples, against python -c 'import click'", args)
    work = Path(tempfile.mkdtemp(prefix="pbp-bench-commands-"))
    try:
        steps = [Step("help", [*PBP, "--help"]), Step("click help", IMPORT_CLICK)]
        table = []
        for rid in examples:
            root = work / rid
            pbp(work, "init", str(root), "--ruleset", rid, "--example")
            config = yaml.safe_load((root / "campaign.yaml").read_text(encoding="utf-8"))
            handle = next(iter(config["players"]))
            for label, argv in commands(handle):
                name = f"{rid}: pbp {label}"
                steps += [Step(name, [*PBP, *argv], cwd=root), Step(f"click {name}", IMPORT_CLICK)]
                table.append(name)
        results: Results = rounds(steps, count)
        print(f"  median of {count} rounds; ratio = the median of the pair-by-pair ratios [lowest–highest]; "
              f"python -c 'import click' takes {seconds(results.median('click help'))}")
        lo, hi = results.spread("help", "click help")
        print(figure("pbp --help", results.ratio("help", "click help"), GOAL_HELP,
                     detail=f"{seconds(results.median('help'))} [{lo:.2f}–{hi:.2f}]; "
                            f"CPU {results.ratio('help', 'click help', 'cpu'):.2f}×"))
        ratios = []
        for name in table:
            ratio = results.ratio(name, f"click {name}")
            ratios.append((ratio, name))
            lo, hi = results.spread(name, f"click {name}")
            print(figure(name, ratio, GOAL_EVERYDAY, detail=f"{seconds(results.median(name))} [{lo:.2f}–{hi:.2f}]; "
                                                           f"CPU {results.ratio(name, f'click {name}', 'cpu'):.2f}×"))
        worst = max(ratios)
        over = sum(1 for r, _ in ratios if r > GOAL_EVERYDAY)
        print(figure("everyday commands: median", statistics.median(r for r, _ in ratios), GOAL_EVERYDAY,
                     detail=f"worst {worst[0]:.2f}× ({worst[1]}); {over} of {len(ratios)} over the goal"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
