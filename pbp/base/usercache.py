"""The user's cache folder ($XDG_CACHE_HOME/pbp, else ~/.cache/pbp): what pbp
keeps between commands, so that each everyday command (a new process) does
not redo the same work.

- `seals-<tag>/`: for each campaign, its seal chain (each turn's code, by the
  `file_signature` of its state.yaml) and the digest of each file of its last
  turns (pbp.engine.seal's `archive_codes(..., remembered=True)`).
- `yaml-<tag>/`: the value of the MJ's larger YAML files (campaign.yaml,
  world.yaml, characters.yaml, a turn's state.yaml...), by the digest of their
  text (pbp.base.yamlio's `loads(..., remember=True)`); the last few hundred.
- `data-<tag>/`: the parsed data files of pbp and of its rulesets (data.yaml,
  schema.yaml, messages.yaml...: package files, never a campaign's), read
  with `load_data`. Parsing them is a large part of a short command's time;
  reading back their marshalled value is a small one.
- `templates-<tag>/`: the Python text jinja2 generates for each template, by
  the template's name, file and text (pbp.render.render's `_generated_source`).
- `orders-<tag>/`: where each player stands for the next turn's orders, as
  `pbp status` shows it, by a digest of every file the judgement reads
  (pbp.engine.loop's `order_overview`): status again on the same files parses none.

One rule says when an entry still holds: it is found by what it was made
from. By the bytes, when the command reads them anyway (yaml, orders); else,
where not reading the file is the gain (data, seals), by the file's
`file_signature` — size, inode, modification and change times — and only once
the file has `settled`.

When a kind's tag changes (an upgrade), its folders of other tags that
nothing wrote to for a week are removed.

A cache is never an error: a folder that cannot be made, or that someone
else can write to, means no cache, and the work is done in memory as if it
were the first time. Entries hold plain data only (marshal's ints, texts,
lists, dicts...: never code) and are read as a stranger's file: a regular file
only (a FIFO would block), at most MAX_ENTRY_BYTES, sealed with a key of this
cache (`key`, made once, the user's alone) so that only what pbp wrote is ever
given to marshal (a crafted entry claiming 2**31 items costs seconds to
refuse). Any other entry is damaged: ignored, rewritten, and said once
(`DAMAGED`, which the command line prints).
Each kind's folder name carries a tag of what its content depends on (pbp's,
Python's and the libraries' versions), so an upgrade starts a new folder.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
from pathlib import Path
from typing import Callable

#: whether the cache is used at all (`use`), and each kind's folder once found
_STATE: dict = {"wanted": True, "folders": {}}
#: the largest entry read back (a parsed data file, a campaign's world.yaml)
MAX_ENTRY_BYTES = 64 * 1024 * 1024
_MAGIC = b"pbp-cache-1\n"
_SEAL = 16  # bytes of the keyed digest before the marshalled value
#: entries found damaged by this process (the command line says so once, then they are rewritten)
DAMAGED: list[Path] = []


def use(enabled: bool = True) -> None:
    """Whether anything is kept in the user's cache folder: yes unless told
    otherwise (the tests start each session with a folder of their own)."""
    _STATE["wanted"] = enabled
    _STATE["folders"] = {}
    _STATE.pop("keys", None)


def folder(kind: str, tag: str) -> Path | None:
    """The folder `<kind>-<tag>` of the user's cache, made if needed; None when
    there is none (turned off, cannot be made, not the user's alone)."""
    if not _STATE["wanted"]:
        return None
    key = (kind, tag)
    if key in _STATE["folders"]:
        return _STATE["folders"][key]
    _STATE["folders"][key] = None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    found = Path(base) / "pbp" / f"{kind}-{tag}"
    try:
        made = _make(found)
        info = found.stat()
        # what is read back is trusted: only from a folder no one else can write to
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            return None
    except OSError:
        return None
    if made:
        _forget_stale(found, kind)
    _STATE["folders"][key] = found
    return found


def _make(found: Path) -> bool:
    """Make the folder (and the cache folder above it); whether it is new."""
    try:
        found.mkdir(mode=0o700)
        return True
    except FileExistsError:
        return False
    except FileNotFoundError:
        found.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        found.mkdir(mode=0o700, exist_ok=True)
        return True


#: how long a folder of an older tag is kept, since it was last written to
STALE_AFTER_S = 7 * 24 * 3600


def _forget_stale(found: Path, kind: str) -> None:
    """A new tag means pbp, Python or a library changed: the folders of the
    same kind that nothing wrote to for a week go. Without this, each upgrade
    leaves its predecessor's folders for ever. A folder still in use (another
    install of pbp) only costs its next command a parse or a compile."""
    import shutil
    import time

    oldest = time.time() - STALE_AFTER_S
    try:
        entries = list(os.scandir(found.parent))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(kind + "-") or entry.name == found.name:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
        if entry.is_dir(follow_symlinks=False) and mine and info.st_mtime < oldest:
            shutil.rmtree(entry.path, ignore_errors=True)


def write(path: Path, data: bytes) -> None:
    """Put a cache entry in place whole or not at all (another pbp may be reading
    it); a failure leaves no entry, never an error."""
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


#: a file changed less than this ago is not remembered by its signature yet: the
#: kernel's clock for file times ticks every few milliseconds, so a file
#: rewritten twice within one tick could keep all its times (git calls such
#: index entries racy)
SETTLED_NS = 2_000_000_000


def file_signature(info: os.stat_result) -> tuple[int, int, int, int]:
    """What says a file is unchanged without reading it: its size, inode, and
    modification and change times. The change time is the kernel's, which no
    program can set back: a file rewritten to the same size with its
    modification time restored (`os.utime`) has a new one."""
    return (info.st_size, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)


def settled(info: os.stat_result) -> bool:
    """Whether a file last changed long enough ago for its signature to tell a
    later change (see SETTLED_NS)."""
    return info.st_ctime_ns < time.time_ns() - SETTLED_NS


def _data_tag() -> str:
    """What a parsed data file depends on besides its own bytes: pbp's version
    and its readers' code (yamlio, yamlread, i18n: a change of how a file is read is a new
    folder, even in a checkout whose version did not move) and Python's
    (marshal's format)."""
    from pbp import __version__

    here = Path(__file__).parent
    readers = [file_signature(os.stat(here / name)) for name in ("yamlio.py", "yamlread.py", "i18n.py", "usercache.py")]
    return _digest(repr((__version__, sys.version, readers)))


def _digest(text: str) -> str:
    """A short name for `text` (zlib's checksums: hashlib would load OpenSSL, a
    noticeable part of a short command's start; an entry also holds what it
    was made from, so a collision can only cost a parse, never a wrong value)."""
    import zlib

    data = text.encode("utf-8", "surrogatepass")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def load_data(path: Path, parse: Callable[[str], object]) -> object:
    """A package data file's value: `parse(text)` the first time, then read back
    from the cache while the file is the same (its `file_signature`; a file
    changed in the last seconds is parsed, not kept). Only plain data is kept
    (what marshal writes: no dates); anything else is parsed every time."""
    info = os.stat(path)
    made_from = (os.path.abspath(path), *file_signature(info))
    place = folder("data", _tag())
    entry = None
    if place is not None:
        entry = place / f"{_digest(made_from[0])}.marshal"
        found = _load(entry)
        try:
            cached_from, value = found
            if tuple(cached_from) == made_from:
                return value
        except (TypeError, ValueError):
            pass  # none yet, or a stale entry: parsed again
    value = parse(Path(path).read_text(encoding="utf-8"))
    if entry is not None and settled(info):
        try:
            write(entry, _pack(place, (made_from, value)))
        except ValueError:  # not plain data
            pass
    return value


def read_entry(kind: str, tag: str, name: str) -> object | None:
    """The value kept as `name` in the folder `<kind>-<tag>` (marshalled plain
    data), or None: no cache, no such entry, or a damaged one."""
    place = folder(kind, tag)
    if place is None:
        return None
    return _load(place / f"{_digest(name)}.marshal")


def write_entry(kind: str, tag: str, name: str, value: object, keep: int | None = None) -> None:
    """Keep `value` (plain data: ValueError otherwise) as `name` in the folder
    `<kind>-<tag>`; `keep`: at most that many entries there (the least recently
    written go first)."""
    place = folder(kind, tag)
    if place is None:
        return
    data = _pack(place, value)
    if keep is not None:
        _prune(place, keep - 1)
    write(place / f"{_digest(name)}.marshal", data)


def _key(place: Path) -> bytes | None:
    """This cache's key (`<cache>/pbp/key`, 32 random bytes, made once): what
    seals each entry, so that a file pbp did not write is never unmarshalled.
    Read once per cache folder: a process that moves to another one (the
    tests, in-process callers) reads that folder's own."""
    keys = _STATE.setdefault("keys", {})
    if place.parent in keys:
        return keys[place.parent]
    path = place.parent / "key"
    key = _read(path, 32)
    if key is None or len(key) != 32:
        key = os.urandom(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(key)
        except OSError:  # another pbp made it meanwhile (its key wins next time), or it cannot be written
            key = _read(path, 32)
            key = key if key is not None and len(key) == 32 else None
    keys[place.parent] = key
    return key


def _seal(key: bytes, payload: bytes) -> bytes:
    from _blake2 import blake2b  # hashlib's own, without loading OpenSSL as `import hashlib` does

    return blake2b(payload, key=key, digest_size=_SEAL).digest()


def _pack(place: Path, value: object) -> bytes:
    """An entry: the magic line, the keyed digest, the marshalled value
    (ValueError if it is not plain data)."""
    payload = marshal.dumps(value)
    key = _key(place)
    if key is None:
        raise ValueError("no key: nothing kept")
    return _MAGIC + _seal(key, payload) + payload


def _read(path: Path, limit: int) -> bytes | None:
    """A file's bytes, read as a stranger's: None when absent or not a regular
    file (never waiting on a FIFO, never following a link); more than `limit`
    bytes is `b""` (damaged)."""
    import stat

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError:
        return b""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return b""
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
        return data if len(data) <= limit else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def _load(entry: Path) -> object | None:
    """An entry's value, or None: absent, or damaged (noted in DAMAGED, and
    the caller writes it again)."""
    data = _read(entry, MAX_ENTRY_BYTES)
    if data is None:
        return None
    key = _key(entry.parent)
    head = len(_MAGIC) + _SEAL
    if key is not None and data.startswith(_MAGIC) and data[len(_MAGIC):head] == _seal(key, data[head:]):
        try:
            return marshal.loads(data[head:])
        except (ValueError, EOFError, TypeError):  # pbp wrote it, in another Python's format
            pass
    if entry not in DAMAGED:
        DAMAGED.append(entry)
    return None


def _prune(place: Path, keep: int) -> None:
    try:
        entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(place) if e.name.endswith(".marshal")]
    except OSError:
        return
    if len(entries) <= keep:
        return
    entries.sort()
    for _, path in entries[:len(entries) - keep // 2]:  # half of them at once: pruned once in a while
        try:
            os.unlink(path)
        except OSError:
            pass


_TAGS: dict[str, str] = {}


def tag_of(*parts: object) -> str:
    """A folder tag for what an entry's value depends on (`parts`, by their repr)."""
    return _digest(repr(parts))


def data_tag() -> str:
    """The tag of what is parsed by pbp's readers (see `_data_tag`)."""
    return _tag()


def _tag() -> str:
    if "data" not in _TAGS:
        _TAGS["data"] = _data_tag()
    return _TAGS["data"]
