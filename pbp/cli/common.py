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

from pbp.help import LocalHelp, PbpCommand

__all__ = ["CONTEXT", "FILE_PATH", "FOLDER_PATH", "FORMAT", "PbpCommand", "PbpSubgroup", "campaign_of", "commit",
           "lang_of", "say"]

CONTEXT = {"help_option_names": ["-h", "--help"]}


def lang_of(ctx: click.Context | None) -> str:
    if ctx is not None and ctx.obj and ctx.obj.get("lang"):
        return ctx.obj["lang"]
    env = os.environ.get("PBP_LANG") or ""
    return "en" if env.startswith("en") else "fr"


def say(key: str, /, **params) -> None:
    from pbp import i18n

    click.echo(i18n.t(lang_of(click.get_current_context(silent=True)), key, **params))


class PbpSubgroup(LocalHelp, click.Group):
    """A group under pbp (`pbp orders` and its `import`): help in the MJ's language."""

    command_class = PbpCommand


# The path types of the options, made once: each click.Path asks gettext for its
# name when made, and gettext searches the disk for translations each time.
FILE_PATH = click.Path(dir_okay=False, path_type=Path)
FOLDER_PATH = click.Path(file_okay=False, path_type=Path)

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
