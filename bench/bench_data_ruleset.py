"""Benchmark: the d100 written as data (campaigns/d100-data, ruleset `data`)
against the built-in d100 (campaigns/d100) for the same rules, paired A B A B
(A = the built-in d100, B = the data ruleset), CPU time, median of the pair ratios.

- `pbp run`: the example campaign's next turn (turn 4, its orders archived), the
  real command as the MJ runs it (start-up, reading the rules, the posts).
- The turn function alone: the ruleset's `resolve` on the example's turn-4 orders
  and state, in this process (no start-up, no files): the rules engine's own cost.
- `pbp simulate`: 10,000 games on the campaign's sheets (`--jobs 1` so the CPU
  time is one process's; `--max-turns 20`, the built-in's `simulation.turns`,
  so both play the same length of game). The bots differ: the built-in's plays
  about one check a turn (its `simulation.bot`), the data ruleset's draws among
  its legal orders, two or three checks a turn for most (no limit in the seed);
  so B1, the data campaign with `rules: {budget: {count: 1}}` in campaign.yaml
  (one action a turn), is timed too: the same work as A's bots, turn for turn.
Goal: B/A <= 2 for each. Prints figures, asserts nothing.

Figures (CPU, the shared 2-core machine at load 15-18, so each is high and noisy):
- before (checkout 585e68b, --quick: 2 rounds, 500 games): pbp run 1.17x (A 457 ms,
  B 534 ms); the turn function 3.14x (A 229 us, B 720 us a turn); simulate 106x with
  its bots (A 2.5 s, B 268 s: every order of two or three actions asked of
  check_orders whole, up to 60 a bot a turn) and 4.7x at one action a turn (B1 11.9 s).
- after (checkout 508879b, --rounds 2, 10,000 games): pbp run 1.23x (A 855 ms, B 1.05 s);
  the turn function 2.39x (A 328 us, B 783 us a turn); simulate at 10,000 games not
  finished (at that load one round of the three runs took over 40 minutes).
  Timed in one process (100 games, the best of three): B/A 3.3x with
  its bots (2.6 actions a turn against the built-in's one: each action costs about
  what the built-in's does), B1/A 1.4x to 1.8x at one action a turn.

    python bench/bench_data_ruleset.py [--quick] [--rounds N] [--games 10000]
"""

from __future__ import annotations

import copy
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _timing import PBP, Results, Step, figure, header, parser, rounds, rounds_of, seconds

GOAL = 2.0
GAMES = 10_000
TURNS = 20  # the built-in d100's simulation.turns
REPO = Path(__file__).resolve().parent.parent
CAMPAIGNS = {"A": "d100", "B": "d100-data"}


def copy_example(name: str, work: Path) -> Path:
    sys.path.insert(0, str(REPO))
    from tests.helpers import copy_example as copy  # the secret moved to secret.yaml, as `pbp init --example`

    return copy(name, work)


def reset(root: Path, turn: str):
    """Back to the turn's archived orders: its outputs removed, so `pbp run` plays it again."""
    def again() -> None:
        folder = root / "turns" / turn
        for path in folder.iterdir():
            if path.name != "orders":
                shutil.rmtree(path) if path.is_dir() else path.unlink()
    return again


def turn_function(root: Path, count: int):
    """A callable timing `count` resolutions of the campaign's next turn, in this process (CPU seconds)."""
    from pbp.engine import turn_inputs as turns
    from pbp.engine.campaign import open_campaign
    from pbp.model.dice import Dice

    campaign = open_campaign(root)
    last = max(campaign.resolved_turns())
    state = campaign.state(last)
    inputs = turns.gather(campaign, last + 1, state)
    rs, scenario = campaign.ruleset, campaign.scenario

    def timed() -> float:
        states = [copy.deepcopy(state) for _ in range(count)]  # the turn changes its state: each its own, untimed
        start = time.process_time()
        for fresh in states:
            rs.resolve(fresh, scenario, inputs.orders, inputs.gm, Dice("bench", last + 1, {}))
        return time.process_time() - start
    return timed


def paired_in_process(a, b, count: int) -> list[tuple[float, float]]:
    a(), b()  # warm-up: imports, compiled templates, caches
    return [(a(), b()) for _ in range(count)]


def main() -> None:
    p = parser(__doc__, rounds_default=5, rounds_quick=2)
    p.add_argument("--games", type=int, default=None, help=f"simulated games (default {GAMES}; 500 with --quick)")
    args = p.parse_args()
    count = rounds_of(args)
    games = args.games or (500 if args.quick else GAMES)
    header("bench_data_ruleset: the d100 as data (B) against the built-in d100 (A), CPU", args)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-data-") as tmp:
        work = Path(tmp)
        roots = {side: copy_example(name, work / side) for side, name in CAMPAIGNS.items()}

        results = rounds([Step(f"{side} run", [*PBP, "-C", str(root), "run", "--no-commit"],
                               before=reset(root, "004")) for side, root in roots.items()], count)
        print(figure("pbp run (turn 4 of the example), B/A CPU", results.ratio("B run", "A run", "cpu"), GOAL,
                     detail=f"A {seconds(results.median('A run', 'cpu'))}, "
                            f"B {seconds(results.median('B run', 'cpu'))}"))
        for root in roots.values():
            reset(root, "004")()

        loops = 20 if args.quick else 200
        pairs = paired_in_process(turn_function(roots["A"], loops), turn_function(roots["B"], loops), count)
        ratio = statistics.median(b / a for a, b in pairs)
        a_each = statistics.median(a for a, _ in pairs) / loops
        b_each = statistics.median(b for _, b in pairs) / loops
        print(figure("the turn function alone (resolve), B/A CPU", ratio, GOAL,
                     detail=f"A {a_each * 1e6:.0f} µs, B {b_each * 1e6:.0f} µs a turn"))

        one = work / "B1" / "d100-data"
        shutil.copytree(roots["B"], one)
        with open(one / "campaign.yaml", "a", encoding="utf-8") as f:
            f.write("rules:\n  budget: {count: 1}\n")
        sim = Results()
        rounds([Step(f"{side} simulate", [*PBP, "-C", str(root), "simulate", "--games", str(games), "--jobs", "1",
                                          "--max-turns", str(TURNS), "--json"])
                for side, root in (*roots.items(), ("B1", one))], max(1, count // 2), warmup=0, results=sim)
        for side, what in (("B", "its bots"), ("B1", "one action a turn")):
            print(figure(f"pbp simulate --games {games} ({what}), {side}/A CPU",
                         sim.ratio(f"{side} simulate", "A simulate", "cpu"), GOAL,
                         detail=f"A {seconds(sim.median('A simulate', 'cpu'))}, "
                                f"{side} {seconds(sim.median(f'{side} simulate', 'cpu'))}"))


if __name__ == "__main__":
    main()
