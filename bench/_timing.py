"""What every benchmark script shares: running a command as a child process and
reading its wall time, CPU time and peak memory from the OS, paired timing with
medians, and one printed line per figure, next to its goal.

Why paired: this machine is shared, and its load changes over a minute. Running
all of A then all of B lets a change of load pass for a speed difference; running
A B A B ... and taking the ratio pair by pair (then the median of the ratios)
compares each A with a B measured moments later, under the same load.

Benchmarks print figures; they never assert (speed is not a test).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

#: where the scripts cache what is slow to build (bench/out/ is gitignored)
OUT = Path(__file__).resolve().parent / "out"


def pbp_command() -> list[str]:
    """The `pbp` executable of the running Python's environment, as users run it
    (its console script), or `python -m pbp` when there is none."""
    script = Path(sys.executable).with_name("pbp")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pbp"]


PBP = pbp_command()
#: the start-up floor of any click program on this Python
IMPORT_CLICK = [sys.executable, "-c", "import click"]


@dataclass(frozen=True)
class Sample:
    """One run of one command, as the OS accounted it."""

    wall: float  # seconds, start to exit
    cpu: float  # user + system seconds of the child and of the children it waited for (git...)
    #: the largest resident set of the child or of one of those children, MB
    #: (None: not asked for)
    peak_mb: float | None = None


class CommandFailed(RuntimeError):
    pass


#: GNU time, to read a child's peak memory (see `run`)
TIME = "/usr/bin/time"


def run(cmd: Sequence[str], *, cwd: Path | None = None, env: dict | None = None,
        stdout: Path | None = None, check: bool = True, memory: bool = False) -> Sample:
    """Run `cmd` to its end; its wall time, and its CPU time from wait4 (the
    rusage of that one child: RUSAGE_CHILDREN would add up every child this
    script ever had). stdout goes to the file `stdout`, or to a scratch file (as
    to a terminal, the output is really written); both are shown if it fails.

    `memory`: its peak memory too. Not wait4's ru_maxrss: Linux counts in it the
    memory of the process that forked the child, until the exec (a child of a
    200 MB script reports 200 MB for `true`). GNU time is small and reports its
    own child's figure; without it, wait4's figure is kept (at least this
    script's own size). The wrapper costs about a millisecond, so it is only used
    when asked for, on both sides of a pair."""
    wrapped = memory and os.path.exists(TIME)
    with tempfile.TemporaryFile() as err, (open(stdout, "w+b") if stdout else tempfile.TemporaryFile()) as out, \
            tempfile.NamedTemporaryFile(prefix="pbp-bench-rss-") as rss:
        argv = [TIME, "-f", "%M", "-o", rss.name, *cmd] if wrapped else list(cmd)
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        if check and proc.returncode != 0:
            tails = []
            for handle in (out, err):
                handle.seek(0)
                tails.append(handle.read().decode(errors="replace")[-2000:])
            raise CommandFailed(f"exit {proc.returncode}: {' '.join(map(str, cmd))}\n{tails[0]}\n{tails[1]}")
        peak = None
        if wrapped:
            peak = int(Path(rss.name).read_text().split()[-1]) / 1024  # KiB; after a "exited with" line, if any
        elif memory:
            peak = usage.ru_maxrss / 1024  # KiB on Linux
    return Sample(wall, usage.ru_utime + usage.ru_stime, peak)


@dataclass
class Step:
    """One timed command of a round; `before` runs first, untimed (a reset)."""

    name: str
    cmd: Sequence[str]
    before: Callable[[], None] | None = None
    cwd: Path | None = None
    env: dict | None = None
    memory: bool = False  # read its peak memory (see `run`)


@dataclass
class Results:
    """Samples by step name, in round order: samples[name][i] is round i."""

    samples: dict[str, list[Sample]] = field(default_factory=dict)

    def add(self, name: str, sample: Sample) -> None:
        self.samples.setdefault(name, []).append(sample)

    def median(self, name: str, attr: str = "wall") -> float:
        return statistics.median(getattr(s, attr) for s in self.samples[name])

    def peak(self, name: str) -> float:
        return max(s.peak_mb or 0.0 for s in self.samples[name])

    def ratio(self, a: str, b: str, attr: str = "wall") -> float:
        """The median of a/b taken round by round (pair by pair)."""
        pairs = zip(self.samples[a], self.samples[b], strict=True)
        return statistics.median(getattr(x, attr) / max(getattr(y, attr), 1e-9) for x, y in pairs)

    def ratios(self, a: str, b: str, attr: str = "wall") -> list[float]:
        """a/b round by round (pair by pair)."""
        return [getattr(x, attr) / max(getattr(y, attr), 1e-9)
                for x, y in zip(self.samples[a], self.samples[b], strict=True)]

    def spread(self, a: str, b: str, attr: str = "wall") -> tuple[float, float]:
        """The lowest and highest pair ratio: how much the load moved them."""
        ratios = self.ratios(a, b, attr)
        return min(ratios), max(ratios)

    def quartiles(self, a: str, b: str, attr: str = "wall") -> tuple[float, float]:
        """The first and third quartiles of the pair ratios: where the middle half
        of them lies. On a loaded machine the lowest and highest pair say how bad
        one moment was; the middle half says how far the median can be trusted."""
        ratios = self.ratios(a, b, attr)
        if len(ratios) < 2:
            return ratios[0], ratios[0]
        q1, _, q3 = statistics.quantiles(ratios, n=4, method="inclusive")
        return q1, q3


def rounds(steps: Sequence[Step], count: int, *, warmup: int = 1, results: Results | None = None,
           label: str = "", alternate: bool = False) -> Results:
    """Run every step in order (A B A B ... for two steps), `count` times, after
    `warmup` discarded rounds (cold caches, first imports compiled).
    `alternate`: the steps are pairs (A B, C D...), run B A, D C... every other
    round, so that neither side of a pair always runs first (right after the
    other pair's commands, or warming what the second one finds)."""
    results = results if results is not None else Results()
    total = warmup + count
    for i in range(total):
        progress(f"{label}round {i + 1}/{total}{' (warm-up)' if i < warmup else ''}")
        order = list(steps)
        if alternate and i % 2:
            order = [step for k in range(0, len(order), 2) for step in reversed(order[k:k + 2])]
        for step in order:
            if step.before:
                step.before()
            sample = run(step.cmd, cwd=step.cwd, env=step.env, memory=step.memory)
            if i >= warmup:
                results.add(step.name, sample)
    progress("")
    return results


# -- printing ---------------------------------------------------------------------

def progress(text: str) -> None:
    """A transient status line on stderr (only on a terminal), so the figures on
    stdout stay clean when redirected."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()


def verdict(value: float, goal: float) -> str:
    """A reading aid, not an assertion."""
    return "ok" if value <= goal else "OVER"


def figure(label: str, value: float, goal: float | None = None, unit: str = "×", detail: str = "",
           digits: int = 2) -> str:
    """One figure: `label  value  (goal ≤ g)  ok|OVER  detail`."""
    text = f"  {label:<44} {value:>8.{digits}f}{unit}"
    if goal is not None:
        text += f"   goal ≤ {goal:g}{unit}  {verdict(value, goal):<4}"
    else:
        text += " " * (len(f"   goal ≤ {0:g}{unit}  ") + 5)
    if detail:
        text += f"  {detail}"
    return text.rstrip()


def seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def header(title: str, args: argparse.Namespace) -> None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        pbp_version = version("pbp")
    except PackageNotFoundError:
        pbp_version = "?"
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    # which code is measured: the checkout these scripts are in (an editable install's)
    done = subprocess.run(["git", "-C", str(OUT.parent), "describe", "--always", "--dirty"],
                          capture_output=True, text=True)
    checkout = f", checkout {done.stdout.strip()}" if done.returncode == 0 else ""
    print(f"{title}")
    print(f"  machine: {os.cpu_count()} cores, load {load}; Python {platform.python_version()}; "
          f"pbp {pbp_version}{checkout} ({' '.join(PBP)}){'; --quick' if getattr(args, 'quick', False) else ''}")


def parser(doc: str, rounds_default: int, rounds_quick: int) -> argparse.ArgumentParser:
    """The options every script has: --quick (a fast smoke run) and --rounds."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0], epilog=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="a fast smoke run: small inputs, few rounds")
    p.add_argument("--rounds", type=int, default=None,
                   help=f"paired rounds (default {rounds_default}, {rounds_quick} with --quick)")
    p.set_defaults(rounds_default=rounds_default, rounds_quick=rounds_quick)
    return p


def rounds_of(args: argparse.Namespace) -> int:
    if args.rounds is not None:
        return max(1, args.rounds)
    return args.rounds_quick if args.quick else args.rounds_default


# -- git, for the scripts that time a commit ---------------------------------------------

def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise CommandFailed(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def git_identity(root: Path) -> None:
    """A local identity, and no automatic gc: a `git gc --auto` starting in the
    middle of one timed commit would be timed as that command's cost."""
    git(root, "config", "user.name", "pbp bench")
    git(root, "config", "user.email", "bench@localhost")
    git(root, "config", "gc.auto", "0")


def git_reset(root: Path, commit: str) -> None:
    """Back to `commit` with no trace of the runs since: their objects pruned too,
    else the next run would find its blobs already written by the previous one
    and commit faster than a first run does."""
    git(root, "reset", "-q", "--hard", commit)
    git(root, "clean", "-fdq")
    git(root, "reflog", "expire", "--expire=now", "--all")
    git(root, "prune", "--expire=now")
