"""Strategies: players that choose among the legal actions, a simple heuristic hunter and a random one.

A player is a function ``choose(state, actions, chance) -> action`` for
``rules.engine.randomplay.play``. The heuristic keeps to plain habits: always
press on, strike the weakest unprotected enemy with the most Power per Time
(finishing it with the quickest blow that does, and never pushing a boss past
its wound reset), cancel any enemy action that would wound twice or critically
or that summons (a new enemy in the encounter, and one that shields the Flaming
Heart, weighs like two wounds), and rest when one more wound in hand would kill.
"""
from __future__ import annotations

from operator import attrgetter

from deckwright.rules.engine.randomplay import random_choice

from .state import CONDITIONS, ENCOUNTER, HAND, State

__all__ = ["STRATEGIES", "heuristic_choice", "random_choice"]

LABEL_AND_WOUNDS = attrgetter("label", "wounds")  # read in C, for the memo's key


def heuristic_choice(state: State, actions: list, chance):
    """The heuristic's action among ``actions``, the legal actions of ``state``.

    A choice depends only on a few facts, so each is worked out once per game and kept in ``rules.choice_memo``:
    the cards in hand (which, with the enemies' labels, fix the legal actions); on a turn, whether one more wound
    in hand would kill and each enemy's wounds; for a reaction, whether the pending enemy action is worth
    cancelling (kept in ``rules.threat_memo`` by its steps, the armour and the conditions: the track) and whether
    the enemy is left at 0 energy."""
    phase, rules, piles = state.phase, state.rules, state.zones.piles
    if phase == "turn":
        hand = piles[HAND]
        key = (frozenset(hand), hand.count(rules.wound) >= rules.body - 1, tuple(map(LABEL_AND_WOUNDS, piles[ENCOUNTER])))
    elif phase == "reaction":
        enemy, ability = state.pending
        threat = (ability.steps, state.armor, tuple(piles[CONDITIONS]))
        worth = rules.threat_memo.get(threat)
        if worth is None:
            wounds, critical = _threat(state, ability)
            worth = rules.threat_memo[threat] = wounds >= 2 or critical
        key = (worth, enemy.energy == 0, frozenset(piles[HAND]))
    else:
        return "venture" if phase == "town" else "continue"
    choice = rules.choice_memo.get(key)
    if choice is None:
        choice = rules.choice_memo[key] = (_turn(state, actions) if phase == "turn"
                                           else _reaction(state, actions, worth_cancelling=key[0]))
    return choice


def _threat(state: State, ability) -> tuple[int, bool]:
    """Wounds the pending ability would deal (conditions and deck loss counted as one, a summon as two), and whether
    it is critical."""
    armor = state.rules.armors[state.armor]
    track = state.track()
    wounds, critical = 0, False
    for kind, value in ability.steps:
        if kind == "power":
            wounds += sum(1 for v in track if value >= v)
            if value >= armor.critical:
                critical = True
                wounds += 1
        elif kind == "summon":
            wounds += 2
        else:
            wounds += 1
    return wounds, critical


def _reaction(state: State, actions: list, worth_cancelling: bool):
    """Cancel an enemy action worth it (``_threat``: two wounds or more, or critical) with the reaction that costs
    least, else let it happen."""
    reactions = [a for a in actions if a["react"] != "none"]
    if not reactions or not worth_cancelling:
        return next(a for a in actions if a["react"] == "none")  # the list's own, which apply knows checked
    rules = state.rules
    # Prefer a reaction that does not cost the next turn, then the cheapest in Time.
    return min(reactions, key=lambda a: (rules.actions[a["react"]].skip_turn, rules.actions[a["react"]].time,
                                         _worth(rules, a.get("discard"))))


def _worth(rules, card) -> float:
    """How much a card is worth keeping: reactions most (one that cancels anything above all), then Power per Time."""
    if card is None:
        return 0.0
    action = rules.actions[card]
    if action.modifier == "reaction":
        return 100.0 + (action.cancels == "any")
    return (action.power or 0) / max(action.time, 1)


def _turn(state: State, actions: list):
    rules = state.rules
    hand_wounds = state.zones.piles[HAND].count(rules.wound)
    rests = [a for a in actions if rules.actions[a["play"]].modifier == "recovery"]
    if rests and hand_wounds >= rules.body - 1:
        return min(rests, key=lambda a: _worth(rules, a.get("discard")))
    strikes = [a for a in actions if rules.actions[a["play"]].power]
    if strikes:
        target = _target(state)
        aimed = [a for a in strikes if a.get("target") == target.label]
        best = _best_strike(state, target, aimed or strikes)
        if best is not None:
            return best
    others = [a for a in actions if not rules.actions[a["play"]].power and a not in rests]
    if others:
        return others[0]
    return min(rests or actions, key=lambda a: _worth(rules, a.get("discard")))


def _target(state: State):
    enemies = state.enemies()
    present = {e.id for e in enemies}
    open_to_harm = [e for e in enemies if not (e.card.protected_by and e.card.protected_by in present)]
    return min(open_to_harm or enemies, key=lambda e: (e.card.health - e.wounds, e.label))


def _best_strike(state: State, target, strikes: list):
    rules = state.rules
    left = target.card.health - target.wounds
    reset = target.card.wound_reset

    def power(a):
        return rules.actions[a["play"]].power

    def time(a):
        return rules.actions[a["play"]].time

    safe = [a for a in strikes if reset is None or target.wounds + power(a) < reset]
    if not safe:
        return None
    killing = [a for a in safe if power(a) >= left]
    if killing:
        return min(killing, key=lambda a: (time(a), "discard" in a, _worth(rules, a.get("discard"))))
    cards = [a for a in safe if "discard" not in a] or safe
    return max(cards, key=lambda a: (power(a) / max(time(a), 1), -_worth(rules, a.get("discard"))))


STRATEGIES = {"heuristic": heuristic_choice, "random": random_choice}
