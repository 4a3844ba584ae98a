#!/usr/bin/env python3
"""Fuzz pbp's boundary: many hostile inputs on the example campaigns.

    python scripts/fuzz.py [--cases 10000] [--seed 0] [--jobs 2] [--timeout 10]
                           [--only player|mj|rules] [--examples manhunt,energy-duel,...] [--show 3]
                           [--log cases.jsonl] [--again cases.jsonl]

The examples: the four built-in rulesets (manhunt, murder, skirmish, d100) and
the six campaigns whose rules are data (manhunt-data, d100-data, energy-duel,
wizard-duels, investigation-event, village-vote). Each case puts an example
campaign back as it was (only what the last case changed is copied again),
damages one input, and runs `pbp check` then `pbp run --no-commit` in-process.
Three families of cases:

- player files: the next turn's turns/NNN/orders/<handle>.yaml, generated from
  the ruleset's own vocabulary and then damaged (aliases, tags, depth, huge
  values, control characters, CR, URLs, HTML, binary, invalid UTF-8, BOM,
  empty, wrong types, other handles), or replaced by a FIFO, a folder, a
  socket, a link outside, a link loop, a broken link, oddly named files;
- MJ files: campaign.yaml, world.yaml, characters.yaml, the next turn's gm.yaml
  and the last resolved state.yaml, with a key deleted, a type swapped, a
  wrong reference, a string or list for a mapping, or replaced by a FIFO or a
  link loop;
- rules files (the data campaigns only): rules.yaml, a stranger's, with a key
  deleted, a type swapped, a formula, dice or message replaced by a hostile one
  (a power tower, a billion dice, Python, format fields, 200,000 characters),
  damaged bytes, or replaced by a FIFO, a link loop, a folder, /dev/zero.

A hang is a command past `--timeout` seconds of its own CPU time (the machine
may be shared: wall time would count other work), or past ten times that in
wall time (a command blocked without using CPU, as on a FIFO). The cases run in
a forked child of a worker that has imported pbp and compiled every example's
templates once, one child for a batch of cases: a crash (a signal) or a hang
the timers cannot interrupt ends the child and counts against its case, and a
new child goes on with the next.

A case is counted by the worst outcome of its commands: crash (the process
killed by a signal, e.g. a segmentation fault), hang, traceback,
internal error, state changed after a refusal, refusal naming no file, refusal
naming another file than the damaged one (a rules case may name the orders
its rules no longer allow), clean refusal (exit 1 naming a file), valid (exit
0). Cases are numbered and each draws from its own seed, so a run is the same
whatever `--jobs`; a failure's case number replays it alone with `--first N
--cases 1` (with the same `--examples` and `--only`).

Figures (3 December 2026, seed 0, 2 jobs at `nice -n 10`, --timeout 5 s of
CPU, on a 2-core machine shared with seven others' full test runs, load 12 to
20): cases 0 to 7,699 of the 10,000 in 100 minutes before the time ran out
(`--log` kept them): 3,099 player files, 3,045 MJ files, 1,556 rules files,
about 770 per example; 6,394 clean refusals naming the damaged file, 1,287
valid, 0 crashes, 0 hangs, 0 tracebacks, 0 state changed; 19 counted as
failures. 9 were pbp's, all on data campaigns, each fixed with a test: 3
internal errors (state.yaml's `doors: null`, `items: -7`, `states:` a text),
6 refusals naming rules.yaml for a bad value of state.yaml (a stat or an MJ
input of another kind). 10 were the fuzzer's: 4 refusals naming secret.yaml (right: the secret taken out of campaign.yaml is looked
for there; the fuzzer now knows), 6 rules cases naming the orders the
changed rules refuse (right; the fuzzer now knows). `--again` on that log
with the fixes: 19 clean refusals out of 19. A case costs about 0.07 s of
CPU (100 cases: 10.4 s with the start, 16.5 s before one child served a
batch of cases and snapshots used scandir). The rest, cases 7,700 to 9,999
(`--first 7700 --cases 2300 --jobs 1`, with those fixes, load 2 to 6, 9
minutes): 890 player files, 967 MJ files, 443 rules files; 1,908 clean
refusals naming the damaged file, 392 valid, and 0 of every failure class.
So the 10,000 cases: 0 crashes, hangs, tracebacks or changed states; the 9
pbp failures of the first 7,700 fixed. Earlier: 975 cases (wall-time
timeout: 10 false hangs on skirmish under load, valid replayed alone).
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import random
import re
import select
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: the four built-in rulesets, then the campaigns whose rules are data (rules.yaml)
EXAMPLES = ("manhunt", "murder", "skirmish", "d100", "manhunt-data", "d100-data", "energy-duel", "wizard-duels",
            "investigation-event", "village-vote", "arene-sombreval")
FAMILIES = ("player", "mj", "rules")
TITLES = {"player": "player files", "mj": "MJ files", "rules": "rules files"}
MJ_FILES = ("campaign.yaml", "world.yaml", "characters.yaml", "gm.yaml", "state.yaml")
MJ_TARGETS: tuple[str, ...] = ()  # --mj-files
#: outcome classes, worst first
CLASSES = ("crash", "hang", "traceback", "internal_error", "state_changed", "refusal_without_file", "other_exit",
           "wrong_file", "clean_refusal", "valid")
FAILURES = CLASSES[:8]
#: a command that has not ended after this many times its CPU timeout, in wall time, is blocked (on a FIFO...)
BACKSTOP = 10
LABELS = {"tried": "tried", "clean_refusal": "clean refusals (exit 1 naming a file)", "valid": "valid (exit 0)",
          "crash": "crashes (killed by a signal)", "traceback": "tracebacks", "internal_error": "internal errors", "hang": "hangs",
          "state_changed": "state changed after a refusal", "refusal_without_file": "refusals naming no file",
          "wrong_file": "refusals naming another file than the damaged one",
          "other_exit": "other exit codes"}
NAMES_A_FILE = re.compile(r"(campaign\.yaml|secret\.yaml|world\.yaml|characters\.yaml|rules\.yaml|turns/\d+/\S*)")

HOSTILE_TEXTS = ["[url=javascript:alert(1)]clic[/url]", "<script>alert(1)</script>", "https://evil.example/x",
                 "www.evil.example", "**gras** ~~barré~~ ```code```", "[/quote][b]", "&amp; &lt;",
                 "\x1b[2J\x1b]0;titre\x07", "\u202eesrever\u2066", "a\rb\r\nc", "x" * 300, "é" * 25_000,
                 "*soupir*", "&ancre", "!tag", "%YAML 1.1", "@todo", "`cmd`", "---", "...", "? clé", "- liste",
                 "\x00nul", "\ufeffbom", "\udcff" * 0 + "zéro\u200bespace", "🎲" * 50, "'", '"', "#", ":", ""]


#: what a stranger's rules file may hold where a formula, a dice expression or a message is expected
HOSTILE_RULES_TEXTS = ["9**9**9**9", "10^10^10", "(" * 3000 + "1" + ")" * 3000, "1d1000000000", "1000000d6",
                       "99999999999999999999d99999999999999999999", "1d0", "0d6", "1d-6", "d", "2d6+" * 2000 + "1",
                       "__import__('os').system('true')", "().__class__.__mro__", "lambda: 1", "open('/etc/passwd')",
                       "{name.__class__.__mro__}", "{0}", "{}", "{name!r:>99999999}", "{name:99999999}",
                       "{{name}}", "%s%s%s%n", "{name} " * 5000, "a." * 5000 + "b", "coup.perte / 0", "1 / 0",
                       "-" * 10000 + "1", "not " * 5000 + "1", "si(" * 3000, "x" * 200_000, "\x00", "\u202e",
                       "max()", "min(1)", "energie", "mj.combat", "tour % 0", "2 ** 4000", "1e308 * 10"]


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so pbp's own `except Exception`
    (which turns a bug into an internal-error message) does not swallow it."""


def _on_alarm(signum, frame):
    raise Hang("wall" if signum == signal.SIGALRM else "cpu")


# -- generating values ------------------------------------------------------------------

def scalar(rng: random.Random, words: list[str]):
    roll = rng.random()
    if roll < 0.35 and words:
        return rng.choice(words)
    if roll < 0.5:
        return rng.choice(HOSTILE_TEXTS)
    if roll < 0.6:
        return rng.choice([None, True, False, 0, -1, 1, 3, 99, 10 ** 19, -10 ** 30, 1.5, float("inf")])
    if roll < 0.8:
        return rng.randint(-5, 25)
    return "".join(chr(rng.choice([rng.randint(32, 126), rng.randint(0, 0x2FFF)])) for _ in range(rng.randint(0, 12)))


def value(rng: random.Random, words: list[str], depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.6:
        return scalar(rng, words)
    if roll < 0.8:
        return [value(rng, words, depth + 1) for _ in range(rng.randint(0, 3))]
    out = {}
    for _ in range(rng.randint(0, 3)):
        key = scalar(rng, words)
        if isinstance(key, float) and key != key:
            continue
        out[key] = value(rng, words, depth + 1)
    return out


def paths_of(data) -> list[tuple]:
    """Every path of a plain YAML value (no recursion)."""
    out, todo = [], [((), data)]
    while todo:
        at, node = todo.pop()
        out.append(at)
        if isinstance(node, dict):
            todo.extend((at + (k,), v) for k, v in node.items())
        elif isinstance(node, list):
            todo.extend((at + (i,), v) for i, v in enumerate(node))
    return out


def get(data, at):
    for step in at:
        data = data[step]
    return data


def damage_tree(rng: random.Random, data, words: list[str]) -> tuple[object, str]:
    """One structural change somewhere in a plain value: a key deleted, a type
    swapped, a wrong reference, a string or list where a mapping was..."""
    paths = paths_of(data)
    at = rng.choice(paths)
    old = get(data, at) if at else data
    op = rng.choice(["delete", "swap", "reference", "string_for_mapping", "list_for_mapping", "none", "huge_int",
                     "negative", "deep", "hostile_text", "empty_mapping", "duplicate_item"])
    if op == "delete" and at:
        parent = get(data, at[:-1])
        del parent[at[-1]]
        return data, f"delete {at!r}"
    if op == "swap":
        new = {dict: lambda v: list(v.items())[:1], list: lambda v: {"x": v}, str: lambda v: [v],
               int: lambda v: str(v), bool: lambda v: "oui", type(None): lambda v: {}}.get(type(old), lambda v: None)(old)
    elif op == "reference":
        new = rng.choice(words + ["inconnu", "zzz", "Hall", "h99", "lucy"]) if words else "inconnu"
    elif op == "string_for_mapping":
        new = "texte à la place"
    elif op == "list_for_mapping":
        new = [old] if not isinstance(old, list) else old * 2
    elif op == "none":
        new = None
    elif op == "huge_int":
        new = 10 ** 40
    elif op == "negative":
        new = -abs(old) - 1 if isinstance(old, int) and not isinstance(old, bool) else -7
    elif op == "deep":
        new = []
        cursor = new
        for _ in range(rng.randint(15, 60)):
            cursor.append([])
            cursor = cursor[0]
    elif op == "hostile_text":
        new = rng.choice(HOSTILE_TEXTS)
    elif op == "empty_mapping":
        new = {}
    else:  # duplicate_item
        new = [old, old] if not isinstance(old, list) else old + old[:1]
    if not at:
        return new, f"{op} at the root"
    get(data, at[:-1])[at[-1]] = new
    return data, f"{op} {at!r}"


def damage_bytes(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    op = rng.choice(["bom", "crlf", "cr", "alias", "billion_laughs", "tag", "deep", "truncate", "invalid_utf8",
                     "nul", "empty", "huge", "binary", "control", "documents", "tab_indent", "long_line"])
    if op == "bom":
        return b"\xef\xbb\xbf" + data, op
    if op == "crlf":
        return data.replace(b"\n", b"\r\n"), op
    if op == "cr":
        return data.replace(b"\n", b"\r"), op
    if op == "alias":
        return data.replace(b":", b": &a", 1) + b"\nalias_here: *a\n", op
    if op == "billion_laughs":
        lines = [b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        for i in range(1, 9):
            lines.append(b"%c: &%c [" % (97 + i, 97 + i) + b",".join([b"*%c" % (96 + i)] * 9) + b"]")
        return b"\n".join(lines) + b"\n" + data.replace(b"turn:", b"turn: *i\nx:", 1), op
    if op == "tag":
        return data.replace(b": ", b": !!python/object/apply:os.system ", 1), op
    if op == "deep":
        depth = rng.choice([25, 1000, 30_000])
        return data + b"\nprofond: " + b"[" * depth + b"]" * depth + b"\n", op
    if op == "truncate":
        return data[: rng.randint(0, len(data))], op
    if op == "invalid_utf8":
        cut = rng.randint(0, len(data))
        return data[:cut] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe9"]) + data[cut:], op
    if op == "nul":
        cut = rng.randint(0, len(data))
        return data[:cut] + b"\x00" + data[cut:], op
    if op == "empty":
        return rng.choice([b"", b"\n", b"# rien\n", b"---\n", b"~\n", b"[]\n", b"{}\n", b"''\n"]), op
    if op == "huge":
        return data + b"\nroleplay: " + b"x" * rng.choice([25_000, 70_000, 2_000_000]) + b"\n", op
    if op == "binary":
        return bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 300))), op
    if op == "control":
        cut = rng.randint(0, len(data))
        return data[:cut] + bytes([rng.choice([1, 7, 8, 11, 12, 27, 127])]) + data[cut:], op
    if op == "documents":
        return data + b"\n---\n" + data, op
    if op == "tab_indent":
        return data.replace(b"  ", b"\t"), op
    return data + b"\nlong: " + b"9" * rng.choice([19, 5000, 60_000]) + b"\n", op


# -- one example campaign, ready to damage --------------------------------------------------

class Example:
    def __init__(self, name: str, pristine: Path, work: Path):
        from pbp.base import yamlio
        from pbp.engine.campaign import open_campaign

        self.name, self.pristine, self.work = name, pristine, work
        campaign = open_campaign(pristine)
        self.turn = campaign.last_turn() + 1
        state = campaign.state(self.turn - 1)
        self.roster = list(campaign.roster)
        self.playing = campaign.ruleset.players_to_play(state, campaign.scenario)
        rs = campaign.ruleset
        words = []
        for action_id, spec in rs.actions.items():
            spec = spec or {}
            words += [action_id, spec.get("en"), *(spec.get("aliases") or [])]
        for spec in (rs.rules.get("arg_types") or {}).values():
            if isinstance(spec, dict):
                words += [str(v) for v in spec.get("values") or []] + list(spec.get("fields") or {})
        self.actions = sorted({a for a in rs.actions})
        names = set(self.roster)
        for rel in ("world.yaml", "characters.yaml"):
            data = yamlio.load_file(pristine / rel) if (pristine / rel).exists() else None
            for at in paths_of(data)[:400]:
                if at and isinstance(at[-1], str):
                    names.add(at[-1])
        self.words = sorted({str(w) for w in words if w} | names)
        self.state_rel = f"turns/{self.turn - 1:03d}/state.yaml"
        self.gm_rel = f"turns/{self.turn:03d}/gm.yaml"
        self.orders_rel = f"turns/{self.turn:03d}/orders"
        shutil.copytree(self.pristine, self.work)
        self.clean = snapshot(self.work)

    def reset(self) -> None:
        """Back to the pristine copy, touching only what the last case changed
        (a full copy per case would cost more than pbp's own work)."""
        now = snapshot(self.work)
        for rel in sorted(now, key=lambda r: r.count("/"), reverse=True):  # children first
            if rel not in self.clean or now[rel][0] != self.clean[rel][0]:
                path = self.work / rel
                if now[rel][0] == stat.S_IFDIR:
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
        for rel in sorted(self.clean, key=lambda r: r.count("/")):  # parents first
            path = self.work / rel
            try:
                current = _signature(path)
            except FileNotFoundError:
                current = None
            if current == self.clean[rel]:
                continue
            if self.clean[rel][0] == stat.S_IFDIR:
                path.mkdir(exist_ok=True)
            else:
                shutil.copyfile(self.pristine / rel, path)
            self.clean[rel] = _signature(path)


def order_doc(rng: random.Random, ex: Example, handle: str) -> dict:
    """A plausible order file: this turn, this player, actions of the
    ruleset's vocabulary with arguments drawn from the campaign's words."""
    actions = []
    for _ in range(rng.randint(0, 4)):
        name = rng.choice(ex.actions if rng.random() < 0.8 else ex.words)
        roll = rng.random()
        if roll < 0.3:
            actions.append(name)
        elif roll < 0.6:
            actions.append({name: scalar(rng, ex.words)})
        elif roll < 0.9:
            actions.append({name: {rng.choice(ex.words): scalar(rng, ex.words) for _ in range(rng.randint(1, 3))}})
        else:
            actions.append(value(rng, ex.words))
    doc = {"player": handle, "turn": ex.turn, "actions": actions}
    if rng.random() < 0.7:
        doc["roleplay"] = rng.choice(HOSTILE_TEXTS) + " " + scalar(rng, ex.words).__str__()
    return doc


def player_case(rng: random.Random, ex: Example) -> str:
    from pbp.base import yamlio

    handle = rng.choice(ex.playing or ex.roster) if rng.random() < 0.9 else rng.choice(ex.roster + ["zoe"])
    folder = ex.work / ex.orders_rel
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{handle}.yaml"
    kind = rng.random()
    if kind < 0.08:  # the file itself is not a file
        path.unlink(missing_ok=True)
        what = rng.choice(["fifo", "directory", "socket", "link_outside", "link_loop", "link_broken", "link_dev",
                           "odd_names", "hidden", "link_inside"])
        if what == "fifo":
            os.mkfifo(path)
        elif what == "directory":
            (path / "sub").mkdir(parents=True)
        elif what == "socket":
            cwd = os.getcwd()
            os.chdir(folder)
            try:
                sock = socket.socket(socket.AF_UNIX)
                sock.bind(path.name)
                sock.close()  # the name stays, as a socket
            finally:
                os.chdir(cwd)
        elif what == "link_outside":
            path.symlink_to(ex.work.parent / "outside.yaml")
        elif what == "link_loop":
            path.symlink_to(path.name)
        elif what == "link_broken":
            path.symlink_to("absent.yaml")
        elif what == "link_dev":
            path.symlink_to("/dev/zero")
        elif what == "link_inside":
            (ex.work / "notes.yaml").write_bytes(yamlio.dumps(order_doc(rng, ex, handle)).encode())
            path.symlink_to("../../../notes.yaml")
        elif what == "odd_names":
            data = yamlio.dumps(order_doc(rng, ex, handle)).encode()
            for name in (f"{handle}.yaml~", f"{handle}.txt", "\x1b[2J.yaml", "zoé.yaml", "a" * 200 + ".yaml",
                         f"{handle}.yml"):
                (folder / name).write_bytes(data)
        elif what == "hidden":
            (folder / f".{handle}.yaml.swp").write_bytes(b"\x00\xff")
        return f"{handle}: {what}"
    doc = order_doc(rng, ex, handle)
    note = "generated"
    if kind < 0.45:
        doc, note = damage_tree(rng, doc, ex.words)
    data = yamlio.dumps(doc).encode("utf-8")
    if rng.random() < 0.45:
        data, how = damage_bytes(rng, data)
        note += f", then {how}"
    path.unlink(missing_ok=True)
    path.write_bytes(data)
    return f"{handle}: {note}"


def mj_case(rng: random.Random, ex: Example) -> str:
    from pbp.base import yamlio

    target = rng.choice(MJ_TARGETS or MJ_FILES)
    rel = {"gm.yaml": ex.gm_rel, "state.yaml": ex.state_rel}.get(target, target)
    path = ex.work / rel
    roll = rng.random()
    if roll < 0.05:
        path.unlink(missing_ok=True)
        what = rng.choice(["fifo", "link_loop", "directory", "missing"])
        if what == "fifo":
            os.mkfifo(path)
        elif what == "link_loop":
            path.symlink_to(path.name)
        elif what == "directory":
            path.mkdir()
        return f"{rel}: {what}"
    if path.exists():
        try:
            data = yamlio.load_file(path)
        except Exception:
            data = {}
    else:
        data = {"turn": ex.turn, "narration": "Un tour.", "orders": {}}
    if data is None:
        data = {}
    notes = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data, note = damage_tree(rng, data, ex.words)
        notes.append(note)
    raw = yamlio.dumps(data).encode("utf-8")
    if rng.random() < 0.15:
        raw, how = damage_bytes(rng, raw)
        notes.append(how)
    path.write_bytes(raw)
    return f"{rel}: " + ", ".join(notes)


def rules_case(rng: random.Random, ex: Example) -> str:
    """A stranger's rules file: rules.yaml damaged in its structure (a key
    deleted, a type swapped, a formula, dice or message replaced by a hostile
    one) or its bytes, or replaced by something that is not a file."""
    from pbp.base import yamlio

    rel = "rules.yaml"
    path = ex.work / rel
    roll = rng.random()
    if roll < 0.05:
        path.unlink(missing_ok=True)
        what = rng.choice(["fifo", "link_loop", "directory", "missing", "link_dev"])
        if what == "fifo":
            os.mkfifo(path)
        elif what == "link_loop":
            path.symlink_to(path.name)
        elif what == "directory":
            path.mkdir()
        elif what == "link_dev":
            path.symlink_to("/dev/zero")
        return f"{rel}: {what}"
    data = yamlio.load_file(ex.pristine / rel)
    notes = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        if rng.random() < 0.5:
            data, note = hostile_string(rng, data)
        else:
            data, note = damage_tree(rng, data, ex.words)
        notes.append(note)
    raw = yamlio.dumps(data).encode("utf-8")
    if rng.random() < 0.15:
        raw, how = damage_bytes(rng, raw)
        notes.append(how)
    path.write_bytes(raw)
    return f"{rel}: " + ", ".join(notes)


def hostile_string(rng: random.Random, data) -> tuple[object, str]:
    """One string of a rules file (a formula, dice, a message, a name)
    replaced by a hostile one."""
    strings = [at for at in paths_of(data) if at and isinstance(get(data, at), str)]
    if not strings:
        return data, "no string to replace"
    at = rng.choice(strings)
    new = rng.choice(HOSTILE_RULES_TEXTS + HOSTILE_TEXTS)
    get(data, at[:-1])[at[-1]] = new
    return data, f"hostile string {new[:40]!r} at {at!r}"


# -- running one case -----------------------------------------------------------------------

def _signature(path) -> tuple:
    """What says an entry changed: its kind, size, inode and modification time
    (pbp writes by renaming a new file, so even an identical rewrite shows), a
    link's target. A FIFO is never opened."""
    info = os.lstat(path)
    target = os.readlink(path) if stat.S_ISLNK(info.st_mode) else None
    return stat.S_IFMT(info.st_mode), info.st_size, info.st_ino, info.st_mtime_ns, target


def snapshot(root: Path) -> dict:
    """Every entry under root (relative path -> signature), read with scandir:
    the fuzzer takes three per case, so they must cost little."""
    found: dict = {}
    todo = [("", str(root))]
    while todo:
        rel_dir, folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            rel = rel_dir + entry.name
            try:
                info = entry.stat(follow_symlinks=False)
                target = os.readlink(entry.path) if entry.is_symlink() else None
            except OSError:
                continue
            found[rel] = stat.S_IFMT(info.st_mode), info.st_size, info.st_ino, info.st_mtime_ns, target
            if stat.S_ISDIR(info.st_mode):
                todo.append((rel + "/", entry.path))
    return found


def run_command(root: Path, args: list[str], timeout: float) -> tuple[str, str]:
    """(outcome class, output) of one in-process pbp command."""
    from click.testing import CliRunner

    from pbp.cli import main

    runner = CliRunner()
    signal.setitimer(signal.ITIMER_PROF, timeout)  # the case's own CPU time, whatever the machine's load
    signal.setitimer(signal.ITIMER_REAL, BACKSTOP * timeout)  # a wait that costs no CPU (a FIFO) still ends
    try:
        result = runner.invoke(main, ["-C", str(root), *args], catch_exceptions=False)
    except Hang as exc:
        if exc.args == ("wall",):
            return "hang", f"no answer after {BACKSTOP * timeout:.0f}s of wall time (blocked)"
        return "hang", f"more than {timeout}s of CPU"
    except SystemExit as exc:
        return ("valid" if not exc.code else "other_exit"), ""
    except BaseException as exc:  # an exception that escaped the CLI: the MJ would see a traceback
        import traceback

        return "traceback", "".join(traceback.format_exception(exc))[-1500:]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
    output = result.output
    if "Traceback" in output:
        return "traceback", output
    if "Erreur interne" in output or "internal error" in output:
        return "internal_error", output
    if result.exit_code == 0:
        return "valid", output
    if result.exit_code != 1:
        return "other_exit", output
    return ("clean_refusal" if NAMES_A_FILE.search(result.stderr) else "refusal_without_file"), output


def _commands(ex: Example, timeout: float, damaged: tuple[str, ...]) -> tuple[str, str]:
    """`damaged`: the files a refusal may name (the file the case broke; a
    player case's orders folder, as some cases rename the file; for a rules
    case, also the orders the changed rules no longer allow)."""
    worst, shown = "valid", ""
    before = snapshot(ex.work)
    for args in (["check"], ["run", "--no-commit"]):
        outcome, output = run_command(ex.work, args, timeout)
        after = snapshot(ex.work)
        if outcome == "clean_refusal" and after != before:
            outcome = "state_changed"
        elif outcome == "clean_refusal" and not any(name in output for name in damaged):
            outcome = "wrong_file"
        if CLASSES.index(outcome) < CLASSES.index(worst):
            worst, shown = outcome, f"pbp {' '.join(args)}: {output.strip()[:600]}"
        if outcome == "hang":
            break
        before = after
    return worst, shown


def damage_case(ex: Example, family: str, rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """Back to the pristine copy, then one input damaged: (what, the files a refusal may name)."""
    ex.reset()
    note = {"player": player_case, "mj": mj_case, "rules": rules_case}[family](rng, ex)
    damaged = {"player": (ex.orders_rel,), "rules": ("rules.yaml", ex.orders_rel)}.get(family,
                                                                                      (note.split(": ", 1)[0],))
    if damaged == ("campaign.yaml",):  # the dice secret taken out of campaign.yaml is looked for in secret.yaml
        damaged += ("secret.yaml",)
    return f"{ex.name}, {note}", damaged


def draw(seed: int, case: int, names: tuple[str, ...], only: str | None) -> tuple[random.Random, Example, str]:
    """A case's own random source, example and family: the same whatever `--jobs`."""
    rng = random.Random(f"{seed}:{case}")
    ex = _examples[rng.choice(names)]
    families = [f for f in FAMILIES if f != "rules" or (ex.pristine / "rules.yaml").is_file()]
    return rng, ex, only or rng.choice(families)


def _child(out, seed: int, cases: list[int], names: tuple[str, ...], only: str | None, timeout: float) -> None:
    """In a forked child: each case damaged and run, two JSON lines each (what
    is tried, then its outcome), so the parent knows which case a crash ended."""
    for case in cases:
        rng, ex, family = draw(seed, case, names, only)
        what, damaged = damage_case(ex, family, rng)
        out.write(json.dumps({"case": case, "family": family, "what": what}).encode("utf-8", "surrogateescape") + b"\n")
        out.flush()
        worst, shown = _commands(ex, timeout, damaged)
        out.write(json.dumps({"case": case, "outcome": worst, "output": shown}).encode("utf-8", "surrogateescape")
                  + b"\n")
        out.flush()


def run_cases(seed: int, cases: list[int], names: tuple[str, ...], only: str | None, timeout: float) -> list:
    """The cases in a forked child (pbp already imported there: a fork costs
    milliseconds), one child for as many cases as it survives: a crash (a
    segmentation fault in a C extension) or a hang in C code the timers cannot
    interrupt ends the child, counts against the case it was on, and a new
    child goes on with the next."""
    results, todo = [], list(cases)
    while todo:
        done, current, ended = _one_child(seed, todo, names, only, timeout)
        results += done
        todo = todo[len(done):]
        if current is not None:
            results.append((current[0], current[1], *ended, current[2]))
            todo = todo[1:]
    return [(case, family, outcome, what, output) for case, family, outcome, output, what in results]


def _one_child(seed, cases, names, only, timeout):
    """(finished cases, the case it was on when it ended or None, (outcome, output) of that end)."""
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(read)
            with os.fdopen(write, "wb") as out:
                _child(out, seed, cases, names, only, timeout)
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    os.close(write)
    backstop = 2 * BACKSTOP * timeout + 5  # two commands, each bounded in wall time by the child's own timer
    done, current, buffer, killed = [], None, b"", False
    deadline = time.monotonic() + backstop
    with os.fdopen(read, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                killed = True
                break
            ready, _, _ = select.select([pipe], [], [], left)
            if not ready:
                continue
            chunk = os.read(pipe.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                record = json.loads(line.decode("utf-8", "surrogateescape"))
                if "what" in record:
                    current = (record["case"], record["family"], record["what"])
                    deadline = time.monotonic() + backstop
                else:
                    done.append((current[0], current[1], record["outcome"], record["output"], current[2]))
                    current = None
    _, status = os.waitpid(pid, 0)
    if current is None and len(done) < len(cases) and not killed:
        # ended between two cases (should not happen): the next case is counted against the child
        rng, ex, family = draw(seed, cases[len(done)], names, only)
        current = (cases[len(done)], family, f"{ex.name}, (not damaged yet)")
    if killed:
        ended = ("hang", f"no answer after {backstop:.0f}s of wall time (stuck outside Python)")
    elif os.WIFSIGNALED(status):
        ended = ("crash", f"killed by {signal.Signals(os.WTERMSIG(status)).name}")
    else:
        ended = ("crash", f"the case itself failed (exit {os.WEXITSTATUS(status)})")
    return done, current, ended


_examples: dict[str, Example] = {}


def _worker_init(base: str, names: tuple[str, ...], timeout: float) -> None:
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGPROF, _on_alarm)
    os.environ.pop("PBP_DEBUG", None)
    work = Path(tempfile.mkdtemp(prefix="w", dir=base))
    (work / "outside.yaml").write_text("mot_de_passe_du_mj: hunter2\n", encoding="utf-8")
    for name in names:
        _examples[name] = Example(name, Path(base) / "pristine" / name, work / name)
        _warm(Path(base) / "pristine" / name)
    gc.freeze()  # what the warm-up built stays shared with the forked children, not copied on their first collection


def _warm(root: Path) -> None:
    """pbp imported and every template of an example compiled once in the worker
    (`pbp verify` renders every post): each case's child, forked from it, starts
    where an MJ's second command starts, not from a cold Python (a third of the
    time of a case)."""
    from click.testing import CliRunner

    from pbp.cli import main

    CliRunner().invoke(main, ["-C", str(root), "verify"])
    CliRunner().invoke(main, ["-C", str(root), "check"])


def _run_chunk(job: tuple[int, list[int], str, tuple[str, ...], str | None, float]) -> list:
    seed, cases, _, names, only, timeout = job
    return run_cases(seed, cases, names, only, timeout)


def failed_cases(log: str) -> list[int]:
    """The case numbers an earlier run's log counts as failures."""
    with open(log, encoding="utf-8") as lines:
        return sorted({record["case"] for record in map(json.loads, lines) if record["outcome"] in FAILURES})


def package_dir_of(name: str) -> Path:
    from pbp.render.render import package_dir

    return package_dir("campaigns") / name


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--first", type=int, default=0, help="number of the first case (to replay one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before a command counts as a hang")
    parser.add_argument("--only", choices=list(FAMILIES), default=None)
    parser.add_argument("--examples", default=",".join(EXAMPLES))
    parser.add_argument("--mj-files", default=",".join(MJ_FILES), help="which MJ files the MJ cases damage")
    parser.add_argument("--show", type=int, default=3, help="examples shown per failure class")
    parser.add_argument("--log", default=None,
                        help="a file each case's outcome is appended to as it is known (JSON lines): a long run "
                             "stopped early still says what it found")
    parser.add_argument("--again", default=None, metavar="LOG",
                        help="run again only the failed cases of an earlier run's --log (same --seed, --examples, "
                             "--only): whether a fix holds for each")
    args = parser.parse_args(argv)
    global MJ_TARGETS
    MJ_TARGETS = tuple(f for f in args.mj_files.split(",") if f)
    names = tuple(n for n in args.examples.split(",") if n)
    if args.only == "rules":
        names = tuple(n for n in names if (package_dir_of(n) / "rules.yaml").is_file())

    from pbp.render.render import package_dir

    base = tempfile.mkdtemp(prefix="pbp-fuzz-")
    try:
        for name in names:
            shutil.copytree(package_dir("campaigns") / name, Path(base) / "pristine" / name,
                            ignore=shutil.ignore_patterns(".pbp.lock"))
        cases = list(range(args.first, args.first + args.cases)) if args.again is None else failed_cases(args.again)
        chunk = 25
        jobs = [(args.seed, cases[i:i + chunk], base, names, args.only, args.timeout)
                for i in range(0, len(cases), chunk)]
        counts = {family: Counter() for family in FAMILIES}
        examples: dict[tuple[str, str], list] = {}
        done = 0
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.jobs, initializer=_worker_init, initargs=(base, names, args.timeout)) as pool:
            log = open(args.log, "a", encoding="utf-8") if args.log else None
            for results in pool.imap_unordered(_run_chunk, jobs):
                for case, family, outcome, what, output in results:
                    if log is not None:
                        log.write(json.dumps({"case": case, "family": family, "outcome": outcome, "what": what,
                                              "output": output if outcome in FAILURES else ""}) + "\n")
                        log.flush()
                    counts[family]["tried"] += 1
                    counts[family][outcome] += 1
                    if outcome in FAILURES:
                        examples.setdefault((family, outcome), []).append((case, what, output))
                done += len(results)
                print(f"\r{done}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
            if log is not None:
                log.close()
        print(file=sys.stderr)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    width = max(len(v) for v in LABELS.values())
    print(f"pbp fuzz: {len(cases)} cases, seed {args.seed}, examples {', '.join(names)}")
    print(f"{'':{width}}  " + "  ".join(f"{TITLES[f]:>12}" for f in FAMILIES))
    for key in ("tried", "clean_refusal", "valid", "crash", "traceback", "internal_error", "hang", "state_changed",
                "refusal_without_file", "other_exit", "wrong_file"):
        print(f"{LABELS[key]:{width}}  " + "  ".join(f"{counts[f][key]:>12}" for f in FAMILIES))
    by_file = Counter()
    for (family, outcome), found in examples.items():
        if family != "player":
            for _, what, _ in found:
                by_file[(Path(what.split(", ", 1)[1].split(":", 1)[0]).name, outcome)] += 1
    if by_file:
        print("\nMJ-file failures by file: " + "; ".join(
            f"{name} {LABELS[outcome]} {n}" for (name, outcome), n in sorted(by_file.items())))
    for (family, outcome), found in sorted(examples.items()):
        print(f"\n== {LABELS[outcome]}, {TITLES[family]}: "
              f"{len(found)} (cases {', '.join(str(c) for c, _, _ in sorted(found)[:10])}"
              f"{', …' if len(found) > 10 else ''})")
        for case, what, output in sorted(found)[:args.show]:
            print(f"-- case {case}: {what}")
            print("   " + output.replace("\n", "\n   ")[:900])
    failures = sum(counts[family][k] for family in FAMILIES for k in FAILURES)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
