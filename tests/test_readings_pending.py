"""Engine changes the readings registers call for, pending the rules modules' move onto one protocol.

Each test replays a worked example written as the source states it, through the game's rules
module exactly as ``deckwright check`` replays a rulebook example, and is expected to fail until
the engine plays the reading its register entry names under ``pending:`` (the entry says what to
change). ``strict=True``: once the engine changes, the test passes, the xfail mark fails the run,
and the mark comes off.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.book.examples import find_examples, replay_example
from deckwright.rules.data.model import Page
from deckwright.rules.games import mechanics_module
from deckwright.rules.load import load_game


def replay(game_name: str, example: str, tmp_path: Path):
    """The example (the YAML inside an ```example block) replayed on the bundled game."""
    game = load_game(BUNDLED_GAMES / game_name)
    path = tmp_path / "pending.md"  # no golden log beside it: only the claims are compared
    page = Page("pending", "Pending", path, "pending.md", f"# Pending\n\n```example\n{example}```\n")
    [block] = find_examples(replace(game, pages=(page,)))
    return replay_example(game, block, mechanics_module(game))


def assert_verified(result) -> None:
    assert result.verdict == "verified", f"{result.message}\n" + "\n".join(result.log)


def pending(entry: str, what: str):
    return pytest.mark.xfail(strict=True, raises=AssertionError,
                             reason=f"engine change pending: readings.yaml entry '{entry}': {what}")


def registered(game_name: str, entry: str) -> None:
    """The register names this test among the entry's dependencies, and the entry is still pending."""
    game = load_game(BUNDLED_GAMES / game_name)
    reading = next(r for r in game.readings if r.id == entry)
    assert reading.pending is not None, f"{entry} is no longer pending: remove the xfail mark"


@pending("level-12-by-helping", "a helper at level 10 cannot take 2 levels as their share")
def test_gloombah_a_level_10_helper_cannot_take_two_levels(tmp_path):
    registered("gloombah", "level-12-by-helping")
    # Game Over, lines 144-147: "a Level 10 cannot help another Player in exchange for 2 levels and win
    # the game. The Level 10 must wait until a 2XP monster is drawn on their turn for play."
    result = replay("gloombah", """\
name: A level 10 helper and two levels
setup:
  players:
    - {name: A, level: 7}
    - {name: B, level: 10}
  phase: fight
  helpers: [B]
  monster: {attack: 16, xp: 4, treasure: 0}
actions:
  - resolve
  - {share: {A: [2, 0], B: [2, 0]}}
""", tmp_path)
    assert result.verdict == "failing" and "level 12" in result.message, result.message
