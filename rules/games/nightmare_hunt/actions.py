"""The player's actions: the verb table, ``apply`` and the actions legal now.

- ``town``: ``venture`` (draw the next encounter) or ``{equip: <armour>}``;
- ``between`` encounters: ``continue`` or ``town`` (which resets the encounter deck);
- ``turn``: ``{play: <action>, target: <enemy>, discard: <card>}`` (basics need ``discard``);
- ``reaction`` to an enemy action just paid for: ``{react: dodge|parry|sprint|none}``;
- ``won``: the level's boss is defeated (the end of a level attempt).
"""
from __future__ import annotations

from deckwright.rules.data.fields import ref, text
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch

from .legal import legal_actions
from .player import end_turn, equip, press_on, react, return_to_town, take_action
from .prey import advance
from .state import State

__all__ = ["ACTIONS", "apply", "apply_in_place", "legal_actions"]  # legal_actions: legal.py's, where its memo is

WAITING = {
    "turn": "it is your turn: play an action ({play: ...})",
    "reaction": "{enemy} is acting: answer with 'react:' (a reaction, or none)",
    "between": "between encounters: 'continue' or 'town'",
    "town": "in town: 'venture' or {equip: <armour>}",
    "won": "the level's boss is defeated: the hunt on this level is over",
}


_BARE = object()  # the value of a bare-word action


def _in(phase: str, state: State, verb: str, value=_BARE) -> None:
    """Refuses an action (``verb: value``) that does not belong to the phase the game is at."""
    if state.phase != phase:
        enemy = state.rules.name(state.pending[0].label) if state.pending else ""
        action_text = verb if value is _BARE else f"{verb}: {value}"
        raise RuleError(f"{WAITING.get(state.phase, state.phase).format(enemy=enemy)}, not {action_text}")


def _play(state: State, action, options, chance, log) -> State:
    if state.phase != "turn":  # asked here, not through a call: random play plays an action at every step
        _in("turn", state, "play", action)
    take_action(state, action, options.get("target"), options.get("discard"), log)
    end_turn(state, chance, log)
    advance(state, chance, log)
    return state


def _react(state: State, reaction, options, chance, log) -> State:
    if state.phase != "reaction":
        _in("reaction", state, "react", reaction)
    react(state, reaction, options.get("discard"), chance, log)
    advance(state, chance, log)
    return state


def _onward(phase: str, word: str):
    """Out to the next encounter: ``continue`` between encounters, ``venture`` from town."""
    def run(state: State, value, options, chance, log) -> State:
        _in(phase, state, word)
        press_on(state, chance, log)
        advance(state, chance, log)
        return state
    return run


def _town(state: State, value, options, chance, log) -> State:
    _in("between", state, "town")
    return_to_town(state, chance, log)
    return state


def _equip(state: State, armor, options, chance, log) -> State:
    _in("town", state, "equip", armor)
    equip(state, armor, log)
    return state


ACTIONS = {
    "play": Verb(_play, ref("action"), (("target", text(optional=True)), ("discard", ref("action", optional=True))),
                 doc="your turn: an action; 'target:' the enemy struck, 'discard:' the card a basic action costs"),
    "react": Verb(_react, text(), (("discard", ref("action", optional=True)),),
                  doc="an enemy acts: a reaction that cancels it, or none"),
    "continue": Verb(_onward("between", "continue"), doc="between encounters: the next encounter"),
    "town": Verb(_town, doc="between encounters: back to town, the encounter deck reset"),
    "venture": Verb(_onward("town", "venture"), doc="in town: out to the next encounter"),
    "equip": Verb(_equip, ref("armor"), doc="in town: put on an armour"),
}


def apply(state: State, action: Action, chance: Chance, log: Log) -> State:
    return dispatch(ACTIONS, state.copy(), action, chance, log)


def apply_in_place(state: State, action: Action, chance: Chance, log: Log) -> State:
    """``apply`` on a state its holder gives up (random play's own, which no one else sees): the same events and
    the same new state, without the copy. After a refused action the state given is no longer usable.

    An action that is one of the legal-action memo's (the very object, as a player picks it from the list) runs its
    verb's function directly: its names are checked the first time it is played (``checked``). The memo keeps its
    actions alive, so no other object can have the id of one."""
    rules = state.rules
    known = rules.checked_actions.get(id(action))
    if known is None:
        if id(action) not in rules.legal_ids:
            return dispatch(ACTIONS, state, action, chance, log)
        known = rules.checked_actions[id(action)] = checked(action)
    run, value, options = known
    return run(state, value, options, chance, log)


def checked(action: Action) -> tuple:
    """(its verb's function, its value, its options as dispatch gives them) for ``apply_in_place``; SpecError on an
    unknown verb or option."""
    if type(action) is str:
        entry = ACTIONS.get(action)
        if entry is not None and entry.bare:
            return entry.run, None, {}
    else:
        verb = next(iter(action))
        entry = ACTIONS.get(verb)
        if entry is not None and entry.option_names.issuperset(action.keys() - {verb}):
            return entry.run, action[verb], action
    raise SpecError(f"the legal actions hold {action!r}, which the verb table does not take")
