"""Rooms: drawing them (with chasers), the special rooms they discover, and what
the shop, treasure room, arcade and their machines hold."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError

from .chances import roll_amount, roll_chance
from .combat import start_fight
from .pickups import drop_deck_card, drop_item, drop_pickup, receive
from .state import Loot, Player, State


def is_special(state: State, card_id: str) -> bool:
    return card_id in state.rules.special_rooms


def discover(state: State, room: str, log) -> None:
    if room not in state.discovered:
        state.discovered.append(room)
        if log:
            log.add("discover", room=room)


# -- drawing rooms ---------------------------------------------------------------------


def draw_room(state: State, log) -> None:
    """The next room: a special room is only discovered; an ordinary room starts a fight,
    and each chaser draws another room into the same fight (special rooms met on the way
    are discovered and skipped until an ordinary one comes up)."""
    if state.fight is not None:
        raise RuleError("rooms are drawn between fights, not during one")
    card = state.draw("rooms")
    state.rooms_drawn.append(card)
    if is_special(state, card):
        discover(state, card, log)
        state.last = {"rooms": [], "discovered": [card]}
        return
    rooms, found, foes = [card], [], []
    while True:
        room = state.thing(rooms[-1])
        if log:
            log.add("room", room=room.id, name=room.name, chaser=bool(room.get("chaser")))
        foes += [(state.thing(str(e)), "enemies") for e in room.get("enemies") or ()]
        for guarded in room.get("guarded") or ():
            drop_pickup(state, str(guarded["pickup"]), 1, log, guard=str(guarded["guard"]))
        if not room.get("chaser"):
            break
        while True:
            nxt = state.draw("rooms")
            state.rooms_drawn.append(nxt)
            if not is_special(state, nxt):
                break
            discover(state, nxt, log)
            found.append(nxt)
        rooms.append(nxt)
    start_fight(state, foes, boss=False, log=log)
    state.last = {"rooms": rooms, "discovered": found}


# -- entering special rooms ------------------------------------------------------------


def enter(state: State, player: Player, room_id: str, log, by_card: bool = False) -> None:
    """Travel to a special room. Without a card that leads there, the room must be discovered,
    no fight may be going on, and after the first floors the treasure room takes a key."""
    room = state.rules.special_rooms.get(room_id)
    if room is None:
        raise RuleError(f"'{room_id}' is not a special room ({', '.join(state.rules.special_rooms)})")
    if not by_card:
        if state.fight is not None:
            raise RuleError("special rooms cannot be entered during a combat phase")
        if room.in_room_deck and room_id not in state.discovered:
            raise RuleError(f"the {room.name} has not been discovered on this floor")
        if not room.in_room_deck and not state.devil_room_open:
            raise RuleError(f"the {room.name} is not open")
        if room.key_cost and room_id not in state.stocked and state.floor_number > room.key_free_floors:
            if player.counters["keys"] < room.key_cost:
                raise RuleError(f"the {room.name} needs {room.key_cost} key(s) on floor {state.floor_number}")
            player.counters["keys"] -= room.key_cost
            if log:
                log.add("unlock", player=player.name, room=room_id, keys=room.key_cost)
    state.location = room_id
    if log:
        log.add("enter", player=player.name, room=room_id)
    stock(state, room_id, log)
    if room.starts_combat:
        boss = state.thing(state.draw("bosses"))
        start_fight(state, [(boss, "bosses")], boss=True, log=log, drawn=True)


def enterable(state: State, player: Player) -> list[str]:
    """The special rooms ``player`` may walk into now (for random play: a boss room only with a boss to draw)."""
    if state.fight is not None:
        return []
    out = []
    for room_id, room in state.rules.special_rooms.items():
        if room.in_room_deck and room_id not in state.discovered or not room.in_room_deck and not state.devil_room_open:
            continue
        if (room.key_cost and room_id not in state.stocked and state.floor_number > room.key_free_floors
                and player.counters["keys"] < room.key_cost):
            continue
        if room.starts_combat and not state.piles.get("bosses"):
            continue
        out.append(room_id)
    return out


def stock(state: State, room_id: str, log) -> None:
    """Puts out a special room's contents, once per floor."""
    if room_id in state.stocked:
        return
    state.stocked.append(room_id)
    room = state.rules.special_rooms[room_id]
    for _ in range(room.items):
        loot = drop_item(state, room.item_deck, log)
        if room.item_deck == "devil-items":
            loot.price, loot.price_in = state.thing(loot.card).get("price"), "heart-containers"
        elif room.item_price:
            loot.price, loot.price_in = room.item_price, "coins"
    hearts = []
    for _ in range(room.pickups):
        loot = drop_deck_card(state, log, f"for sale in the {room.name}")
        loot.price, loot.price_in = room.pickup_price, "coins"
        if loot.kind == "pickup" and loot.pickup == "red-heart":
            hearts.append(loot)
    if len(hearts) >= 2:
        hearts[0].pickup = "soul-heart"
        if log:
            log.add("shop", loot=hearts[0].key)
    for machine in room.machines:
        state.floor.append(Loot(state.floor_key(machine), "machine", machine=machine))
        if log:
            log.add("machine", machine=machine, room=room_id)


def buy(state: State, player: Player, key: str, log) -> None:
    """Pays for something on sale in the shop (shared coins); a devil item is a deal instead."""
    loot = state.loot(key)
    if not loot.price:
        raise RuleError(f"{key} is not for sale; take it")
    if loot.price_in != "coins":
        raise RuleError(f"{key} costs heart containers; make a devil deal for it")
    if state.coins < loot.price:
        raise RuleError(f"{key} costs {loot.price}c and the party has {state.coins}c")
    if loot.kind == "playable" and len(player.hand) >= state.rules.hand_size:
        raise RuleError(f"{player.name}'s hand is full")
    state.coins -= loot.price
    if log:
        log.add("buy", player=player.name, loot=key, price=loot.price, coins=state.coins)
    state.floor.remove(loot)
    loot.price = 0
    receive(state, player, loot, log)


# -- machines --------------------------------------------------------------------------


def use_machine(state: State, player: Player, key: str, chance, log) -> None:
    """One use of a slot machine, beggar or blood donation machine: its payout, rolled.
    What a use costs is left open by the source, so nothing is paid here."""
    loot = state.loot(key)
    if loot.kind != "machine":
        raise RuleError(f"{key} is not a machine")
    effect = state.rules.machines[loot.machine]
    name = state.rules.machine_names[loot.machine]
    if log:
        log.add("use", player=player.name, machine=loot.machine, loot=key)
    state.last = spawn(state, effect, chance, log, name)


def spawn(state: State, effect, chance, log, what: str) -> dict:
    """The random part of a machine or tarot card: a chance chain on one D20, and rolled drops."""
    last: dict = {}
    if effect.chance:
        roll, result = roll_chance(state.rules, effect.chance, chance, what)
        last.update(roll=roll, result=result or "nothing")
        if log:
            log.add("chance", what=what, roll=roll, lines=[[line.up_to, line.result] for line in effect.chance],
                    result=result)
        if result == "item":
            drop_item(state, "items", log, what)
        elif result == "pickup":
            drop_deck_card(state, log, what)
    for drop in effect.drops:
        amount, faces = roll_amount(state.rules, drop.amount, chance, what)
        if faces and log:
            log.add("amount", what=what, dice=str(drop.amount), faces=list(faces), amount=amount)
        last.setdefault("dropped", {})[drop.pickup] = amount
        drop_pickup(state, drop.pickup, amount, log)
    return last


def place_card_machine(state: State, card_id: str, machine: str, log) -> None:
    """A tarot card laid on the floor to work as a machine."""
    state.floor.append(Loot(state.floor_key(card_id), "machine", card=card_id, machine=machine))
    if log:
        log.add("card-machine", card=card_id, machine=machine)

