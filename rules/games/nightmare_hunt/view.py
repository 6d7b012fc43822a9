"""What can be seen of a hunt: the outcomes an example may claim, the end, the piles, the invariants."""
from __future__ import annotations

from deckwright.rules.engine.zones import Zones

from .state import CONDITIONS, DECK, DISCARD, ENCOUNTER_DISCARD, ENCOUNTERS, HAND, State

DECISIONS = ("town", "between", "turn", "reaction", "won")  # where apply leaves a hunt


def observe(state: State) -> dict:
    rules, zones = state.rules, state.zones
    wound = rules.wound
    wounds = {name: zones.piles[name].count(wound) for name in (HAND, DECK, DISCARD)}
    wounds["total"] = sum(wounds.values())
    armor = rules.armors[state.armor]
    pending = None
    if state.pending:
        enemy, ability = state.pending
        pending = {"enemy": enemy.label, "energy": ability.energy}
    return {
        "phase": state.phase,
        "level": state.level,
        "armor": state.armor,
        "track": state.track(),
        "critical": armor.critical,
        "hand": sorted(zones.piles[HAND]),
        "deck": zones.ids(DECK),
        "discard": zones.ids(DISCARD),
        "count": {name: len(zones[name]) for name in (HAND, DECK, DISCARD)},
        "wounds": wounds,
        "conditions": {c: zones.piles[CONDITIONS].count(c) for c in rules.conditions},
        "enemies": {e.label: {"card": e.id, "energy": e.energy, "wounds": e.wounds, "health": e.card.health}
                    for e in state.enemies()},
        "defeated": list(state.defeated),
        "pending": pending,
        "skip_turn": state.skip_turn,
        "next_fast": state.next_fast,
        "last_attack": dict(state.last_attack) if state.last_attack else None,
        "deaths": state.deaths,
        "encounter_deck": zones.ids(ENCOUNTERS),
        "encounter_discard": zones.ids(ENCOUNTER_DISCARD),
    }


def outcome(state: State) -> tuple[str, bool | None]:
    """How an attempt that is over ended: the boss fell (a win) or the hunter died."""
    return ("won", True) if state.phase == "won" else ("died", False)


# Card facts for ``deckwright simulate``, from the events: {kind: (fact, the data key naming the cards)}.
CARD_FACTS = {"start": ("drawn", "hand"), "draw": ("drawn", "cards"),
              "action": ("played", "action"), "reaction": ("played", "action")}


def is_over(state: State) -> bool:
    return state.phase == "won" or (state.stop_at_death and state.deaths > 0)


def zones(state: State) -> Zones:
    return state.zones


def invariants(state: State) -> list[str]:
    """Energy never negative, no enemy at its health, action cards in hand within Mind, wounds in hand below
    Body (reaching it is death), and the hunt waiting on a decision."""
    rules, hand = state.rules, state.zones.piles[HAND]
    broken = []
    if state.phase not in DECISIONS:
        broken.append(f"the hunt stopped at phase '{state.phase}', which waits on no decision")
    if (state.phase == "reaction") != (state.pending is not None):
        broken.append(f"phase '{state.phase}' with {'a' if state.pending else 'no'} pending enemy action")
    for enemy in state.enemies():
        if enemy.energy < 0:
            broken.append(f"{enemy.label} has {enemy.energy} energy")
        if not 0 <= enemy.wounds < enemy.card.health:
            broken.append(f"{enemy.label} has {enemy.wounds} of {enemy.card.health} wounds and is still in the encounter")
    actions = sum(1 for card in hand if card in rules.actions)
    if actions > rules.mind:
        broken.append(f"{actions} action cards in hand, above Mind {rules.mind}")
    wounds = hand.count(rules.wound)
    if wounds >= rules.body:
        broken.append(f"{wounds} wounds in hand reach Body {rules.body}, yet the hunter lives")
    return broken
