"""Benchmark: one manhunt turn on a synthetic 500-Péji, 2,000-cell labyrinth.

Prints figures and ratios, asserts nothing (speed is not a test):
- `pbp run` time next to the I/O floor: a process that only loads the same YAML
  inputs with CSafeLoader and writes the same output bytes (target <= 3x);
- peak memory of `pbp run` (target <= 150 MB);
- the same for 1,000 Péjis, to show how it grows (target: linear);
- `pbp --help` against `python -c "import click"` (target <= 1.5x).

    python bench/bench_turn.py [--pejis 500] [--cells 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

DIRECTIONS = ["nord", "est", "sud", "ouest"]
OPPOSITE = {"nord": "sud", "sud": "nord", "est": "ouest", "ouest": "est"}
DOORS = ["ouverture", "ouverture", "porte", "grille", "rideau"]


def build(root: Path, pejis: int, cells: int, seed: int = 7) -> Path:
    """A campaign folder with a grid labyrinth, set up, and turn 1's orders."""
    rng = random.Random(seed)
    width = int(cells ** 0.5)
    ids = [f"C{i:05d}" for i in range(cells)]
    world = {"cells": {cid: {"name": f"salle {cid}", "orientation": rng.choice(["N-S", "E-W"]),
                             "description": "Une salle du labyrinthe synthétique.", "exits": {}} for cid in ids}}
    for i, cid in enumerate(ids):
        x, y = i % width, i // width
        for d, (dx, dy) in (("est", (1, 0)), ("sud", (0, 1))):
            nx, ny = x + dx, y + dy
            j = ny * width + nx
            if nx >= width or j >= cells or rng.random() < 0.15:
                continue
            door = rng.choice(DOORS)
            exit_ = {"to": ids[j], "door": door}
            if door != "ouverture":
                exit_["state"] = rng.choice(["ouverte", "fermee"])
            world["cells"][cid]["exits"][d] = exit_
            world["cells"][ids[j]]["exits"][OPPOSITE[d]] = dict(exit_, to=cid)
    world["cells"][ids[-1]]["exit"] = True
    world["traps"] = [{"cell": c} for c in rng.sample(ids, cells // 50)]
    handles = [f"p{i:04d}" for i in range(pejis)]
    characters = {"pejis": {h: {"start": rng.choice(ids), "inventory": []} for h in handles},
                  "hunters": {f"h{i}": {"name": f"Chasseur {i}", "weapon": {"damage": "2d6"}, "protection": 1}
                              for i in range(1, 10)}}
    config = {"ruleset": "manhunt", "title": "Banc d'essai", "secret": "bench", "lang": "fr", "format": "bbcode",
              "players": {h: f"Péji {h}" for h in handles}}
    root.mkdir(parents=True)
    for name, data in (("campaign.yaml", config), ("world.yaml", world), ("characters.yaml", characters)):
        (root / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    pbp(root, "setup", "--no-commit")
    orders = root / "turns/001/orders"
    orders.mkdir(parents=True)
    for h in handles:
        start = characters["pejis"][h]["start"]
        exits = list(world["cells"][start]["exits"])
        actions = [{"deplacement_normal": rng.choice(exits)}] if exits and rng.random() < 0.6 else []
        actions.append(rng.choice(["recherche_pieges", "utilisation_equipement"]) if actions else "fouille")
        if actions[-1] == "utilisation_equipement":
            actions.pop()
        (orders / f"{h}.yaml").write_text(yaml.safe_dump(
            {"player": h, "turn": 1, "actions": actions, "roleplay": f"{h} avance prudemment."},
            allow_unicode=True), encoding="utf-8")
    return root


def pbp(root: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "pbp", "-C", str(root), *args], check=True, capture_output=True)


FLOOR = r"""
import sys, yaml
from pathlib import Path
root, out = Path(sys.argv[1]), Path(sys.argv[2])
for p in [root / "campaign.yaml", root / "world.yaml", root / "characters.yaml", root / "turns/000/state.yaml",
          *sorted((root / "turns/001/orders").iterdir())]:
    yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
for p in sorted(out.rglob("*")):
    if p.is_file():
        target = root / "turns/001" / p.relative_to(out)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(p.read_bytes())
"""


def timed(cmd: list[str], repeat: int, before=None) -> tuple[float, float]:
    """Best wall time of `repeat` runs and the peak RSS (MB) of the last one."""
    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        best = min(best, time.perf_counter() - start)
        if status != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}")
        peak = usage.ru_maxrss / 1024
    return best, peak


def turn_figures(pejis: int, cells: int, repeat: int, work: Path) -> dict:
    root = build(work / f"c{pejis}", pejis, cells)
    folder = root / "turns/001"

    def reset():
        for name in ("state.yaml", "rolls.yaml", "events.yaml", "public.bbcode", "gm.bbcode"):
            (folder / name).unlink(missing_ok=True)
        shutil.rmtree(folder / "private", ignore_errors=True)

    run_time, run_peak = timed([sys.executable, "-m", "pbp", "-C", str(root), "run", "--no-commit"], repeat, reset)
    outputs = work / f"out{pejis}"
    shutil.copytree(folder, outputs, ignore=shutil.ignore_patterns("orders"))
    script = work / "floor.py"
    script.write_text(FLOOR)
    floor_time, floor_peak = timed([sys.executable, str(script), str(root), str(outputs)], repeat, reset)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    return {"pejis": pejis, "cells": cells, "run": run_time, "floor": floor_time, "ratio": run_time / floor_time,
            "peak_mb": run_peak, "floor_peak_mb": floor_peak, "campaign_mb": size / 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pejis", type=int, default=500)
    parser.add_argument("--cells", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pbp-bench-"))
    try:
        small = turn_figures(args.pejis, args.cells, args.repeat, work)
        large = turn_figures(args.pejis * 2, args.cells, args.repeat, work)
        for f in (small, large):
            print(f"{f['pejis']:>5} Péjis, {f['cells']} cells: pbp run {f['run']:.2f} s, I/O floor {f['floor']:.2f} s "
                  f"-> ratio {f['ratio']:.2f} (target <= 3); peak memory {f['peak_mb']:.0f} MB (floor "
                  f"{f['floor_peak_mb']:.0f} MB; target <= 150)")
        growth = large["run"] / small["run"]
        print(f"growth {args.pejis} -> {args.pejis * 2} Péjis: x{growth:.2f} (linear: about x2)")
        help_time, _ = timed([sys.executable, "-m", "pbp", "--help"], 7)
        click_time, _ = timed([sys.executable, "-c", "import click"], 7)
        print(f"start-up: pbp --help {help_time * 1000:.0f} ms, python -c 'import click' {click_time * 1000:.0f} ms "
              f"-> ratio {help_time / click_time:.2f} (target <= 1.5)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
