"""A campaign file read safely, and the names a player's files take.

A campaign folder is untrusted input: only a regular file is read, opened
non-blocking, so that a FIFO or a device named like a campaign file is refused,
never waited on; every refusal names the file as the MJ sees it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from pbp.base.errors import InputError
from pbp.base.memtree import MemoryPath


def read_bytes(path: Path | MemoryPath, name: str, limit: int | None = None) -> bytes:
    """A campaign file's bytes; what goes wrong is said naming the file as the MJ
    sees it. Only a regular file is read, opened non-blocking: a FIFO or a
    device named like a campaign file is refused, never waited on. `limit`: at
    most that many bytes and one more are read (the caller refuses a longer file
    by its own measure, without holding a gigabyte first). A file of a folder
    held in memory (an audited bundle: pbp.base.memtree) is read from there."""
    if isinstance(path, MemoryPath):
        return read_member(path, name)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputError("file_missing", file=name) from None
    except OSError as exc:
        key = {errno.ELOOP: "symlink_loop"}.get(exc.errno)
        if key:
            raise InputError(key, file=name) from None
        raise InputError("file_unreadable", file=name, reason=exc.strerror) from None
    try:
        refuse_kind(os.fstat(fd).st_mode, name)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read() if limit is None else handle.read(limit + 1)
    except OSError as exc:
        raise InputError("file_unreadable", file=name, reason=exc.strerror) from None
    finally:
        os.close(fd)
    return data


def read_at_most(fd: int, limit: int) -> bytes:
    """At most limit + 1 bytes of an open file: one more than allowed is enough for
    the caller to refuse a longer file, without holding a gigabyte first."""
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, limit + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_member(path: MemoryPath, name: str, limit: int | None = None, limit_key: str = "") -> bytes:
    """A file of a folder held in memory, as `read_bytes` and `Campaign.read_input` read one from disk."""
    if not path.exists():
        raise InputError("file_missing", file=name)
    refuse_kind(path.stat().st_mode, name)
    data = path.read_bytes()
    if limit is not None and len(data) > limit:
        raise InputError("file_too_large", file=name, size=len(data), limit=limit, limit_key=limit_key)
    return data


_KINDS = ((stat.S_ISDIR, "file_is_directory"), (stat.S_ISFIFO, "file_is_fifo"),
          (stat.S_ISCHR, "file_is_device"), (stat.S_ISBLK, "file_is_device"), (stat.S_ISSOCK, "file_is_socket"))


def refuse_kind(mode: int, rel: str) -> None:
    """Only a regular file is read: a FIFO would block, a device never end."""
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode) and Path(rel).parent.name != "orders":  # gm.yaml, a campaign file
        raise InputError("folder_not_file", file=rel)
    for test, key in _KINDS:
        if test(mode):
            raise InputError(key, file=rel)
    raise InputError("file_is_special", file=rel)


def handle_file(handle: str) -> str:
    """The name a handle's files take (turns/NNN/orders/<it>.yaml, private/<it>.*):
    the handle, each space an underscore ("Vieux Loup" -> Vieux_Loup). Matched in
    any case; two handles giving one name are refused (open_campaign)."""
    return str(handle).replace(" ", "_")
