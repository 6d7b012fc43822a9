"""Where something in a game folder is, as an output shows it: never the builder's own paths."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from deckwright.rules.data.model import Game


def in_game(loc: Any, game: Game) -> str:
    """A location as ``file:line:col`` relative to the game folder."""
    path = Path(loc.file)
    try:
        shown = path.resolve().relative_to(game.root).as_posix()
    except ValueError:
        shown = path.name
    return f"{shown}:{loc.line}:{loc.col}"
