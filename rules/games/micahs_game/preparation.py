"""The preparation phase: the merchant (restocking, buying, selling), upgrades, trades, companions,
and leaving the adventure.

Readings of the source that are ours (open questions in game.yaml): sold, forfeited and lost items go to
the used treasure pile; released creatures go to the graveyard; applied upgrades stay on the character;
an open companion limit is not enforced.
"""
from __future__ import annotations

from typing import Iterable

from deckwright.rules.engine.dice import step_up
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import known
from deckwright.rules.engine.zones import Zones

from .numbers import Rules, card_value
from .state import GRAVEYARD, MERCHANT, OVER, TREASURE, USED_TREASURE, State, Step
from .turn import end_turn, gain_coins, knock_out, playing, require_preparation


def restock(rules: Rules, state: State, chance) -> Step:
    """Fill the merchant up to its slots from the treasure deck, reshuffling the used pile when it runs out."""
    state, zones = state.changing()
    events: list = []

    def reshuffle(z: Zones) -> None:
        if z.count(USED_TREASURE):
            z.move_all(USED_TREASURE, TREASURE)
            z.shuffle(TREASURE, chance)
            events.append(("treasure-reshuffled", {}))

    missing = rules.merchant_slots - zones.count(MERCHANT)
    drawn = zones.draw(TREASURE, MERCHANT, missing, refill=reshuffle) if missing > 0 else []
    if drawn:
        events.append(("restock", {"items": list(drawn)}))
    if zones.count(MERCHANT) < rules.merchant_slots:
        events.append(("merchant-short", {"shows": zones.count(MERCHANT)}))
    return state, events


def buy(rules: Rules, state: State, name: str, item_id: str, chance) -> Step:
    require_preparation(state, name)
    player = playing(state, name)
    item = rules.card(item_id, "item")
    if item_id not in state.zones.ids(MERCHANT):
        raise RuleError(f"the merchant has no {item.name} (it shows: {', '.join(state.zones.ids(MERCHANT)) or 'nothing'})")
    price = card_value(item, "buy")
    if player.coins < price:
        raise RuleError(f"{name} has {player.coins} coins; {item.name} costs {price}")
    state, zones = state.changing()
    zones.move(item_id, MERCHANT, f"{name}:items")
    state = gain_coins(state, name, -price)
    events = [("buy", {"player": name, "item": item_id, "price": price, "coins": state.player(name).coins})]
    state, more = restock(rules, state, chance)
    return state, events + more


def sell(rules: Rules, state: State, name: str, item_id: str) -> Step:
    require_preparation(state, name)
    playing(state, name)
    item = rules.card(item_id, "item")
    price = card_value(item, "sell")
    state, zones = state.changing()
    zones.move(item_id, f"{name}:items", USED_TREASURE)
    state = gain_coins(state, name, price)
    return state, [("sell", {"player": name, "item": item_id, "price": price, "coins": state.player(name).coins})]


def apply_upgrade(rules: Rules, state: State, name: str, item_id: str) -> Step:
    """An upgrade card raises a stat's dice by die steps and stays on the character."""
    require_preparation(state, name)
    player = playing(state, name)
    item = rules.card(item_id, "item")
    upgrade = item.get("upgrade")
    if item["kind"] != "upgrade" or not upgrade:
        raise RuleError(f"{item.name} is not an upgrade")
    if not item.get("stacks") and item_id in state.pile(name, "upgrades"):
        raise RuleError(f"{item.name} does not stack and {name} already has one applied")
    stat, steps = upgrade["stat"], upgrade["steps"]
    pool = known(player.dice[stat], f"{rules.name(player.hero)}'s {stat}")
    new_pool = tuple(step_up(list(pool), steps))
    state, zones = state.changing()
    zones.move(item_id, f"{name}:items", f"{name}:upgrades")
    state = state.with_player(replace(player, dice={**player.dice, stat: new_pool}))
    return state, [("upgrade", {"player": name, "item": item_id, "stat": stat, "before": list(pool),
                                "after": list(new_pool)})]


def trade(rules: Rules, state: State, first: str, gives: Iterable[str], second: str, takes: Iterable[str]) -> Step:
    """Two players swap items; any time no encounter is active."""
    require_preparation(state)
    playing(state, first)
    playing(state, second)
    gives, takes = list(gives), list(takes)
    state, zones = state.changing()
    for item in gives:
        zones.move(item, f"{first}:items", f"{second}:items")
    for item in takes:
        zones.move(item, f"{second}:items", f"{first}:items")
    return state, [("trade", {"player": first, "gives": gives, "with": second, "gets": takes})]


def assign_companion(rules: Rules, state: State, name: str, creature_id: str) -> Step:
    require_preparation(state, name)
    playing(state, name)
    if rules.companion_slots is not None and len(state.pile(name, "companions")) >= rules.companion_slots:
        raise RuleError(f"{name} already has {rules.companion_slots} companion(s)")
    state, zones = state.changing()
    zones.move(creature_id, f"{name}:dock", f"{name}:companions")
    return state, [("companion", {"player": name, "creature": creature_id})]


def dismiss_companion(rules: Rules, state: State, name: str, creature_id: str) -> Step:
    require_preparation(state, name)
    state, zones = state.changing()
    zones.move(creature_id, f"{name}:companions", f"{name}:dock")
    return state, [("dismiss", {"player": name, "creature": creature_id})]


def release(rules: Rules, state: State, name: str, creature_id: str) -> Step:
    require_preparation(state, name)
    state, zones = state.changing()
    source = f"{name}:dock" if creature_id in state.pile(name, "dock") else f"{name}:companions"
    zones.move(creature_id, source, GRAVEYARD)
    return state, [("release", {"player": name, "creature": creature_id})]


def leave(rules: Rules, state: State, name: str) -> Step:
    """A player gives up the adventure (a loss), any time no encounter is active."""
    require_preparation(state)
    playing(state, name)
    state, events = knock_out(rules, state, name, "left")
    if state.phase != OVER and state.current.name == name:
        state, more = end_turn(rules, state)
        events += more
    return state, events
