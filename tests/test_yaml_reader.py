"""pbp's own YAML reader (pbp/base/yamlread.py, under pbp.base.yamlio) against PyYAML's
`yaml.safe_load`: for every document the reader accepts, it returns what the
safe loader returns, value for value and type for type (True is not 1, 1 is not
1.0, a date is not a string). The documents are order-file-like, written by
hand the way players and MJs write them: block and flow collections, plain
scalars YAML 1.1 resolves (yes/no, octal, sexagesimal, dates, .inf, ~...),
quoted ones with escapes, literal and folded blocks, comments. Where the safe
loader fails on a scalar the reader reads as text on purpose, that is said
(`lenient`) and nothing else."""

from __future__ import annotations

import datetime
import math
from pathlib import Path

import yaml
from hypothesis import given, settings, strategies as st

from pbp.base import yamlio
from pbp.base.errors import PbpError

#: plain scalars a player might write, and those YAML 1.1 resolves to something else than text
PLAIN = ["1", "-3", "+7", "0", "007", "08", "0o17", "0x1F", "0b101", "1_000", "1:20", "190:20:30", "-1:30",
         "1.5", "-.5", "1e3", "1.0e+3", "6.8523015e+5", "685_230.15", "190:20:30.15", ".inf", "-.Inf", ".NaN",
         "true", "False", "TRUE", "yes", "No", "on", "OFF", "y", "n", "null", "~", "Null", "NULL",
         "2026-12-06", "2026-12-06 20:00:00", "2026-12-06T20:00:00Z", "2001-12-14t21:59:43.10-05:00",
         "2026-1-6", "nord", "deplacement_normal", "Lucy avance", "é à ç", "Grimnir le Traqueur", "<<", "=",
         "12345678901234567", "1234567890123456789012", "0.", "1__0", "x: y", "a #b", "-", "?", "@x", "%x",
         "`x", "!x", "&a x", "*a", "|", ">", "a,b", "[a", "{a", "'q", "\"q", "0:", "3d6+2", "1d20"]
KEYS = ["player", "turn", "actions", "roleplay", "joueur", "tour", "arme", "chasseur", "2", "true", "null",
        "~", "1.5", "x y", "é", "<<", "?", "-x"]
WORDS = st.text(alphabet="abcdeéà XYZ019:#-'\"\\,.[]{}&*!|>%@`?\t", min_size=0, max_size=12)


def double_quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return f'"{escaped}"'


def single_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@st.composite
def scalar(draw) -> str:
    kind = draw(st.sampled_from(["plain", "plain", "plain", "word", "double", "single", "escape"]))
    if kind == "plain":
        return draw(st.sampled_from(PLAIN))
    if kind == "word":
        return draw(WORDS)
    if kind == "escape":
        return '"' + draw(st.sampled_from(["\\x41", "\\u00e9", "\\n", "\\e", "\\N", "\\_", "\\L", "\\/", "a\\\n b"])) + '"'
    text = draw(st.one_of(st.sampled_from(PLAIN), WORDS))
    return double_quoted(text) if kind == "double" else single_quoted(text)


@st.composite
def flow(draw, depth=0) -> str:
    if depth > 1 or draw(st.booleans()):
        items = draw(st.lists(scalar(), max_size=3))
        return "[" + ", ".join(items) + "]"
    pairs = draw(st.lists(st.tuples(st.sampled_from(KEYS), st.one_of(scalar(), flow(depth + 1))), max_size=3))
    return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"


@st.composite
def block_text(draw) -> str:
    header = draw(st.sampled_from(["|", ">", "|-", ">-", "|+", ">+", "|2"]))
    lines = draw(st.lists(st.text(alphabet="abc é#:-'\"[]", max_size=10), min_size=1, max_size=4))
    gap = draw(st.sampled_from(["", "\n"]))
    return header + "\n" + "".join(f"  {line}\n" for line in lines) + gap


@st.composite
def action(draw) -> str:
    name = draw(st.sampled_from(["deplacement_normal", "fouille", "combat", "jeter", "interroger", "1", "yes"]))
    form = draw(st.sampled_from(["bare", "scalar", "flow", "block"]))
    if form == "bare":
        return f"  - {name}\n"
    if form == "scalar":
        return f"  - {name}: {draw(scalar())}\n"
    if form == "flow":
        return f"  - {name}: {draw(flow())}\n"
    items = draw(st.lists(scalar(), min_size=1, max_size=3))
    return f"  - {name}:\n" + "".join(f"      - {item}\n" for item in items)


@st.composite
def order_file(draw) -> str:
    """An order file, or something a player could have typed instead."""
    parts = [f"player: {draw(scalar())}\n", f"turn: {draw(scalar())}\n"]
    if draw(st.booleans()):
        parts.append("actions:\n" + "".join(draw(st.lists(action(), max_size=4))))
    else:
        parts.append(f"actions: {draw(flow())}\n")
    if draw(st.booleans()):
        parts.append("roleplay: " + draw(st.one_of(block_text(), scalar().map(lambda s: s + "\n"))))
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=2)):
        parts.append(f"{key}: {draw(st.one_of(scalar(), flow()))}\n")
    parts = draw(st.permutations(parts))
    comment = draw(st.sampled_from(["", "# ordres\n", "---\n", "%YAML 1.1\n---\n"]))
    return comment + "".join(parts) + draw(st.sampled_from(["", "\n", "...\n", "# fin"]))


def typed(value):
    """A value with the type of every part made explicit (True == 1 == 1.0 in Python)."""
    if isinstance(value, dict):
        return ("map", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [typed(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    if isinstance(value, datetime.datetime):
        return ("datetime", value.isoformat())
    return (type(value).__name__, value)


def safe_load(text: str):
    """PyYAML's safe_load; where its pure-Python scanner refuses what libyaml's
    accepts (a trailing tab after `key:`), the same safe loader over libyaml's
    scanner, which pbp's reader reads the events of."""
    try:
        return yaml.safe_load(text)
    except (yaml.scanner.ScannerError, yaml.parser.ParserError) as exc:
        try:
            return yaml.load(text, Loader=yaml.CSafeLoader)
        except (yaml.scanner.ScannerError, yaml.parser.ParserError):
            return exc
        except (yaml.YAMLError, ValueError) as constructing:  # libyaml parsed it: what building it says
            return constructing
    except (yaml.YAMLError, ValueError) as exc:
        return exc


def lenient(error: Exception) -> bool:
    """Where the safe loader fails on a well-formed document and pbp's reader reads
    text instead, on purpose (pbp/base/yamlread.py `_scalar`): a plain `<<` or `=` as a
    value (the merge and value tags it cannot build), an integer or a date no
    calendar has (`0x_`, `2026-13-01`: a ValueError out of the constructor)."""
    if isinstance(error, ValueError):
        return True
    return isinstance(error, yaml.constructor.ConstructorError) and any(
        f"tag:yaml.org,2002:{tag}" in str(error) for tag in ("merge", "value"))


def check_same_as_safe_load(text: str, read, expect=None) -> bool:
    """Whether `read` accepted the text; if it did, it read what safe_load (or
    `expect`) reads (or the safe loader failed where the reader is lenient on purpose)."""
    try:
        got = read(text)
    except PbpError:
        return False
    expected = (expect or safe_load)(text)
    if isinstance(expected, Exception):
        assert lenient(expected), (text, expected, got)
        return True
    assert typed(got) == typed(expected), text
    return True


@settings(max_examples=300, deadline=None)
@given(order_file())
def test_the_mj_reader_reads_what_safe_load_reads(text):
    check_same_as_safe_load(text, yamlio.loads)


@settings(max_examples=300, deadline=None)
@given(order_file())
def test_the_untrusted_reader_reads_what_safe_load_reads(text):
    check_same_as_safe_load(text, lambda t: yamlio.load_untrusted(t.encode(), "lucy.yaml")[0])


def test_every_yaml_file_pbp_ships_reads_as_safe_load_reads_it():
    """The property on real files: the examples' order files, gm.yaml, state and
    campaign files, the rulesets' data and messages (each one read, none refused)."""
    root = Path(__file__).resolve().parent.parent
    paths = sorted(p for folder in ("campaigns", "pbp") for p in (root / folder).rglob("*.yaml"))
    assert len(paths) > 100
    for path in paths:
        assert check_same_as_safe_load(path.read_text(encoding="utf-8"), yamlio.loads, libyaml_safe_load), path


def libyaml_safe_load(text: str):
    """The safe loader over libyaml's parser: the events pbp's reader turns into values
    (pbp/base/yamlread.py), built by PyYAML's own composer, constructor and resolver.
    For the shipped files, which both parsers read alike, what is compared is the
    reader's building of values, at a tenth of the pure-Python scanner's CPU time (the
    generated documents above, where the two parsers may differ, keep that scanner)."""
    return yaml.load(text, Loader=yaml.CSafeLoader)


def test_yaml_11_scalars_resolve_as_safe_load_resolves_them():
    for token in PLAIN:
        text = f"player: lucy\nturn: {token}\n"
        check_same_as_safe_load(text, yamlio.loads)
