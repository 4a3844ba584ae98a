"""Benchmark: `pbp audit` of a revealed bundle against `pbp verify` of the same archive, per turn.

Both replay every turn byte for byte; the audit also reads the bundle (a
tar.gz, held in memory: nothing is unpacked to disk) and checks the secret and
every code. Timed on every bundled example (campaigns/, a few turns each: the
start-up dominates) and on a long campaign (bench_verify.py's d100 archive,
cached in bench/out/), each pair run A B A B ... (verify, then audit, round by
round: the machine's load moves both alike). Figures: the CPU time of each per
turn replayed, and the median of the pair ratios audit / verify.
Goal: audit within 2× verify per turn (issue 25). Prints figures, asserts nothing.

Measured (3 pairs, load 12 on 2 cores, `--turns 500` to share bench_long_campaign.py's
archive): the bundled examples 0.94× to 1.23× (village-vote the highest), the 500-turn d100
game 1.17× (audit 39.4 ms a turn, verify 34.6 ms); the issue measured 34 ms against 8 before
the audit replayed from memory.

    python bench/bench_audit_verify.py [--quick] [--rounds N] [--turns 200]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import _ab
from _timing import OUT, PBP, Results, Step, figure, header, parser, rounds, rounds_of, run

import bench_verify

REPO = Path(__file__).resolve().parent.parent
GOAL_RATIO = 2.0


def revealed(root: Path, bundle: Path) -> Path:
    """The bundle of the campaign at `root` (pbp reveal --before-end), written once."""
    if not bundle.exists():
        run([*PBP, "-C", str(root), "reveal", "--before-end", "--output", str(bundle)])
    return bundle


def examples() -> list[tuple[str, Path]]:
    """Every bundled example, copied under bench/out/ (pbp reveal reads it; the copy stays as shipped)."""
    out = []
    for example in sorted(p for p in (REPO / "campaigns").iterdir() if (p / "campaign.yaml").is_file()):
        copy = OUT / "audit-examples" / example.name
        if not copy.exists():
            shutil.copytree(example, copy)
        out.append((example.name, copy))
    return out


def turns_of(root: Path) -> int:
    """The turns `pbp verify` and `pbp audit` replay: every resolved one, set-up included."""
    return sum(1 for p in (root / "turns").iterdir() if (p / "state.yaml").is_file())


def main() -> None:
    p = parser(__doc__, rounds_default=5, rounds_quick=1)
    p.add_argument("--turns", type=int, default=None, help="turns of the long campaign (default 200; 20 with --quick)")
    args = p.parse_args()
    turns = args.turns or (20 if args.quick else 200)
    header(f"bench_audit_verify: pbp audit / pbp verify per turn (examples, and a {turns}-turn campaign)", args)
    b = _ab.sides(argparse.Namespace(baseline=None))[-1]  # this checkout, with a user's environment
    campaigns = examples() + [(f"d100, {turns} turns", bench_verify.archive(turns, False, b))]
    bundles = OUT / "audit-bundles"
    bundles.mkdir(parents=True, exist_ok=True)
    ratios = []
    for name, root in campaigns:
        bundle = revealed(root, bundles / f"{name.replace(' ', '').replace(',', '-')}.tar.gz")
        steps = [Step("verify", [*PBP, "-C", str(root), "verify"], env=b.env),
                 Step("audit", [*PBP, "audit", str(bundle)], env=b.env)]
        results: Results = rounds(steps, rounds_of(args), label=f"{name}: ")
        n = turns_of(root)
        verify_ms = results.median("verify", "cpu") / n * 1000
        audit_ms = results.median("audit", "cpu") / n * 1000
        lo, hi = results.spread("audit", "verify", "cpu")
        ratio = results.ratio("audit", "verify", "cpu")
        ratios.append(ratio)
        print(figure(f"{name} ({n} turns): audit / verify", ratio, GOAL_RATIO,
                     detail=f"CPU per turn: audit {audit_ms:.1f} ms, verify {verify_ms:.1f} ms "
                            f"[pairs {lo:.2f}–{hi:.2f}]"))
    print(f"  median of {rounds_of(args)} paired rounds each (after one warm-up round); "
          f"worst ratio {max(ratios):.2f}×")


if __name__ == "__main__":
    sys.exit(main())
