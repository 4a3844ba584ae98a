"""The user's cache folder (pbp.base.usercache) holds plain data only and is read as
a stranger's file: compiled templates are never kept there (jinja2's entries
are a pickle and code), an entry pbp did not write is never unmarshalled, a
FIFO in place of an entry blocks nothing, and a damaged entry is ignored,
written again and said once. Through the real commands, each with the cache
folder of its own."""

from __future__ import annotations

import marshal
import os
import pickle
import time

import pytest

from pbp.base import usercache
from tests.helpers import copy_example, pbp
from tests.test_hostile_orders import no_hang


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.setitem(usercache._STATE, "wanted", True)
    monkeypatch.setitem(usercache._STATE, "folders", {})
    monkeypatch.delitem(usercache._STATE, "keys", raising=False)
    yield folder / "pbp"
    usercache._STATE.pop("keys", None)


def new_process(monkeypatch):
    monkeypatch.setitem(usercache._STATE, "folders", {})
    usercache._STATE.pop("keys", None)


@pytest.fixture
def camp(tmp_path):
    return copy_example("manhunt", tmp_path)


class _Run:
    """What unpickling this would do: make a file (code run from the cache)."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def entries(cache):
    """The entries a command reads back (package data files are read once per process)."""
    return sorted(p for p in cache.glob("*/*.marshal") if not p.parent.name.startswith("data-"))


def test_rendering_keeps_no_compiled_template_in_the_cache(camp, cache, tmp_path, monkeypatch):
    """What is kept of a template is jinja2's generated Python as a text, in a
    sealed entry; never a pickle nor a code object, and jinja2's own cache files
    are never read."""
    import marshal

    from pbp.render import render

    monkeypatch.setattr(render, "_BYTECODE_CACHE", None)  # nothing compiled in this process yet
    assert pbp("post", "--format", "markdown", cwd=camp).exit_code == 0
    kept = list(cache.glob("templates-*/*"))
    assert kept and all(path.suffix == ".marshal" for path in kept)
    for path in kept:
        source, python = marshal.loads(path.read_bytes()[len(b"pbp-cache-1\n") + 16:])
        assert isinstance(source, str) and isinstance(python, str) and python.startswith("from jinja2.runtime import")
    # a jinja2 bytecode entry planted where the old cache was: never read
    planted = cache / "templates-0123456789abcdef"
    planted.mkdir()
    for name in ("a", "b"):
        (planted / f"{name}.cache").write_bytes(b"j2/" + pickle.dumps(_Run(str(tmp_path / "pwned"))))
    new_process(monkeypatch)
    assert pbp("post", "--format", "markdown", cwd=camp).exit_code == 0
    assert not (tmp_path / "pwned").exists()


def test_an_entry_pbp_did_not_write_is_ignored_rewritten_and_said_once(camp, cache, monkeypatch):
    assert pbp("status", cwd=camp).exit_code == 0
    found = entries(cache)
    assert len(found) >= 2
    for entry in found[::2]:  # a tuple claiming 2**31-1 items: marshal took 39 s to refuse it
        entry.write_bytes(b"(" + (2**31 - 1).to_bytes(4, "little"))
    for entry in found[1::2]:  # code, marshalled
        entry.write_bytes(marshal.dumps(compile("open('pwned', 'w')", "x", "exec")))
    new_process(monkeypatch)
    start = time.process_time()
    r = pbp("status", cwd=camp)
    assert time.process_time() - start < 5
    assert r.exit_code == 0, r.output
    said = [line for line in r.stderr.splitlines() if line.startswith("Cache de pbp")]
    shown = {f"{p.parent.name}/{p.name}" for p in found}
    assert said and sorted(said) == sorted(
        f"Cache de pbp : une entrée endommagée ou qui n'est pas un fichier ordinaire a été ignorée et réécrite "
        f"({name}, dans le dossier de cache de pbp). Rien à faire." for name in shown if f"({name}," in r.stderr)
    new_process(monkeypatch)
    again = pbp("status", cwd=camp)
    assert again.exit_code == 0 and "Cache de pbp" not in again.stderr  # written again: said once
    assert again.stdout == r.stdout


def test_a_fifo_in_place_of_an_entry_blocks_no_command(camp, cache, monkeypatch):
    assert pbp("status", cwd=camp).exit_code == 0
    entry = entries(cache)[0]
    entry.unlink()
    os.mkfifo(entry)
    new_process(monkeypatch)
    with no_hang(20):
        r = pbp("status", cwd=camp)
    assert r.exit_code == 0, r.output
    assert f"({entry.parent.name}/{entry.name}," in r.stderr
    assert entry.is_file()  # a regular entry again


def test_an_entry_larger_than_the_bound_is_not_read(camp, cache, monkeypatch):
    assert pbp("status", cwd=camp).exit_code == 0
    entry = entries(cache)[0]
    monkeypatch.setattr(usercache, "MAX_ENTRY_BYTES", 16)
    new_process(monkeypatch)
    r = pbp("status", cwd=camp)
    assert r.exit_code == 0 and f"({entry.parent.name}/{entry.name}," in r.stderr
