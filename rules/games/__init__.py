"""One rules module per bundled game, named after the game's ``mechanics:`` id (dashes become underscores).

Every caller finds a game's rules through this registry; nothing imports a game package directly.
``rules_module(game)`` resolves a Game: a bundled id through ``module_named(id)``, a game folder's own
module (``mechanics: rules.py`` or ``rules/``) through ``gamecode.load_own_module``, loaded once per process;
``load_rules_file(path)`` loads a module from a file or package folder by path, so that every module,
wherever it lives, goes through the same protocol checks (``rules.ci.conformance``).
"""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from .gamecode import is_own_module, load_own_module, load_rules_file  # noqa: F401  (load_rules_file: for callers)


def module_named(mechanics: str) -> ModuleType:
    """The bundled rules module for a ``mechanics:`` id."""
    return importlib.import_module(f"{__name__}.{mechanics.replace('-', '_')}")


def known_mechanics() -> list[str]:
    """The bundled rules modules' ids: the packages beside this file, underscores written as dashes."""
    games_dir = Path(__file__).parent
    return sorted(p.parent.name.replace("_", "-") for p in games_dir.glob("*/__init__.py")
                  if not p.parent.name.startswith("_"))


def rules_module(game) -> ModuleType | None:
    """The game's rules module, or None for a game without mechanics, or whose own code may not run
    (``--no-code``: ``game.run_code`` is false). A game folder's own module that fails to load raises
    ``RulesCodeError``; the loader has reported that already, so a loaded game never does."""
    if not game.mechanics:
        return None
    if is_own_module(game.mechanics):
        return load_own_module(game.root, game.mechanics) if game.run_code else None
    return module_named(game.mechanics)
