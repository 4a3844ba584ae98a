"""Every message of the core's catalogue (pbp/messages.yaml) is said by some
code: a key nobody uses is a sentence translated and kept for nothing, and
hides the one really said (run_defaulted stood beside the deadline lines that
`pbp run` prints)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
CATALOGUE = REPO / "pbp" / "messages.yaml"
# keys offered to rulesets by name rather than said by the core (pbp.model.ruleset.Ruleset.standing)
OFFERED = ("standing_",)


def _sources() -> str:
    files = [p for p in (REPO / "pbp").rglob("*") if p.suffix in (".py", ".yaml", ".j2") and p != CATALOGUE]
    files += (REPO / "templates").rglob("*.j2")
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def test_every_core_message_is_said_somewhere():
    source = _sources()
    literals = set(re.findall(r"""["']([a-z][a-z0-9_.-]*)["']""", source))
    # keys built from a prefix: f"help_{name}", "click_metavar_" + metavar
    built = set(re.findall(r"""f["']([a-z][a-z0-9_-]*_)\{""", source))
    built |= set(re.findall(r"""["']([a-z][a-z0-9_-]*_)["']\s*\+""", source))
    keys = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    unused = [key for key in keys if key not in literals and not key.startswith(tuple(built) + OFFERED)]
    assert unused == []
