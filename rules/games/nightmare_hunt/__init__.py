"""Nightmare Hunt's rules: town, encounters, prey turns, the player's actions, armour, conditions, death.

Every number comes from the card data (``prepare`` reads it once); every
shuffle goes through the chance object; every action and outcome is an event
in the log. ``apply`` works on a copy of the state and runs it forward to the
next decision the player must take (``actions`` lists them).

Readings of the source that are ours (each is in ``open_questions`` of game.yaml
and on the rulebook pages):

- a reaction is an action: its Time feeds every enemy, Burning applies to it, and
  "0 energy after paying" is judged before that Time is added;
- Recovery happens as soon as the action deck is empty, not at the next draw;
- a skipped turn has no action and no draw; skips do not add up, and an
  encounter's end clears a pending skip;
- Slow gives its energy to every enemy present when an encounter starts (summoned
  ones included), Fast only to the card that has it; summoned prey act from the
  next prey turn on;
- on a reset, the encounter discard is turned face down onto the deck, so the
  encounters come back in the order they were met; leaving town by choice resets
  the deck the same way; conditions stay until the player rests, town or not;
- a critical hit counts as one more track value (the data's reading), so it adds
  one wound and sends all of the attack's wounds to the hand.

The package's files, the same in every game's package: ``numbers`` (CONSTANTS and
``prepare``), ``checks``, ``state``, ``setup`` (SETUP, ``setup``, ``new_game``),
``actions`` (ACTIONS, ``apply``, ``apply_in_place``, ``legal_actions``; ``legal`` works them out), ``view`` (``observe``,
``is_over``, ``zones``, ``invariants``), ``narration``; the rules themselves in
``town``, ``prey``, ``encounters`` and ``player``; ``strategies`` holds players
for random play.
"""
from .actions import ACTIONS, apply, apply_in_place, legal_actions
from .checks import consistency
from .narration import NARRATION
from .numbers import CONSTANTS, Rules, prepare
from .odds import odds
from .setup import OPTIONS, SETUP, new_game, setup
from .state import State
from .strategies import STRATEGIES
from .view import CARD_FACTS, invariants, is_over, observe, outcome, zones

__all__ = ["ACTIONS", "CARD_FACTS", "CONSTANTS", "NARRATION", "OPTIONS", "SETUP", "STRATEGIES", "Rules", "State",
           "apply", "apply_in_place", "consistency", "invariants", "is_over", "legal_actions", "new_game", "observe",
           "odds", "outcome", "prepare", "setup", "zones"]
