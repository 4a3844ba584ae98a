"""Output formats: the one list of what a post can be written in.

Every place that names a format asks this module: campaign.yaml's `format:`, a
turn's record (turn.yaml) and the commands' `--format` accept exactly these
names and refuse any other, listing these; a turn folder's posts take the
format's extension; pbp.render.formatters holds the format's `Formatter` (its markup
helpers, its escaping of player text and its last pass over a post); a
campaign's template for this format only is `<post>.<name>.j2`; `pbp preview`
shows the post with the format's function in pbp.render.preview. How to add one:
docs/architecture.md, "Adding an output format".
"""

from __future__ import annotations

from typing import NamedTuple


class OutputFormat(NamedTuple):
    """One output format. A NamedTuple rather than a dataclass: every command
    imports this module (campaign.yaml is checked against it), and a frozen
    dataclass costs some 2 ms of start-up more (dataclasses' import and the
    class's generated methods), a NamedTuple 0.6."""

    #: the name campaign.yaml's `format:` and `--format` use
    name: str
    #: the extension of its post files: public.<ext>, gm.<ext>, private/<handle>.<ext>
    ext: str
    #: its Formatter class in pbp.render.formatters: markup helpers, escaping, last pass over a post
    formatter: str
    #: its function in pbp.render.preview: a post's text as the forum shows it, in HTML
    preview: str | None = None
    #: how `pbp preview` names the forum ({dialect}: campaign.yaml's `dialect`)
    forum: str | None = None

    @property
    def template_suffix(self) -> str:
        """A template for this format only: `public.bbcode.j2` before `public.j2`."""
        return f".{self.name}.j2"


FORMATS = {f.name: f for f in (
    OutputFormat("bbcode", "bbcode", "BBCodeFormatter", "bbcode_html", "BBCode {dialect}"),
    OutputFormat("markdown", "md", "MarkdownFormatter", "markdown_html", "Markdown, CommonMark/GFM"),
)}
#: the terminal's plain text: the MJ's own screens (`pbp status`, the order forms,
#: odds tables), never a post (not in FORMATS, so no campaign or turn may ask for it)
TEXT = OutputFormat("text", "txt", "Formatter")
#: what a campaign.yaml without `format:` means
DEFAULT = "bbcode"
NAMES = tuple(FORMATS)
#: format name -> the extension of its post files
EXTENSIONS = {name: f.ext for name, f in FORMATS.items()}


def get(name, text: bool = False) -> OutputFormat:
    """The post format called `name` (or, with `text`, the terminal's plain
    text); any other name is refused, listing the valid ones."""
    found = FORMATS.get(name) if isinstance(name, str) else None
    if found is None and text and name == TEXT.name:
        return TEXT
    if found is None:
        from pbp.base.errors import PbpError

        raise PbpError("bad_choice", value=name, valid=list(NAMES))
    return found
