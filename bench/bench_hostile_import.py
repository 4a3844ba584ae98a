"""Benchmark: the worst private message a player can paste into `pbp orders import`.

A player's message is untrusted text, read on the MJ's machine: whatever it holds,
reading it must stay bounded. Each case below is a message of the size limit
(`order_file_bytes`, 64 KiB) built to be a worst case for one part of the reading:
one long word (the typo matcher), "si(" repeated (conditions and their subjects),
notes to the MJ opened and never closed, quotes, list markers, sequence words,
names and their stop words, action words by the thousand, accents and typos. Each
is read by `pbp orders import` on every bundled example (the ruleset's own words
and names), in a child process; printed: the import's CPU time (the reading, the
order file, the check and the receipt; the interpreter's start-up left out) and
the child's peak memory (the interpreter's own included).

Goal: the worst case under 1 s of CPU and 200 MB on this machine. Prints figures,
asserts nothing.

    python bench/bench_hostile_import.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIMIT = 65536
GOAL_CPU = 1.0
GOAL_MB = 200.0
PLAYERS = {"manhunt": "lucy", "murder": "alice", "skirmish": "alice", "d100": "kira"}


def _fill(unit: str, limit: int = LIMIT) -> str:
    """`unit` repeated up to `limit` bytes of UTF-8."""
    size = len(unit.encode("utf-8"))
    return unit * (limit // size)


def cases(limit: int = LIMIT) -> dict[str, str]:
    """The hostile messages, by name: each at most `limit` bytes of UTF-8."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    long_word = (letters * (limit // len(letters) + 1))[:limit]  # every deletion of it a different string
    return {
        "one long word": long_word,
        "one long word of one letter": "a" * limit,
        "one long word near an action's": "fouille" + "e" * (limit - 7),
        "one long accented word": _fill("é", limit),
        "si( on one line": _fill("si(", limit),
        "si je on one line": _fill("si je ", limit),
        "unclosed notes": _fill("(HRP ", limit),
        "unclosed tags": _fill("[HRP] [/", limit),
        "notes on every line": _fill("(HRP : x\n", limit),
        "unclosed quotes": _fill("« ", limit),
        "straight quotes": _fill('"a ', limit),
        "list markers": _fill("1) ", limit),
        "numbered items": _fill("1. 2) ", limit),
        "sequence words": _fill("puis ", limit),
        "commas": _fill(", ", limit),
        "action words": _fill("je fouille puis ", limit),
        "action words, one sentence each": _fill("Je me cache. ", limit),
        "stop words": _fill("de la ", limit),
        "names": _fill("Sylas Grimnir Bruno Gaëlle Aria ", limit),
        "labels": _fill("RP : HRP : Actions : ", limit),
        "typos of actions": _fill("fouile cahce déplacment ", limit),
        "conditions and pronouns": _fill("si j ", limit),
        "one line of words": _fill("mot ", limit),
        "lines": _fill("a\n", limit),
        "blank lines": "\n" * limit,
        "numbers": _fill("12345 ", limit),
        "signs and numbers": _fill("+-1 ", limit),
        "apostrophes": _fill("l'", limit),
        "combining marks": "a" + _fill("\u0301", limit - 1),
        "yaml-like text": _fill("roleplay: |\n- [x] {y} # z\n", limit),
    }


CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from pbp.engine.campaign import open_campaign
    from pbp.plaintext import import_orders
    campaign = open_campaign(sys.argv[1])
    text = sys.stdin.buffer.read().decode("utf-8")
    start = time.process_time()
    import_orders.import_message(campaign, sys.argv[2], text)
    cpu = time.process_time() - start
    print(json.dumps({"cpu": cpu, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""")


def measure(rid: str, text: str, timeout: float) -> dict:
    """One import in a child process: its CPU seconds and peak MB (None: it did not end in time)."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(REPO / "campaigns" / rid), PLAYERS[rid]],
                              input=text.encode("utf-8"), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"cpu": None, "peak_mb": None}
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace")[-2000:])
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="manhunt only")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a case counts as hung")
    args = parser.parse_args()
    rulesets = ["manhunt"] if args.quick else list(PLAYERS)
    print(f"pbp orders import: hostile messages of {LIMIT} bytes (goal: ≤ {GOAL_CPU:g} s CPU, ≤ {GOAL_MB:g} MB)")
    worst = (0.0, "", "")
    worst_mb = (0.0, "", "")
    for name, text in cases().items():
        row = []
        for rid in rulesets:
            got = measure(rid, text, args.timeout)
            if got["cpu"] is None:
                row.append(f"{rid} HUNG")
                worst = (float("inf"), name, rid)
                continue
            row.append(f"{rid} {got['cpu'] * 1000:6.0f} ms {got['peak_mb']:5.0f} MB")
            if got["cpu"] > worst[0]:
                worst = (got["cpu"], name, rid)
            if got["peak_mb"] > worst_mb[0]:
                worst_mb = (got["peak_mb"], name, rid)
        print(f"  {name:<34} " + " | ".join(row), flush=True)
    cpu_ok = "ok" if worst[0] <= GOAL_CPU else "OVER"
    mb_ok = "ok" if worst_mb[0] <= GOAL_MB else "OVER"
    print(f"worst CPU:    {worst[0]:.3f} s  ({worst[1]}, {worst[2]})  goal ≤ {GOAL_CPU:g} s  {cpu_ok}")
    print(f"worst memory: {worst_mb[0]:.0f} MB  ({worst_mb[1]}, {worst_mb[2]})  goal ≤ {GOAL_MB:g} MB  {mb_ok}")


if __name__ == "__main__":
    main()
