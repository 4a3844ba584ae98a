"""What the commands of `pbp` share: their messages, options and the campaign they act on.

Help texts are messages (pbp/messages.yaml, fr and en), not `help=` strings:
`help_<command>` for a command, `help_<command>_<option>` or the shared
`help_option_<option>` for an option (pbp/cli/help.py; tests/test_help.py checks
that every command and option has both).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from pbp.cli import help as local_help
from pbp.cli.help import LocalHelp, PbpCommand
from pbp.render import formats

__all__ = ["CONTEXT", "FILE_PATH", "FOLDER_PATH", "FORMAT", "PbpCommand", "PbpSubgroup", "campaign_of", "commit",
           "lang_of", "say", "warn_secret_in_config"]

CONTEXT = {"help_option_names": ["-h", "--help"]}


def lang_of(ctx: click.Context | None) -> str:
    """The language of pbp's messages: the open campaign's; before a campaign is
    open, or where there is none (`pbp audit` run by a player, a typo in -C),
    the help's own: PBP_LANG, campaign.yaml's `lang:` line, the locale, else
    English (pbp.cli.help)."""
    if ctx is not None and ctx.obj and ctx.obj.get("lang"):
        return ctx.obj["lang"]
    folder = ctx.obj.get("dir") if ctx is not None and ctx.obj else None
    return local_help.help_lang(None if folder is None else str(folder))


def say(key: str, /, **params) -> None:
    from pbp.base import i18n

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

FORMAT = click.option("--format", "fmt", type=click.Choice(formats.NAMES), default=None)


def campaign_of(ctx):
    from pbp.engine.campaign import open_campaign

    campaign = open_campaign(ctx.obj["dir"])
    ctx.obj["lang"] = campaign.lang
    return campaign


def warn_secret_in_config(campaign) -> None:
    """A campaign made before secret.yaml: its dice secret is archived with every
    commit; told once by the commands of the turn loop (pbp/engine/secret.py)."""
    if campaign.config.get("secret") is not None:
        from pbp.base import i18n

        click.echo(i18n.t(campaign.lang, "secret_in_config"), err=True)


def commit(campaign, key: str, no_commit: bool, also: tuple[str, ...] = (), **params) -> None:
    """Commit what the command changed, with the message `key`; `also`: older
    turns' files (paths from the campaign folder) the MJ chose to keep edited."""
    from pbp.base import i18n
    from pbp.engine import archive, seal

    if no_commit:
        return
    if archive.repository(campaign.root) is None:
        say("not_git")
        return
    sha = archive.commit(campaign.root, i18n.t(campaign.lang, key, **params),
                         turns_from=seal.first_recent_turn(campaign), also=also)
    if sha:
        say("committed", sha=sha)


# -- files the MJ names: --output, --svg ------------------------------------------------
#
# One rule for every command that writes a file at a path the MJ types (preview
# --output, dice-report --svg, simulate --svg, reveal --output): a typo or a
# shell completion must never cost a campaign file, an archived turn (its seal
# would no longer match) or anybody's file. So an existing file is replaced only
# when it is a previous output of the same kind (recognised by how pbp's own
# output begins: MJs run a preview again and again at the same place); nothing
# is written inside turns/ but the command's own files there; and a folder that
# does not exist is refused, never made (it is most often a typo).

#: kind -> (the refusal of an existing file, the catalogue key of the kind's name, what
#: a file of that kind begins with); no beginning: an existing file is never replaced
#: (reveal: a bundle already there may be the one published)
_OUTPUT_KINDS = {
    "preview": ("output_exists", "output_kind_preview", lambda: _head_before_title("preview")),
    "chart": ("output_exists", "output_kind_chart", lambda: _head_before_title("chart")),
    "bundle": ("reveal_exists", None, None),
}


def _head_before_title(kind: str) -> tuple[bytes, ...]:
    """How pbp's own preview page or SVG chart begins: what it writes before the
    title (fixed bytes for a given language), taken from the code that writes it
    so the two cannot drift apart."""
    from pbp.base import i18n

    if kind == "chart":
        from pbp.render.chart import histogram_svg

        return (histogram_svg("", "", []).split("<title>")[0].encode(),)
    from pbp.render import preview

    return tuple(preview.page("", "markdown", "phpbb", lang, "", "").split("<title>")[0].encode() for lang in i18n.LANGS)


def output_target(ctx: click.Context, path: Path, kind: str, option: str, own_in_archive=None) -> Path:
    """`path`, named by the MJ with `option`, if the command may write its `kind`
    of file there; else a PbpError naming it (exit 1), before anything is done.
    `own_in_archive(rel)`: whether a path inside the campaign's turns/ folder
    (relative to the campaign, with /) is one this command writes itself."""
    import stat

    from pbp.base.errors import PbpError, Phrase

    path = Path(path)
    if not path.parent.is_dir():
        raise PbpError("output_no_folder", file=path, folder=str(path.parent), option=option)
    root = Path(ctx.obj["dir"]).resolve() if ctx.obj and ctx.obj.get("dir") is not None else None
    if root is not None and (root / "campaign.yaml").is_file():
        try:
            rel = (path.parent.resolve() / path.name).relative_to(root).as_posix()
        except ValueError:
            rel = None
        if rel is not None and rel.split("/")[0] == "turns" and not (own_in_archive and own_in_archive(rel)):
            raise PbpError("output_in_archive", file=path, option=option)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return path
    except OSError:
        info = None
    refusal, what, heads = _OUTPUT_KINDS[kind]
    if heads is None:
        raise PbpError(refusal, file=path)
    if info is not None and stat.S_ISREG(info.st_mode):  # never opened otherwise: a FIFO would block
        heads = heads()
        try:
            with open(path, "rb") as handle:
                start = handle.read(max(len(h) for h in heads))
        except OSError:
            start = b""
        if any(start.startswith(h) for h in heads):
            return path
    raise PbpError(refusal, file=path, what=Phrase(what), option=option)


def write_output(path: Path, data: bytes | str, option: str, shown: str | Path | None = None) -> None:
    """Write a command's output file (atomically); a place that cannot be written
    (no right, a read-only or special file system) is a refusal naming it, not a bug."""
    from pbp.base.errors import PbpError
    from pbp.engine.campaign import atomic_write

    try:
        atomic_write(path, data)
    except OSError as exc:
        raise PbpError("output_unwritable", file=shown if shown is not None else path,
                       reason=exc.strerror or type(exc).__name__, option=option) from None
