"""A persistent cache of ``deckwright check``'s layout problems, one entry a game, as pytest and mypy keep theirs.

Laying out every face to find text that overflows its box is most of what ``check`` spends. When nothing the
layout check reads has changed since the last run, the problems it found then are reused. The key is a SHA-256
of all it reads:

- every file in the game folder: its content (a file over ``HASHED_BYTES``: its size and modification time;
  a link: where it points, never followed);
- deckwright's own code, layouts and fonts (path, size and modification time of each file), and the versions of
  Python, Jinja2, ReportLab and Pillow;
- whether the game's own code runs, the game folder's path and the working folder (messages name files relative
  to it).

A face can read any card of its game (``referring``, ``game.cards_of``, the ``card_of`` filter) and the values
its rules module computes, so a key per face, from that card's data alone, would miss what it read: the whole
game is one entry.

The entries live in ``.deckwright-cache/`` in the working folder, which carries a CACHEDIR.TAG: ``check --cache``
makes it, and every later check run in that folder uses it (``check`` alone writes nothing). Never inside a game
folder (a check run there caches nothing), never in a ``.deckwright-cache`` deckwright did not make. An entry
that does not parse, has another format or another key is ignored and written anew; nothing is deleted.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path

from deckwright.rules.problems import Loc, Problem

CACHE_FOLDER = ".deckwright-cache"
ENTRIES = "check-layout"
FORMAT = "deckwright check layout cache 1"
TAG = "CACHEDIR.TAG"
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by deckwright (deckwright check's layout problems).\n"
            "# For information about cache directory tags see https://bford.info/cachedir/\n")
HASHED_BYTES = 16 * 2**20  # files up to this size are hashed whole; larger ones by size and modification time
SKIPPED_FOLDERS = frozenset({"__pycache__", ".git"})  # written by running the game's code, or by Git: not read


def cache_folder(games: list[Path], create: bool, here: Path | None = None) -> Path | None:
    """Where the entries go: ``.deckwright-cache/check-layout`` in the working folder, when that cache exists or
    ``create`` (``check --cache``) asks for it; None (no caching) when it is inside one of ``games`` or is a
    ``.deckwright-cache`` deckwright did not make."""
    here = (here or Path.cwd()).resolve()
    if any(here.is_relative_to(game.resolve()) for game in games):
        return None
    top = here / CACHE_FOLDER
    try:
        if top.is_symlink() or (top / ENTRIES).is_symlink():
            return None
        if top.exists():
            return top / ENTRIES if (top / TAG).is_file() else None
    except OSError:
        return None
    return top / ENTRIES if create else None


def install_digest() -> str:
    """deckwright's own files (path, size, modification time) and the versions of what lays faces out."""
    import jinja2
    import PIL
    import reportlab

    from deckwright.generator import PROJECT_ROOT, TEMPLATES

    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0{jinja2.__version__}\0{reportlab.Version}\0"
                            f"{PIL.__version__}\0".encode())
    for top in (PROJECT_ROOT / "generator", PROJECT_ROOT / "rules", TEMPLATES):
        _walk(top, digest, content=False)
    return digest.hexdigest()


def game_key(folder: Path, install: str, run_code: bool) -> str | None:
    """The key of one game's layout problems; None when a file in the folder cannot be read."""
    digest = hashlib.sha256(f"{install}\0{run_code}\0{folder}\0{Path.cwd()}\0".encode("utf-8", "surrogateescape"))
    try:
        _walk(folder, digest, content=True)
    except OSError:
        return None
    return digest.hexdigest()


def _walk(top: Path, digest, content: bool) -> None:
    """Every file under ``top`` into ``digest``, in a fixed order; links are named, not followed."""
    for folder, folders, files in os.walk(top):
        folders[:] = sorted(name for name in folders if name not in SKIPPED_FOLDERS)
        for name in sorted(files) + [name for name in folders if os.path.islink(os.path.join(folder, name))]:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            digest.update(os.path.relpath(path, top).encode("utf-8", "surrogateescape") + b"\0")
            if stat.S_ISLNK(info.st_mode):
                digest.update(b"link\0" + os.fsencode(os.readlink(path)) + b"\0")
            elif not stat.S_ISREG(info.st_mode):  # a pipe or a device: never opened
                digest.update(f"special {info.st_mode}\0".encode())
            elif content and info.st_size <= HASHED_BYTES:
                with open(path, "rb") as handle:
                    digest.update(hashlib.sha256(handle.read()).digest())
            else:
                digest.update(f"{info.st_size} {info.st_mtime_ns}\0".encode())


def _entry(cache: Path, folder: Path, run_code: bool) -> Path:
    """One file a game folder (as reached from this working folder) and way of checking it."""
    name = f"{folder.resolve()}\0{Path.cwd()}\0{run_code}"
    return cache / f"{hashlib.sha256(name.encode('utf-8', 'surrogateescape')).hexdigest()[:32]}.json"


def read(cache: Path, folder: Path, run_code: bool, key: str) -> list[Problem] | None:
    """The problems stored for ``folder`` under ``key``; None when there are none (or the entry is not one)."""
    try:
        data = json.loads(_entry(cache, folder, run_code).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("key") != key:
            return None
        return [_problem(item) for item in data["problems"]]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):  # missing, damaged or foreign: not used
        return None


def _problem(item: list) -> Problem:
    file, line, col, cell, message, severity, detail = item
    if not (all(isinstance(v, str) for v in (file, cell, message, severity, detail))
            and all(type(v) is int for v in (line, col)) and severity in ("error", "warning")):
        raise ValueError("not a stored problem")
    return Problem(Loc(file, line, col, cell), message, severity, detail)


def write(cache: Path, folder: Path, run_code: bool, key: str, problems: list[Problem]) -> None:
    """Stores ``problems`` for ``folder`` under ``key`` (written whole, then moved into place); a folder that
    cannot be written leaves things as they are."""
    items = [[p.loc.file, p.loc.line, p.loc.col, p.loc.cell, p.message, p.severity, p.detail] for p in problems]
    text = json.dumps({"format": FORMAT, "key": key, "problems": items}, ensure_ascii=False)
    try:
        _make_folder(cache)
        entry = _entry(cache, folder, run_code)
        partial = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, entry)
    except OSError:
        pass


def _make_folder(cache: Path) -> None:
    top = cache.parent
    try:
        top.mkdir()
        (top / TAG).write_text(TAG_TEXT, encoding="utf-8")
    except FileExistsError:  # made before, or by another worker of this run just now
        pass
    cache.mkdir(exist_ok=True)
