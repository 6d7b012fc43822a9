"""What can be seen of a run: the outcomes an example may claim, the end, the piles, the invariants."""
from __future__ import annotations

from typing import Any

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.zones import Zones

from . import combat
from .pickups import cap, floor_pickups
from .state import Player, State


def observe(state: State) -> dict:
    out: dict[str, Any] = {
        "floor_number": state.floor_number,
        "coins": state.coins,
        "floor": [loot.key for loot in state.floor],
        "floor_pickups": floor_pickups(state),
        "for_sale": {loot.key: loot.price for loot in state.floor if loot.price},
        "discovered": list(state.discovered),
        "location": state.location,
        "devil_room": "open" if state.devil_room_open else "closed",
        "in_fight": state.fight is not None,
        "players": {p.name: _player_view(state, p) for p in state.players},
        "decks": {name: len(cards) for name, cards in state.piles.items()},
        "deck_tops": {name: cards[0] for name, cards in state.piles.items() if cards},
        "last": dict(state.last),
    }
    if state.fight is not None:
        out["fight"] = {
            "boss": state.fight.boss,
            "order": combat.turn_order(state),
            "enemies": {f.key: _foe_view(f) for f in state.fight.foes},
        }
    return out


def _player_view(state: State, player: Player) -> dict:
    view: dict[str, Any] = dict(player.counters)
    view.update({
        "soul-hearts": player.soul_hearts,
        "black-hearts": player.black_hearts,
        "hand": list(player.hand),
        "items": list(player.items),
        "effects": [e.source for e in player.effects],
        "stats": {stat: player.stat(stat) for stat in state.rules.stat_counters},
    })
    return view


def _foe_view(foe) -> dict:
    view = {"form": foe.thing.id, "alive": foe.alive}
    if foe.boss:
        view["hp"] = foe.hp
    return view


def is_over(state: State) -> bool:
    """A run in random play ends when the party leaves its last floor (the source names no end)."""
    return state.floors is not None and state.floor_number > state.floors


def outcome(state: State) -> tuple[str, bool | None]:
    """How a run that is over ended: past its last floor (random play's end; the source names none) with every
    player holding a heart, or with a player out of hearts (red, soul and black all at 0, which the source gives
    no consequence). No side wins (None)."""
    spent = any(p.counters["hearts"] + p.soul_hearts + p.black_hearts == 0 for p in state.players)
    return ("a player out of hearts" if spent else "every player with hearts"), None


def zones(state: State) -> Zones:
    """Every counted card: the decks, the floor's cards, the players' hands and items, the played cards,
    the rooms drawn this floor, and the cards in the combat area."""
    piles = {f"deck {name}": list(cards) for name, cards in state.piles.items()}
    piles["floor"] = [loot.card for loot in state.floor if loot.card]
    piles["used"] = list(state.used)
    piles["rooms drawn"] = list(state.rooms_drawn)
    for player in state.players:
        piles[f"{player.name} hand"] = list(player.hand)
        piles[f"{player.name} items"] = list(player.items)
    piles["combat area"] = [foe.origin for foe in state.fight.foes] if state.fight else []
    zones = Zones.with_piles(**piles)
    zones.created_ids = state.created
    return zones


def invariants(state: State) -> list[str]:
    """Every counter within its limit and never negative, hands within the hand size, no fight without a foe
    standing, one name for each thing on the floor."""
    broken = []
    rules = state.rules
    if not 0 <= state.coins <= rules.counter_cap:
        broken.append(f"the party has {state.coins} coins (0 to {rules.counter_cap})")
    for player in state.players:
        for counter, value in player.counters.items():
            try:
                limit = cap(state, player, counter)
            except RuleError:  # an activated item whose charge the source leaves open
                limit = rules.counter_cap
            if not 0 <= value <= limit:
                broken.append(f"{player.name}'s {counter} is {value} (0 to {limit})")
        for name, value in (("soul hearts", player.soul_hearts), ("black hearts", player.black_hearts)):
            if not 0 <= value <= rules.counter_cap:
                broken.append(f"{player.name} has {value} {name}")
        if len(player.hand) > rules.hand_size:
            broken.append(f"{player.name} holds {len(player.hand)} cards, above the hand size {rules.hand_size}")
    if state.fight is not None and not combat.foes_left(state):
        broken.append("a fight with no foe standing")
    keys = [loot.key for loot in state.floor]
    if len(set(keys)) != len(keys):
        broken.append(f"two things on the floor share a name: {', '.join(sorted(k for k in keys if keys.count(k) > 1))}")
    return broken
