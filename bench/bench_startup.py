"""Benchmark: the start-up guard. Every everyday command against a bare
`python -c "import click"`, in CPU time, paired; the guard (issue 25) is 4×.

The campaign is the bundled manhunt example (`pbp init --example`: its next
turn's orders are there), in a temporary folder. Timed, as the MJ types them:
`pbp status`, `pbp check`, `pbp run --dry-run`, `pbp post`, `pbp orders import
--player lucy MESSAGE` (a player's message as tests/import_corpus/manhunt.yaml
has them) and `pbp --help`; each followed by `python -c "import click"`, so each
ratio is taken pair by pair (the median of the pairs). A warm-up round first:
the user's cache (a folder of the script's own) is filled as the MJ's is by the
commands before. Prints each ratio next to the guard; asserts nothing.

Measured (issue 25; 9 pairs, load 14 on 2 cores; `import click` 75 ms of CPU): status 2.65×,
check 2.05×, run --dry-run 3.63× (the closest to the guard), post 1.43×, orders import 3.44×,
--help 1.28×; the round before, under a load of 6: 2.52×, 1.93×, 3.59×, 1.55×, 3.49×, 1.23×.

    python bench/bench_startup.py [--quick] [--rounds N]
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import _ab
from _play import pbp
from _timing import IMPORT_CLICK, OUT, PBP, Results, Step, figure, header, parser, rounds, rounds_of, seconds

GUARD = 4.0
MESSAGE = "Mélétê retient son souffle.\nJe vais vers l'est, puis je cherche des pièges.\n"


def commands(message: Path) -> list[tuple[str, list[str]]]:
    return [("status", ["status"]), ("check", ["check"]), ("run --dry-run", ["run", "--dry-run"]),
            ("post", ["post"]), ("orders import", ["orders", "import", "--player", "lucy", str(message)]),
            ("--help", ["--help"])]


def main() -> None:
    p = parser(__doc__, rounds_default=9, rounds_quick=3)
    args = p.parse_args()
    env = _ab.user_env(OUT / "cache-startup")
    header("bench_startup: everyday commands against python -c 'import click' (CPU, paired)", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-startup-") as tmp:
        root = Path(tmp) / "manhunt"
        pbp(Path(tmp), "init", str(root), "--ruleset", "manhunt", "--example", env=env)
        message = Path(tmp) / "message.txt"
        message.write_text(MESSAGE, encoding="utf-8")
        steps = []
        for label, argv in commands(message):
            steps.append(Step(f"pbp {label}", [*PBP, *argv], cwd=root, env=env))
            steps.append(Step(f"click {label}", IMPORT_CLICK, cwd=root, env=env))
        results: Results = rounds(steps, rounds_of(args))
    print(f"  median of {rounds_of(args)} paired rounds; CPU ratio [lowest–highest]; "
          f"python -c 'import click': {seconds(results.median('click status', 'cpu'))} CPU")
    worst = 0.0
    for label, _ in commands(message):
        cpu = results.ratio(f"pbp {label}", f"click {label}", "cpu")
        lo, hi = results.spread(f"pbp {label}", f"click {label}", "cpu")
        worst = max(worst, cpu)
        print(figure(f"pbp {label}", cpu, GUARD,
                     detail=f"{seconds(results.median(f'pbp {label}', 'cpu'))} CPU [{lo:.2f}–{hi:.2f}]; "
                            f"wall {results.ratio(f'pbp {label}', f'click {label}'):.2f}×"))
    print(figure("worst", worst, GUARD))


if __name__ == "__main__":
    main()
