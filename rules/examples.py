"""Worked examples in rulebook pages, replayed through the rules engine.

(The replay itself arrives with the rules engine; until then a game has no examples.)
"""
from __future__ import annotations

from .model import Game


def replay_game_examples(game: Game, update_golden: bool = False) -> list:
    return []
