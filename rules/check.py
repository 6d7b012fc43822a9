"""``deckwright check`` for one game: validation, consistency checks and replayed examples."""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from .load import load_game_with_warnings
from .model import Game
from .problems import Problems


@dataclass(frozen=True)
class ExampleResult:
    """One worked example replayed: verdict is verified, erratum or failing."""

    game: str
    name: str
    loc: object
    verdict: str
    message: str = ""
    log: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.loc}: {self.name}: {self.verdict}"
        return f"{text}: {self.message}" if self.message else text


@dataclass
class GameReport:
    folder: Path
    game: Game | None
    problems: Problems
    examples: list[ExampleResult] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.problems.errors) or any(e.verdict == "failing" for e in self.examples)


def mechanics_module(game: Game) -> ModuleType | None:
    """The game's rules module under ``rules.games``, or None for a game without mechanics."""
    if not game.mechanics:
        return None
    return importlib.import_module(f"rules.games.{game.mechanics.replace('-', '_')}")


def check_game(folder: Path, update_golden: bool = False) -> GameReport:
    game, problems = load_game_with_warnings(folder)
    report = GameReport(folder, game, problems)
    if game is None:
        return report
    module = mechanics_module(game)
    if module is not None and hasattr(module, "consistency"):
        module.consistency(game, problems)
    if problems.errors:
        return report
    from .examples import replay_game_examples
    report.examples = replay_game_examples(game, update_golden=update_golden)
    return report
