"""Readings the registers chose and the engine once played differently, each replayed as a worked example.

Each test replays an example written as the source states it, through the game's rules module exactly as
``deckwright check`` replays a rulebook example. While the engine does not play a reading, its register
entry says so under ``pending:`` and the test is marked with ``pending(...)`` (``xfail(strict=True)``):
once the engine changes, the test passes, the mark fails the run, and the mark and the ``pending:`` block
come off, leaving the test to keep the engine to the reading. All five entries that were pending are
played now; the mark is kept for the next one.
"""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.book.examples import find_examples, replay_example
from deckwright.rules.data.model import Page
from deckwright.rules.games import rules_module
from deckwright.rules.load import load_game

FIXTURES = Path(__file__).parent / "fixtures"


def replay(game_name: str, example: str, tmp_path: Path, extra: Path | None = None):
    """The example (the YAML inside an ```example block) replayed on the bundled game, with the made-up
    test cards of ``extra`` (a card file) laid beside it when given."""
    folder = BUNDLED_GAMES / game_name
    if extra is not None:
        folder = tmp_path / game_name
        shutil.copytree(BUNDLED_GAMES / game_name, folder)
        shutil.copy(extra, folder / extra.name)
    game = load_game(folder)
    path = tmp_path / "pending.md"  # its golden log is written in tmp_path: only the claims are compared
    page = Page("pending", "Pending", path, "pending.md", f"# Pending\n\n```example\n{example}```\n")
    [block] = find_examples(replace(game, pages=(page,)))
    return replay_example(game, block, rules_module(game), update_golden=True)  # the golden goes to tmp_path


def assert_verified(result) -> None:
    assert result.verdict == "verified", f"{result.message}\n" + "\n".join(result.log)


def pending(entry: str, what: str):
    return pytest.mark.xfail(strict=True, raises=AssertionError,
                             reason=f"engine change pending: readings.yaml entry '{entry}': {what}")


def registered(game_name: str, entry: str, test: str | None = None) -> None:
    """The register's entry is still pending; or, given the name of a test that checks a reading the engine now
    plays, the entry is no longer pending and names that test among its dependencies."""
    game = load_game(BUNDLED_GAMES / game_name)
    reading = next(r for r in game.readings if r.id == entry)
    if test is None:
        assert reading.pending is not None, f"{entry} is no longer pending: remove the xfail mark"
        return
    assert reading.pending is None, f"{entry} is still pending, yet the engine plays it: remove its pending: block"
    assert f"tests/test_readings_pending.py::{test}" in reading.depends.tests, reading.depends


def test_gloombah_a_level_10_helper_cannot_take_two_levels(tmp_path):
    registered("gloombah", "level-12-by-helping", "test_gloombah_a_level_10_helper_cannot_take_two_levels")
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


def test_micahs_game_a_setup_fills_the_merchant_from_the_treasure_deck(tmp_path):
    registered("micahs-game", "merchant-always-six", "test_micahs_game_a_setup_fills_the_merchant_from_the_treasure_deck")
    # 7.1: "The Merchant always displays 6 items"; a setup that leaves treasure in the deck fills the board.
    # (A restocked item is put out first, in play as in setup; the source gives the board no order.)
    assert_verified(replay("micahs-game", """\
name: The board is filled at the start
setup:
  players:
    - {name: adam, class: wiseman}
    - {name: micah, class: assassin}
  merchant: [confidence-boost]
  treasure: [suspicious-remedy]
  encounters: [goblin-king]
expect:
  merchant: [suspicious-remedy, confidence-boost]
  treasure: []
""", tmp_path))


def test_micahs_game_companions_add_their_attack_under_the_dice_game(tmp_path):
    registered("micahs-game", "companions-under-card-rules", "test_micahs_game_companions_add_their_attack_under_the_dice_game")
    # 1.2.4.2: the Dice Game "replaces standard damage and Companion damage rules"; 2.2: when attacking,
    # the companion's roll "is added to the player's attack total". Test Gambler (made up) plays the Dice Game.
    assert_verified(replay("micahs-game", """\
name: A companion's attack against a game of dice
setup:
  players:
    - {name: t, class: test-hero, companions: [test-wolf]}
    - {name: u, class: test-hero}
  encounters: [test-gambler]
rolls: [D6=2, D6=3]
actions:
  - reveal
  - attack
expect:
  last: {total: 5, target: 4, result: success}
""", tmp_path, extra=FIXTURES / "micahs-game" / "extra-cards.yaml"))


def test_parousia_what_does_not_fit_stays_on_the_floor(tmp_path):
    registered("parousia", "partial-pickup", "test_parousia_what_does_not_fit_stays_on_the_floor")
    # Pickup deck, line 47: "If the player cannot or does not wish to take the pickups produced by these cards
    # they are put on the floor."
    assert_verified(replay("parousia", """\
name: A quarter at 18 coins
setup:
  players:
    - {name: Ann, hearts: 3, heart-containers: 3}
  coins: 18
  floor: [king-of-diamonds]
actions:
  - take: king-of-diamonds
expect:
  coins: 20
  floor_pickups: {coin: 23}
""", tmp_path))


def test_parousia_a_setup_keeps_to_the_hand_limit(tmp_path):
    registered("parousia", "playable-cards-in-hand", "test_parousia_a_setup_keeps_to_the_hand_limit")
    # Play areas, line 76: a hand "can hold a maximum of 1 playable card".
    result = replay("parousia", """\
name: Two cards in a one-card hand
setup:
  players:
    - {name: Ann, hearts: 3, heart-containers: 3, hand: [temperance, the-moon]}
expect:
  coins: 0
""", tmp_path)
    assert result.verdict == "failing" and "hand" in result.message, result.message
