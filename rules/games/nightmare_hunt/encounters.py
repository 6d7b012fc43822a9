"""Encounters: the level's encounter deck, venturing, and an encounter card coming into play
(events, Fast, summons and the armour's Slow)."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError

from .prey import begin_prey_turn, label_for, summon
from .state import CONDITIONS, ENCOUNTER, ENCOUNTERS, EVENT, Enemy, State
from .town import end_encounter


def build_encounter_deck(state: State, chance) -> None:
    """The level's encounters shuffled, with the boss at the bottom."""
    rules, zones = state.rules, state.zones
    cards = rules.levels[state.level]
    bosses = [c for c in cards if c in rules.enemies and rules.enemies[c].boss]
    others = [c for c in cards if c not in bosses]
    zones.put(ENCOUNTERS, others)
    zones.shuffle(ENCOUNTERS, chance)
    zones.put(ENCOUNTERS, bosses, to="bottom")


def venture(state: State, chance, log) -> None:
    zones = state.zones
    if not zones.piles[ENCOUNTERS]:
        raise RuleError("the encounter deck is empty")
    start_encounter(state, zones.own(ENCOUNTERS).pop(), chance, log)


def start_encounter(state: State, card_id: str, chance, log) -> None:
    rules, zones = state.rules, state.zones
    state.encounters += 1
    state.labels = {}
    state.defeated = ()
    state.queue = []
    state.last_attack = None
    armor = rules.armors[state.armor]
    if card_id in rules.events:
        event = rules.events[card_id]
        zones.own(EVENT).append(card_id)
        if "encounter" in log:
            log.add("encounter", card=card_id, energy=0)
        if event.inflict:
            zones.create(event.inflict, CONDITIONS)
            if "inflict" in log:
                log.add("inflict", by=card_id, condition=event.inflict,
                        count=zones.piles[CONDITIONS].count(event.inflict))
        if event.next_fast:
            state.next_fast += event.next_fast
            if "next-fast" in log:
                log.add("next-fast", card=card_id, fast=event.next_fast)
        summons = event.summons
    else:
        card = rules.enemies[card_id]
        enemy = Enemy(card_id, label_for(state, card_id), card, energy=card.fast + state.next_fast)
        zones.own(ENCOUNTER).append(enemy)
        if "encounter" in log:
            log.add("encounter", card=card_id, energy=enemy.energy)
        state.next_fast = 0
        summons = card.summons
    for summoned_id in summons:
        summoned = summon(state, summoned_id)
        if "join" in log:
            log.add("join", enemy=summoned.label)
    enemies = state.enemies()
    if armor.slow:
        for enemy in enemies:
            enemy.energy += armor.slow
        if "slow" in log and enemies:
            log.add("slow", armor=armor.id, energy=[[e.label, e.energy] for e in enemies])
    if enemies:
        begin_prey_turn(state)
    else:
        end_encounter(state, log)
