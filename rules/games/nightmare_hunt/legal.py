"""The actions legal in a position, worked out once per kind of position: ``legal_actions`` (the protocol's, which
``actions`` exports) gives them to players, and the prey's side asks whether the hunter could react at all."""
from __future__ import annotations

from operator import attrgetter

from .numbers import Rules
from .state import ENCOUNTER, HAND, State

LABEL = attrgetter("label")  # an enemy's label, read in C


def legal_actions(state: State) -> list:
    """The actions allowed now (a new list of the kept ones). They depend only on the phase, the action cards in
    hand, the enemies' labels and whether the pending enemy has energy left: ``legal_for`` the position's key."""
    phase = state.phase
    if phase == "turn":
        key = ("turn", frozenset(state.zones.piles[HAND]), tuple(map(LABEL, state.zones.piles[ENCOUNTER])))
    elif phase == "reaction":
        key = ("reaction", state.pending[0].energy == 0, frozenset(state.zones.piles[HAND]))
    elif phase == "town":
        key = ("town", state.armor)
    elif phase == "between":
        key = ("between",)
    else:
        return []
    return list(state.rules.legal_memo.get(key) or legal_for(state.rules, key))  # the memo asked first, no call


def legal_for(rules: Rules, key: tuple) -> tuple:
    """The legal actions of a kind of position, worked out the first time it is met and kept in
    ``rules.legal_memo`` (random play asks at every step). The hand is a set in the key (made in C); ``_legal``
    sorts it, so the order of the actions never depends on the order of a set. Each new action's id is kept in
    ``rules.legal_ids``, for ``apply_in_place``."""
    actions = rules.legal_memo.get(key)
    if actions is None:
        actions = rules.legal_memo[key] = tuple(_legal(rules, key))
        rules.legal_ids.update(map(id, actions))
    return actions


def _legal(rules: Rules, key: tuple) -> list:
    phase = key[0]
    if phase == "town":
        return ["venture"] + [{"equip": a} for a in rules.armors if a != key[1]]
    if phase == "between":
        return ["continue", "town"]
    hand = sorted(key[1 + (phase == "reaction")])
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
