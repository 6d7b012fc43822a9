"""Gloombah!'s data checks that the field definitions cannot make, run by ``deckwright check``."""
from __future__ import annotations

from deckwright.rules.data.model import Game
from deckwright.rules.problems import Problems


def consistency(game: Game, problems: Problems) -> None:
    """The levels the constants name must make a playable ladder."""
    c = game.constants
    start, least, win, run = (c.get(name) for name in ("start_level", "min_attack_points", "win_level",
                                                        "auto_run_below_level"))
    if not all(isinstance(v, int) for v in (start, least, win, run)):
        return  # a constant that is not a number is reported where it is written
    if not least <= start < win:
        problems.error(game.constant_loc("start_level"), f"game.constants.start_level: a player starts at level {start}, which must be at least the "
                                 f"{least} attack points a player needs and below the win level {win}")
    if run > win:
        problems.error(game.constant_loc("auto_run_below_level"),
                       f"game.constants.auto_run_below_level: {run} is above the win level {win}")
