"""`pbp` commands. A data campaign's rules file: `pbp rules check` reads it as pbp
will (every problem at once, file:line) and says what is most likely a mistake."""

from __future__ import annotations

import click

from pbp.cli import help as local_help
from pbp.cli.common import CONTEXT, FILE_PATH, PbpCommand, PbpSubgroup, say


@click.group(cls=PbpSubgroup, context_settings=CONTEXT)
def rules():
    """A data campaign's rules file (rules.yaml)."""


@rules.command("check", cls=PbpCommand)
@click.argument("file", required=False, type=FILE_PATH)
@click.pass_context
def check(ctx, file):
    """Every problem of a rules file at once (the campaign's rules.yaml by default)."""
    from pbp.base.errors import ErrorList, PbpError
    from pbp.datarules import lint, lint_play, load

    data, name, lang = _read_rules(ctx, file)
    try:
        found = load.parse(data, name, lang=lang)
        problems = lint.warnings(found) + lint_play.warnings(found)
    except ErrorList as exc:
        found, problems = None, exc.errors
    except PbpError as exc:
        found, problems = None, [exc]
    for problem in sorted(problems, key=lambda p: p.line or 0):
        click.echo(problem.text(lang))
    if problems:
        say("rules_check_problem" if len(problems) == 1 else "rules_check_problems", count=len(problems), file=name)
        ctx.exit(1)
    data = found.data
    say("rules_check_ok", file=name, actions=len(data["actions"]), gauges=len(data.get("gauges") or {}),
        tables=len(data.get("tables") or {}), checks=len(data.get("checks") or {}))


check.help_key = "help_rules_check"


@rules.command("explain", cls=PbpCommand)
@click.argument("file", required=False, type=FILE_PATH)
@click.option("--format", "fmt", type=click.Choice(["text", "bbcode", "markdown"]), default="text")
@click.pass_context
def explain(ctx, file, fmt):
    """The rules as pbp understood them, to check against your own rules page."""
    from pbp.datarules import explain as explaining, load
    from pbp.render.render import Renderer, template_paths

    data, name, lang = _read_rules(ctx, file)
    found = load.parse(data, name, lang=lang)
    renderer = Renderer(template_paths("data", lang), fmt, lang=lang)
    click.echo(renderer.render("explain", explained=explaining.sections(found, lang)), nl=False)


explain.help_key = "help_rules_explain"


def _read_rules(ctx, file) -> tuple[bytes, str, str]:
    """The rules file's bytes (the campaign's rules.yaml by default), its name as the
    MJ sees it, and the language the command speaks (set for its messages too): the
    campaign's, else PBP_LANG, else the one the file's keys are written in."""
    from pbp.datarules import load

    folder = ctx.obj["dir"]
    path = file if file is not None else folder / load.RULES_FILE
    name = str(file) if file is not None else load.RULES_FILE
    data = load.read_file(path, name)
    lang = local_help.campaign_lang(str(folder)) or local_help.env_lang() or _written_in(data, name)
    ctx.obj["lang"] = lang
    return data, name, lang


def _written_in(data: bytes, name: str) -> str:
    """The language a rules file's keys are written in (English if it cannot be read)."""
    from pbp.base.errors import PbpError
    from pbp.datarules import format as rules_format

    try:
        return rules_format.parse(data, name).lang
    except PbpError:
        return local_help.help_lang(None)
