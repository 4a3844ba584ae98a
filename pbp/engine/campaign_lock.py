"""The campaign's lock (pbp/engine/campaign.py's `Campaign.lock`): a file created
exclusively at the campaign's root for the time of a command that writes, so
that two `pbp run` on one campaign cannot interleave; one left by a process
that no longer runs is taken over.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from pbp.base.errors import PbpError


@contextmanager
def held(path: Path, shown: str):
    """The lock at `path` held for the `with` block; refused (PbpError naming
    `shown`, the lock file as the MJ sees it) when another process holds it."""
    while True:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            break
        except FileExistsError:
            if _stale(path):
                path.unlink(missing_ok=True)
                continue
            raise PbpError("locked", file=shown) from None
    try:
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        yield
    finally:
        path.unlink(missing_ok=True)


def _stale(path: Path) -> bool:
    """A lock left by a process that no longer runs."""
    try:
        pid = int(path.read_text().strip() or "0")
    except (OSError, ValueError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
