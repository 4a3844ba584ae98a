"""Benchmark: the worst rules file a stranger can give pbp (issue 26).

A data campaign's rules.yaml may come from anyone. Each case below is a rules
file built to hurt one part of the reading or the playing: huge (over the
limit, and a sparse gigabyte), deeply nested YAML, formulas that would explode
(power towers, dice of dice, a billion dice, a die exploding on every face,
products past 10^18, nesting past the limit), a table of a million rows (and
one on a die of a million faces, and one of 1001 rows), names that collide with
the language's own (`min`, `or`, `name`, `target`, `turn`, `__class__`), YAML
bombs (aliases, merge keys) and Python tags; the largest rules file pbp accepts
(200 actions of 50 effects, under 256 KiB), checked; and turns whose thresholds
would go off without end (`every: 1` moved by 10^11, two gauges setting each
other off), played by `pbp run`.

Each case runs in a child process (`pbp rules check FILE`, or `pbp setup` then
`pbp run` in a scratch campaign); printed: the command's CPU time (the
interpreter's start-up left out), the child's peak memory (the interpreter's own
included) and how it ended (refused, with the first line said, or played).

Goal: every case refused at its file:line or played within 5 s and 200 MB.
Prints figures, asserts nothing.

    python bench/bench_hostile_rules.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

GOAL_CPU = 5.0
GOAL_MB = 200.0
BASE = """\
gauges:
  hp: {{start: 10, min: 0, max: 100}}
actions:
  grow:
    effects:
      - add: {{hp: "{value}"}}
"""


def cases() -> dict[str, str | None]:
    """The hostile rules files, by name (None: the sparse gigabyte, made on disk)."""
    def grow(value: str) -> str:
        return BASE.format(value=value)

    nested = "actions:\n  a:\n    effects:\n" + "".join(
        "  " * (i + 3) + "- if: true\n" + "  " * (i + 4) + "then:\n" for i in range(200))
    return {
        "over the size limit (300 KB)": "# " + "x" * 300_000 + "\n" + grow("1"),
        "a sparse gigabyte": None,
        "YAML nested 200 levels": nested,
        "formula nested 70 calls": grow("abs(" * 70 + "1" + ")" * 70),
        "power tower 10**10**10": grow("10**10**10"),
        "dice of dice (1d6)d6": grow("(1d6)d6"),
        "a billion dice": grow("999999999d999999999"),
        "a die exploding on every face": grow("1d1!"),
        "product past 10^18": grow("999999999 * " * 5 + "1"),
        "a million rows": "tables:\n  t:\n    dice: 1d1000000\n    rows:\n"
                          + "".join(f"      - {{roll: {i}}}\n" for i in range(1, 1_000_001)) + grow("1"),
        "a die of a million faces": "tables:\n  t:\n    dice: 1d1000000\n    rows:\n"
                                    "      - {roll: 1-1000000, v: 1}\n" + grow("1"),
        "1001 rows": "tables:\n  t:\n    rows:\n" + "      - {v: 1}\n" * 1001 + grow("1"),
        "a gauge called min, read by a formula": grow("min").replace("  hp:", "  min: {start: 1}\n  hp:"),
        "a stat called name": "stats:\n  name: {default: 1}\n" + grow("1"),
        "a stat called __class__": "stats:\n  __class__: {default: 1}\n" + grow("__class__"),
        "a gauge called or (gold)": grow("1").replace("  hp:", "  or: {start: 1}\n  hp:"),
        "billion laughs": "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                          "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" + grow("1"),
        "python tag": "actions: !!python/object/apply:os.system ['touch pwned']\n",
        "the largest accepted file": largest(),
    }


def largest() -> str:
    """200 actions of 50 effects each with a formula: as much as the limits let through."""
    effects = "".join(f"      - add: {{hp: \"min(max(hp - {i} * 3 + 1d6, 0), 100)\"}}\n" for i in range(50))
    actions = "".join(f"  a{n}:\n    cost: 1\n    effects:\n{effects}" for n in range(200))
    text = "gauges:\n  hp: {start: 10, min: 0, max: 100}\nbudget: {points: 3}\nactions:\n" + actions
    while len(text.encode()) > 262_144:  # as many actions as fit
        text = text[:text.rindex("\n  a")] + "\n"
    return text


#: turns played by `pbp run`: their thresholds would go off without end
TURNS = {
    "every: 1 moved by 10^11": """\
gauges:
  hp:
    start: 0
    min: 0
    max: 100000000000
    thresholds:
      - every: 1
        effects: []
actions:
  grow:
    effects:
      - add: {hp: 100000000000}
""",
    "two gauges setting each other off": """\
gauges:
  a:
    start: 0
    thresholds:
      - every: 1
        effects: [{add: {b: 1}}]
  b:
    start: 0
    thresholds:
      - every: 1
        effects: [{add: {a: 1}}]
actions:
  grow:
    effects:
      - add: {a: 1}
""",
}

CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from click.testing import CliRunner
    from pbp.cli import main
    argv = json.loads(sys.argv[1])
    runner = CliRunner()
    for before in argv[:-1]:
        runner.invoke(main, before)
    start = time.process_time()
    r = runner.invoke(main, argv[-1])
    cpu = time.process_time() - start
    lines = [line for line in r.output.splitlines() if line.strip()]
    print(json.dumps({"cpu": cpu, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "code": r.exit_code, "said": lines[0] if lines else "",
                      "crash": type(r.exception).__name__ if r.exception and r.exit_code not in (0, 1) else None}))
""")


def measure(commands: list[list[str]], timeout: float) -> dict | None:
    """The last of `commands` (pbp's arguments) timed in a child process, after the others."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(commands)], capture_output=True,
                              timeout=timeout, env={**os.environ, "PBP_LANG": "en"})
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace")[-2000:])
    return json.loads(done.stdout)


def check_case(folder: Path, name: str, text: str | None) -> list[list[str]]:
    path = folder / "rules.yaml"
    if text is None:
        with open(path, "wb") as handle:
            handle.truncate(1 << 30)
    else:
        path.write_text(text, encoding="utf-8")
    return [["rules", "check", str(path)]]


def turn_case(folder: Path, rules: str) -> list[list[str]]:
    (folder / "campaign.yaml").write_text("ruleset: data\ntitle: t\nplayers:\n  lucy: Lucy\n  bob: Bob\n")
    (folder / "secret.yaml").write_text("secret: s3cret\n")
    (folder / "rules.yaml").write_text(rules)
    (folder / "turns/001/orders").mkdir(parents=True)
    (folder / "turns/001/orders/lucy.yaml").write_text("actions: [grow]\n")
    return [["-C", str(folder), "setup", "--no-commit"], ["-C", str(folder), "run", "--no-commit"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a case counts as hung")
    args = parser.parse_args()
    print(f"hostile rules files (goal: refused at file:line or played in ≤ {GOAL_CPU:g} s CPU, ≤ {GOAL_MB:g} MB)")
    worst_cpu, worst_mb = (0.0, ""), (0.0, "")
    runs = [(name, "check", text) for name, text in cases().items()]
    runs += [(name, "run", text) for name, text in TURNS.items()]
    for name, how, text in runs:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            commands = check_case(folder, name, text) if how == "check" else turn_case(folder, text)
            got = measure(commands, args.timeout)
        if got is None:
            print(f"  {name:<36} HUNG (over {args.timeout:g} s)")
            worst_cpu = (float("inf"), name)
            continue
        ended = "CRASH " + got["crash"] if got["crash"] else "refused" if got["code"] else "accepted"
        said = got["said"].replace(str(folder), "")[:90]
        print(f"  {name:<36} {got['cpu'] * 1000:7.0f} ms {got['peak_mb']:5.0f} MB  {ended}: {said}", flush=True)
        worst_cpu = max(worst_cpu, (got["cpu"], name))
        worst_mb = max(worst_mb, (got["peak_mb"], name))
    print(f"worst CPU:    {worst_cpu[0]:.3f} s  ({worst_cpu[1]})  goal ≤ {GOAL_CPU:g} s  "
          f"{'ok' if worst_cpu[0] <= GOAL_CPU else 'OVER'}")
    print(f"worst memory: {worst_mb[0]:.0f} MB  ({worst_mb[1]})  goal ≤ {GOAL_MB:g} MB  "
          f"{'ok' if worst_mb[0] <= GOAL_MB else 'OVER'}")


if __name__ == "__main__":
    main()
