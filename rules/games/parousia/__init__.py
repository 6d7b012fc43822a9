"""Parousia's rules: the pickup deck, counters and caps, tarot effects, rooms and special rooms, combat with
D20 volleys, bosses, and the devil die.

``apply`` runs one action on a private copy of the state (``State.copy``); the rule functions change that
copy. Every number comes from the game data. The source leaves five decks open, the characters' starting
values, The Magician, and the end of a run: examples define their own cards inline, and random play takes
them from a fixture, with the run's last floor as an option.

The package's files are the same in every game's package (see nightmare_hunt); the rules themselves are in
``pickups`` (counters, caps, the floor, hearts), ``cards`` (playing a card), ``rooms`` (rooms, special rooms,
machines), ``combat`` (fights), ``devil`` (the devil die, deals, the next floor) and ``chances`` (x/D20
chances and rolled amounts).
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
