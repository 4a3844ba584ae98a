"""The campaign's git history: one commit per turn, and undoing turns.

pbp only ever stages and commits the campaign's own folder, so a campaign kept
inside a bigger repository does not sweep up unrelated changes.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from collections.abc import Iterable
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


def commit(path: Path, message: str, turns_from: int | None = None, also: Iterable[str] = ()) -> str | None:
    """Commit what changed in the campaign folder `path` (and nothing else of the
    repository it is in); the new commit's id, or None when there was nothing to
    commit.

    What is staged (`_scope`): the whole folder; or, given `turns_from` (the
    everyday commands: `pbp run`, `post`, `undo`), everything but the turn
    folders before `turns_from`, and the paths `also` names. `git add -A -- .`
    would look at every file of every turn, a cost that grows with the archive
    (about 65 ms of CPU at 500 turns), where a turn's commit is a few files; the
    older turns are those the commands no longer look at either (their hand
    edits are for `pbp verify` to say: docs/design.md, "The turn's commit").

    Then `diff --cached`, what is staged: nothing, None. When the campaign is its
    repository's top and nothing is staged that pbp never archives, the commit is
    written with git's plumbing (`_commit_index`): `git commit` would look at every
    file of the archive again (about 70 ms at 500 turns). Otherwise, as in a
    campaign kept inside a bigger repository, `git commit` of the staged paths
    alone, the id read from its summary line (a detached HEAD shows there: said,
    with the commit made). Only when the commit fails is git asked why: no
    identity configured (committed again with pbp's), or an error, said as one."""
    path = Path(path).resolve()
    try:
        added = _git(path, "add", "-A", *_scope(path, turns_from, also), check=False)
    except FileNotFoundError:  # git not installed
        return None
    # 1: a path named is one .gitignore lists; the others are staged (a failure is fatal: 128)
    if added.returncode not in (0, 1):
        if repository(path) is None:
            return None
        raise _failed(("add", "-A"), added)
    top = (path / ".git").exists()  # the campaign is its repository's top: the index is the campaign's
    listed = _git(path, "diff", "--cached", "--name-only", "--no-renames", "-z",
                  *(() if top else ("--relative", *_EVERYTHING))).stdout
    staged = [rel for rel in listed.split("\0") if rel]
    kept = [rel for rel in staged if not never_archived(rel)]
    if not kept:
        return None
    if top and kept == staged:
        made = _commit_index(path, message)
        if made:
            return made
    return _commit_paths(path, message, kept)


#: the pathspec of the whole campaign folder, less what git must never archive: the lock
#: of the run in progress (a pattern, not its name: git refuses a pathspec naming a file
#: .gitignore lists), `pbp preview` pages (made again from the archive at will; the MJ's
#: shows secrets), the dice secret even where the MJ took it out of .gitignore
#: (pbp/engine/secret.py): `secret.yam[l]`, a pattern that names that file only
_EVERYTHING = ("--", ".", f":(exclude,glob)**/{LOCK_FILE}", f":(exclude,glob)turns/*/{_PREVIEW_GLOB}",
               f":(exclude,glob){SECRET_FILE[:-1]}[{SECRET_FILE[-1]}]")


def never_archived(rel: str) -> bool:
    """A path of the campaign (with /) that `_EVERYTHING` leaves out."""
    parts = rel.split("/")
    return (parts[-1] == LOCK_FILE or rel == SECRET_FILE
            or (len(parts) == 3 and parts[0] == "turns" and seal.is_preview_page(parts[2])))


def _scope(path: Path, turns_from: int | None, also: Iterable[str]) -> tuple[str, ...]:
    """The pathspec `commit` stages. Given `turns_from`: each entry at the top of
    the campaign but the turn folders, the lock and the secret; the turn folders
    from `turns_from` on (less their preview pages); the paths `also` names. Each
    by its name (a pattern would have git look through every folder): git
    refuses a name .gitignore lists, but stages the others (exit status 1)."""
    if turns_from is None:
        return _EVERYTHING
    names = []
    with os.scandir(path) as listing:
        top = sorted(entry.name for entry in listing)
    for name in top:
        if name not in (".git", "turns", LOCK_FILE, SECRET_FILE) and not fnmatch.fnmatch(name, "*.tmp"):
            names.append(f":(literal){name}")
    turns = path / "turns"
    if turns.is_dir():
        with os.scandir(turns) as listing:
            later = sorted(entry.name for entry in listing if entry.name.isascii() and entry.name.isdigit()
                           and int(entry.name) >= turns_from and entry.is_dir(follow_symlinks=False))
        for name in later:
            names += [f":(literal)turns/{name}", f":(exclude,glob)turns/{name}/{_PREVIEW_GLOB}"]
    names += [f":(literal){rel}" for rel in also]
    return ("--", *names)


def _commit_index(path: Path, message: str) -> str | None:
    """Commit the whole index on the current branch with git's plumbing
    (write-tree, commit-tree, update-ref: the same commit `git commit` makes,
    with no look at the work tree); its short id. None, nothing done, when HEAD
    is not a branch with a commit: `git commit` says what there is to say."""
    head = _git(path, "rev-parse", "HEAD", "--symbolic-full-name", "HEAD", check=False)
    found = head.stdout.split()
    if head.returncode != 0 or len(found) != 2 or not found[1].startswith("refs/heads/"):
        return None
    parent, branch = found
    tree = _git(path, "write-tree").stdout.strip()
    args = ("commit-tree", tree, "-p", parent, "-m", message)
    made = _git(path, *args, check=False)
    if made.returncode != 0:
        identity = _identity(path)
        if not identity:
            raise _failed(args, made)
        made = _git(path, *identity, *args)
    sha = made.stdout.strip()
    # the reflog line `git commit` writes; the branch moves only from the commit it was on
    _git(path, "update-ref", "-m", f"commit: {message.splitlines()[0] if message else ''}", branch, sha, parent)
    return _git(path, "rev-parse", "--short", sha).stdout.strip()


def _commit_paths(path: Path, message: str, paths: list[str]) -> str:
    """`git commit` of `paths` alone (relative to the campaign folder); its short id."""
    # the paths as git wrote them, read literally (a file name may start with `:`)
    commit_args = ("--literal-pathspecs", "commit", "-m", message, "--pathspec-from-file=-", "--pathspec-file-nul")
    staged = "\0".join(paths)
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
    for name in ("private", "rules"):  # the private reports' folder, the rules files' copies (rules_record)
        emptied = folder / name
        if emptied.is_dir() and not any(emptied.iterdir()):
            emptied.rmdir()
    return len(paths)
