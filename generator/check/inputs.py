"""Everything ``deckwright check`` reads to check one game, as one SHA-256 key: while the key is the same, so is
what the check prints.

- every file in the game folder by its content: card files, pages and their golden logs, layouts, fonts,
  pictures, readings, the game's own rules module (a file over ``HASHED_BYTES``: its size and modification time;
  a link: where it points, never followed);
- deckwright's own files, its code (with the bundled games' rules modules and rulings), layouts and fonts: path,
  size and modification time of each, as pytest and mypy key theirs (an edit, a checkout or an install changes
  the time);
- the version of Python and of every library installed beside deckwright (the names of the distributions on
  ``sys.path``, which carry their versions), and ReportLab's settings files in the home folder;
- how the game is checked: whether its own code runs, ``--traceback``, the game folder as named and the working
  folder (messages name files relative to it).

A face can read any card of its game and the values its rules module computes, and an example any card and
rule, so nothing finer than the whole game is safe: a game is one key.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

from deckwright.rules.data.walk import walk

FORMAT = "deckwright check output 1"  # a new format makes every key new
HASHED_BYTES = 16 * 2**20  # files up to this size are hashed whole; larger ones by size and modification time
SKIPPED_FOLDERS = frozenset({"__pycache__", ".git"})  # written by running the game's code, or by Git: not read
DISTRIBUTION_SUFFIXES = (".dist-info", ".egg-info", ".egg-link", ".pth")
REPORTLAB_SETTINGS = (".reportlab_settings", ".reportlab_mods")  # read by ReportLab when it starts


def install_digest() -> str:
    """deckwright's own files, Python and the libraries installed (the same for every game of a run)."""
    from deckwright.generator import PROJECT_ROOT, TEMPLATES

    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0{sys.executable}\0".encode("utf-8", "surrogateescape"))
    for name in _distributions():
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
    for top in (PROJECT_ROOT / "generator", PROJECT_ROOT / "rules", TEMPLATES):
        _walk(top, digest, content=False)
    home = Path.home()
    for name in REPORTLAB_SETTINGS:
        _add_file(home / name, name, digest, content=True)
    return digest.hexdigest()


def _distributions() -> list[str]:
    """The installed distributions' metadata folders (``PyYAML-6.0.2.dist-info``) and path files, in order."""
    names = []
    for entry in sys.path:
        try:
            names += [f"{entry}/{name}" for name in sorted(os.listdir(entry or "."))
                      if name.endswith(DISTRIBUTION_SUFFIXES)]
        except OSError:  # a zip file or a folder that is gone
            continue
    return names


def game_key(folder: Path, install: str, run_code: bool, traceback: bool) -> str | None:
    """The key of one game's check; None when a file in the folder cannot be read."""
    how = f"{install}\0{run_code}\0{traceback}\0{folder}\0{Path.cwd()}\0"
    digest = hashlib.sha256(how.encode("utf-8", "surrogateescape"))
    try:
        _walk(folder, digest, content=True)
    except OSError:
        return None
    return digest.hexdigest()


def _walk(top: Path, digest, content: bool) -> None:
    """Every file under ``top`` into ``digest``, in a fixed order, named from ``top``; links are named, not
    followed."""
    for entry, name in walk(top, enter=lambda folder: folder not in SKIPPED_FOLDERS):
        if not entry.is_dir(follow_symlinks=False):
            _add_file(entry.path, name, digest, content)


def _add_file(path: str | Path, name: str, digest, content: bool) -> None:
    """One file (or its absence) into ``digest``: by content when ``content`` and not too large, else by size
    and modification time."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0absent\0")
        return
    digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
    if stat.S_ISLNK(info.st_mode):
        digest.update(b"link\0" + os.fsencode(os.readlink(path)) + b"\0")
    elif not stat.S_ISREG(info.st_mode):  # a pipe or a device: never opened
        digest.update(f"special {info.st_mode}\0".encode())
    elif content and info.st_size <= HASHED_BYTES:
        with open(path, "rb") as handle:
            digest.update(hashlib.sha256(handle.read()).digest())
    else:
        digest.update(f"{info.st_size} {info.st_mtime_ns}\0".encode())
