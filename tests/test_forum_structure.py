"""Posts read right where they are pasted: their structure, checked with
parsers pbp does not render with.

Every post of every bundled example campaign (public, each private report, the
MJ's, the set-up posts), in French and in English (the campaign's `lang`
switched in a copy), in Markdown and in each BBCode dialect, goes through
independent parsers: markdown-it-py (GFM-like) and cmark-gfm for Markdown,
bbcodepy for BBCode (`pbp preview` renders with the `bbcode` package, so the
check uses the other one). What is asserted:

Markdown
- every list item line of the text (`- `, `* `, `1. `) is a list item in the
  tree, an indented one is nested in another item, and lists one blank line
  apart stay two lists;
- no paragraph or list item holds a soft line break: two lines the template
  wrote as lines never merge into one paragraph (two characters' summary lines,
  the "You are in..." line and the description under it);
- no text line follows a list item or a quote line directly (it would be read
  as part of it).

BBCode
- no line is a hand-made list (`- `, `• `, `1. `): lists are `[list]`/`[*]`;
- `[list]`, `[quote]`, `[spoiler]`, `[code]` are balanced and nested in order;
  every `[*]` is a list item and every nested `[list]` a nested list in the tree;
- every tag is one the campaign's dialect has, and no bracket of the text can
  be read as a tag (coordinates are written `(4, 2)`).

Where a ruleset's own template still fails, its (ruleset, template) case is
marked xfail(strict=True) with the reason: the marker goes once that ruleset's
templates are fixed, and strict makes a fixed template fail until it does.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from html.parser import HTMLParser

import pytest
# the independent parsers come with pyproject's `test` extra
bbcodepy = pytest.importorskip("bbcodepy", reason="a test dependency: pip install -e '.[test]'")
cmarkgfm = pytest.importorskip("cmarkgfm", reason="a test dependency: pip install -e '.[test]'")
from bbcodepy.tags import create_simple_tag
from cmarkgfm.cmark import Options
from markdown_it import MarkdownIt

from pbp.engine import loop, turn, turn_posts, turn_record
from pbp.engine.campaign import open_campaign
from pbp.model import events as ev
from pbp.render.escaping import ZWSP
from pbp.render.formatters import BBCodeFormatter
from pbp.render.render import Renderer, package_dir, template_paths
from tests.helpers import unsealed

EXAMPLES = sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists())
LANGS = ("fr", "en")
FORMATS = (("markdown", None), ("bbcode", "phpbb"), ("bbcode", "forumactif"), ("bbcode", "xenforo"))
TEMPLATES = ("setup_public", "setup_private", "setup_gm", "public", "private", "gm")

#: (ruleset, template) cases whose ruleset templates still break the structure
#: (each fixed by that ruleset's engineer; the marker goes with the fix)
RULESET_TEMPLATE_FAILS: set[tuple[str, str]] = set()


# -- posts --------------------------------------------------------------------------------

def switched(campaign, **config):
    """The campaign with some of campaign.yaml changed (in memory: nothing is written)."""
    return campaign.replace(config={**campaign.config, **config})


@functools.lru_cache(maxsize=None)
def computed(example: str, lang: str):
    """Every turn of the example's archive resolved again with `lang`."""
    campaign = switched(open_campaign(package_dir("campaigns") / example), lang=lang)
    return campaign, [turn.compute(campaign, n) for n in campaign.resolved_turns()]


def posts(example: str, template: str):
    """(where, fmt, dialect, text) of every post rendered by `template`."""
    setup, kind = template.startswith("setup_"), template.removeprefix("setup_")
    for lang in LANGS:
        campaign, outs = computed(example, lang)
        for fmt, dialect in FORMATS:
            shown = switched(campaign, format=fmt, dialect=dialect or "phpbb")
            rend = turn_posts.renderer(shown, fmt)
            for out in outs:
                if (out.turn == 0) != setup:
                    continue
                grouped = ev.by_audience(out.events)
                for audience in turn_posts.audiences(shown, out.events):
                    name, player = turn_posts._reader(audience)
                    if name != kind:
                        continue
                    where = f"{example} {lang} {fmt}/{dialect} turn {out.turn} {name}{' ' + player if player else ''}"
                    yield where, fmt, dialect, turn_posts.render_post(shown, out.turn, out.events, audience, rend, grouped)


# -- HTML as a tree -------------------------------------------------------------------------

BLOCKS = {"p", "ul", "ol", "li", "blockquote", "table", "thead", "tbody", "tr", "td", "th", "pre", "h1", "h2",
          "h3", "h4", "h5", "h6", "hr", "div", "details", "summary"}


@dataclasses.dataclass
class Node:
    tag: str
    parent: "Node | None" = None
    children: list = dataclasses.field(default_factory=list)

    def walk(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.walk()

    def inside(self, *tags) -> bool:
        node = self.parent
        while node is not None:
            if node.tag in tags:
                return True
            node = node.parent
        return False

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _Tree(HTMLParser):
    VOID = {"br", "img", "hr", "input", "meta", "link", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, self.stack[-1]))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def tree(html: str) -> Node:
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return parser.root


def soft_breaks(node: Node) -> list[str]:
    """The text of a paragraph or item that goes on over a soft line break (a
    newline the renderer keeps as a space), with the text around it."""
    found = []
    kids = node.children
    for i, child in enumerate(kids):
        if not isinstance(child, str):
            continue
        text = child
        before = kids[i - 1] if i else None
        after = kids[i + 1] if i + 1 < len(kids) else None
        if isinstance(before, Node) and (before.tag == "br" or before.tag in BLOCKS):
            text = text.removeprefix("\n")
        if after is None or (isinstance(after, Node) and after.tag in BLOCKS):
            text = text.rstrip("\n")
        if "\n" in text:
            found.append(text)
    return found


# -- the parsers ----------------------------------------------------------------------------

_mdit = MarkdownIt("gfm-like")  # tables, strikethrough, linkify: as Discourse runs markdown-it


def _cmark(text: str) -> str:
    return cmarkgfm.markdown_to_html_with_extensions(
        text, options=Options.CMARK_OPT_UNSAFE, extensions=["table", "autolink", "strikethrough", "tasklist"])


MARKDOWN_PARSERS = {"markdown-it": _mdit.render, "cmark-gfm": _cmark}


def _bbcodepy():
    p = bbcodepy.Parser()
    for tag, html in [("spoiler", "details"), ("strike", "strike"), ("table", "table"), ("tr", "tr"), ("td", "td")]:
        p.register_tag(tag, create_simple_tag(html))
    return p


_bbpy = _bbcodepy()


# -- the checks -----------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)])( |$)")
_RULE = re.compile(r"^ {0,3}([-*_])(?: *\1){2,} *$")


def markdown_lines(text: str):
    """(line, in_code) for every line of a Markdown post."""
    fence = None
    for line in text.split("\n"):
        if fence:
            yield line, True
            if line.strip().startswith(fence):
                fence = None
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
            yield line, True
            continue
        yield line, False


def check_markdown(where: str, text: str) -> list[str]:
    problems = []
    items = nested = 0
    runs = 0  # top-level lists as the text writes them: runs of item lines, blank lines end one
    previous = ""
    in_run = False
    for line, code in markdown_lines(text):
        item = None if code or _RULE.match(line) else _ITEM.match(line)
        if item:
            items += 1
            nested += bool(item.group(1))
            if not item.group(1) and not in_run:
                runs += 1
            in_run = True
        elif not line.startswith("  "):
            in_run = False
        if not code and line.strip() and not item and not line.startswith((" ", ">")) and \
                (_ITEM.match(previous) or previous.startswith(">")) and not _RULE.match(previous):
            problems.append(f"{where}: a line right under a list item or a quote joins it: {previous!r} / {line!r}")
        previous = "" if code else line
    for name, parse in MARKDOWN_PARSERS.items():
        root = tree(parse(text))
        lis = [n for n in root.walk() if n.tag == "li" and not n.inside("blockquote")]
        if len(lis) != items - sum(1 for line, code in markdown_lines(text) if not code and line.startswith(">")
                                   and _ITEM.match(line.lstrip("> "))):
            problems.append(f"{where} [{name}]: {items} item lines, {len(lis)} list items")
        deep = [n for n in lis if n.inside("li")]
        if len(deep) != nested:
            problems.append(f"{where} [{name}]: {nested} indented item lines, {len(deep)} nested items")
        lists = [n for n in root.walk() if n.tag in ("ul", "ol") and not n.inside("li", "blockquote")]
        if len(lists) != runs:
            problems.append(f"{where} [{name}]: {runs} lists written, {len(lists)} lists read (lists merged)")
        for node in root.walk():
            if node.tag in ("p", "li", "td", "th"):
                for soft in soft_breaks(node):
                    problems.append(f"{where} [{name}]: two lines merged in one <{node.tag}>: {soft!r}")
    return problems


_TAG = re.compile(r"\[(/?)([A-Za-z*]+)(?:=[^\]]*)?\]")
_STRAY = re.compile(r"^\s*(?:[-•*·]|\d{1,3}[.)])\s")


def check_bbcode(where: str, text: str, dialect: str) -> list[str]:
    problems = []
    allowed = BBCodeFormatter(dialect).tags
    code = False
    stack: list[str] = []
    opened = {"list": 0, "*": 0, "nested": 0}
    for number, line in enumerate(text.split("\n"), 1):
        if not code and _STRAY.match(line):
            problems.append(f"{where}: line {number} is a hand-made list, not [list]: {line!r}")
        for m in _TAG.finditer(line):
            closing, tag = m.group(1), m.group(2).lower()
            if code and not (closing and tag == "code"):
                continue
            if tag not in allowed:
                problems.append(f"{where}: line {number}: [{tag}] is no {dialect} tag")
                continue
            if tag == "*":
                opened["*"] += 1
                continue
            if not closing:
                if tag == "list":
                    opened["list"] += 1
                    opened["nested"] += "list" in stack
                stack.append(tag)
                code = tag == "code"
            elif tag in stack:
                if stack[-1] != tag:
                    problems.append(f"{where}: line {number}: [/{tag}] closes [{stack[-1]}]")
                while stack and stack.pop() != tag:
                    pass
                code = False
            else:
                problems.append(f"{where}: line {number}: [/{tag}] closes nothing")
        if not code:
            for m in re.finditer(r"\[(?!" + ZWSP + ")", line):
                if not _TAG.match(line, m.start()):
                    problems.append(f"{where}: line {number}: a bracket that is no tag: {line[m.start():][:20]!r}")
    if stack:
        problems.append(f"{where}: never closed: {stack}")
    root = tree(_bbpy.to_html(text))
    lists = [n for n in root.walk() if n.tag in ("ul", "ol")]
    lis = [n for n in root.walk() if n.tag == "li"]
    if (len(lists), len(lis)) != (opened["list"], opened["*"]):
        problems.append(f"{where} [bbcodepy]: {opened['list']} [list] / {opened['*']} [*] written, "
                        f"{len(lists)} lists / {len(lis)} items read")
    if sum(1 for n in lists if n.inside("li")) != opened["nested"]:
        problems.append(f"{where} [bbcodepy]: {opened['nested']} nested [list], "
                        f"{sum(1 for n in lists if n.inside('li'))} nested lists read")
    return problems


def check(where: str, fmt: str, dialect: str | None, text: str) -> list[str]:
    return check_markdown(where, text) if fmt == "markdown" else check_bbcode(where, text, dialect)


# -- every post of every example ------------------------------------------------------------

def _case(example, template):
    marks = []
    if (example, template) in RULESET_TEMPLATE_FAILS:
        marks.append(pytest.mark.xfail(strict=True, reason=f"ruleset template, fixed by the {example} engineer"))
    return pytest.param(example, template, id=f"{example}-{template}", marks=marks)


@pytest.mark.parametrize("example, template", [_case(e, t) for e in EXAMPLES for t in TEMPLATES])
def test_every_post_of_every_example_has_the_right_structure(example, template):
    problems, seen = [], 0
    for where, fmt, dialect, text in posts(example, template):
        seen += 1
        problems += check(where, fmt, dialect, text)
    assert seen, f"no {template} post in the {example} example"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:25])


# -- the core's own parts: footers, receipts, reminders, on a toy campaign -----------------------

TOY = """
    ruleset: toy
    title: Trial
    secret: s3cret
    lang: {lang}
    format: {fmt}
    dialect: {dialect}
    deadline: {{first: 2026-12-06 20:00, every: 7 days}}
    nmr: {{flag_after: 1}}
    players:
      lucy: Lucy
      bob: {{character: Bob}}
"""


def toy(root, lang="en", fmt="bbcode", dialect="phpbb"):
    """A toy campaign after one turn (Lucy moved, Bob sent nothing), turn 2's orders
    in: Lucy's valid, Bob's refused."""
    from tests.helpers import pbp, write

    write(root, "campaign.yaml", TOY.format(lang=lang, fmt=fmt, dialect=dialect))
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    write(root, "turns/001/orders/lucy.yaml", "player: lucy\nturn: 1\nactions:\n  - advance: 2\n"
                                              "roleplay: |\n  Lucy runs.\n  - not a list\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    write(root, "turns/002/orders/lucy.yaml", "player: lucy\nturn: 2\nactions:\n  - advance: 1\n  - flip\n"
                                              "roleplay: Lucy [4, 2] flips.\n")
    write(root, "turns/002/orders/bob.yaml", "player: bob\nturn: 2\nactions:\n  - advance: -2\n")
    return root


class FootersOnly:
    """Empty post templates ahead of the real ones: what render_post gives is the core's footers alone."""

    def __init__(self, tmp_path):
        self.folder = tmp_path / "empty"
        self.folder.mkdir(exist_ok=True)
        for name in ("public", "private", "gm", "setup_public", "setup_private", "setup_gm"):
            (self.folder / f"{name}.j2").write_text("", encoding="utf-8")

    def renderer(self, campaign):
        paths = [self.folder] + template_paths(campaign.ruleset.id, campaign.lang, campaign.root,
                                               campaign.ruleset.folder())
        return Renderer(paths, campaign.format, campaign.dialect, campaign.lang)


def core_outputs(root, tmp_path) -> dict[str, str]:
    """Every text the common templates write for this campaign: the footers of turn 1's
    posts, a receipt for each player, the reminder, the status and an order form."""
    from tests.helpers import pbp

    campaign = open_campaign(root)
    rend = FootersOnly(tmp_path).renderer(campaign)
    stored = turn_record.stored_events(campaign, 1)
    stored.append(ev.private("lucy", "actions_ignored", player="lucy", reason="toy.no_backwards"))
    out = {}
    for name, audience in (("public", ev.PUBLIC), ("gm", ev.GM), ("private", ev.Players("lucy"))):
        out[f"footer {name}"] = turn_posts.render_post(campaign, 1, stored, audience, rend).lstrip("\n")
    out["seal public"] = out["footer public"][len(unsealed(out["footer public"])):]
    out["footer public"] = unsealed(out["footer public"])
    for handle in ("lucy", "bob"):
        out[f"receipt {handle}"] = pbp("receipt", "--player", handle, cwd=root).output
    out["remind"] = pbp("remind", cwd=root).output
    out["status"] = pbp("status", cwd=root).output
    out["orders"] = pbp("orders", "--player", "bob", cwd=root).output
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fmt, dialect", FORMATS, ids=[f"{f}-{d}" for f, d in FORMATS])
def test_the_cores_own_parts_have_the_right_structure(tmp_path, lang, fmt, dialect):
    root = toy(tmp_path / "toy", lang, fmt, dialect or "phpbb")
    outputs = core_outputs(root, tmp_path)
    # each footer says what it is for
    assert ("Où en sont les personnages" if lang == "fr" else "Where the characters stand") in outputs["footer public"]
    assert ("Suivi des ordres" if lang == "fr" else "Orders follow-up") in outputs["footer gm"]
    problems = []
    for name, text in outputs.items():
        if name not in ("status", "orders"):  # those two are for the MJ's terminal
            problems += check(f"{lang} {fmt}/{dialect} {name}", fmt, dialect, text)
    assert not problems, "\n".join(problems)


def test_the_public_footer_exact_text(tmp_path):
    root = toy(tmp_path / "toy", "fr", "markdown")
    footer = core_outputs(root, tmp_path)["footer public"]
    assert footer == ("**Où en sont les personnages**\n\n- Lucy\u00a0: en jeu\n- Bob\u00a0: en jeu\n\n"
                      "**Ordres du tour 2**\u00a0: à envoyer avant le dimanche 13 décembre 2026 à 20 h 00.\n")
    root = toy(tmp_path / "en", "en", "bbcode")
    footer = core_outputs(root, tmp_path)["footer public"]
    assert footer == ("[b]Where the characters stand[/b]\n[list]\n[*]Lucy: still playing\n[*]Bob: still playing\n"
                      "[/list]\n\n"
                      "[b]Orders for turn 2[/b]: to send before Sunday 13 December 2026 at 20:00.\n")


def test_standing_says_each_characters_status_in_the_rulesets_words(tmp_path, monkeypatch):
    """A ruleset's `standing` gives each character's status, in its own words or the core's."""
    from pbp.base import i18n
    from tests.toy import Toy

    i18n.register({"standing_escaped": {"fr": "a trouvé la sortie", "en": "found the way out"}}, "toy")
    monkeypatch.setattr(Toy, "standing", lambda self, state, scenario: [
        {"name": "Lucy", "handle": "lucy", "status": "standing_escaped"},
        {"name": "Bob", "handle": "bob", "status": "standing_dead"},
        {"name": "Zoé", "handle": "zoe", "status": "standing_dead"},
        {"name": "Max", "handle": "max", "status": "standing_playing", "params": {"unused": 1}}])
    root = toy(tmp_path / "toy", "fr", "bbcode")
    events = turn_record.stored_events(open_campaign(root), 1)
    standing = [e for e in events if e.kind == "standing"]
    assert [e.audience for e in standing] == [ev.PUBLIC]
    assert standing[0].data["players"] == [
        {"name": "Lucy", "handle": "lucy", "status": "toy.standing_escaped"},
        {"name": "Bob", "handle": "bob", "status": "standing_dead"},
        {"name": "Zoé", "handle": "zoe", "status": "standing_dead"},
        {"name": "Max", "handle": "max", "status": "standing_playing", "params": {"unused": 1}}]
    public = (root / "turns/001/public.bbcode").read_text(encoding="utf-8")
    assert unsealed(public).endswith(
        "[b]Où en sont les personnages[/b]\n[list]\n[*]Lucy\u00a0: a trouvé la sortie\n"
        "[*]Bob\u00a0: hors jeu (décès)\n[*]Zoé\u00a0: hors jeu (décès)\n[*]Max\u00a0: en jeu\n[/list]\n\n"
        "[b]Ordres du tour 2[/b]\u00a0: à envoyer avant le dimanche 13 décembre 2026 à 20 h 00.\n")


def test_the_default_standing_and_none_once_the_game_is_over():
    from pbp.model.ruleset import Scenario
    from tests.toy import Toy

    rs = Toy()
    scenario = Scenario({}, {}, {"lucy": {"character": "Lucy"}, "bob": {"character": "Bob"}})
    state = {"players": {"lucy": {"room": 5, "coins": 0}, "bob": {"room": 1, "coins": 0}}}
    assert rs.standing(state, scenario) == [{"name": "Lucy", "handle": "lucy", "status": "standing_out"},
                                            {"name": "Bob", "handle": "bob", "status": "standing_playing"}]
    state["players"]["bob"]["room"] = 5
    assert rs.standing(state, scenario) == []


# -- an English campaign is English ----------------------------------------------------------------

#: French words the common templates would show if a French text leaked into an English campaign
FRENCH_WORDS = {
    "de", "du", "des", "le", "la", "les", "et", "ou", "à", "au", "aux", "un", "une", "pour", "avant", "après",
    "sans", "vous", "votre", "vos", "tour", "tours", "ordres", "ordre", "joueur", "joueurs", "personnage",
    "personnages", "pseudo", "reçus", "attendus", "manqués", "limite", "rappel", "accusé", "réception", "jeu",
    "hors", "décès", "évasions", "envoyer", "ignorées", "ignoré", "relancer", "inactif", "suivi", "rapport",
    "mj", "rien", "aucune", "aucun", "merci", "tous", "attente", "cité", "jouées", "valides", "arrivés",
    "possibles", "ligne", "lignes", "commentaires", "facultatif", "indenté", "anglais", "attention", "sont",
    "où", "état", "partie", "terminée", "corrigez", "renvoyez", "fichier", "sinon", "défaut", "vierge",
}


#: French ids that are English words too
ENGLISH_TOO = {"action", "but", "combat", "force", "instinct", "mental", "sort"}


def french_ids() -> set[str]:
    """The French ids of every ruleset's actions, argument fields and values (those an
    English id or alias does not spell the same, and that are no English word)."""
    from pbp.model import ruleset as rulesets

    found = set()
    for rid in rulesets.ids():
        rules = rulesets.load_class(rid).default_data()
        specs = list((rules.get("arg_types") or {}).values())
        for action, spec in (rules.get("actions") or {}).items():
            spec = spec or {}
            if spec.get("en") and spec["en"] != action:
                found.add(action)
            specs.append(spec.get("arg"))
        while specs:
            spec = specs.pop()
            if not isinstance(spec, dict):
                continue
            aliases = spec.get("aliases") or {}
            found |= {str(v) for v in spec.get("values") or [] if str(v) not in aliases and
                      any(a != v for a, target in aliases.items() if target == v)}
            for name, field in (spec.get("fields") or {}).items():
                if isinstance(field, dict) and field.get("en") and field["en"] != name:
                    found.add(name)
                specs.append(field)
            specs.append(spec.get("of"))
    return found - ENGLISH_TOO


def test_french_ids_are_found():
    # the check below must be able to fail: the French ids it looks for are there
    assert {"avancer", "pile_ou_face", "fouille", "nord", "ouest"} <= french_ids()


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_an_english_campaigns_common_outputs_hold_no_french_word(tmp_path, fmt):
    root = toy(tmp_path / "toy", "en", fmt)
    outputs = core_outputs(root, tmp_path)
    # the order form: its head and its comments, the actions aside (each line gives the French id too)
    assert "#   - advance: number    (French id: avancer)" in outputs["orders"].splitlines()
    outputs["orders"] = "\n".join(line for line in outputs["orders"].splitlines() if not line.startswith("#   - "))
    vocabulary = FRENCH_WORDS | french_ids()
    for name, text in outputs.items():
        words = set(re.findall(r"[\w']+", text.lower())) | set(re.findall(r"[^\W\d_]+", text.lower()))
        assert not words & vocabulary, (name, sorted(words & vocabulary), text)
        # English punctuation: no space before a colon, no « »
        assert "\u00a0:" not in text and " :" not in text and "«" not in text, (name, text)
    # and the French campaign says it in French, with its spacing
    french = core_outputs(toy(tmp_path / "fr", "fr", fmt), tmp_path)
    for name, text in french.items():
        assert set(re.findall(r"[^\W\d_]+", text.lower())) & FRENCH_WORDS, (name, text)
    assert "\u00a0:" in french["footer public"] and "\u00a0:" in french["receipt lucy"]


# -- the Markdown pass, exact texts --------------------------------------------------------------

@pytest.mark.parametrize("source, expected", [
    # two lines of text: a hard break keeps them two lines
    ("**Lucy** : fouille.\n**Bob** : repos.", "**Lucy** : fouille.  \n**Bob** : repos."),
    # a list right under a line of text, and a line right under a list: blank lines around it
    ("Vous voyez :\n- une porte\n- un rideau\nInventaire : rien.",
     "Vous voyez :\n\n- une porte\n- un rideau\n\nInventaire : rien."),
    # two lists one blank line apart: the second takes the other bullet, the third the first again
    ("- a\n- b\n\n- c\n  - c1\n\n- d", "- a\n- b\n\n* c\n  - c1\n\n- d"),
    ("1. un\n\n1. deux", "1. un\n\n1) deux"),
    # a quote ends before the text under it; its lines are kept lines
    ("> **Lucy** :\n>\n> un\n> deux\nAprès.", "> **Lucy** :\n>\n> un  \n> deux\n\nAprès."),
    # a table is kept apart from the text around it
    ("Avant\n| a | b |\n|---|---|\n| 1 | 2 |\nAprès", "Avant\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAprès"),
    # a setext heading the MJ wrote stays one; a rule pbp writes is never read as one
    ("Titre\n-----\ntexte\n***", "Titre\n-----\n\ntexte\n\n***"),
    # code, fenced or indented, is left as it is
    ("```\nun\ndeux\n```\nfin", "```\nun\ndeux\n```\n\nfin"),
    ("Le terrain\n\n    01\n    a.\n\nfin", "Le terrain\n\n    01\n    a.\n\nfin"),
    # a heading needs no blank line; a line already broken is left alone
    ("## Tour 1\nTexte  \nsuite\\\nfin", "## Tour 1\nTexte  \nsuite\\\nfin"),
])
def test_markdown_blocks(source, expected):
    from pbp.render.markdown_blocks import markdown_blocks

    assert markdown_blocks(source) == expected
    assert markdown_blocks(expected) == expected  # once is enough: the pass changes nothing more


def test_a_name_with_line_breaks_stays_on_its_list_item(tmp_path):
    """A character name is the MJ's text but a player's choice: its line breaks must
    not leave the `[*]` line (some parsers end an item at a line break), even inside
    the `[b]` the template wraps it in."""
    from tests.helpers import pbp, write

    root = tmp_path / "chasse"
    assert pbp("init", root, "--ruleset", "manhunt", "--example", "--no-git").exit_code == 0
    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    write(root, "campaign.yaml", config.replace("johannes: Johannes", 'johannes: "# Jo\\n- item\\n> q | t |"'))
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    post = (root / "turns/004/public.bbcode").read_text(encoding="utf-8")
    assert "[*][b]# Jo - item > q | t |[/b] : se cacher." in post.split("\n"), post
    assert not check_bbcode("manhunt public", post, "phpbb")
