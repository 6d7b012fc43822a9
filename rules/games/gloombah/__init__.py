"""Gloombah!'s rules: attack points, gear and damage, death, running away, fights with helpers, rewards,
turns and rounds, the level-12 victory.

Pure functions over frozen dataclasses. Every number comes from the game data (the constants in game.yaml
and the cards); every roll and shuffle goes through the chance object; every step is an event in the log.
Rules with no reading at all are ``Rulings`` (``rulings``): play that needs one that was not given stops
with an OpenRuleError quoting the open question, so nothing is guessed silently.

The package's files are the same in every game's package (see nightmare_hunt); the rules themselves are in
``formula`` (the arithmetic), ``cards`` (reading cards for play), ``rulings`` and ``turn`` (setup and the
five steps of a turn).
"""
from .actions import ACTIONS, apply, legal_actions
from .checks import consistency
from .formula import layout_data
from .narration import NARRATION
from .numbers import CONSTANTS, Rules, prepare
from .odds import odds
from .setup import OPTIONS, SETUP, new_game, setup
from .state import State
from .view import invariants, is_over, observe, outcome, zones

__all__ = ["OPTIONS", "CONSTANTS", "SETUP", "ACTIONS", "NARRATION", "prepare", "setup", "new_game", "apply", "legal_actions", "outcome",
           "is_over", "zones", "observe", "invariants", "consistency", "layout_data", "odds", "Rules", "State"]
