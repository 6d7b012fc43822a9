"""The hunter's deck between blows, and the way back to town: drawing up to Mind, Recovery, death,
the end of an encounter, and the encounter deck's reset."""
from __future__ import annotations

from .state import DECK, DISCARD, ENCOUNTER, ENCOUNTER_DISCARD, ENCOUNTERS, EVENT, HAND, State


def draw_to_mind(state: State, chance, log) -> None:
    """Draw back up to Mind (Recovery as soon as the deck runs out), then death is judged."""
    rules, zones = state.rules, state.zones
    missing = rules.mind - len(zones.piles[HAND])
    while missing > 0:
        drawn = zones.draw(DECK, HAND, missing)
        missing -= len(drawn)
        if log.card_facts:  # the simulator's log: the cards alone, no event built
            log.drew(drawn)
        elif "draw" in log and drawn:
            log.add("draw", cards=drawn)  # a new list, which no pile holds
        if not zones.piles[DECK]:  # recover_if_empty, without the call: it always leaves the new wound to draw
            _recover(state, chance, log)
    if zones.piles[HAND].count(rules.wound) >= rules.body:  # check_death's test, asked before calling it
        check_death(state, chance, log)


def recover_if_empty(state: State, chance, log) -> None:
    if not state.zones.piles[DECK]:
        _recover(state, chance, log)


def _recover(state: State, chance, log) -> None:
    """Recovery: a wound joins the discard, which is shuffled to become the new action deck."""
    zones = state.zones
    zones.create(state.rules.wound, DISCARD)
    zones.move_all(DISCARD, DECK)
    if "recovery" in log:
        log.add("recovery", cards=len(zones.piles[DECK]))
    zones.shuffle(DECK, chance)


def check_death(state: State, chance, log) -> None:
    """Wounds in hand reaching Body: death, and back to town with the encounter deck reset."""
    rules, zones = state.rules, state.zones
    in_hand = zones.piles[HAND].count(rules.wound)
    if in_hand < rules.body:
        return
    state.deaths += 1
    if "death" in log:
        log.add("death", wounds=in_hand)
    _discard_event(state)
    for enemy in list(zones.piles[ENCOUNTER]):
        if enemy.summoned:
            zones.remove(enemy, ENCOUNTER)
        else:
            zones.take(ENCOUNTER, enemy)
            zones.own(ENCOUNTER_DISCARD).append(enemy.id)
    reset_encounter_deck(state, log)
    go_to_town(state, chance, log)


def end_encounter(state: State, log) -> None:
    _discard_event(state)  # every enemy is defeated
    state.skip_turn = False
    state.queue = []
    if state.phase != "won":
        state.phase = "between"
    kind = "cleared" if state.phase == "won" else "encounter-over"
    if kind in log:
        log.add(kind)


def _discard_event(state: State) -> None:
    if state.zones.piles[EVENT]:
        state.zones.move_all(EVENT, ENCOUNTER_DISCARD)


def reset_encounter_deck(state: State, log) -> None:
    """The boss (if met) to the bottom, then the discard turned face down on top, unshuffled."""
    rules, zones = state.rules, state.zones
    for card_id in [c for c in zones.piles[ENCOUNTER_DISCARD] if c in rules.enemies and rules.enemies[c].boss]:
        zones.move(card_id, ENCOUNTER_DISCARD, ENCOUNTERS, to="bottom")
    returned = zones.move_all(ENCOUNTER_DISCARD, ENCOUNTERS, flip=True)
    if "reset" in log:
        log.add("reset", returned=len(returned), top=zones.ids(ENCOUNTERS)[:3])


def go_to_town(state: State, chance, log) -> None:
    """Wounds leave the deck; every action card is shuffled into a new deck and a hand is drawn."""
    rules, zones = state.rules, state.zones
    removed = sum(zones.remove_every(rules.wound, pile) for pile in (HAND, DECK, DISCARD))
    zones.move_all(HAND, DECK)
    zones.move_all(DISCARD, DECK)
    if "town-deck" in log:
        log.add("town-deck", wounds_removed=removed)
    zones.shuffle(DECK, chance)
    zones.draw(DECK, HAND, rules.mind)
    state.phase = "town"
    state.skip_turn = False
    state.next_fast = 0
    state.pending = None
    state.queue = []
    if log.card_facts:
        log.drew(zones.piles[HAND])
    elif "draw" in log:
        log.add("draw", cards=list(zones.piles[HAND]))

