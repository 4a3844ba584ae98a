"""Benchmark: the worst narration a stranger can hand `pbp run`, against a plain one.

The campaign: a scratch copy of the bundled manhunt example, turn 4 to play.
The MJ's narration (gm.yaml) is built to make a backtracking pattern try every
reading of it: `[` and 44 comma-separated numbers with no `]` (the coordinates
pattern: each two more numbers doubled its time), runs of 40,000 no-break
spaces inside a quote and a list item (the clean-up of the converted Markdown:
quadratic), a dice-like `1 +` before a run of spaces. Timed as the MJ runs it
(`pbp run --no-commit`, the post in BBCode), each round the hostile narration
then a plain one of a line.

Goals: the hostile run under 1 s of CPU and 200 MB of peak memory. Prints
figures, asserts nothing.

    python bench/bench_hostile_text.py [--quick] [--rounds N]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
NBSP = "\u00a0"


def hostile_narration() -> str:
    numbers = ",".join(str(i) for i in range(44))
    run = NBSP * 40_000
    return "\n".join([
        f"Relevé des positions [{numbers} sans fin.",
        "",
        f"> Une citation{run}qui ne finit pas",
        "",
        f"- un élément{run}très long",
        f"- coordonnées [{numbers}",
        "",
        f"Jet 1 +{' ' * 40_000}x",
    ])


def gm_yaml(narration: str) -> str:
    return "turn: 4\nnarration: |\n" + "".join(f"  {line}\n" for line in narration.split("\n"))


def main() -> None:
    p = T.parser(__doc__, rounds_default=5, rounds_quick=1)
    args = p.parse_args()
    T.header("pbp run on the worst narration (bench/bench_hostile_text.py)", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-text-") as tmp:
        camp = Path(tmp) / "manhunt"

        def narration(text):
            def fresh_campaign():  # turn 4 unplayed again, its gm.yaml holding `text`
                shutil.rmtree(camp, ignore_errors=True)
                shutil.copytree(REPO / "campaigns" / "manhunt", camp, ignore=shutil.ignore_patterns(".pbp.lock"))
                (camp / "turns" / "004" / "gm.yaml").write_text(gm_yaml(text), encoding="utf-8")
            return fresh_campaign

        command = [*T.PBP, "-C", str(camp), "run", "--no-commit"]
        steps = [
            T.Step("hostile", command, before=narration(hostile_narration()), memory=True),
            T.Step("plain", command, before=narration("La traque commence."), memory=True),
        ]
        results = T.rounds(steps, T.rounds_of(args))
    size = len(hostile_narration().encode())
    print(T.figure("hostile narration: CPU", results.median("hostile", "cpu"), 1.0, " s",
                   detail=f"{size / 1024:.0f} KiB of narration"))
    print(T.figure("hostile narration: peak memory", results.peak("hostile"), 200, " MB", digits=0))
    print(T.figure("plain narration: CPU", results.median("plain", "cpu"), None, " s"))
    print(T.figure("plain narration: peak memory", results.peak("plain"), None, " MB", digits=0))


if __name__ == "__main__":
    main()
