"""Benchmark: the MJ's everyday commands on each bundled example, against the
start-up of any click program, and against the baseline (A) when given.

Each example is copied with `pbp init PATH --ruleset ID --example` into a
temporary folder (by each side's own pbp: its own examples); in it, as the MJ
types them: `pbp check`, `pbp post`, `pbp post --gm`, `pbp status`, `pbp orders
--player H` (the roster's first player), `pbp run --dry-run`; and `pbp --help`
once. Each round runs A, B and `python -c "import click"` one after the other;
each ratio is taken pair by pair, then the median.
Goals (for B): <= 2.5x click for check, post, status and orders, <= 1.5x for
`pbp --help`; `run --dry-run` (a whole turn resolved) is shown without one.
For scale, the floors no pbp code can go under, each paired with click too: the
libraries a command imports before pbp does anything, `import click, yaml` (a
command that parses YAML: check reads the orders; the MJ's own files are read
back from the user's cache once seen) and `import click, jinja2` (a command that
renders a template and whose files are remembered: status, orders).
Each figure is a wall-clock ratio (the goal's), with the CPU-time ratio beside it.
Prints figures, asserts nothing.

    python bench/bench_commands.py [--quick] [--rounds N] [--ruleset ID ...] [--baseline DIR]
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
from pathlib import Path

import yaml

import _ab
from _play import pbp
from _timing import IMPORT_CLICK, Results, Step, figure, header, parser, rounds, rounds_of, seconds

EXAMPLES = ("manhunt", "murder", "skirmish", "d100")
#: what a command costs before pbp's own code: the libraries it imports
FLOORS = {"import click, yaml": "yaml", "import click, jinja2": "jinja2"}
GOAL_EVERYDAY = 2.5
GOAL_HELP = 1.5


def commands(handle: str) -> list[tuple[str, list[str], float | None]]:
    """(label, arguments, goal): `run --dry-run` resolves a whole turn, and the
    issue sets it no goal: its figure is shown for scale."""
    return [("check", ["check"], GOAL_EVERYDAY), ("post", ["post"], GOAL_EVERYDAY),
            ("post --gm", ["post", "--gm"], GOAL_EVERYDAY), ("status", ["status"], GOAL_EVERYDAY),
            (f"orders --player {handle}", ["orders", "--player", handle], GOAL_EVERYDAY),
            ("run --dry-run", ["run", "--dry-run"], None)]


def main() -> None:
    p = parser(__doc__, rounds_default=7, rounds_quick=2)
    p.add_argument("--ruleset", action="append", choices=EXAMPLES, help="only these examples (repeatable)")
    _ab.add_arguments(p)
    args = p.parse_args()
    examples = args.ruleset or list(EXAMPLES)
    count = rounds_of(args)
    sides = _ab.sides(args)
    header("bench_commands: everyday commands on the bundled examples, against python -c 'import click'", args)
    print(f"  {_ab.describe(sides)}")
    work = Path(tempfile.mkdtemp(prefix="pbp-bench-commands-"))
    click_env = sides[-1].env
    try:
        steps = [Step(side.label("help"), [*side.pbp, "--help"], env=side.env) for side in sides]
        steps.append(Step("click help", IMPORT_CLICK, env=click_env))
        for floor, modules in FLOORS.items():
            steps.append(Step(floor, [IMPORT_CLICK[0], "-c", f"import click, {modules}"], env=click_env))
            steps.append(Step(f"click {floor}", IMPORT_CLICK, env=click_env))
        table = []
        for rid in examples:
            for side in sides:
                root = work / side.name / rid
                pbp(work, "init", str(root), "--ruleset", rid, "--example", command=side.pbp, env=side.env)
            config = yaml.safe_load((work / sides[-1].name / rid / "campaign.yaml").read_text(encoding="utf-8"))
            handle = next(iter(config["players"]))
            for label, argv, goal in commands(handle):
                name = f"{rid}: pbp {label}"
                steps += [Step(side.label(name), [*side.pbp, *argv], cwd=work / side.name / rid, env=side.env)
                          for side in sides]
                steps.append(Step(f"click {name}", IMPORT_CLICK, env=click_env))
                table.append((name, goal))
        results: Results = rounds(steps, count)
        print(f"  median of {count} rounds; ratio = the median of the pair-by-pair ratios [lowest–highest]; "
              f"python -c 'import click' takes {seconds(results.median('click help'))}")
        b = sides[-1]
        lo, hi = results.spread(b.label("help"), "click help")
        print(figure("pbp --help", results.ratio(b.label("help"), "click help"), GOAL_HELP,
                     detail=f"{seconds(results.median(b.label('help')))} [{lo:.2f}–{hi:.2f}]; "
                            f"CPU {results.ratio(b.label('help'), 'click help', 'cpu'):.2f}×; "
                            + _ab.versus(results, "help", sides)))
        for floor in FLOORS:
            lo, hi = results.spread(floor, f"click {floor}")
            print(figure(f"floor: python -c '{floor}'", results.ratio(floor, f"click {floor}"), None,
                         detail=f"{seconds(results.median(floor))} [{lo:.2f}–{hi:.2f}]; "
                                f"CPU {results.ratio(floor, f'click {floor}', 'cpu'):.2f}×; no pbp code: what a "
                                f"command {'rendering a template ' if 'jinja2' in floor else ''}cannot go under"))
        ratios, before = [], []
        for name, goal in table:
            ratio = results.ratio(b.label(name), f"click {name}")
            if goal is not None:
                ratios.append((ratio, name))
            lo, hi = results.spread(b.label(name), f"click {name}")
            # the CPU time too: on a shared VM the wall clock also counts the time the process waited
            detail = (f"{seconds(results.median(b.label(name)))} [{lo:.2f}–{hi:.2f}]; "
                      f"CPU {results.ratio(b.label(name), f'click {name}', 'cpu'):.2f}×")
            if len(sides) > 1:
                was = results.ratio(sides[0].label(name), f"click {name}")
                if goal is not None:
                    before.append(was)
                detail += f"; A {was:.2f}× click; " + _ab.versus(results, name, sides)
            print(figure(name, ratio, goal, detail=detail))
        worst = max(ratios)
        over = sum(1 for r, _ in ratios if r > GOAL_EVERYDAY)
        detail = f"worst {worst[0]:.2f}× ({worst[1]}); {over} of {len(ratios)} over the goal"
        if before:
            detail += f"; A: median {statistics.median(before):.2f}×, worst {max(before):.2f}×"
        print(figure("everyday commands: median", statistics.median(r for r, _ in ratios), GOAL_EVERYDAY,
                     detail=detail))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
