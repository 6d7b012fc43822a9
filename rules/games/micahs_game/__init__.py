"""Micah's Game's rules: the three-phase turn, intentions, companions, die steps, weather, the merchant,
winning and losing.

Pure functions over frozen dataclasses: every rule function returns the new state and its events,
``(kind, data)``, which the action logs. Every number comes from the game data; every roll and shuffle
goes through the chance object. A value the source leaves open (``{open: ...}``) is never guessed: a rule
that needs one stops with an OpenRuleError naming the card and field.

The package's files are the same in every game's package (see nightmare_hunt); the rules themselves are
in ``turn`` (turns, health, winning and losing), ``preparation`` (merchant, upgrades, trades, companions)
and ``encounter`` (reveal, intention, roll, outcome).
"""
from .actions import ACTIONS, apply, legal_actions
from .checks import consistency
from .narration import NARRATION
from .numbers import CONSTANTS, Rules, prepare
from .odds import odds
from .setup import OPTIONS, SETUP, new_game, setup
from .state import State
from .view import invariants, is_over, observe, outcome, zones

__all__ = ["OPTIONS", "ACTIONS", "CONSTANTS", "NARRATION", "SETUP", "Rules", "State", "apply", "consistency", "invariants",
           "is_over", "legal_actions", "new_game", "observe", "odds", "outcome", "prepare", "setup", "zones"]
