"""Where games are: a bundled game's folder by name, or a folder holding ``game.yaml``.

Apart from the loader, so that a command that only finds games (``check`` printing unchanged games from its
cache) does not import it.
"""
from __future__ import annotations

from pathlib import Path

GAME_FILE = "game.yaml"


def find_game_folder(name_or_path: str, bundled_root: Path) -> Path | None:
    """A bundled game's name, or a path to a folder holding game.yaml."""
    path = Path(name_or_path).expanduser()
    if (path / GAME_FILE).is_file():
        return path
    candidate = bundled_root / name_or_path
    if "/" not in name_or_path and (candidate / GAME_FILE).is_file():
        return candidate
    return None


def bundled_games(bundled_root: Path) -> list[Path]:
    return sorted(p.parent for p in bundled_root.glob(f"*/{GAME_FILE}"))
