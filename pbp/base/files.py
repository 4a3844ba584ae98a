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


def read_bytes(path: Path, name: str, limit: int | None = None) -> bytes:
    """A campaign file's bytes; what goes wrong is said naming the file as the MJ
    sees it. Only a regular file is read, opened non-blocking: a FIFO or a
    device named like a campaign file is refused, never waited on. `limit`: at
    most that many bytes and one more are read (the caller refuses a longer file
    by its own measure, without holding a gigabyte first)."""
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
