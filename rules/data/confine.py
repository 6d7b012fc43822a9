"""The one gate for every file deckwright reads from, or writes into, a game folder.

A game folder is untrusted: any file in it may be a link to somewhere else, a
folder, a named pipe that blocks whoever opens it, or far too large. Every read
(``game.yaml``, card files, rulebook pages, layouts and ``icons.yaml``, pictures,
golden logs) goes through ``read_confined`` and every write into a game folder
(golden logs) through ``write_confined``:

- the path is resolved, links followed, and must stay inside ``root``; no part of its name may be longer than
  a file name can be (pathlib's ``is_file()`` raises for one, where it returns False for a missing file);
- only regular files are read (never a folder, device or pipe; the file is
  opened without blocking, so a pipe swapped in at the last moment cannot hang it);
- at most ``max_bytes`` are read.

Problems come back as ``FileRefused`` with the sentence a user sees.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 1024 * 1024  # game.yaml, layouts, Markdown and golden logs
MAX_CARD_FILE_BYTES = 64 * 1024 * 1024  # card data: a YAML, CSV or XLSX file of 100,000 cards
MAX_IMAGE_BYTES = 32 * 1024 * 1024  # card art
NAME_MAX = 255  # bytes of one file or folder name, on Linux, macOS and Windows alike
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class FileRefused(Exception):
    """A file deckwright will not read or write; ``message`` says why, for ``file:line:col: message``."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _size_text(size: int) -> str:
    if size % 2**20 == 0:
        return f"{size // 2**20} MB"
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{size / 2**10:.0f} kB"


def long_name_problem(path: Path) -> str | None:
    """Why no file can have this path's name (a part of it longer than NAME_MAX bytes), or None."""
    for part in Path(path).parts:
        size = len(part.encode("utf-8", "surrogatepass"))
        if size > NAME_MAX:
            return f"the file name '{part[:40]}...' is {size:,} bytes long; a file name has at most {NAME_MAX}"
    return None


def confined(root: Path, path: Path) -> Path:
    """``path`` resolved (links followed); FileRefused unless it stays inside ``root``."""
    problem = long_name_problem(path)
    if problem:
        raise FileRefused(problem)
    try:
        resolved = Path(path).resolve()
        inside = resolved.is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError, ValueError) as exc:  # a link loop, a NUL byte in the name
        raise FileRefused(f"cannot read file: {getattr(exc, 'strerror', None) or exc}") from None
    if not inside:
        raise FileRefused("file links outside the game folder; deckwright reads only files inside it")
    return resolved


def is_confined(root: Path, path: Path) -> bool:
    try:
        confined(root, path)
        return True
    except FileRefused:
        return False


def read_confined(root: Path, path: Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file inside ``root``, at most ``max_bytes`` of them; else FileRefused."""
    resolved = confined(root, path)
    try:
        info = os.stat(resolved)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("not a regular file (a folder, device or pipe); deckwright reads plain files")
        _check_size(info.st_size, max_bytes)
        descriptor = os.open(resolved, _READ_FLAGS)
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())  # the file actually opened, in case it was swapped after the check
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("not a regular file (a folder, device or pipe); deckwright reads plain files")
        data = handle.read(max_bytes + 1)
    _check_size(len(data), max_bytes)
    return data


def _check_size(size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise FileRefused(f"file is {_size_text(size)}; deckwright reads files of at most {_size_text(max_bytes)}")


def write_confined(root: Path, path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` inside ``root`` atomically (a temporary file, then a rename).

    Every folder on the way is created inside ``root`` or must already resolve inside it, and an existing
    ``path`` must be a regular file: a link at ``path`` or on the way to it cannot redirect the write.
    """
    root = Path(root).resolve()
    target = Path(path)
    folder = target.parent
    missing = []
    while not folder.exists() and not folder.is_symlink():
        missing.append(folder)
        folder = folder.parent
    folder = confined(root, folder)
    if not folder.is_dir():
        raise FileRefused(f"cannot write {target.name}: {folder.name} is not a folder")
    for part in reversed(missing):
        folder = folder / part.name
        try:
            folder.mkdir()
        except OSError as exc:
            raise FileRefused(f"cannot write {target.name}: {exc.strerror or exc}") from None
    final = folder / target.name
    if final.is_symlink() or (final.exists() and not final.is_file()):
        raise FileRefused(f"cannot write {target.name}: a link, folder or device is in the way; "
                          "deckwright writes only plain files")
    temporary = final.with_name(final.name + ".tmp")
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        descriptor = os.open(temporary, flags, 0o644)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, final)
    except OSError as exc:
        if temporary.is_file() and not temporary.is_symlink():
            temporary.unlink()
        raise FileRefused(f"cannot write {target.name}: {exc.strerror or exc}") from None
