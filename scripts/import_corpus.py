#!/usr/bin/env python3
"""How well `pbp orders import` reads players' messages: the corpus of
tests/import_corpus/<ruleset>.yaml, each message judged against what it expects.

    python scripts/import_corpus.py [RULESET ...] [--show]

Each corpus names a bundled example campaign; every message is read for its
player at that campaign's next turn, through the command's own code (nothing is
written). A message expects either the order file's actions (and, when given,
its roleplay and what `pbp check` refuses: message keys) or the questions asked
(message keys). Each is counted:

- exact: the expected actions (and roleplay, and refusals) exactly;
- question: a question was asked (expected, or asked of an unambiguous message);
- wrong: anything else — orders that differ, orders where a question was
  expected, or other questions than expected. The goal is 0.

`--show` prints every message that is not exact, with what was read.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "import_corpus"
sys.path.insert(0, str(ROOT))


@dataclass
class Figures:
    ruleset: str
    messages: int = 0
    unambiguous: int = 0  # messages that expect an order file
    exact: int = 0
    asked: int = 0  # questions where a question was expected
    asked_needlessly: int = 0  # questions on an unambiguous message
    wrong: int = 0
    misses: list = field(default_factory=list)  # (index, outcome, text, what was read)

    @property
    def exact_rate(self) -> float:
        return self.exact / self.unambiguous if self.unambiguous else 1.0

    def line(self) -> str:
        return (f"{self.ruleset:9} {self.messages:3} messages: exact {self.exact}/{self.unambiguous} unambiguous "
                f"({100 * self.exact_rate:.1f} %), questions {self.asked + self.asked_needlessly} "
                f"({self.asked} expected, {self.asked_needlessly} on unambiguous ones), wrong {self.wrong}")


def load(ruleset: str) -> dict:
    import yaml

    return yaml.safe_load((CORPUS / f"{ruleset}.yaml").read_text(encoding="utf-8"))


def canonical(campaign, items) -> list | None:
    """Actions as the core parses them (aliases, defaults filled); None when the
    order schema refuses them."""
    from pbp.model import orders as od
    from pbp.model.ruleset import Refusals

    problems = Refusals()
    actions = od.parse_actions(list(items or []), campaign.ruleset, campaign.scenario, problems)
    return None if problems else [(a.id, a.arg) for a in actions]


def judge(campaign, case: dict, default_player: str) -> tuple[str, str]:
    """(exact | question | wrong, what was read) for one message."""
    from pbp.base import yamlio
    from pbp.plaintext import import_orders

    player = case.get("player", default_player)
    result = import_orders.import_message(campaign, player, case["text"])
    asked = sorted({q.key for q in result.reading.questions})
    if asked:
        read = "questions " + ", ".join(asked) + " | " + " / ".join(q.text(campaign.lang)
                                                                    for q in result.reading.questions)
        if "question" in case:
            return ("question" if asked == sorted(set(case["question"])) else "wrong"), read
        return "question", read
    raw = yamlio.loads(result.text)
    got = canonical(campaign, raw.get("actions"))
    read = f"actions {raw.get('actions')} roleplay {raw.get('roleplay')!r} refused {[e.key for e in result.problems]}"
    if "question" in case:
        return "wrong", read
    expected = canonical(campaign, case.get("actions"))
    if expected is None:
        raise ValueError(f"the corpus expects actions the order schema refuses: {case.get('actions')}")
    if got != expected:
        return "wrong", read
    if "roleplay" in case and (raw.get("roleplay") or "").strip() != (case["roleplay"] or "").strip():
        return "wrong", read
    if "refused" in case and sorted({e.key for e in result.problems}) != sorted(set(case["refused"])):
        return "wrong", read
    return "exact", read


def run(ruleset: str) -> Figures:
    from pbp.engine.campaign import open_campaign

    corpus = load(ruleset)
    campaign = open_campaign(ROOT / "campaigns" / corpus["campaign"])
    figures = Figures(ruleset)
    for i, case in enumerate(corpus["messages"], 1):
        outcome, read = judge(campaign, case, corpus["player"])
        figures.messages += 1
        expects_orders = "question" not in case
        figures.unambiguous += expects_orders
        if outcome == "exact":
            figures.exact += 1
        elif outcome == "question":
            if expects_orders:
                figures.asked_needlessly += 1
            else:
                figures.asked += 1
        else:
            figures.wrong += 1
        if outcome != "exact" and not (outcome == "question" and not expects_orders):
            figures.misses.append((i, outcome, case["text"], read))
    return figures


def rulesets() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.yaml"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", default=None)
    parser.add_argument("--show", action="store_true", help="print every message not read exactly")
    args = parser.parse_args(argv)
    failed = False
    for rid in args.rulesets or rulesets():
        figures = run(rid)
        print(figures.line())
        if args.show:
            for i, outcome, text, read in figures.misses:
                print(f"  #{i} {outcome}: {text.strip()!r}\n      {read}")
        failed = failed or figures.wrong > 0 or figures.exact_rate < 0.9
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
