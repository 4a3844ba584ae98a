"""Self-play: whole games in memory, bots choosing legal orders, many games
across processes, and the statistics an MJ balancing their rules wants.

A game is: `setup`, then turns of bot orders and `resolve` until `is_over` (or
the turn cap), then the ruleset's `game_summary`. Nothing is written per game.
Game i is seeded from (seed, i) alone, so the results do not depend on how many
processes play them.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass

from pbp.model import ruleset as rulesets
from pbp.model.dice import FreeDice
from pbp.model.orders import GmOrders, PlayerOrders

Z95 = 1.959963984540054


def game_seed(seed: int, index: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play_game(rs, scenario, seed: int, max_turns: int, dice: FreeDice | None = None) -> dict:
    dice = dice if dice is not None else FreeDice(seed)
    bots = random.Random(seed ^ 0x5EED)
    state = rs.setup(scenario, dice, quiet=True).state
    for turn in range(1, max_turns + 1):
        if rs.is_over(state):
            break
        orders = {p: PlayerOrders(p, turn, rs.bot_orders(state, scenario, p, bots))
                  for p in rs.players_to_play(state, scenario)}
        state = rs.resolve(state, scenario, orders, GmOrders(turn, quiet=True), dice).state
    return rs.game_summary(state, scenario)


_worker: dict = {}


def _prepare(ruleset_id: str, overrides: dict, scenario, max_turns: int, ruleset=None) -> None:
    """What every game of a simulation shares, set once in each process (not
    sent with each chunk of games): the ruleset, built once (or the one given:
    a campaign's own, whose rules are its files), and the scenario, whose
    derived values (Scenario.derived: a labyrinth's graph, parsed sheets...) are
    then worked out once per process, not once per chunk."""
    rs = ruleset
    if rs is None:
        key = (ruleset_id, repr(overrides))
        rs = _worker.get(key)
        if rs is None:
            rs = _worker[key] = rulesets.get(ruleset_id, overrides)
    _worker["game"] = (rs, scenario, max_turns)


def _play_chunk(seeds: list[int]) -> list[dict]:
    rs, scenario, max_turns = _worker["game"]
    return [play_game(rs, scenario, s, max_turns) for s in seeds]


@dataclass
class Simulation:
    ruleset_id: str
    scenario: object
    games: int
    seed: int = 0
    jobs: int = 1
    overrides: dict | None = None
    max_turns: int = 100
    chunk: int = 50  # games per task at most; fewer for small runs, so every process gets some
    ruleset: object = None  # the campaign's own ruleset, when it is not made from its id (a data ruleset)

    def jobs_list(self) -> list[list[int]]:
        """The games' seeds, chunk by chunk."""
        seeds = [game_seed(self.seed, i) for i in range(self.games)]
        size = max(1, min(self.chunk, -(-self.games // (4 * self.jobs))))
        return [seeds[start:start + size] for start in range(0, self.games, size)]

    def run(self, progress=None) -> list[dict]:
        """Every game's summary, in game order. `progress(n)` is told of each
        finished chunk's size."""
        chunks = self.jobs_list()
        shared = (self.ruleset_id, self.overrides or {}, self.scenario, self.max_turns, self.ruleset)
        results: list[dict] = []
        if self.jobs <= 1:
            _prepare(*shared)
            for chunk in chunks:
                results += _play_chunk(chunk)
                if progress:
                    progress(len(chunk))
            return results
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_prepare, initargs=shared) as pool:
            for chunk in pool.map(_play_chunk, chunks):
                results += chunk
                if progress:
                    progress(len(chunk))
        return results


# -- statistics ------------------------------------------------------------------

def wilson(successes: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def describe(values: list) -> dict:
    if not values:
        return {"count": 0}
    counts = Counter(values)
    median = statistics.median(values)
    return {"count": len(values), "mean": round(statistics.fmean(values), 3),
            "median": int(median) if float(median).is_integer() else median, "min": min(values), "max": max(values),
            "histogram": {str(k): counts[k] for k in sorted(counts)}}


def aggregate(summaries: list[dict]) -> dict:
    outcomes = Counter(label for s in summaries for label in s.get("outcomes", []))
    units = sum(outcomes.values())
    deaths = Counter()
    figures: dict[str, list] = {}
    for s in summaries:
        deaths.update(s.get("deaths", {}))
        for name, values in s.get("figures", {}).items():
            figures.setdefault(name, []).extend(values)
    main = next((s.get("main") for s in summaries if s.get("main")), None)
    return {
        "games": len(summaries),
        "outcomes": {label: {"count": n, "rate": round(n / units, 4),
                             "ci95": [round(x, 4) for x in wilson(n, units)]}
                     for label, n in sorted(outcomes.items())},
        "turns": describe([s["turns"] for s in summaries]),
        "deaths": dict(sorted(deaths.items())),
        "figures": {name: describe(values) for name, values in sorted(figures.items())},
        "main": main,
    }


def parse_override(text: str) -> dict:
    """`actions.fouille.noise=3` -> {"actions": {"fouille": {"noise": 3}}}."""
    from pbp.base import yamlio
    from pbp.base.errors import PbpError

    if "=" not in text:
        raise PbpError("bad_override", text=text)
    path, raw = text.split("=", 1)
    value = yamlio.loads(raw, "--override")
    out: dict = {}
    node = out
    keys = [k for k in path.strip().split(".") if k]
    if not keys:
        raise PbpError("bad_override", text=text)
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value
    return out


def merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
