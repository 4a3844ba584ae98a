"""`pbp` commands. init and setup: a new campaign folder, and its turn 0."""

from __future__ import annotations

import click

from pbp.cli import help as local_help
from pbp.cli.common import (FILE_PATH, FOLDER_PATH, FORMAT, PbpCommand, campaign_of, commit, lang_of, say,
                            warn_secret_in_config)


@click.command(cls=PbpCommand)
@click.argument("path", type=FOLDER_PATH)
@click.option("--ruleset", "ruleset_id", default=None)
@click.option("--rules", "rules_file", type=FILE_PATH, default=None)
@click.option("--example", is_flag=False, flag_value="", default=None, metavar="[NAME]")
@click.option("--lang", type=click.Choice(["fr", "en"]), default=None)
@click.option("--no-git", is_flag=True)
@click.pass_context
def init(ctx, path, ruleset_id, rules_file, example, lang, no_git):
    """Create a new campaign folder."""
    from pbp.base.errors import PbpError
    from pbp.engine import archive
    from pbp.model import ruleset

    if lang:
        ctx.obj["lang"] = lang
    rules_text = _rules_file(ctx, rules_file, ruleset_id, example, lang) if rules_file is not None else None
    ruleset_id = "data" if rules_file is not None else ruleset_id
    if ruleset_id is None and example:  # `--example d100-data` says its ruleset itself
        ruleset_id = _ruleset_of_example(example)
    if ruleset_id is None:
        raise click.UsageError(local_help.say(ctx, "init_needs_ruleset"), ctx)
    cls = type(ruleset.get(ruleset_id))
    if path.exists() and any(path.iterdir()):
        raise PbpError("init_not_empty", file=path)
    if not no_git and not archive.installed():  # said before anything is written
        raise PbpError("git_missing")
    if example is not None:
        _copy_example(path, _example_folder(cls, ruleset_id, example), lang)
    else:
        _copy_skeleton(ctx, path, cls, ruleset_id, lang, rules_text)
    archive.ignore(path)  # even with --no-git: git may come later
    # from here on pbp speaks the new campaign's language, as every command in it will
    ctx.obj["lang"] = lang or local_help.campaign_lang(str(path)) or lang_of(ctx)
    say("init_done", path=path, ruleset=ruleset_id)
    if not no_git:
        if archive.repository(path) is None:
            archive.init(path, f"pbp init ({ruleset_id})")
            say("git_initialised")
        else:
            archive.commit(path.resolve(), f"pbp init ({ruleset_id})")
    say("init_example_next" if example is not None else "init_next", path=path)


def _copy_example(path, source, lang) -> None:
    """`pbp init --example`: the example campaign copied, in `lang` from its next turn on."""
    import shutil

    from pbp.engine import secret
    from pbp.engine.campaign import atomic_write

    shutil.copytree(source, path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".pbp.lock", "*.tmp", "__pycache__"))
    config = path / "campaign.yaml"
    if lang:  # the turns played so far keep theirs (turn.yaml); the next ones are in `lang`
        atomic_write(config, _with_lang(config.read_text(encoding="utf-8"), lang))
    # a public demo's secret, but the copy is laid out as any new campaign
    secret.move(path, lang or local_help.campaign_lang(str(path)) or "en")


def _copy_skeleton(ctx, path, cls, ruleset_id: str, lang, rules_text) -> None:
    """`pbp init`: the ruleset's skeleton (or the MJ's rules file beside the data
    skeleton's campaign.yaml), a campaign.yaml titled after the folder, a new secret."""
    import shutil

    from pbp.engine import secret
    from pbp.engine.campaign import atomic_write

    # the skeleton in the campaign's language (rooms, sheets, comments): skeleton-en/ for
    # English, skeleton/ (French, the seeds' language) otherwise
    skeleton = cls.folder() / "skeleton"
    if lang and lang != "fr" and (cls.folder() / f"skeleton-{lang}").is_dir():
        skeleton = cls.folder() / f"skeleton-{lang}"
    if rules_text is not None:  # the MJ's own rules: the data skeleton's campaign.yaml beside them
        atomic_write(path / "rules.yaml", rules_text)
        shutil.copy(skeleton / "campaign.yaml", path / "campaign.yaml")
    elif skeleton.is_dir():
        shutil.copytree(skeleton, path, dirs_exist_ok=True)
    else:
        path.mkdir(parents=True, exist_ok=True)
    config = path / "campaign.yaml"
    text = config.read_text(encoding="utf-8") if config.exists() else (
        f"ruleset: {ruleset_id}\ntitle: {path.name}\nlang: fr\nformat: bbcode\nplayers: {{}}\n")
    text = text.replace("{title}", path.name)
    if lang or rules_text is not None:  # a rules file's campaign speaks the rules' language
        text = _with_lang(text, lang or ctx.obj["lang"])
    atomic_write(config, text)
    # the dice secret out of campaign.yaml, in a file git ignores (pbp/engine/secret.py)
    atomic_write(path / secret.SECRET_FILE, secret.file_text(secret.new_secret(),
                                                              local_help.campaign_lang(str(path)) or "fr"))


def _example_folder(cls, ruleset_id: str, name: str):
    """The bundled example campaign to copy: `--example` alone, the ruleset's own;
    `--example NAME`, that campaign of campaigns/ if it plays this ruleset (the
    data ruleset has one per event written as data)."""
    from pbp.base import i18n, yamlio
    from pbp.base.errors import PbpError
    from pbp.render.render import package_dir

    root = package_dir("campaigns")
    if not name:
        if not cls.example or not (root / cls.example).is_dir():
            raise PbpError("no_example", ruleset=ruleset_id)
        return root / cls.example
    mine = sorted(d.name for d in root.iterdir() if (d / "campaign.yaml").is_file()
                  and (yamlio.load_file(d / "campaign.yaml") or {}).get("ruleset") == ruleset_id)
    if name not in mine:
        raise PbpError("unknown_example", example=name, ruleset=ruleset_id, valid=mine,
                       suggestion=i18n.closest(name, mine))
    return root / name


def _ruleset_of_example(name: str) -> str:
    """The ruleset a bundled example campaign plays, by the example's name."""
    from pbp.base import i18n, yamlio
    from pbp.base.errors import PbpError
    from pbp.render.render import package_dir

    root = package_dir("campaigns")
    every = sorted(d.name for d in root.iterdir() if (d / "campaign.yaml").is_file())
    if name not in every:
        raise PbpError("unknown_example_any", example=name, valid=every, suggestion=i18n.closest(name, every))
    return str((yamlio.load_file(root / name / "campaign.yaml") or {}).get("ruleset"))


def _rules_file(ctx, rules_file, ruleset_id, example, lang) -> bytes:
    """`--rules FILE`: a data campaign from the MJ's rules file, which must read
    as pbp will play it (every problem at once, at FILE:line)."""
    from pbp.datarules import format as rules_format, load
    from pbp.engine.campaign import read_bytes

    if example is not None or (ruleset_id not in (None, "data")):
        raise click.UsageError(local_help.say(ctx, "init_rules_alone"), ctx)
    data = load.read_file(rules_file, str(rules_file))
    ctx.obj["lang"] = lang or rules_format.parse(data, str(rules_file)).lang  # the rules' own language
    load.parse(data, str(rules_file), lang=ctx.obj["lang"])
    return data


def _with_lang(text: str, lang: str) -> str:
    """campaign.yaml's text with its `lang:` line set to `lang`."""
    return "\n".join(f"lang: {lang}" if line.startswith("lang:") else line for line in text.split("\n"))


# -- setup ----------------------------------------------------------------------

@click.command(cls=PbpCommand)
@FORMAT
@click.option("--no-commit", is_flag=True)
@click.pass_context
def setup(ctx, fmt, no_commit):
    """Ruleset set-up (sheet draw, placement): writes turns/000/."""
    from pbp.base.errors import PbpError
    from pbp.engine import seal, seal_log, turn, turn_posts

    campaign = campaign_of(ctx)
    warn_secret_in_config(campaign)
    with campaign.lock():
        if campaign.last_turn() is not None:
            raise PbpError("already_set_up")
        out = turn.compute_setup(campaign)
        turn_posts.render_all(campaign, out, fmt)
        code = seal.seal_output(campaign, out)
        written = turn.write(campaign, out)
        seal_log.record_printed(campaign, 0, code)
        say("setup_done", count=len(written), folder=campaign.rel(campaign.turn_dir(0)))
        commit(campaign, "commit_setup", no_commit)
