"""RT:0 combat's rules: rounds of intents, players' turns with tarot cards, shield and damage, zones and
movement, injuries, corruption and the supremacy worksheet.

Pure functions over frozen dataclasses. The source gives no abilities, spells or adversary stat blocks, so an
example's action states its effect (``shield: 5``, ``damage: 8``) and random play asks for stand-in numbers.

The package's files are the same in every game's package (see nightmare_hunt); the rules themselves are in
``combat`` (cards, damage, zones, targeting, the round's steps) and ``round`` (the phases of a round).
"""
from .actions import ACTIONS, apply, legal_actions
from .checks import consistency
from .narration import NARRATION
from .numbers import CONSTANTS, Rules, prepare
from .odds import odds
from .setup import OPTIONS, SETUP, new_game, setup
from .state import Fight
from .view import invariants, is_over, observe, outcome, zones

__all__ = ["OPTIONS", "ACTIONS", "CONSTANTS", "NARRATION", "SETUP", "Fight", "Rules", "apply", "consistency", "invariants",
           "is_over", "legal_actions", "new_game", "observe", "odds", "outcome", "prepare", "setup", "zones"]
