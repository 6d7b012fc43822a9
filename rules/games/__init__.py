"""One module per game's mechanics, named after the game's ``mechanics:`` id (dashes become underscores).

``mechanics_module(game)`` is the registry every caller goes through; nothing imports a game package directly.
"""
from __future__ import annotations

import importlib
from types import ModuleType


def mechanics_module(game) -> ModuleType | None:
    """The game's rules module under ``deckwright.rules.games``, or None for a game without mechanics."""
    if not game.mechanics:
        return None
    return importlib.import_module(f"{__name__}.{game.mechanics.replace('-', '_')}")
