"""`pbp d100 ...`: the ruleset's own commands (attached under `pbp d100` by the
core; usable alone through click too).

    pbp d100 generate --player kira --name "Kira Vel" --physique 6 --logique 7 --mental 5 \
        [--pv 2d6+4] [--force 1d4] [--action 1d6] [--roll kira.physique=42] [--replace]

The rules live in rules.generate_sheet (dice in, sheet out); this module reads
the options, prints the rolls forum-style and writes characters.yaml atomically.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

CARACS = ("physique", "logique", "mental")
GAUGES = ("pv", "force", "action")
COUNT = re.compile(r"^\s*(\d+)\s*(?:[,/:]\s*(\d+)\s*[,/:]\s*(\d+)\s*)?$")


class _Group(click.Group):
    """Bad input becomes a message and exit code 1, as in the main `pbp` group."""

    def invoke(self, ctx):
        from pbp.errors import PbpError

        try:
            return super().invoke(ctx)
        except PbpError as exc:
            obj = ctx.find_root().obj or {}
            click.echo(exc.text(obj.get("lang") or "fr"), err=True)
            ctx.exit(1)


@click.group("d100", cls=_Group)
def d100_group():
    """d100 ruleset tools (characteristic generation)."""


def _campaign_dir(option: str | None) -> Path:
    if option:
        return Path(option)
    root = click.get_current_context().find_root()
    if isinstance(root.obj, dict) and root.obj.get("dir") is not None:
        return Path(root.obj["dir"])
    return Path(".")


def _count(carac: str, value: str, rules: dict):
    from pbp.errors import PbpError

    low, high = rules["generation"]["count"]["min"], rules["generation"]["count"]["max"]
    match = COUNT.match(value or "")
    numbers = [int(g) for g in match.groups() if g is not None] if match else []
    if not numbers or not low <= numbers[0] <= high or any(n > high for n in numbers[1:]):
        raise PbpError("d100.gen_bad_count", carac=carac, value=value, low=low, high=high)
    return numbers[0] if len(numbers) == 1 else tuple(numbers)


def _forced(values) -> dict:
    from pbp.errors import PbpError

    forced = {}
    for item in values:
        label, _, raw = item.partition("=")
        raw = raw.strip()
        try:
            forced[label.strip()] = [int(v) for v in raw.split(",")] if "," in raw else int(raw)
        except ValueError:
            raise PbpError("d100.gen_bad_roll", value=item) from None
        if not label.strip():
            raise PbpError("d100.gen_bad_roll", value=item)
    return forced


def draw_lines(draw: dict, rules: dict, lang: str) -> list[str]:
    """The draw, forum style, one line per roll."""
    from pbp import i18n
    from pbp.dice import forum

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


@d100_group.command("generate")
@click.option("--player", "handle", required=True, help="The player's forum handle (key in characters.yaml).")
@click.option("--name", default=None, help="The character's name (default: the roster's, else the handle).")
@click.option("--physique", required=True, metavar="N[,D4,D6]", help="Number of d10 for Physique (1-10).")
@click.option("--logique", required=True, metavar="N[,D4,D6]", help="Number of d10 for Logique (1-10).")
@click.option("--mental", required=True, metavar="N[,D4,D6]", help="Number of d10 for Mental (1-10).")
@click.option("--pv", default=None, metavar="EXPR", help="PV gauge: a dice expression or a number.")
@click.option("--force", default=None, metavar="EXPR", help="Force gauge: dice or a number (0: no Force).")
@click.option("--action", default=None, metavar="EXPR", help="Action gauge: dice or a number.")
@click.option("--roll", "rolls", multiple=True, metavar="LABEL=VALUE",
              help="Force a roll (dice rolled live), e.g. kira.physique=42 or kira.physique=3,5,6.")
@click.option("--draw", "draw_number", type=click.IntRange(1), default=1,
              help="Draw number: 2, 3... for a new draw the MJ allows.")
@click.option("--replace", is_flag=True, help="Replace the player's existing sheet.")
@click.option("--dry-run", is_flag=True, help="Show the draw; write nothing.")
@click.option("--campaign", "campaign_opt", default=None, type=click.Path(file_okay=False),
              help="Campaign folder (default: pbp's -C, else the current folder).")
def generate(handle, name, physique, logique, mental, pv, force, action, rolls, draw_number, replace, dry_run,
             campaign_opt):
    """Draw a character's characteristics (Nd10, +Nd4 at 30 or less, -Nd6 at 80
    or more), gauges and alignment; write the sheet into characters.yaml."""
    from pbp import i18n, yamlio
    from pbp.campaign import HANDLE, atomic_write, open_campaign
    from pbp.dice import Dice
    from pbp.errors import PbpError

    from .rules import generate_sheet

    campaign = open_campaign(_campaign_dir(campaign_opt))
    lang = campaign.lang
    root = click.get_current_context().find_root()
    if isinstance(root.obj, dict):
        root.obj["lang"] = lang
    if campaign.config["ruleset"] != "d100":
        raise PbpError("d100.gen_wrong_ruleset", ruleset=campaign.config["ruleset"])
    if not HANDLE.match(handle):
        raise PbpError("d100.gen_bad_handle", player=handle)
    rules = campaign.ruleset.rules
    counts = {"physique": _count("physique", physique, rules), "logique": _count("logique", logique, rules),
              "mental": _count("mental", mental, rules)}
    gauges = {"pv": pv, "force": force, "action": action}
    path = campaign.root / "characters.yaml"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    existing = yamlio.loads(text, "characters.yaml") if text.strip() else {}
    if existing is None:
        existing = {}
    if not isinstance(existing, dict):
        raise PbpError("file_not_mapping", file="characters.yaml")
    if handle in existing and not replace:
        raise PbpError("d100.gen_exists", player=handle)
    name = name or campaign.roster.get(handle, {}).get("character") or handle
    dice = Dice(campaign.secret, -draw_number, _forced(rolls))
    sheet, draw = generate_sheet(rules, dice, handle, name, counts, gauges)
    lines = draw_lines(draw, rules, lang)
    sheet["generation"] = lines
    click.echo(i18n.t(lang, "d100.gen_title", name=name, player=handle))
    for line in lines:
        click.echo("  " + line)
    for label in dice.unused_forced():
        click.echo(i18n.t(lang, "forced_unused", label=label), err=True)
    if dry_run:
        click.echo(i18n.t(lang, "d100.gen_dry_run"))
        return
    wanted = {**existing, handle: sheet}
    new_text = None
    if handle not in existing:  # append: keeps the MJ's comments and layout
        new_text = (text if text.endswith("\n") or not text else text + "\n")
        new_text += ("\n" if existing else "") + yamlio.dumps({handle: sheet})
        if yamlio.loads(new_text, "characters.yaml") != wanted:  # e.g. a flow-style `{}` file
            new_text = None
    if new_text is None:
        new_text = yamlio.dumps(wanted)
    atomic_write(path, new_text)
    click.echo(i18n.t(lang, "d100.gen_written", file=campaign.rel(path), player=handle))
    if handle not in campaign.roster:
        click.echo(i18n.t(lang, "d100.gen_not_in_roster", player=handle, name=name))
