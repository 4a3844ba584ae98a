"""Rendering: jinja2 templates made into a post in the output format.

Templates are written once per language and use the markup helpers of `m`
(`m.b(x)`, `m.quote(text, author)`, `m.list(items)`...), which the output format
implements (pbp.render.formatters); a campaign can still provide a
format-specific template (`public.bbcode.j2` is looked up before `public.j2`).

Every `{{ value }}` is escaped for the output format unless it is `Markup`
(what the helpers return): player text cannot become markup
(pbp.render.escaping). Each format's last pass over a whole post
(`Formatter.finish`) makes the structure right whatever the template's line
breaks (pbp.render.markdown_blocks for Markdown).

This module owns the jinja2 environment: where templates are looked up
(`template_paths`), the sandbox and its budgets (a campaign's own templates are
the MJ's input), the bytecode cache, and the `Renderer` a command keeps for
every post it renders. An error in a template (syntax, undefined value, missing
include, an exception under a campaign's own template) is a TemplateError
naming the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.base.errors import PbpError, TemplateError
from pbp.base.memtree import MemoryPath
from pbp.render.formatters import formatter

# -- templates -------------------------------------------------------------------

def package_dir(name: str) -> Path:
    """pbp/<name> once installed; <repository>/<name> in a source checkout."""
    here = Path(__file__).parent.parent
    installed = here / name
    return installed if installed.is_dir() else here.parent / name


def template_paths(ruleset_id: str, lang: str, campaign_root: Path | None = None,
                   ruleset_folder: Path | None = None) -> list[Path]:
    """Where templates are looked up, first match wins: the campaign's own,
    then pbp's defaults for the ruleset, then the ruleset package's (third-party
    rulesets), then the shared ones."""
    paths = []
    if campaign_root is not None:
        own = campaign_root / "templates"
        paths += [own / ruleset_id / lang, own / lang, own]
    root = package_dir("templates")
    paths.append(root / ruleset_id / lang)
    if ruleset_folder is not None:
        paths.append(ruleset_folder / "templates" / lang)
    paths += [root / "common" / lang, root / "common"]
    return [p for p in paths if p.is_dir()]


#: the characters one rendering writes (a post); what else a template may do: pbp.render.sandbox
MAX_OUTPUT_CHARS = 4 * 1024 * 1024


def _environment_class():
    from pbp.render.sandbox import BoundedEnvironment

    class CachedEnvironment(BoundedEnvironment):
        """The bounded sandbox (pbp.render.sandbox), its generated code kept
        between commands (`_generated_source`)."""

        def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
            """A template's Python code, as jinja2 generates it, kept as text in the
            user's cache (`_generated_source`): a new command compiles that text
            instead of lexing, parsing and generating the template again."""
            if not isinstance(source, str) or raw or defer_init:
                return BoundedEnvironment.compile(self, source, name, filename, raw, defer_init)
            python = _generated_source(self, source, name, filename)
            return self._compile(python, filename or "<template>")

    return CachedEnvironment


def _sandbox_digest() -> str:
    """The sandbox's own source, digested: its code generator writes the budget
    checks into every template's code, so a changed sandbox generates anew."""
    import hashlib

    from pbp.render import sandbox

    return hashlib.sha256(Path(sandbox.__file__).read_bytes()).hexdigest()


#: how many templates' generated code the user's cache keeps
TEMPLATES_KEPT = 400


def _generated_source(env, source: str, name: str | None, filename: str | None) -> str:
    """jinja2's Python source for a template (`raw=True`), read back from the
    user's cache when the same template text was compiled before (by name and
    file; the entry holds the text it was made from), else generated and kept.
    What is kept is a text, plain data as the cache's rule wants; the cache is the
    user's alone and each entry is sealed with its key (pbp/usercache.py), the
    trust Python's own __pycache__ has. Generating is most of the cost of a
    template: `pbp run --dry-run` on the manhunt example spends about 0.5 s of
    CPU in it at each command (docs/design.md, "Compiled templates between commands")."""
    import jinja2

    from pbp.base import usercache

    tag = usercache.tag_of("templates", usercache.data_tag(), jinja2.__version__, type(env).__name__,
                           env.finalize is not None, sorted(ENV_OPTIONS.items()), _sandbox_digest())
    key = f"{name}\n{filename}"
    kept = usercache.read_entry("templates", tag, key)
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == source and isinstance(kept[1], str):
        return kept[1]
    python = jinja2.Environment.compile(env, source, name, filename, raw=True)
    usercache.write_entry("templates", tag, key, (source, python), keep=TEMPLATES_KEPT)
    return python


MAX_TEMPLATE_BYTES = 1024 * 1024


def _loader(paths: list[Path]):
    """jinja2's file loader, reading only regular files inside its folders: a
    campaign received from someone else may hold a link from templates/ to the
    MJ's private files (a post would then print them)."""
    import os
    import stat

    from jinja2 import FileSystemLoader
    from jinja2.loaders import split_template_path
    from jinja2.sandbox import SecurityError

    class DataLoader(FileSystemLoader):
        def get_source(self, environment, template):
            pieces = split_template_path(template)
            for folder in in_memory:  # an audited bundle's own templates: before pbp's, as on disk
                found = folder.joinpath(*pieces)
                if found.is_file():
                    if found.stat().st_size > MAX_TEMPLATE_BYTES:
                        exc = SecurityError(f"{template}: over {MAX_TEMPLATE_BYTES} bytes")
                        exc.template = str(found)
                        raise exc
                    return found.read_text(encoding="utf-8"), str(found), lambda: True
            for folder in self.searchpath:
                path = os.path.join(folder, *pieces)
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                real, inside = os.path.realpath(path), os.path.realpath(folder)
                why = ("a link out of its folder" if os.path.commonpath([real, inside]) != inside
                       else "not a regular file" if not stat.S_ISREG(info.st_mode)
                       else f"over {MAX_TEMPLATE_BYTES} bytes" if info.st_size > MAX_TEMPLATE_BYTES else None)
                if why:
                    exc = SecurityError(f"{template}: {why}")
                    exc.template = path
                    raise exc
                break
            return super().get_source(environment, template)

    in_memory = [p for p in paths if isinstance(p, MemoryPath)]
    return DataLoader([str(p) for p in paths if not isinstance(p, MemoryPath)])


#: how every Renderer's environment is built
ENV_OPTIONS = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True, "autoescape": False}

_BYTECODE_CACHE = None


def _bytecode_cache():
    """Compiled templates kept for the process, keyed by file and checked against
    the source's checksum (an edited template is compiled again): `pbp verify`
    and the tests render many turns with the same templates, and compiling them
    is most of the cost of rendering. Every Renderer builds its environment with
    the same options, so the compiled code is the same for all.

    In memory only: jinja2's own disk caches keep a pickle and a marshalled code
    object, and the user's cache folder holds plain data only (pbp.base.usercache).
    Between commands, what is kept is the Python text jinja2 generates
    (`_generated_source`), compiled again by each new process."""
    global _BYTECODE_CACHE
    if _BYTECODE_CACHE is None:
        from jinja2 import BytecodeCache

        class MemoryBytecodeCache(BytecodeCache):
            def __init__(self):
                self.store: dict[str, bytes] = {}

            def load_bytecode(self, bucket):
                code = self.store.get(bucket.key)
                if code is not None:
                    # a stale entry (the template changed) leaves the bucket empty: compiled again
                    bucket.bytecode_from_string(code)

            def dump_bytecode(self, bucket):
                self.store[bucket.key] = bucket.bytecode_to_string()

        _BYTECODE_CACHE = MemoryBytecodeCache()
    return _BYTECODE_CACHE


#: the Renderers of this command, by what they are built from (see `renderer_for`)
_RENDERERS: dict[tuple, "Renderer"] = {}
_RENDERERS_KEPT = 32  # a process rendering many campaigns (the tests) keeps the last few


def renderer_for(paths: list[Path], fmt: str, dialect: str = "phpbb", lang: str = "fr",
                 root: Path | None = None) -> "Renderer":
    """One Renderer (one jinja2 environment) per template paths, format,
    dialect and language: every turn `pbp verify` replays, every post of a
    turn, shares it, so each template is loaded and compiled once. Its
    templates are read once: `forget_renderers` (each command, in the command
    line) starts again from the files."""
    key = (tuple(paths), fmt, dialect, lang, root)  # a folder in memory (pbp.base.memtree) is its own tree's
    rend = _RENDERERS.get(key)
    if rend is None:
        if len(_RENDERERS) >= _RENDERERS_KEPT:
            _RENDERERS.pop(next(iter(_RENDERERS)))
        # a command's templates do not change while it runs: no stat of each file at each include
        rend = _RENDERERS[key] = Renderer(paths, fmt, dialect, lang, root=root, reload=False)
    return rend


def forget_renderers() -> None:
    """A new command starts with no Renderer (in-process callers run many)."""
    _RENDERERS.clear()


class Renderer:
    def __init__(self, paths: list[Path], fmt: str, dialect: str = "phpbb", lang: str = "fr",
                 root: Path | None = None, reload: bool = True):
        """`root`: the campaign folder, so that an error in one of its own
        templates names the file as the MJ sees it (templates/public.j2).
        `reload`: check each template's file before reusing it (off for the
        Renderers of one command: see `renderer_for`)."""
        from jinja2 import StrictUndefined

        Environment = _environment_class()
        from pbp.render import formats

        self.output_format = formats.get(fmt, text=True)
        self.fmt = formatter(fmt, dialect, lang)
        self.lang = lang
        self.paths = [_path(p) for p in paths]
        self.root = _path(root).resolve() if root is not None else None
        self._chosen: dict[str, str] = {}  # template name -> the file name it is found under
        self.env = Environment(
            loader=_loader(paths),
            finalize=self.fmt.finalize,
            undefined=StrictUndefined,
            bytecode_cache=_bytecode_cache(),
            auto_reload=reload,
            **ENV_OPTIONS,
        )
        from pbp.render.grammar import for_lang

        from pbp.base import i18n

        # `t(key, ...)`: a catalogue message (pbp's or a ruleset's), in the post's language
        self.env.globals.update(m=self.fmt, fmt=self.fmt.name, lang=lang, g=for_lang(lang),
                                t=lambda key, **params: i18n.t(lang, key, **params))
        # `items | map("extract", mapping)`: look each item up in a mapping (kept when absent).
        self.env.filters["extract"] = lambda key, mapping: mapping.get(key, key) if hasattr(mapping, "get") else key

    def has(self, name: str) -> bool:
        """Whether a template `name` exists for this format (an optional one)."""
        import jinja2

        try:
            self._template(name)
        except jinja2.TemplateNotFound:
            return False
        return True

    def _template(self, name: str):
        """The template `name` for this format: `name.<format>.j2`, else
        `name.j2`. Which of the two names exists is looked up once (a name
        jinja2 does not find is searched for in every folder again, each time);
        the template itself comes from the environment, which reloads an
        edited file."""
        chosen = self._chosen.get(name)
        if chosen is None:
            template = self.env.select_template([name + self.output_format.template_suffix, f"{name}.j2"])
            self._chosen[name] = template.name
            return template
        return self.env.get_template(chosen)

    def render(self, name: str, **context) -> str:
        """The template `name` rendered; any error of a template (syntax,
        undefined value, missing include, an exception in a campaign's own
        template) is a TemplateError naming its file and line."""
        try:
            text = self._bounded_render(self._template(name), context)
        except PbpError:
            raise
        except Exception as exc:
            error = self._template_error(exc, context)
            if error is None:  # pbp's own code failed under pbp's own templates: a bug, said as one
                raise
            raise error from exc
        return tidy(self.fmt.finish(text))

    def _bounded_render(self, template, context: dict) -> str:
        """The template's text, written piece by piece: refused past
        MAX_OUTPUT_CHARS, with a new budget of work (pbp.render.sandbox)."""
        from jinja2.sandbox import SecurityError

        from pbp.render.sandbox import Budget

        out, size = [], 0
        self.env.budget = Budget()
        for piece in template.generate(**context):
            size += len(piece)
            if size > MAX_OUTPUT_CHARS:
                exc = SecurityError(f"over {MAX_OUTPUT_CHARS} characters written")
                exc.template = template.filename  # written by no line in particular: the file is named
                raise exc
            out.append(piece)
        return "".join(out)

    # -- template errors ------------------------------------------------------------

    def _template_file(self, filename: str) -> Path | None:
        """The template file a traceback frame runs, or None for Python code."""
        if not filename.endswith(".j2"):
            return None
        for folder in self.paths:
            if isinstance(folder, MemoryPath):  # named by the loader: str(MemoryPath)
                if filename.startswith(str(folder) + "/"):
                    return folder / filename[len(str(folder)) + 1:]
            elif Path(filename).resolve().is_relative_to(folder.resolve()):
                return Path(filename).resolve()
        return None

    def _own(self, path) -> bool:
        return self.root is not None and path.is_relative_to(self.root)

    def _shown(self, path) -> str:
        if isinstance(path, str) and self.root is not None and path.startswith(str(self.root) + "/"):
            return path[len(str(self.root)) + 1:]  # a template of a folder in memory, as its loader named it
        path = _path(path).resolve()
        return str(path.relative_to(self.root)) if self._own(path) else str(path)

    def _template_error(self, exc: Exception, context: dict) -> TemplateError | None:
        import traceback

        import jinja2
        from jinja2.sandbox import SecurityError

        from pbp.base import i18n

        frames = [(path, line) for path, line in
                  ((self._template_file(f.f_code.co_filename), line) for f, line in traceback.walk_tb(exc.__traceback__))
                  if path is not None]
        where = frames[-1] if frames else (None, None)
        params: dict = {}
        if isinstance(exc, jinja2.TemplateSyntaxError):
            key, params = "template_syntax", {"error": (exc.message or "").rstrip(".")}
            where = (exc.filename, exc.lineno) if exc.filename else where
        elif isinstance(exc, jinja2.TemplateNotFound):
            missing = list(getattr(exc, "templates", None) or [exc.name])
            key = "template_not_found" if frames else "template_missing"
            params = {"name": missing, "paths": [self._shown(p) for p in self.paths],
                      "suggestion": i18n.closest(missing[-1], self.env.list_templates(extensions=["j2"]))}
        elif isinstance(exc, jinja2.UndefinedError):
            message = exc.message or str(exc)
            if m := re.fullmatch(r"'([^']*)' is undefined", message):
                known = sorted(set(context) | {"m", "fmt", "lang"})  # what pbp gives every template
                key, params = "template_undefined", {"name": m.group(1), "valid": known,
                                                     "suggestion": i18n.closest(m.group(1), known)}
            elif m := re.fullmatch(r"'(.*)' has no attribute '([^']*)'", message):
                key, params = "template_no_attribute", {"value": m.group(1), "name": m.group(2)}
            else:
                key, params = "template_invalid", {"error": message}
        elif isinstance(exc, SecurityError):
            key, params = "template_unsafe", {"error": str(exc).rstrip(".")}
            where = where if where[0] is not None else (getattr(exc, "template", None), None)
        elif isinstance(exc, jinja2.TemplateError):
            key, params = "template_invalid", {"error": str(exc)}
        else:
            own = [f for f in frames if self._own(f[0])]
            if not own:
                return None
            where = own[-1]
            key, params = "template_failed", {"error": f"{type(exc).__name__}: {exc}"[:300]}
        path, line = where
        return TemplateError(key, file=self._shown(path) if path else None, line=line, **params)


def _path(path) -> Path | MemoryPath:
    """A template folder or file: on disk, or in memory (an audited bundle's, pbp.base.memtree)."""
    return path if isinstance(path, MemoryPath) else Path(path)


def tidy(text: str) -> str:
    """One blank line at most between blocks, no leading/trailing blank lines,
    one final newline: stable bytes whatever the template's whitespace."""
    lines = [line.rstrip() if not line.endswith("  ") else line for line in text.split("\n")]
    out = "\n".join(lines)
    out = re.sub(r"\n{3,}", "\n\n", out).strip("\n")
    return out + "\n"
