"""`pbp d100 generate`: the ruleset's own command, declared as data and run by
the core (which parses the options, opens the campaign and writes the sheet).

    pbp d100 generate --player kira --name "Kira Vel" --physique 6 --logique 7 --mental 5 \
        [--pv 2d6+4] [--force 1d4] [--action 1d6] [--roll kira.physique=42] [--replace] [--dry-run]

The rules live in rules.generate_sheet (dice in, sheet out); this module reads
the option values and lays the draw out forum-style. No I/O here.
"""

from __future__ import annotations

import re

from pbp.base import i18n
from pbp.base.errors import InputError
from pbp.model.commands import Command, CommandRequest, CommandResult, Option, SetKey
from pbp.model.dice import Dice, forum

from .rules import generate_sheet

CARACS = ("physique", "logique", "mental")
COUNT = re.compile(r"^\s*(\d+)\s*(?:[,/:]\s*(\d+)\s*[,/:]\s*(\d+)\s*)?$")
HANDLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _count(carac: str, value: str, rules: dict):
    low, high = rules["generation"]["count"]["min"], rules["generation"]["count"]["max"]
    match = COUNT.match(value or "")
    numbers = [int(g) for g in match.groups() if g is not None] if match else []
    if not numbers or not low <= numbers[0] <= high or any(n > high for n in numbers[1:]):
        raise InputError("d100.gen_bad_count", carac=carac, value=value, low=low, high=high)
    return numbers[0] if len(numbers) == 1 else tuple(numbers)


def _forced(values) -> dict:
    forced = {}
    for item in values:
        label, _, raw = item.partition("=")
        raw = raw.strip()
        try:
            forced[label.strip()] = [int(v) for v in raw.split(",")] if "," in raw else int(raw)
        except ValueError:
            raise InputError("d100.gen_bad_roll", value=item) from None
        if not label.strip():
            raise InputError("d100.gen_bad_roll", value=item)
    return forced


def draw_lines(draw: dict, rules: dict, lang: str) -> list[str]:
    """The draw, forum style, one line per roll."""
    t = lambda key, **p: i18n.t(lang, f"d100.{key}", **p)
    gen = rules["generation"]
    lines = []
    for c in draw["characteristics"]:
        name = t(f"name_{c['carac']}")
        if c["kind"] is None:
            lines.append(t("gen_line", carac=name, roll=f"{forum(c['base'])} → {c['value']}"))
        else:
            threshold = gen["low" if c["kind"] == "low" else "high"]["threshold"]
            lines.append(t(f"gen_{c['kind']}", carac=name, roll=forum(c["base"]), threshold=threshold,
                           correction=forum(c["correction"]), value=c["value"]))
    for g in draw["gauges"]:
        shown = f"{forum(g['roll'])} → {g['value']}" if g["roll"] is not None else str(g["value"])
        lines.append(t("gen_gauge", gauge=t(f"name_{g['gauge']}"), roll=shown))
    a = draw["alignment"]
    total = rules["alignment"]["points"]
    lines.append(t("gen_alignment", roll=forum(a["roll"]) if a["roll"] else "—", light=a["value"],
                   dark=total - a["value"]))
    return lines


def generate(request: CommandRequest) -> CommandResult:
    """Draw a character's characteristics (Nd10, +Nd4 at 30 or less, -Nd6 at 80
    or more), gauges and alignment: the new sheet for characters.yaml."""
    o, lang, rules = request.options, request.lang, request.ruleset.rules
    handle = o["player"]
    if not HANDLE.match(handle):
        raise InputError("d100.gen_bad_handle", player=handle)
    counts = {c: _count(c, o[c], rules) for c in CARACS}
    gauges = {"pv": o["pv"], "force": o["force"], "action": o["action"]}
    existing = request.files["characters.yaml"]
    if handle in existing and not o["replace"]:
        raise InputError("d100.gen_exists", player=handle)
    name = o["name"] or request.roster.get(handle, {}).get("character") or handle
    # a draw is its own dice stream (negative "turns": -1, -2... never collide with a real turn)
    dice = Dice(request.secret, -o["draw"], _forced(o["roll"]))
    sheet, draw = generate_sheet(rules, dice, handle, name, counts, gauges)
    lines = draw_lines(draw, rules, lang)
    sheet["generation"] = lines
    out = [i18n.t(lang, "d100.gen_title", name=name, player=handle)] + ["  " + line for line in lines]
    warnings = [i18n.t(lang, "forced_unused", label=label) for label in dice.unused_forced()]
    if handle not in request.roster:
        warnings.append(i18n.t(lang, "d100.gen_not_in_roster", player=handle, name=name))
    done = i18n.t(lang, "d100.gen_written", file="characters.yaml", player=handle)
    return CommandResult(out, warnings, [SetKey("characters.yaml", handle, sheet, done)])


COMMANDS = (
    Command("generate", "cmd_generate", (
        Option("player", "opt_player", required=True),
        Option("name", "opt_name"),
        Option("physique", "opt_physique", required=True, metavar="N[,D4,D6]"),
        Option("logique", "opt_logique", required=True, metavar="N[,D4,D6]"),
        Option("mental", "opt_mental", required=True, metavar="N[,D4,D6]"),
        Option("pv", "opt_pv", metavar="EXPR"),
        Option("force", "opt_force", metavar="EXPR"),
        Option("action", "opt_action", metavar="EXPR"),
        Option("roll", "opt_roll", multiple=True, metavar="LABEL=VALUE"),
        Option("draw", "opt_draw", kind="int", default=1),
        Option("replace", "opt_replace", kind="flag"),
    ), generate, reads=("characters.yaml",)),
)
