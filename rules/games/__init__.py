"""One rules module per bundled game, named after the game's ``mechanics:`` id (dashes become underscores).

Every caller finds a game's rules through this registry; nothing imports a game package directly.
``rules_module(game)`` resolves a Game, ``module_named(id)`` a bundled id; ``load_rules_file(path)``
loads a module from a file or package folder by path (a game folder's own rules), so that every
module, wherever it lives, goes through the same protocol checks (``rules.ci.conformance``).
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def module_named(mechanics: str) -> ModuleType:
    """The bundled rules module for a ``mechanics:`` id."""
    return importlib.import_module(f"{__name__}.{mechanics.replace('-', '_')}")


def rules_module(game) -> ModuleType | None:
    """The game's rules module, or None for a game without mechanics."""
    return module_named(game.mechanics) if game.mechanics else None




def load_rules_file(path: Path, name: str | None = None) -> ModuleType:
    """A rules module from ``path``: a ``.py`` file, or a package folder holding ``__init__.py``.

    It is loaded under a private module name (``deckwright_game_<name>``), so two games' modules never
    collide, and a package's relative imports work.
    """
    path = Path(path)
    init = path / "__init__.py" if path.is_dir() else path
    module_name = f"deckwright_game_{(name or path.stem).replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, init, submodule_search_locations=[str(path)]
                                                  if path.is_dir() else None)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load a rules module from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module
