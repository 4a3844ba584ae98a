"""A folder held in memory: an audited bundle's members, read as a campaign folder.

`pbp audit` replays a stranger's archive without writing it to disk: the
bundle's files stay in a dict, and `MemoryPath` gives the reading code of
`pbp verify` (pbp.engine, pbp.render) the part of
`pathlib.Path` it uses on a campaign folder: joining, names, existence,
listing, reading. Nothing here touches the file system: a MemoryPath has no
`__fspath__`, so `open()` or `os.stat()` given one fails instead of reading a
real file of the same name. Every file is a regular file (the audit refuses
any other member); folders are the ones its files' paths imply.
"""

from __future__ import annotations

import fnmatch
import stat
from pathlib import PurePosixPath
from typing import NamedTuple


class MemoryStat(NamedTuple):
    st_mode: int
    st_size: int


class MemoryTree:
    """Files by path with / (relative to the tree's top) -> bytes."""

    def __init__(self, files: dict[str, bytes], label: str):
        self.files = files
        self.label = label  # what the tree is, as str() shows it: the bundle's path
        self.children: dict[tuple, set[str]] = {(): set()}
        for rel in files:
            parts = tuple(rel.split("/"))
            for depth in range(len(parts)):
                self.children.setdefault(parts[:depth], set()).add(parts[depth])

    def root(self) -> "MemoryPath":
        return MemoryPath(self, ())


class MemoryPath:
    """A path in a MemoryTree, read like a pathlib.Path."""

    __slots__ = ("tree", "parts")

    def __init__(self, tree: MemoryTree, parts: tuple):
        self.tree = tree
        self.parts = parts

    # -- names -------------------------------------------------------------------
    def joinpath(self, *others) -> "MemoryPath":
        parts = list(self.parts)
        for other in others:
            for piece in str(other).split("/"):
                if piece in ("", "."):
                    continue
                if piece == "..":  # a template name never holds one (jinja2 refuses it); kept inside anyway
                    if parts:
                        parts.pop()
                    continue
                parts.append(piece)
        return MemoryPath(self.tree, tuple(parts))

    __truediv__ = joinpath

    @property
    def name(self) -> str:
        return self.parts[-1] if self.parts else ""

    @property
    def suffix(self) -> str:
        return PurePosixPath(self.name).suffix if self.name else ""

    @property
    def stem(self) -> str:
        return PurePosixPath(self.name).stem if self.name else ""

    @property
    def parent(self) -> "MemoryPath":
        return MemoryPath(self.tree, self.parts[:-1])

    @property
    def parents(self) -> list["MemoryPath"]:
        return [MemoryPath(self.tree, self.parts[:depth]) for depth in range(len(self.parts) - 1, -1, -1)]

    def relative_to(self, other: "MemoryPath") -> PurePosixPath:
        if not self.is_relative_to(other):
            raise ValueError(f"{self} is not in {other}")
        return PurePosixPath(*self.parts[len(other.parts):])

    def is_relative_to(self, other) -> bool:
        return isinstance(other, MemoryPath) and other.tree is self.tree and \
            self.parts[:len(other.parts)] == other.parts

    def resolve(self) -> "MemoryPath":
        return self  # no links in a tree

    def __str__(self) -> str:
        return "/".join((self.tree.label, *self.parts))

    def __repr__(self) -> str:
        return f"MemoryPath({str(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, MemoryPath) and other.tree is self.tree and other.parts == self.parts

    def __hash__(self) -> int:
        return hash((id(self.tree), self.parts))

    def __lt__(self, other: "MemoryPath") -> bool:
        return self.parts < other.parts

    # -- what is there -----------------------------------------------------------
    @property
    def _rel(self) -> str:
        return "/".join(self.parts)

    def is_file(self) -> bool:
        return self._rel in self.tree.files

    def is_dir(self) -> bool:
        return self.parts in self.tree.children

    def exists(self) -> bool:
        return self.is_file() or self.is_dir()

    def is_symlink(self) -> bool:
        return False

    def stat(self) -> MemoryStat:
        if self.is_file():
            return MemoryStat(stat.S_IFREG | 0o644, len(self.tree.files[self._rel]))
        if self.is_dir():
            return MemoryStat(stat.S_IFDIR | 0o755, 0)
        raise FileNotFoundError(str(self))

    lstat = stat

    def iterdir(self):
        if not self.is_dir():
            raise (NotADirectoryError if self.is_file() else FileNotFoundError)(str(self))
        return (MemoryPath(self.tree, self.parts + (name,)) for name in sorted(self.tree.children[self.parts]))

    def glob(self, pattern: str) -> list["MemoryPath"]:
        """The entries of this folder whose name matches `pattern` (one level: no `/` nor `**`)."""
        return [p for p in self.iterdir() if fnmatch.fnmatchcase(p.name, pattern)] if self.is_dir() else []

    def rglob(self, pattern: str) -> list["MemoryPath"]:
        """Every file and folder below this one whose name matches `pattern`."""
        found, pending = [], [self] if self.is_dir() else []
        while pending:
            for entry in pending.pop().iterdir():
                if fnmatch.fnmatchcase(entry.name, pattern):
                    found.append(entry)
                if entry.is_dir():
                    pending.append(entry)
        return sorted(found)

    def files_below(self) -> dict[str, bytes]:
        """Every file below this folder: path with / from here -> bytes."""
        prefix = self._rel + "/" if self.parts else ""
        return {rel[len(prefix):]: data for rel, data in self.tree.files.items() if rel.startswith(prefix)}

    # -- reading -----------------------------------------------------------------
    def read_bytes(self) -> bytes:
        try:
            return self.tree.files[self._rel]
        except KeyError:
            raise (IsADirectoryError if self.is_dir() else FileNotFoundError)(str(self)) from None

    def read_text(self, encoding: str = "utf-8", errors: str = "strict") -> str:
        return self.read_bytes().decode(encoding, errors)


def is_memory(path) -> bool:
    return isinstance(path, MemoryPath)
