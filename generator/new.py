"""``deckwright new PATH``: a small working game, written from the template shipped as package data.

The template (``templates/new-game/``, read through importlib.resources, so it works from an installed
wheel) is a made-up two-player duel whose every file explains itself; ``__TITLE__`` (YAML-quoted),
``__TITLE_TEXT__`` (as typed), ``__SLUG__`` and ``__FOLDER__`` in it are filled in here.
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from deckwright.rules.data.names import id_problem
from deckwright.rules.problems import printable

TEMPLATE_PACKAGE, TEMPLATE_FOLDER = "deckwright.templates", "new-game"
DEFAULT_SLUG = "my-game"
TEXT_SUFFIXES = {".yaml", ".md", ".py", ".csv", ".jsonl"}


class NewGameError(Exception):
    """Why the game cannot be written there, as one line."""


@dataclass(frozen=True)
class NewGame:
    folder: Path
    title: str
    slug: str
    files: tuple[Path, ...]


def slug_for(name: str) -> str:
    """A game id from a folder name or title: ``My Game!`` -> ``my-game``."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")
    return slug if slug and not id_problem(slug) else DEFAULT_SLUG


def title_for(folder: Path) -> str:
    words = re.sub(r"[-_]+", " ", folder.resolve().name).strip()
    return words[:1].upper() + words[1:] if words else "My Game"


def write_new_game(folder: Path, title: str | None = None, shown: str | None = None) -> NewGame:
    """The template game written into ``folder`` (made if missing); NewGameError if it holds anything."""
    folder = Path(folder)
    if folder.exists() or folder.is_symlink():
        if not folder.is_dir():
            raise NewGameError(f"{shown or folder} exists and is not a folder; name a new or empty folder")
        if any(folder.iterdir()):
            raise NewGameError(f"{shown or folder} is not empty; deckwright new writes only into a new or empty folder")
    title = " ".join((title or title_for(folder)).split()) or "My Game"  # one line: it heads pages and backs
    slug = slug_for(folder.resolve().name if folder.resolve().name else title)
    fill = {"__TITLE_TEXT__": title, "__TITLE__": json.dumps(title, ensure_ascii=False), "__SLUG__": slug,
            # the README and game.yaml say to run it "from the folder above this one": there it is its own name
            "__FOLDER__": shlex.quote(printable(folder.resolve().name))}
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for relative, data in _template_files(resources.files(TEMPLATE_PACKAGE).joinpath(TEMPLATE_FOLDER)):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.suffix in TEXT_SUFFIXES:
            data = _filled(data.decode("utf-8"), fill).encode("utf-8")
        with open(target, "xb") as handle:  # never over a file: the folder was empty
            handle.write(data)
        written.append(target)
    return NewGame(folder, title, slug, tuple(written))


def _template_files(node, prefix: Path = Path()):
    """(relative path, bytes) of every file of the template, in name order."""
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name == "__pycache__" or child.name.startswith("."):
            continue
        if child.is_dir():
            yield from _template_files(child, prefix / child.name)
        else:
            yield prefix / child.name, child.read_bytes()


def _filled(text: str, fill: dict[str, str]) -> str:
    return re.sub("|".join(re.escape(key) for key in fill), lambda m: fill[m.group(0)], text)
