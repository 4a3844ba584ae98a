"""What the commands of `pbp` share: their messages, options and the campaign they act on.

Help texts are messages (pbp/messages.yaml, fr and en), not `help=` strings:
`help_<command>` for a command, `help_<command>_<option>` or the shared
`help_option_<option>` for an option (pbp/help.py; tests/test_help.py checks
that every command and option has both).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from pbp import help as local_help
from pbp.help import LocalHelp, PbpCommand

__all__ = ["CONTEXT", "FILE_PATH", "FOLDER_PATH", "FORMAT", "PbpCommand", "PbpSubgroup", "campaign_of", "commit",
           "lang_of", "say"]

CONTEXT = {"help_option_names": ["-h", "--help"]}


def lang_of(ctx: click.Context | None) -> str:
    """The language of pbp's messages: the open campaign's; before a campaign is
    open, or where there is none (`pbp audit` run by a player, a typo in -C),
    the help's own: PBP_LANG, campaign.yaml's `lang:` line, the locale, else
    English (pbp.help)."""
    if ctx is not None and ctx.obj and ctx.obj.get("lang"):
        return ctx.obj["lang"]
    folder = ctx.obj.get("dir") if ctx is not None and ctx.obj else None
    return local_help.help_lang(None if folder is None else str(folder))


def say(key: str, /, **params) -> None:
    from pbp import i18n

    click.echo(i18n.t(lang_of(click.get_current_context(silent=True)), key, **params))


class PbpSubgroup(LocalHelp, click.Group):
    """A group under pbp (`pbp orders` and its `import`): help in the MJ's language."""

    command_class = PbpCommand


class PathType(click.ParamType):
    """A file or a folder named on the command line, as a Path; refused, in the
    MJ's language, when it names the other kind (whether it exists is for the
    command to say). Not click.Path: each one asks gettext for its name when
    made, which searches the disk for translations and imports locale, at
    every command; and its refusals are in English."""

    def __init__(self, folder: bool):
        self.folder = folder
        self.name = "directory" if folder else "file"  # the metavar: DOSSIER / FICHIER (click_metavar_*)

    def convert(self, value, param, ctx) -> Path:
        path = Path(value)
        if self.folder and path.exists() and not path.is_dir():
            self.fail(local_help.say(ctx, "path_not_folder", path=str(path)), param, ctx)
        if not self.folder and path.is_dir():
            self.fail(local_help.say(ctx, "path_is_folder", path=str(path)), param, ctx)
        return path

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="dir" if self.folder else "file")]


FILE_PATH = PathType(folder=False)
FOLDER_PATH = PathType(folder=True)

FORMAT = click.option("--format", "fmt", type=click.Choice(["bbcode", "markdown"]), default=None)


def campaign_of(ctx):
    from pbp.campaign import open_campaign

    campaign = open_campaign(ctx.obj["dir"])
    ctx.obj["lang"] = campaign.lang
    return campaign


def commit(campaign, key: str, no_commit: bool, **params) -> None:
    from pbp import archive, i18n

    if no_commit:
        return
    if archive.repository(campaign.root) is None:
        say("not_git")
        return
    sha = archive.commit(campaign.root, i18n.t(campaign.lang, key, **params))
    if sha:
        say("committed", sha=sha)
