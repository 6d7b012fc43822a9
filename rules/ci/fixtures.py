"""A game folder with made-up content laid over it, for random play where a source leaves decks or values open.

The tests and the benchmark play every bundled game; where the source leaves a deck open, a fixture folder
supplies made-up cards (never part of the game). ``random_play_setups`` reads the table that says, per game,
which fixture folder to lay over it and which options its random play needs.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml


@dataclass(frozen=True)
class RandomPlaySetup:
    game: str  # the bundled game's folder name
    overlay: Path | None  # a folder whose files are copied over the game's
    options: dict = field(default_factory=dict)
    games: int = 20  # seeded games the conformance suite plays
    max_actions: int = 5_000  # the most actions a game may take to end


def random_play_setups(table: Path) -> list[RandomPlaySetup]:
    """The table's entries; ``overlay`` names a folder beside the table."""
    data = yaml.safe_load(table.read_text(encoding="utf-8")) or {}
    return [RandomPlaySetup(name, table.parent / entry["overlay"] if entry.get("overlay") else None,
                            entry.get("options") or {}, entry.get("games", 20), entry.get("max_actions", 5_000))
            for name, entry in data.items()]


def load_overlaid(folder: Path, overlay: Path, target: Path):
    """The game of ``folder`` with ``overlay``'s files laid over a copy of it at ``target``; InvalidGame names
    each problem's file where the user keeps it (the overlay's, else the game's), not the copy's."""
    from deckwright.rules.load import load_game
    from deckwright.rules.problems import InvalidGame, display_path

    copy = overlaid(folder, overlay, target)
    try:
        return load_game(copy)
    except InvalidGame as exc:
        shown = {display_path(copy / path.name): display_path(path) for path in overlay.glob("*.yaml")}
        prefix = display_path(copy) + os.sep
        moved = []
        for problem in exc.problems:
            file = problem.loc.file
            file = shown.get(file) or (display_path(folder) + os.sep + file[len(prefix):] if file.startswith(prefix)
                                       else file)
            moved.append(replace(problem, loc=replace(problem.loc, file=file)))
        raise InvalidGame(moved) from None


def overlaid(folder: Path, overlay: Path | None, target: Path) -> Path:
    """``folder`` copied to ``target`` with the overlay's files laid over it (or ``folder`` itself, when none)."""
    if overlay is None:
        return folder
    shutil.copytree(folder, target)
    for path in sorted(overlay.glob("*.yaml")):
        shutil.copy(path, target / path.name, follow_symlinks=False)  # a link stays one: the loader confines it
    return target
