"""Benchmark: the d100 written as data (campaigns/d100-data, ruleset `data`)
against the built-in d100 (campaigns/d100) for the same rules (A = the built-in
d100, B = the data ruleset), CPU time, paired, median of the pair ratios.

- `pbp run`: the example campaign's next turn (turn 4, its orders archived), the
  real command as the MJ runs it (start-up, reading the rules, the posts); A B A B.
- The turn function alone: the ruleset's `resolve` on the example's turn-4 orders
  and state, in this process (no start-up, no files): the rules engine's own cost.
  A's turn then B's, turn after turn, so the load of the moment weighs on both
  alike; the pairs are chunks of 100 turns.
- `pbp simulate`: 10,000 games on the campaign's sheets (`--jobs 1` so the CPU
  time is one process's; `--max-turns 20`, the built-in's `simulation.turns`,
  so both play the same length of game); A B A B, `--sim-rounds` pairs. The same
  work on both sides: the built-in's bots play about one check a turn (its
  `simulation.bot`: one, a second 15 % of turns, sleep or nothing 15 %), the data
  campaign's one action a turn (`parties_simulees: {actions: 1}` in its rules.yaml:
  a check, or nothing a quarter of the turns). This is the issue's figure.
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
- this round (issue 26 performance), load 8-13: before (checkout 8bc411e, the turn A then
  B turn after turn in one process, 3,000 turns each) the turn function 2.17x; in one
  process, 200 games: simulate 4.3x with the data bots (up to three actions a turn) and
  1.75x at one action a turn. After (checkout 7a77db7, --rounds 4 --sim-rounds 2, 10,000
  games): pbp run 1.31x (A 762 ms, B 977 ms); the turn function 1.78x (A 286 us, B 529 us
  a turn, 4,000 turns each, chunks from 1.65 to 1.89); pbp simulate --games 10000 1.16x
  (A 64.57 s, B 75.62 s, pairs 1.07 and 1.25), the issue's figure: both sides' bots play
  about one action a turn (B: `parties_simulees: {actions: 1}`). Again on the branch's last
  code (checkout 8945d6b, main merged, load 12-13, the same options): pbp run 1.27x (A 496 ms,
  B 650 ms); the turn function 1.75x (A 243 us, B 429 us, chunks from 1.63 to 1.86);
  pbp simulate --games 10000 1.14x (A 48.13 s, B 54.38 s, pairs 1.06 and 1.22).

    python bench/bench_data_ruleset.py [--quick] [--rounds N] [--games 10000] [--sim-rounds N]
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


def turn_function(root: Path):
    """A callable timing one resolution of the campaign's next turn, in this
    process (no start-up, no files), CPU seconds."""
    from pbp.engine import turn_inputs as turns
    from pbp.engine.campaign import open_campaign
    from pbp.model.dice import Dice

    campaign = open_campaign(root)
    last = max(campaign.resolved_turns())
    state = campaign.state(last)
    inputs = turns.gather(campaign, last + 1, state)
    rs, scenario = campaign.ruleset, campaign.scenario

    def timed() -> float:
        fresh = copy.deepcopy(state)  # the turn changes its state: each its own, untimed
        start = time.process_time()
        rs.resolve(fresh, scenario, inputs.orders, inputs.gm, Dice("bench", last + 1, {}))
        return time.process_time() - start
    return timed


def paired_in_process(a, b, turns: int, chunk: int) -> list[tuple[float, float]]:
    """A's turn then B's, turn after turn (the load of the moment weighs on both
    alike), summed by chunks of `chunk` turns: [(A's CPU, B's CPU)] a chunk."""
    for _ in range(min(20, turns)):  # warm-up: imports, compiled templates, caches
        a(), b()
    pairs = []
    for start in range(0, turns, chunk):
        spent_a = spent_b = 0.0
        for _ in range(start, min(turns, start + chunk)):
            spent_a += a()
            spent_b += b()
        pairs.append((spent_a, spent_b))
    return pairs


def main() -> None:
    p = parser(__doc__, rounds_default=5, rounds_quick=2)
    p.add_argument("--games", type=int, default=None, help=f"simulated games (default {GAMES}; 500 with --quick)")
    p.add_argument("--sim-rounds", type=int, default=None,
                   help="pairs of `pbp simulate` runs (default: half the rounds, at least 1)")
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

        chunk = 100
        turns = chunk * (4 if args.quick else 10 * count)
        pairs = paired_in_process(turn_function(roots["A"]), turn_function(roots["B"]), turns, chunk)
        ratio = statistics.median(b / a for a, b in pairs)
        a_each = statistics.median(a for a, _ in pairs) / chunk
        b_each = statistics.median(b for _, b in pairs) / chunk
        print(figure("the turn function alone (resolve), B/A CPU", ratio, GOAL,
                     detail=f"A {a_each * 1e6:.0f} µs, B {b_each * 1e6:.0f} µs a turn; {turns} turns each, "
                            f"chunks of {chunk} from {min(b / a for a, b in pairs):.2f} to "
                            f"{max(b / a for a, b in pairs):.2f}"))

        sim = Results()
        sim_rounds = args.sim_rounds or max(1, count // 2)
        rounds([Step(f"{side} simulate", [*PBP, "-C", str(root), "simulate", "--games", str(games), "--jobs", "1",
                                          "--max-turns", str(TURNS), "--json"])
                for side, root in roots.items()], sim_rounds, warmup=0, results=sim)
        low, high = sim.spread("B simulate", "A simulate", "cpu")
        print(figure(f"pbp simulate --games {games}, B/A CPU", sim.ratio("B simulate", "A simulate", "cpu"), GOAL,
                     detail=f"A {seconds(sim.median('A simulate', 'cpu'))}, "
                            f"B {seconds(sim.median('B simulate', 'cpu'))}; {sim_rounds} pairs, "
                            f"from {low:.2f} to {high:.2f}"))


if __name__ == "__main__":
    main()
