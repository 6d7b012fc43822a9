"""Counters and their caps, pickups taken from or dropped on the floor, hearts lost,
and the Ace that turns the whole floor into one kind of pickup."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError

from .state import Loot, Player, State

SOUL, BLACK = "soul-heart", "black-heart"


# -- counters ----------------------------------------------------------------------


def cap(state: State, player: Player | None, counter: str) -> int:
    """The most a counter can hold right now."""
    rules = state.rules
    kind = rules.counters[counter].cap
    if kind == "heart-containers" and player is not None:
        return min(player.stat("heart-containers"), rules.counter_cap)
    if kind == "item-charge" and player is not None:
        charge = item_charge(state, player)
        if charge is None:
            raise RuleError(f"{state.thing(player.activated).name}'s charge is left open by the source")
        return charge
    return rules.counter_cap


def item_charge(state: State, player: Player) -> int | None:
    """The charge printed on the player's activated item: 0 without one, None when the source leaves it open."""
    if not player.activated:
        return 0
    charge = state.thing(player.activated).get("charge")
    return charge if isinstance(charge, int) else None


def counter_value(state: State, player: Player, counter: str) -> int:
    return state.coins if state.rules.counters[counter].shared else player.counters[counter]


def set_counter(state: State, player: Player, counter: str, value: int) -> None:
    if state.rules.counters[counter].shared:
        state.coins = value
    else:
        player.counters[counter] = value


def raise_counter(state: State, player: Player, counter: str, amount: int, log) -> int:
    """Adds up to the counter's cap; returns how much was added (the rest is lost)."""
    before = counter_value(state, player, counter)
    after = min(before + amount, max(cap(state, player, counter), before))
    set_counter(state, player, counter, after)
    if log and after - before < amount:
        log.add("cap", counter=counter, after=after, lost=amount - (after - before))
    return after - before


def clamp_hearts(state: State, player: Player, log) -> None:
    """Red hearts never exceed the heart containers (after a deal, or when a bonus ends)."""
    limit = cap(state, player, "hearts")
    if player.counters["hearts"] > limit:
        if log:
            log.add("hearts-drop", player=player.name, hearts=limit)
        player.counters["hearts"] = limit


# -- gaining -------------------------------------------------------------------------


def room_for(state: State, player: Player, pickup: str) -> int:
    """How much more of a pickup's counter the player can hold."""
    rule = state.rules.pickups[pickup]
    if rule.counter is None:
        held = player.soul_hearts if pickup == SOUL else player.black_hearts
        return state.rules.counter_cap - held
    return cap(state, player, rule.counter) - counter_value(state, player, rule.counter)


def gain(state: State, player: Player, pickup: str, amount: int, log) -> int:
    """``amount`` of a pickup into its counter, up to the cap; returns what was added. What does not fit stays
    on the floor, counted in the counter's smallest pickup (a quarter's remaining cents as coins): the
    reading ``partial-pickup`` of the game's readings register."""
    rule = state.rules.pickups[pickup]
    worth = rule.value * amount
    if rule.counter is not None:
        added = raise_counter(state, player, rule.counter, worth, None)
        after = counter_value(state, player, rule.counter)
    else:
        attr = "soul_hearts" if pickup == SOUL else "black_hearts"
        held = getattr(player, attr)
        added = min(worth, state.rules.counter_cap - held)
        after = held + added
        setattr(player, attr, after)
    if added < worth:
        unit = unit_pickup(state, pickup)
        if log:
            log.add("rest-on-floor", pickup=pickup, after=after, unit=unit, amount=worth - added)
        drop_pickup(state, unit, (worth - added) // state.rules.pickups[unit].value, None)
    return added


def unit_pickup(state: State, pickup: str) -> str:
    """The smallest pickup that fills the same counter (a coin for a quarter); soul and black hearts are their own."""
    counter = state.rules.pickups[pickup].counter
    if counter is None:
        return pickup
    same = [rule for rule in state.rules.pickups.values() if rule.counter == counter]
    return min(same, key=lambda rule: (rule.value, rule.id)).id


def take(state: State, player: Player, key: str, log) -> None:
    """Takes something free from the floor: a pickup into its counter, a playable card into the hand,
    an item onto the sheet. A pickup whose counter is full stays on the floor."""
    loot = state.loot(key)
    if loot.price:
        unit = "c" if loot.price_in == "coins" else " heart container(s)"
        raise RuleError(f"{loot.key} is for sale at {loot.price}{unit}; buy it")
    if loot.kind == "machine":
        raise RuleError(f"{loot.key} is a machine; use it")
    if loot.kind == "pickup" and room_for(state, player, loot.pickup) <= 0:
        raise RuleError(f"{player.name} cannot take {loot.key}: {state.rules.pickups[loot.pickup].name} already full")
    if loot.kind == "playable" and len(player.hand) >= state.rules.hand_size:
        raise RuleError(f"{player.name}'s hand is full ({state.rules.hand_size} card(s)); {loot.key} stays on the floor")
    if loot.guard:
        pay_guard(state, player, loot, log)
    state.floor.remove(loot)
    receive(state, player, loot, log)


def receive(state: State, player: Player, loot: Loot, log) -> None:
    if loot.kind == "pickup":
        added = gain(state, player, loot.pickup, loot.amount, log)
        if loot.card:
            state.used.append(loot.card)
        if log:
            log.add("take", player=player.name, loot=loot.key, pickup=loot.pickup, added=added)
    elif loot.kind == "playable":
        player.hand.append(loot.card)
        if log:
            log.add("take-card", player=player.name, loot=loot.key)
    else:
        player.items.append(loot.card)
        if state.thing(loot.card).type == "activated-item":
            if player.activated:  # one activated item at a time: the old one is left on the floor
                player.items.remove(player.activated)
                state.floor.append(Loot(state.floor_key(player.activated), "item", card=player.activated))
                player.counters["item-charge"] = 0
            player.activated = loot.card
        if log:
            log.add("take-item", player=player.name, loot=loot.key, item=loot.card, name=state.thing(loot.card).name)


def pay_guard(state: State, player: Player, loot: Loot, log) -> None:
    pays = state.rules.guards[loot.guard]
    if pays == "contact-hit":
        hurt(state, player, 1, log, contact=True)
        return
    counter = "bombs" if pays == "bomb" else "keys"
    if player.counters[counter] < 1:
        raise RuleError(f"{player.name} has no {counter} to get past the {loot.guard}")
    player.counters[counter] -= 1
    if log:
        log.add("pay", player=player.name, counter=counter, guard=loot.guard)


# -- the floor -----------------------------------------------------------------------


def drop_pickup(state: State, pickup: str, amount: int, log, guard: str = "") -> Loot | None:
    """Loose pickups onto the floor (no card behind them); nothing for an amount of 0."""
    if amount <= 0:
        return None
    loot = Loot(state.floor_key(pickup), "pickup", pickup=pickup, amount=amount, guard=guard)
    state.floor.append(loot)
    if log:
        log.add("drop", pickup=pickup, amount=amount)
    return loot


def card_loot(state: State, card_id: str) -> Loot:
    card = state.rules.deck_cards[card_id]
    if card.playable:
        return Loot(state.floor_key(card_id), "playable", card=card_id)
    return Loot(state.floor_key(card_id), "pickup", pickup=card.pickup, amount=card.amount, card=card_id)


def drop_deck_card(state: State, log, why: str = "") -> Loot:
    """The top card of the pickup deck onto the floor: what "a random pickup" means."""
    loot = card_loot(state, state.draw("pickups"))
    state.floor.append(loot)
    if log:
        log.add("drop-card", card=loot.card, why=why)
    return loot


def drop_item(state: State, deck: str, log, why: str = "") -> Loot:
    thing = state.thing(state.draw(deck))
    loot = Loot(state.floor_key(thing.id), "item", card=thing.id)
    state.floor.append(loot)
    if log:
        log.add("drop-item", item=thing.id, name=thing.name, why=why)
    return loot


def convert_floor(state: State, pickup: str, log) -> int:
    """Every pickup on the floor becomes as many of ``pickup``; returns how many loots changed."""
    changed = 0
    for loot in state.floor:
        if loot.kind == "pickup" and loot.pickup != pickup:
            loot.pickup = pickup
            changed += 1
    if log:
        log.add("convert", pickup=pickup, changed=changed)
    return changed


def floor_pickups(state: State) -> dict[str, int]:
    """How many of each pickup lie on the floor, free or not."""
    totals: dict[str, int] = {}
    for loot in state.floor:
        if loot.kind == "pickup":
            totals[loot.pickup] = totals.get(loot.pickup, 0) + loot.amount
    return dict(sorted(totals.items()))


# -- hearts lost ---------------------------------------------------------------------


def hurt(state: State, player: Player, hits: int, log, contact: bool = False) -> int:
    """Hits of damage: soul hearts go first, then black hearts, then red hearts.
    Returns the red hearts lost. Red heart damage in a fight raises the devil die once."""
    if player.has("invulnerable"):
        if log:
            log.add("unhurt", player=player.name, why="invulnerable")
        return 0
    if contact and player.has("no-contact-damage"):
        if log:
            log.add("unhurt", player=player.name, why="no contact damage")
        return 0
    hearts = hits * state.rules.hearts_per_hit
    red = 0
    for _ in range(hearts):
        if player.soul_hearts:
            player.soul_hearts -= 1
        elif player.black_hearts:
            player.black_hearts -= 1
        elif player.counters["hearts"]:
            player.counters["hearts"] -= 1
            red += 1
    if log:
        log.add("hurt", player=player.name, hearts=hearts, red=red, left=[player.counters["hearts"],
                                                                           player.soul_hearts, player.black_hearts])
    if red and state.fight is not None and player.name not in state.fight.red_damage:
        state.fight.red_damage.add(player.name)
        step = state.rules.devil_die_per_boss_fight if state.fight.boss else state.rules.devil_die_per_fight
        raise_counter(state, player, "devil-die", step, log)
        if log:
            log.add("devil-up", player=player.name, step=step, devil_die=player.counters["devil-die"])
    return red
