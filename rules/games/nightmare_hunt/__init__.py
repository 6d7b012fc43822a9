"""Nightmare Hunt's mechanics: town, encounters, prey turns, the player's actions, armour, conditions, death.

Every number comes from the card data (``Rules`` is read once from the Game);
every shuffle goes through the chance object; every action and outcome is an
event in the log. The state is one mutable ``State`` that ``apply`` changes in
place and runs forward to the next decision the player must take:

- ``town``: ``venture`` (draw the next encounter) or ``{equip: <armour>}``;
- ``between`` encounters: ``continue`` or ``town`` (which resets the encounter deck);
- ``turn``: ``{play: <action>, target: <enemy>, discard: <card>}`` (basics need ``discard``);
- ``reaction`` to an enemy action just paid for: ``{react: dodge|parry|sprint|none}``;
- ``won``: the level's boss is defeated (the end of a level attempt).

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
"""
from __future__ import annotations

from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.zones import Zones

from .data import Rules, consistency, rules_from
from .setup import ExampleSetup
from .state import DECK, HAND, PILES, State
from .turns import act, build_encounter_deck, cards_text, legal_actions, observe

__all__ = ["new_game", "setup", "apply", "observe", "is_over", "zones", "legal_actions", "consistency", "rules_from",
           "Rules", "State"]


def new_game(game, options: dict, chance, log=NULL_LOG) -> State:
    """A hunter in town before a level: fresh action deck shuffled, hand drawn, encounter deck built.

    ``game`` is the Game, or its ``rules_from(game)`` read once for many games.
    Options: ``armor`` (default: the first armour), ``level`` (default 1),
    ``stop_at_death`` (default true: a level attempt ends at the first death).
    """
    rules = game if isinstance(game, Rules) else rules_from(game)
    armor = options.get("armor") or next(iter(rules.armors))
    state = State(rules, Zones.with_piles(*PILES), armor, options.get("level", 1),
                  stop_at_death=options.get("stop_at_death", True))
    zones = state.zones
    zones.put(DECK, rules.action_deck)
    zones.shuffle(DECK, chance)
    zones.draw(DECK, HAND, rules.mind)
    build_encounter_deck(state, chance)
    if log:
        log.add("town", f"You are in town wearing {rules.names[armor]}, hand {cards_text(rules, zones[HAND])}")
    return state


def setup(game, spec: dict, chance, log=NULL_LOG) -> State:
    """An example's starting position (its keys: see ``ExampleSetup``); runs forward to the first decision."""
    return ExampleSetup(rules_from(game), spec).build(chance, log)


def apply(state: State, action, chance, log=NULL_LOG) -> State:
    act(state, action, chance, log)
    return state


def is_over(state: State) -> bool:
    return state.phase == "won" or (state.stop_at_death and state.deaths > 0)


def zones(state: State) -> Zones:
    return state.zones


