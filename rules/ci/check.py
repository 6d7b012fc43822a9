"""``deckwright check`` for one game: validation, consistency checks and replayed examples."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from deckwright.rules.book.examples import ExampleResult, replay_game_examples
from deckwright.rules.data.model import Game
from deckwright.rules.games import mechanics_module
from deckwright.rules.load import load_game_with_warnings
from deckwright.rules.problems import Problems


@dataclass
class GameReport:
    folder: Path
    game: Game | None
    problems: Problems
    examples: list[ExampleResult] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.problems.errors) or any(e.verdict == "failing" for e in self.examples)


def check_game(folder: Path, update_golden: bool = False) -> GameReport:
    game, problems = load_game_with_warnings(folder)
    return check_loaded(folder, game, problems, update_golden)


def check_loaded(folder: Path, game: Game | None, problems: Problems, update_golden: bool = False,
                 examples: bool = True) -> GameReport:
    """``check_game`` for a game already loaded (``deckwright serve`` loads each edit once for everything);
    without ``examples`` the worked examples are not replayed."""
    report = GameReport(folder, game, problems)
    if game is None:
        return report
    module = mechanics_module(game)
    if module is not None and hasattr(module, "consistency"):
        module.consistency(game, problems)
    if problems.errors or not examples:
        return report
    report.examples = replay_game_examples(game, update_golden=update_golden)
    return report
