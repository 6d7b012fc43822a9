"""``deckwright check`` for one game: validation, consistency checks, replayed examples, protocol conformance."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckwright.rules.book.examples import ExampleResult, example_warnings, find_examples, replay_game_examples
from deckwright.rules.data.model import Game
from deckwright.rules.engine.timelimit import time_limit
from deckwright.rules.games import rules_module
from deckwright.rules.games.gamecode import module_failure
from deckwright.rules.load import load_game_with_warnings
from deckwright.rules.problems import Problem, Problems

if TYPE_CHECKING:
    from .conformance import Conformance

CHECK_GAMES = 10  # seeded random games per check (the test suite plays more)


@dataclass
class GameReport:
    folder: Path
    game: Game | None
    problems: Problems
    examples: list[ExampleResult] = field(default_factory=list)
    conformance: Conformance | None = None  # None for a game without a rules module

    @property
    def failed(self) -> bool:
        return (bool(self.problems.errors) or any(e.verdict == "failing" for e in self.examples)
                or (self.conformance is not None and not self.conformance.ok))


def check_game(folder: Path, update_golden: bool = False, module=None, games: int = CHECK_GAMES,
               run_code: bool = True) -> GameReport:
    """Every check of one game; ``module`` replaces the rules module the game names (a module loaded by path);
    without ``run_code`` the game folder's own rules module is neither imported nor run (``--no-code``)."""
    game, problems = load_game_with_warnings(folder, run_code=run_code)
    return check_loaded(folder, game, problems, update_golden, module=module, games=games)


def check_data(folder: Path, run_code: bool = True) -> tuple[Game | None, Problems]:
    """What ``check_game`` checks before the examples: the game loaded, and its rules module's consistency checks
    (what a worker laying out a share of a game's faces needs: whether the game has errors)."""
    game, problems = load_game_with_warnings(folder, run_code=run_code)
    if game is not None:
        run_consistency(rules_module(game), game, problems)
    return game, problems


def check_loaded(folder: Path, game: Game | None, problems: Problems, update_golden: bool = False,
                 examples: bool = True, module=None, games: int = CHECK_GAMES) -> GameReport:
    """``check_game`` for a game already loaded (``deckwright serve`` loads each edit once for everything);
    without ``examples`` the worked examples are not replayed nor the rules module's conformance checked."""
    report = GameReport(folder, game, problems)
    if game is None:
        return report
    module = module or rules_module(game)
    run_consistency(module, game, problems)
    if problems.errors or not examples:
        return report
    examples = find_examples(game)
    example_warnings(game, examples, problems)
    report.examples = replay_game_examples(game, update_golden=update_golden, module=module, examples=examples)
    if module is not None:
        from .conformance import check_module  # only for a game with a rules module

        report.conformance = check_module(module, game, games=games)
    return report


def run_consistency(module, game: Game, problems: Problems) -> None:
    """The module's own data checks, if it has them; an exception they raise is an error at its own line."""
    if module is None or not hasattr(module, "consistency"):
        return
    try:
        with time_limit():
            module.consistency(game, problems)
    except Exception as exc:
        failure = module_failure(exc, module)
        problems.items.append(Problem(failure.loc or game.loc, f"the rules module's consistency(game) "
                                                               f"{failure.said_at_loc}", detail=failure.trace))
