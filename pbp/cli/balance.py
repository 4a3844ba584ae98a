"""`pbp` commands. Balance tools: odds and simulated games."""

from __future__ import annotations

import os
import sys

import click

from pbp.cli import help as local_help
from pbp.cli.common import FILE_PATH, PbpCommand, campaign_of, lang_of, output_target, write_output
from pbp.render import formats


@click.command(cls=PbpCommand)
@click.argument("expr", required=False)
@click.option("--ge", type=int)
@click.option("--gt", type=int)
@click.option("--le", type=int)
@click.option("--lt", type=int)
@click.option("--eq", type=int)
@click.option("--vs", "versus", metavar="EXPR2")
@click.option("--rule", metavar="RULESET.NAME")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE")
@click.option("--character", metavar="NAME")
@click.option("--target", metavar="NAME")
@click.option("--list", "list_rules", is_flag=True)
@click.option("--format", "fmt", type=click.Choice((formats.TEXT.name, *formats.NAMES)), default="text")
def odds(expr, ge, gt, le, lt, eq, versus, rule, settings, character, target, list_rules, fmt):
    """Exact probabilities: pbp odds 10d10kh3 ; pbp odds 1d10 --ge 7 ;
    pbp odds 2d6+1 --vs 1d6+3 ; pbp odds --rule manhunt.combat --set peji=1d6+2 ;
    in a data campaign, pbp odds --rule data.frappe --character Aurèle --target Brune."""
    from pbp.balance import odds as od
    from pbp.base.errors import PbpError
    from pbp.model import ruleset

    if list_rules:
        for rid in ruleset.ids():
            rs = _ruleset_for_odds(rid)
            if ruleset.ODDS not in rs.capabilities:
                continue
            for name, calc in rs.odds().items():
                click.echo(f"{rid}.{name}: {calc.title}")
                for key, param in calc.params.items():
                    click.echo(f"    --set {key}={param.default}    {param.help}")
                if calc.sheet is not None:
                    click.echo("    --character NAME [--target NAME]")
        return
    comparisons = {k: v for k, v in dict(ge=ge, gt=gt, le=le, lt=lt, eq=eq).items() if v is not None}
    if (character or target) and not rule:
        raise PbpError("odds_character_needs_rule")
    if rule:
        table = _rule_odds(rule, settings, character, target)
    elif expr and versus and not comparisons:
        table = od.versus_table(expr, versus, lang_of(click.get_current_context()))
    elif expr and len(comparisons) == 1 and not versus:
        (comparison, target), = comparisons.items()
        table = od.check(expr, comparison, target)
    elif expr and not comparisons and not versus:  # every total: pbp odds 10d10kh3
        table = od.table(expr, lang_of(click.get_current_context()))
    else:
        ctx = click.get_current_context()
        raise click.UsageError(local_help.say(ctx, "usage_odds"), ctx)
    click.echo(od.render(table, fmt), nl=False)


def _rule_odds(rule: str, settings, character: str | None = None, target: str | None = None):
    from pbp.base import i18n
    from pbp.base.errors import PbpError
    from pbp.model import dice

    rid, _, name = rule.partition(".")
    calculators = _ruleset_for_odds(rid).odds()
    if name not in calculators:
        raise PbpError("unknown_calculator", rule=rule, valid=[f"{rid}.{n}" for n in calculators],
                       suggestion=i18n.closest(name, calculators))
    calc = calculators[name]
    params = {k: p.default for k, p in calc.params.items()}
    whose = None
    if character or target:
        read, whose = _from_sheet(rule, rid, calc, character, target)
        params.update(read)
    for item in settings:
        key, _, value = item.partition("=")
        if key not in calc.params:
            raise PbpError("unknown_param", param=key, valid=list(calc.params), suggestion=i18n.closest(key, calc.params))
        if calc.params[key].kind == "dice":
            params[key] = str(dice.parse(value))
        else:
            try:
                params[key] = int(value)
            except ValueError:
                raise PbpError("param_not_int", param=key, value=value) from None
    table = calc.compute(params)
    if whose:
        table.title += f" ({whose})"
    return table


def _from_sheet(rule: str, rid: str, calc, character: str | None, target: str | None) -> tuple[dict, str]:
    """(the calculator's parameters read in the campaign's last state, `character` acting
    against `target`, each a handle or a character's name; their names, `Aurèle → Brune`)."""
    from pbp.base.errors import PbpError
    from pbp.engine.campaign import CAMPAIGN_FILE

    ctx = click.get_current_context()
    if character is None:
        raise PbpError("odds_target_without_character", rule=rule)
    if calc.sheet is None:
        raise PbpError("odds_no_sheet", rule=rule)
    if not (ctx.obj["dir"] / CAMPAIGN_FILE).is_file() or campaign_of(ctx).config.get("ruleset") != rid:
        raise PbpError("odds_character_needs_campaign", rule=rule)
    campaign = campaign_of(ctx)
    last = campaign.last_turn()
    if last is None:
        raise PbpError("odds_character_needs_setup", rule=rule)
    state = campaign.state(last)
    actor, versus = _handle(campaign, character), _handle(campaign, target) if target else None
    whose = campaign.scenario.name(actor) + (f" → {campaign.scenario.name(versus)}" if versus else "")
    return calc.sheet(state, actor, versus), whose


def _handle(campaign, typed: str) -> str:
    """The handle a player's handle or character's name names (case and accents aside)."""
    from pbp.base import i18n
    from pbp.base.errors import PbpError
    from pbp.model.argcontext import match_names

    names = {handle: campaign.scenario.name(handle) for handle in campaign.roster}
    found = match_names(typed, names)
    if len(found) != 1:
        raise PbpError("odds_unknown_character", name=typed, valid=[f"{h} ({n})" for h, n in names.items()],
                       suggestion=i18n.closest(typed, list(names.values())))
    return found[0]


def _ruleset_for_odds(rid: str):
    """The campaign's own ruleset when pbp runs in a campaign of that ruleset (a
    data ruleset's calculators are its rules file's tables and checks), else the
    ruleset as it ships."""
    from pbp.engine.campaign import CAMPAIGN_FILE
    from pbp.model import ruleset

    ctx = click.get_current_context()
    if (ctx.obj["dir"] / CAMPAIGN_FILE).is_file():
        campaign = campaign_of(ctx)
        if campaign.config.get("ruleset") == rid:
            return campaign.ruleset
    return ruleset.get(rid)


@click.command(cls=PbpCommand)
@click.argument("ruleset_id", required=False)
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--players", type=click.IntRange(1), default=6, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None)
@click.option("--max-turns", type=click.IntRange(1), default=100, show_default=True)
@click.option("--override", "overrides", multiple=True, metavar="KEY=VALUE")
@click.option("--json", "as_json", is_flag=True)
@click.option("--svg", "svg_path", type=FILE_PATH, default=None)
@click.pass_context
def simulate(ctx, ruleset_id, games, players, seed, jobs, max_turns, overrides, as_json, svg_path):
    """Play many games with bots and print the balance figures.

    With RULESET, on a synthetic world; without, on the campaign's world and
    sheets (-C PATH). Both runs of an --override play the same world (built once
    from the current rules), so only the rules change is compared."""
    import json
    import random

    from pbp.balance import simulate as sim
    from pbp.base import i18n
    from pbp.base.errors import PbpError
    from pbp.model import ruleset
    from pbp.render.chart import histogram_svg
    from pbp.render.render import Renderer, package_dir

    base_rules: dict = {}
    ruleset_id_given = bool(ruleset_id)
    if ruleset_id:
        rs = ruleset.get(ruleset_id)
        if ruleset.SIMULATE not in rs.capabilities:
            raise PbpError("no_simulation", ruleset=ruleset_id)
        scenario = rs.sample_scenario(players, random.Random(seed))
        source = ruleset_id
    else:
        campaign = campaign_of(ctx)
        rs, scenario, ruleset_id = campaign.ruleset, campaign.scenario, campaign.ruleset.id
        if ruleset.SIMULATE not in rs.capabilities:
            raise PbpError("no_simulation", ruleset=ruleset_id)
        base_rules = campaign.config.get("rules") or {}
        players = len(scenario.roster)
        source = str(campaign.root.name)
    lang = lang_of(ctx)
    if svg_path is not None:  # refused before the games are played (pbp.cli.common.output_target)
        svg_path = output_target(ctx, svg_path, "chart", "--svg")
    variant_rules = base_rules
    for item in overrides:
        variant_rules = sim.merge(variant_rules, sim.parse_override(item))
    own = {}  # a campaign's ruleset that its id alone does not make (a data ruleset: its rules.yaml)
    if not ruleset_id_given and type(rs).for_campaign.__func__ is not ruleset.Ruleset.for_campaign.__func__:
        own = {"base": rs}  # the variant's rules read again only when there is one (its --override)
        if overrides:
            own["variant"] = type(rs).for_campaign(campaign.root, variant_rules, campaign.lang)
    else:
        ruleset.get(ruleset_id, variant_rules)  # a typo in --override is refused before playing
    jobs = jobs or os.cpu_count() or 1
    runs = [("base", base_rules)] + ([("variant", variant_rules)] if overrides else [])
    results = {}
    with click.progressbar(length=games * len(runs), label=i18n.t(lang, "simulating", games=games),
                           file=sys.stderr) as bar:
        for name, rules in runs:
            simulation = sim.Simulation(ruleset_id, scenario, games, seed, jobs, rules, max_turns,
                                        ruleset=own.get(name))
            results[name] = sim.aggregate(simulation.run(bar.update))
    report = {"ruleset": ruleset_id, "source": source, "games": games, "players": players, "seed": seed,
              "overrides": list(overrides), **results}
    main_figure = results["base"]["main"]
    if main_figure and svg_path is not None:
        series = [(i18n.t(lang, f"simulation_{name}"), results[name]["figures"][main_figure].get("histogram", {}))
                  for name, _ in runs]
        write_output(svg_path, histogram_svg(f"{ruleset_id} — {main_figure} ({games})", main_figure, series), "--svg")
        report["svg"] = str(svg_path)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    renderer = Renderer([package_dir("templates") / "common" / lang], "text", lang=lang)
    click.echo(renderer.render("simulation", **report), nl=False)
