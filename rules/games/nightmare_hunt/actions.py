"""The player's actions: the verb table, ``apply`` and the actions legal now.

- ``town``: ``venture`` (draw the next encounter) or ``{equip: <armour>}``;
- ``between`` encounters: ``continue`` or ``town`` (which resets the encounter deck);
- ``turn``: ``{play: <action>, target: <enemy>, discard: <card>}`` (basics need ``discard``);
- ``reaction`` to an enemy action just paid for: ``{react: dodge|parry|sprint|none}``;
- ``won``: the level's boss is defeated (the end of a level attempt).
"""
from __future__ import annotations

from deckwright.rules.data.fields import ref, text
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch

from .numbers import Rules
from .player import end_turn, equip, press_on, react, return_to_town, take_action
from .prey import advance
from .state import HAND, State

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
    _in("turn", state, "play", action)
    take_action(state, action, options.get("target"), options.get("discard"), log)
    end_turn(state, chance, log)
    advance(state, chance, log)
    return state


def _react(state: State, reaction, options, chance, log) -> State:
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
    the same new state, without the copy. After a refused action the state given is no longer usable."""
    return dispatch(ACTIONS, state, action, chance, log)


def legal_actions(state: State) -> list:
    """The actions allowed now. They depend only on the phase, the action cards in hand, the enemies'
    labels and whether the pending enemy has energy left, so each list is worked out once per game and
    kept in ``rules.legal_memo`` (random play asks at every step)."""
    rules, phase = state.rules, state.phase
    if phase == "town":
        key = ("town", state.armor)
    elif phase == "between":
        key = ("between",)
    elif phase == "reaction":
        key = ("reaction", state.pending[0].energy == 0, tuple(sorted(set(state.zones.piles[HAND]))))
    elif phase == "turn":
        key = ("turn", tuple(sorted(set(state.zones.piles[HAND]))), tuple(e.label for e in state.enemies()))
    else:
        return []
    actions = rules.legal_memo.get(key)
    if actions is None:
        actions = rules.legal_memo[key] = _legal(rules, key)
    return list(actions)


def _legal(rules: Rules, key: tuple) -> list:
    phase = key[0]
    if phase == "town":
        return ["venture"] + [{"equip": a} for a in rules.armors if a != key[1]]
    if phase == "between":
        return ["continue", "town"]
    hand = key[1 + (phase == "reaction")]
    cards = [c for c in hand if c in rules.actions]
    if phase == "reaction":
        zero_energy = key[1]
        out: list = [{"react": "none"}]
        for action in rules.reactions:
            if not (action.cancels == "any" or (action.cancels == "zero-energy" and zero_energy)):
                continue
            if action.kind == "card" and action.id in hand:
                out.append({"react": action.id})
            elif action.kind == "basic":
                out += [{"react": action.id, "discard": c} for c in cards]
        return out
    targets = key[2]
    out = []
    for action in rules.plays:
        if action.kind == "instinctual":
            if not cards:
                out.append({"play": action.id})
        elif action.kind == "card":
            if action.id in hand:
                out += [{"play": action.id, "target": t} for t in targets] if action.power else [{"play": action.id}]
        else:
            for discard in cards:
                if action.power:
                    out += [{"play": action.id, "discard": discard, "target": t} for t in targets]
                else:
                    out.append({"play": action.id, "discard": discard})
    return out
