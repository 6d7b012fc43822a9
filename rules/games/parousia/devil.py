"""The devil die, the devil room's deals, and moving on to the next floor."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError

from .chances import devil_opens, divide
from .pickups import clamp_hearts
from .state import Player, State


def devil_roll(state: State, chance, log) -> None:
    """After a boss fight each player notes their devil die and rolls it; a roll that meets
    or beats the noted value opens the devil room. The counter keeps the noted value."""
    if not state.boss_beaten:
        raise RuleError("the devil die is rolled once, right after a boss fight")
    state.boss_beaten = False
    rolls = {}
    for player in state.players:
        noted = player.counters["devil-die"]
        roll = chance.roll(state.rules.die, f"{player.name}'s devil die (noted {noted})")
        rolls[player.name] = roll
        opens = devil_opens(roll, noted)
        if log:
            log.add("devil", player=player.name, noted=noted, roll=roll, opens=opens)
        state.devil_room_open |= opens
    state.last = {"rolls": rolls, "devil_room": state.devil_room_open}


def deal(state: State, player: Player, key: str, pay: dict[str, int], log) -> None:
    """Buys a devil item for its price in heart containers; every soul_hearts_per_container
    soul or black hearts count as one container."""
    loot = state.loot(key)
    if loot.price_in != "heart-containers":
        raise RuleError(f"{key} is not a devil deal")
    per = state.rules.soul_hearts_per_container
    containers = pay.get("heart-containers", loot.price if not pay else 0)
    soul, black = pay.get("soul-hearts", 0), pay.get("black-hearts", 0)
    if (soul + black) % per:
        raise RuleError(f"soul and black hearts pay in sets of {per}; {soul + black} given")
    if containers + (soul + black) // per != loot.price:
        raise RuleError(f"{key} costs {loot.price} heart container(s); the payment is worth "
                        f"{containers + (soul + black) // per}")
    if player.counters["heart-containers"] < containers or player.soul_hearts < soul or player.black_hearts < black:
        raise RuleError(f"{player.name} does not have that many hearts to pay with")
    player.counters["heart-containers"] -= containers
    player.soul_hearts -= soul
    player.black_hearts -= black
    player.dealt_this_floor = True
    state.floor.remove(loot)
    player.items.append(loot.card)
    if log:
        log.add("deal", player=player.name, item=loot.card, name=state.thing(loot.card).name, containers=containers,
                soul=soul, black=black)
    clamp_hearts(state, player, log)


def next_floor(state: State, chance, log) -> None:
    """Every player without a devil deal on this floor halves their devil die; the floor's
    pickup-deck cards and played cards are shuffled back into the pickup deck; other cards
    go to the bottom of their decks; discoveries and the devil room are forgotten."""
    if state.fight is not None:
        raise RuleError("finish the combat phase before leaving the floor")
    for player in state.players:
        if not player.dealt_this_floor:
            before = player.counters["devil-die"]
            player.counters["devil-die"] = divide(state.rules, before, state.rules.devil_die_divisor)
            if log:
                log.add("devil-halved", player=player.name, before=before, after=player.counters["devil-die"])
        player.dealt_this_floor = False
    back = list(state.used)
    for loot in state.floor:
        if loot.card in state.rules.deck_cards:
            back.append(loot.card)
        elif loot.card:
            deck = "devil-items" if state.thing(loot.card).type == "devil-item" else "items"
            state.piles.setdefault(deck, []).append(loot.card)
    state.piles.setdefault("rooms", []).extend(state.rooms_drawn)
    state.piles["pickups"] = chance.shuffle(state.piles.get("pickups", []) + back, "pickups")
    state.floor, state.used, state.rooms_drawn = [], [], []
    state.discovered, state.stocked, state.location = [], [], ""
    state.devil_room_open = state.boss_beaten = False
    state.floor_number += 1
    if log:
        log.add("floor", floor=state.floor_number)
