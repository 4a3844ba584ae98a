"""The campaign's git history: one commit per turn, and undoing turns.

pbp only ever stages and commits the campaign's own folder, so a campaign kept
inside a bigger repository does not sweep up unrelated changes.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from pbp.campaign import LOCK_FILE

# Used only when the machine has no git identity configured.
FALLBACK_IDENTITY = ["-c", "user.name=pbp", "-c", "user.email=pbp@localhost"]


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        from pbp.errors import GitError

        raise GitError("git_failed", command="git " + " ".join(args[:2]), error=done.stderr.strip()[:500])
    return done


def repository(path: Path) -> Path | None:
    """The git work tree holding `path`, or None."""
    try:
        done = _git(path, "rev-parse", "--show-toplevel", check=False)
    except FileNotFoundError:  # git not installed
        return None
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def _identity(root: Path) -> list[str]:
    has = _git(root, "config", "user.email", check=False).stdout.strip()
    return [] if has else FALLBACK_IDENTITY


def commit(path: Path, message: str) -> str | None:
    """Commit everything under the campaign folder `path`; the new commit's id,
    or None when there was nothing to commit."""
    path = Path(path).resolve()  # git -C <root> would read a relative path from the root
    root = repository(path)
    if root is None:
        return None
    _git(root, "add", "-A", "--", str(path))
    # the lock of the run in progress is never part of the history, nor are the
    # `pbp preview` pages (made again from the archive at will; the MJ's shows secrets)
    _git(root, "rm", "-q", "--cached", "--ignore-unmatch", "--", str(path / LOCK_FILE),
         f":(glob){(path / 'turns').relative_to(root)}/*/preview*.html")
    if _git(root, "diff", "--cached", "--quiet", "--", str(path), check=False).returncode == 0:
        return None
    _git(root, *_identity(root), "commit", "-q", "-m", message, "--", str(path))
    return _git(root, "rev-parse", "--short", "HEAD").stdout.strip()


def init(path: Path, message: str) -> str | None:
    """Make a new campaign folder its own repository, with a first commit."""
    path = Path(path).resolve()
    _git(path, "init", "-q")
    (path / ".gitignore").write_text(f"{LOCK_FILE}\n*.tmp\n", encoding="utf-8")
    return commit(path, message)


def remove_turn(campaign, n: int) -> int:
    """Take turn `n`'s outputs off the disk (its orders and gm.yaml stay, so it
    can be run again); returns how many files were removed. Its state.yaml goes
    first: from then on the turn counts as unresolved, even if interrupted."""
    from pbp import turn

    paths = turn.undo_paths(campaign, n)
    (campaign.turn_dir(n) / "state.yaml").unlink()
    for path in paths:
        path.unlink(missing_ok=True)
    private = campaign.turn_dir(n) / "private"
    if private.is_dir() and not any(private.iterdir()):
        private.rmdir()
    return len(paths)
