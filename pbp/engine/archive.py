"""The campaign's git history: one commit per turn, and undoing turns.

pbp only ever stages and commits the campaign's own folder, so a campaign kept
inside a bigger repository does not sweep up unrelated changes.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from pbp.engine import seal
from pbp.engine.campaign import LOCK_FILE, SECRET_FILE

# `pbp preview` pages, as pbp/engine/seal.py leaves them out of a turn's code (`is_preview_page`)
_PREVIEW_GLOB = f"{seal.PREVIEW_PREFIX}*{seal.PREVIEW_SUFFIX}"

#: what git must never archive of a campaign: the lock of a run in progress, a write
#: cut short, the dice secret (pbp/engine/secret.py), `pbp preview` pages (made again at will)
IGNORED = (LOCK_FILE, "*.tmp", SECRET_FILE, f"turns/*/{_PREVIEW_GLOB}")

# Used only when the machine has no git identity configured.
FALLBACK_IDENTITY = ["-c", "user.name=pbp", "-c", "user.email=pbp@localhost"]


def _git(root: Path, *args: str, check: bool = True, stdin: str | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, input=stdin)
    if check and done.returncode != 0:
        raise _failed(args, done)
    return done


def _failed(args, done: subprocess.CompletedProcess):
    """git's refusal, whole, with what to do where pbp knows it."""
    from pbp.base.errors import GitError

    said = done.stderr.strip() or done.stdout.strip()
    command = "git " + " ".join(args[:2])
    lock = re.search(r"'([^']*index\.lock)'", said)
    if lock:  # a git killed mid-way (or another one running) left its lock
        return GitError("git_index_lock", command=command, lock=lock.group(1), said=said)
    if "dubious ownership" in said:
        return GitError("git_dubious_ownership", command=command, said=said)
    return GitError("git_failed", command=command, said=said)


def installed() -> bool:
    import shutil

    return shutil.which("git") is not None


def repository(path: Path) -> Path | None:
    """The git work tree holding `path`, or None."""
    try:
        done = _git(path, "rev-parse", "--show-toplevel", check=False)
    except FileNotFoundError:  # git not installed
        return None
    if done.returncode != 0 and "dubious ownership" in done.stderr:
        # a repository git refuses to work in (another user's): not "no repository"
        raise _failed(("rev-parse", "--show-toplevel"), done)
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def _identity(root: Path) -> list[str]:
    has = _git(root, "config", "user.email", check=False).stdout.strip()
    return [] if has else FALLBACK_IDENTITY


#: `git commit`'s summary line: `[main 1a2b3c4] Tour 3`, `[main (root-commit) 1a2b3c4] ...`
#: (a branch name has no space, so the first ` <hex>] ` is the commit's)
_SUMMARY = re.compile(r"^\[.*? ([0-9a-f]{4,64})\] ")


def commit(path: Path, message: str) -> str | None:
    """Commit everything under the campaign folder `path` (and nothing else of
    the repository it is in); the new commit's id, or None when there was
    nothing to commit.

    Three git processes when all goes well: `add`, limited to the folder
    (pathspec `.` from it) without the lock of the run in progress; `diff
    --cached`, the paths staged there; and `commit` of those paths alone, the
    id read from its summary line (a detached HEAD shows there: said, with the
    commit made, rather than asked of git before). Not `commit -- .`: a commit given a folder
    reads every file under it again, a cost that grows with the archive (about
    0.3 s at 500 turns), where the paths staged are a turn's few files. Only
    when the commit fails is git asked why: no identity configured (committed
    again with pbp's), or an error, said as one. Nothing staged: None."""
    path = Path(path).resolve()
    # the lock of the run in progress is never part of the history; a pattern, not
    # its name: git refuses a pathspec naming a file .gitignore lists
    # nor are `pbp preview` pages (made again from the archive at will; the MJ's shows secrets)
    # nor the dice secret, even where the MJ took it out of .gitignore (pbp/engine/secret.py):
    # `secret.yam[l]`, a pattern that names that file only, as git accepts it
    spec = ("--", ".", f":(exclude,glob)**/{LOCK_FILE}", f":(exclude,glob)turns/*/{_PREVIEW_GLOB}",
            f":(exclude,glob){SECRET_FILE[:-1]}[{SECRET_FILE[-1]}]")
    try:
        added = _git(path, "add", "-A", *spec, check=False)
    except FileNotFoundError:  # git not installed
        return None
    if added.returncode != 0:
        if repository(path) is None:
            return None
        raise _failed(("add", "-A"), added)
    staged = _git(path, "diff", "--cached", "--name-only", "--no-renames", "-z", "--relative", *spec).stdout
    if not staged.strip("\0"):
        return None
    # the paths as git wrote them, read literally (a file name may start with `:`)
    commit_args = ("--literal-pathspecs", "commit", "-m", message, "--pathspec-from-file=-", "--pathspec-file-nul")
    done = _git(path, *commit_args, check=False, stdin=staged)
    if done.returncode != 0:
        identity = _identity(path)
        if not identity:
            raise _failed(("commit", "-m"), done)
        done = _git(path, *identity, *commit_args, stdin=staged)
    found = _SUMMARY.match(done.stdout)
    made = found.group(1) if found else _git(path, "rev-parse", "--short", "HEAD").stdout.strip()
    if done.stdout.startswith("[detached HEAD "):  # git's summary: `[detached HEAD 1a2b3c4] Tour 3`
        from pbp.base.errors import GitError

        raise GitError("git_detached_head", head=made)
    return made


def changed_since_commit(root: Path, folder: str) -> list[str] | None:
    """The files under `folder` of the campaign at `root` that differ from its last
    commit (edited, removed or added by hand since), as paths relative to `root`;
    None when there is nothing to compare with (no git, no repository, no commit)."""
    try:
        done = _git(root, "diff", "--name-only", "--no-renames", "-z", "--relative", "HEAD", "--", folder,
                    check=False)
    except FileNotFoundError:  # git not installed
        return None
    if done.returncode != 0:
        return None
    return [rel for rel in done.stdout.split("\0") if rel]


def init(path: Path, message: str) -> str | None:
    """Make a new campaign folder its own repository, with a first commit."""
    path = Path(path).resolve()
    _git(path, "init", "-q")
    ignore(path)
    return commit(path, message)


def ignore(root: Path) -> None:
    """The campaign's .gitignore lists what git must never archive (`IGNORED`); the
    lines already there stay as the MJ wrote them."""
    from pbp.engine.campaign import atomic_write

    path = root / ".gitignore"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    have = {line.strip() for line in text.splitlines()}
    missing = [pattern for pattern in IGNORED if pattern not in have]
    if missing:
        atomic_write(path, text + ("" if not text or text.endswith("\n") else "\n") + "\n".join(missing) + "\n")


def remove_turn(campaign, n: int) -> int:
    """Take turn `n`'s outputs off the disk (its orders and gm.yaml stay, so it
    can be run again), and its `pbp preview` pages (they show a turn that is no
    more); returns how many files were removed. Its state.yaml goes first: from
    then on the turn counts as unresolved, even if interrupted."""
    from pbp.engine import turn

    folder = campaign.turn_dir(n)
    paths = turn.undo_paths(campaign, n)
    with os.scandir(folder) as listing:
        paths += sorted(folder / entry.name for entry in listing
                        if seal.is_preview_page(entry.name) and not entry.is_dir(follow_symlinks=False))
    (folder / "state.yaml").unlink()
    for path in paths:
        path.unlink(missing_ok=True)
    private = folder / "private"
    if private.is_dir() and not any(private.iterdir()):
        private.rmdir()
    return len(paths)
