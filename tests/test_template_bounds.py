"""A campaign's template can ask any filter or operation for any size: every one
is bounded (pbp/sandbox.py). Each hostile template below is refused by `pbp run`
with its file and line, exit 1, within 5 s of CPU and 200 MB, the campaign
untouched. Run as the MJ runs pbp: a process of its own, whose CPU time and
peak memory are read at its end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import pbp, write

REPO = Path(__file__).resolve().parent.parent
MAX_CPU_SECONDS = 5.0
MAX_PEAK_MB = 200

BIG = "{% set s = 'x' * 1000000 %}"
# name -> (template, what the refusal says between the parentheses)
HOSTILE = {
    "center": ("{{ 'x' | center(10**9) }}", "center: the number 1000000000 is over 1000000"),
    "indent width": ("{{ 'x' | indent(10**9) }}", "indent: the number 1000000000 is over 1000000"),
    "indent text": ("{{ ('x\\n' * 400000) | indent(' ' * 100) }}", "indent: a text of 80800100 characters"),
    "wordwrap": ("{{ ('x ' * 400000) | wordwrap(1, wrapstring='y' * 100000) }}",
                 "wordwrap: a text of 80000900000 characters"),
    "format filter width": ("{{ '%999999999d' | format(1) }}", "format: a text of 1000000013 characters"),
    "format filter star": ("{{ '%*d' | format(10**9, 1) }}", "format: the number 1000000000 is over 1000000"),
    "percent": ("{{ '%999999999s' % 'x' }}", "%: a text of 1000000011 characters"),
    "str.format": ("{{ '{:>999999999}'.format(1) }}", "format: a text of 1000000016 characters"),
    "str.format nested width": ("{{ '{:>{w}}'.format(1, w=10**9) }}", "format: the number 1000000000 is over"),
    "ljust": ("{{ 'x'.ljust(10**9) }}", "ljust: the number 1000000000 is over 1000000"),
    "join of a range": ("{{ range(1000) | join('x' * 2000) }}", "join: a text of"),
    "str.join": ("{{ ('x' * 1000000).join(['a'] * 1000) }}", "join: a text of 1000002001 characters"),
    "replace": ("{{ ('x' * 900000) | replace('x', 'y' * 1000) }}", "replace: a text of 900000000 characters"),
    "str.replace": ("{{ ('x' * 1000000).replace('', 'y' * 1000) }}", "replace: a text of 1001001000 characters"),
    "text repeated": ("{{ 'x' * 1000000000 }}", "a repeated value of 1000000000 items, over 1000000"),
    "list repeated": ("{{ [1] * 1000000000 }}", "a repeated value of 3000000000 items, over 1000000"),
    "a long text in a repeated list": (BIG + "{{ [s] * 1000 }}", "a repeated value of"),
    "a long text in a written list": (BIG + "{{ [s, s, s, s, s] }}", "a value written of"),
    "a long text in a joined list": (BIG + "{{ '' ~ [s, s, s] }}", "~: a text of"),
    "a long text in a dict's items": (BIG + "{{ {'a': s, 'b': s}.items() }}", "a value written of"),
    "tojson": (BIG + "{{ [s, s, s] | tojson }}", "tojson: arguments of"),
    "pprint": (BIG + "{{ [s, s, s] | pprint }}", "pprint: arguments of"),
    "namespace written": (BIG + "{% set ns = namespace(a=s) %}{% set ns.b = s %}{{ ns }}", "a value written of"),
    "doubled with ~": ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                       "{% endfor %}", "~: a text of 1048576 characters"),
    "doubled with +": ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}"
                       "{% endfor %}", "+: a value of 1048576 characters"),
    "a list extended by itself": ("{% set l = [1] %}{% for i in range(40) %}{% set _ = l.extend(l) %}{% endfor %}",
                                  "extend: arguments of"),
    "a list holding itself": ("{% set l = [1] %}{% for i in range(40) %}{% set _ = l.append(l) %}{% endfor %}"
                              "{{ l }}", "append: arguments of"),
    "a number squared": ("{% set ns = namespace(n=1) %}{% set ns.n = 10**1000 %}{% for i in range(40) %}"
                         "{% set ns.n = ns.n * ns.n %}{% endfor %}", "*: a number of about 106302 bits, over 100000"),
    "a power of a power": ("{{ (10**999) ** 999 }}", "**: a number of about 3315681 bits, over 100000"),
    "loops over a text": (BIG + "{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}",
                          "over 250000 loop iterations and calls in one rendering"),
    "a loop over a growing list": ("{% set l = [1] %}{% for x in l %}{% set _ = l.append(x) %}{% endfor %}",
                                   "over 250000 loop iterations and calls in one rendering"),
    "a macro calling itself twice": ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
                                     "{{ f(40) }}", "over 250000 loop iterations and calls in one rendering"),
    "a macro putting together a long text": (BIG + "{% macro f() %}{% for i in range(100000) %}{{ s }}{% endfor %}"
                                             "{% endmacro %}{{ f() | length }}",
                                             "over 16777216 characters put together in one rendering"),
    "a captured block": (BIG + "{% set c %}{% for i in range(100000) %}{{ s }}{% endfor %}{% endset %}",
                         "over 16777216 characters put together in one rendering"),
    "sum of lists": ("{% set l = [1] * 1000 %}{{ [l, l, l] | sum(start=[]) }}", "sum: a start that is not a number"),
    "slices": ("{{ range(10) | slice(10**9) | list }}", "slice: the number 1000000000 is over 1000000"),
    "a huge range listed": ("{{ range(10**12) | list }}", "range: the number 1000000000000 is over 1000000"),
}

#: one process runs every case, as `pbp run` in-process, and reports each one's exit, message, CPU time and
#: the process's peak memory after it (a peak only grows: each case's is at most the one read after it)
CHILD = """
import json, os, resource, sys
sys.path.insert(0, {repo!r})
from click.testing import CliRunner
from pbp.model import ruleset
from tests.toy import Toy
ruleset.register(Toy)
from pbp.cli import main

def snapshot(root):
    return sorted((os.path.join(d, f), os.path.getsize(os.path.join(d, f)))
                  for d, _, files in os.walk(root) for f in files)

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def peak_kb():
    with open("/proc/self/status") as status:  # VmHWM: this program's own peak, since its exec
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))

root = {root!r}
out = {{}}
for name, source in json.loads(sys.stdin.read()).items():
    with open(os.path.join(root, "templates", "public.j2"), "w", encoding="utf-8") as handle:
        handle.write(source + "\\n")
    before, start = snapshot(root), cpu()
    result = CliRunner().invoke(main, ["-C", root, "run", "--no-orders", "--no-commit"])
    out[name] = {{"exit": result.exit_code, "stderr": result.stderr, "cpu": cpu() - start,
                 "peak_kb": peak_kb(), "untouched": snapshot(root) == before}}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    """Every case run once, in a process of its own (see CHILD), on a toy campaign set up."""
    root = tmp_path_factory.mktemp("bounds") / "toy"
    write(root, "campaign.yaml", "ruleset: toy\ntitle: Essai\nplayers:\n  lucy: Lucy\n  bob: {character: Bob}\n")
    write(root, "secret.yaml", "secret: s3cret\n")
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    (root / "templates").mkdir()
    done = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO), root=str(root))],
                          input=json.dumps({name: source for name, (source, _) in HOSTILE.items()}),
                          capture_output=True, text=True, timeout=600, cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads a process's peak memory from /proc")
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_template_is_refused_by_file_and_line_within_bounds(refused, case):
    found = refused[case]
    assert found["exit"] == 1, found
    assert found["stderr"].startswith("templates/public.j2:1: modèle refusé : un modèle est une donnée, rendue dans "
                                      "un bac à sable, et celui-ci va au-delà ("), found
    assert HOSTILE[case][1] in found["stderr"], found["stderr"]
    assert found["cpu"] < MAX_CPU_SECONDS, found
    assert found["peak_kb"] < MAX_PEAK_MB * 1024, found
    assert found["untouched"], found
