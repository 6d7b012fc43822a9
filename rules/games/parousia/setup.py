"""Reading an example's ``setup:`` into a State.

The decks the source leaves open (rooms, items, devil items, enemies, bosses)
hold no shipped cards, so an example may define its own inline, numbers and
all: ``{name: Gaper, resilience: 8, speed: 3}`` in ``decks: {enemies: [...]}``.
Each inline card is checked against its card type's fields in game.yaml.
Counters a player's setup leaves out start at 0 (a convenience of examples,
not a rule: the source gives no starting values).
"""
from __future__ import annotations

import re
from typing import Any

from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.engine.errors import SpecError

from .combat import start_fight
from .data import OPEN_DECK_TYPES, Rules, rules_from
from .pickups import card_loot
from .state import Loot, Player, State, Thing

SETUP_KEYS = ("players", "coins", "floor_number", "floor", "decks", "discovered", "fight", "devil_room_open")
PLAYER_KEYS = ("name", "soul-hearts", "black-hearts", "hand", "items", "activated", "charge")
DECKS = ("pickups",) + tuple(OPEN_DECK_TYPES)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _check_keys(spec: dict, allowed, key: tuple, what: str) -> None:
    for name in spec:
        if name not in allowed:
            raise SpecError(f"{what}: unknown key '{name}'{did_you_mean(str(name), list(allowed))} "
                            f"(known: {', '.join(allowed)})", key + (name,))


def _int(value: Any, key: tuple, what: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise SpecError(f"{what}: expected a whole number >= {low}, got {value!r}", key)
    return value


class _Reader:
    def __init__(self, game, rules: Rules):
        self.game = game
        self.rules = rules
        self.things: dict[str, Thing] = {}
        for type_ids in OPEN_DECK_TYPES.values():
            for type_id in type_ids:
                for card in game.cards_of(type_id):
                    self.things[card.id] = Thing(card.id, card.name, card.type, dict(card.fields))
        for card in game.cards_of("special-room"):
            self.things[card.id] = Thing(card.id, card.name, card.type, dict(card.fields))

    # -- inline cards ----------------------------------------------------------------

    def thing(self, value: Any, type_ids: tuple[str, ...], key: tuple) -> str:
        """A card id, or an inline card (registered); returns its id."""
        if isinstance(value, str):
            thing = self.things.get(value)
            if thing is None or thing.type not in type_ids + (("special-room",) if "room" in type_ids else ()):
                known = [t.id for t in self.things.values() if t.type in type_ids]
                raise SpecError(f"no {' or '.join(type_ids)} card '{value}'{did_you_mean(value, known)}; "
                                f"define it inline with name and fields", key)
            return value
        if not isinstance(value, dict) or "name" not in value:
            raise SpecError(f"expected a card id or an inline card with a name, got {value!r}", key)
        type_id = value.get("type") or self._infer_type(value, type_ids)
        if type_id not in type_ids:
            raise SpecError(f"type '{type_id}' is not allowed here (expected {' or '.join(type_ids)})", key + ("type",))
        card_type = self.game.card_types[type_id]
        fields: dict[str, Any] = {}
        for name, item in value.items():
            if name in ("name", "type", "id"):
                continue
            fdef = card_type.field(name)
            if fdef is None:
                raise SpecError(f"{type_id} '{value['name']}': unknown field '{name}'"
                                f"{did_you_mean(name, [n for n, _ in card_type.fields])}", key + (name,))
            fields[name] = self._field(name, fdef, item, key + (name,))
        for name, fdef in card_type.fields:
            if not fdef.optional and name not in fields:
                raise SpecError(f"{type_id} '{value['name']}': missing field '{name}'", key)
        card_id = str(value.get("id") or _slug(str(value["name"])))
        if card_id in self.things and self.things[card_id].fields != fields:
            raise SpecError(f"two different cards are called '{card_id}'; give one an 'id:'", key)
        self.things[card_id] = Thing(card_id, str(value["name"]), type_id, fields)
        return card_id

    def _infer_type(self, value: dict, type_ids: tuple[str, ...]) -> str:
        if "activated-item" in type_ids and "charge" in value:
            return "activated-item"
        return type_ids[0]

    def _field(self, name: str, fdef, item: Any, key: tuple) -> Any:
        if fdef.type == "ref":
            return self.thing(item, tuple(fdef.to), key)
        if fdef.type == "list" and fdef.of is not None and fdef.of.type == "ref":
            if not isinstance(item, list):
                raise SpecError(f"{name}: expected a list", key)
            return tuple(self.thing(v, tuple(fdef.of.to), key + (i,)) for i, v in enumerate(item))
        if fdef.type == "list" and fdef.of is not None and fdef.of.type == "record":
            if not isinstance(item, list):
                raise SpecError(f"{name}: expected a list", key)
            return tuple(self._guarded(v, key + (i,)) for i, v in enumerate(item))
        if fdef.type == "int":
            return _int(item, key, name, int(fdef.min or 0))
        if fdef.type == "bool" and not isinstance(item, bool):
            raise SpecError(f"{name}: expected true or false, got {item!r}", key)
        return item

    def _guarded(self, value: Any, key: tuple) -> dict:
        if not isinstance(value, dict) or set(value) != {"pickup", "guard"}:
            raise SpecError("a guarded pickup is {pickup: <pickup>, guard: spikes, rocks or lock}", key)
        self.pickup_id(value["pickup"], key + ("pickup",))
        if value["guard"] not in self.rules.guards:
            raise SpecError(f"no guard '{value['guard']}' ({', '.join(self.rules.guards)})", key + ("guard",))
        return dict(value)

    def pickup_id(self, value: Any, key: tuple) -> str:
        if value not in self.rules.pickups:
            raise SpecError(f"no pickup '{value}'{did_you_mean(str(value), list(self.rules.pickups))}", key)
        return value

    # -- players, floor, decks -------------------------------------------------------

    def player(self, spec: Any, key: tuple, pickup_deck: list[str]) -> Player:
        if not isinstance(spec, dict) or "name" not in spec:
            raise SpecError("a player is a mapping with a name and counters", key)
        counters = [c for c, rule in self.rules.counters.items() if not rule.shared]
        _check_keys(spec, PLAYER_KEYS + tuple(counters), key, f"player {spec['name']}")
        player = Player(str(spec["name"]), {c: _int(spec.get(c, 0), key + (c,), c) for c in counters},
                        soul_hearts=_int(spec.get("soul-hearts", 0), key + ("soul-hearts",), "soul-hearts"),
                        black_hearts=_int(spec.get("black-hearts", 0), key + ("black-hearts",), "black-hearts"),
                        charges_attack=bool(spec.get("charge", False)))
        for i, card in enumerate(spec.get("hand") or ()):
            if card not in self.rules.deck_cards or not self.rules.deck_cards[card].playable:
                raise SpecError(f"'{card}' is not a playable card of the pickup deck", key + ("hand", i))
            self.take_from_deck(pickup_deck, card, key + ("hand", i))
            player.hand.append(card)
        for i, item in enumerate(spec.get("items") or ()):
            player.items.append(self.thing(item, OPEN_DECK_TYPES["items"] + OPEN_DECK_TYPES["devil-items"],
                                           key + ("items", i)))
        if spec.get("activated"):
            player.activated = self.thing(spec["activated"], ("activated-item",), key + ("activated",))
            player.items.append(player.activated)
        return player

    def take_from_deck(self, pickup_deck: list[str], card: str, key: tuple) -> None:
        if card not in pickup_deck:
            raise SpecError(f"no '{card}' left in the pickup deck (each card exists "
                            f"{self.rules.pickup_deck.count(card) or 'no'} time(s))", key)
        pickup_deck.remove(card)

    def floor(self, state: State, spec: Any, pickup_deck: list[str]) -> None:
        for i, entry in enumerate(spec or ()):
            key = ("floor", i)
            if isinstance(entry, str) and entry in self.rules.deck_cards:
                self.take_from_deck(pickup_deck, entry, key)
                state.floor.append(card_loot(state, entry))
            elif isinstance(entry, dict) and "pickup" in entry:
                _check_keys(entry, ("pickup", "amount", "guard"), key, "floor pickup")
                pickup = self.pickup_id(entry["pickup"], key + ("pickup",))
                if entry.get("guard") and entry["guard"] not in self.rules.guards:
                    raise SpecError(f"no guard '{entry['guard']}'", key + ("guard",))
                state.floor.append(Loot(state.floor_key(pickup), "pickup", pickup=pickup,
                                        amount=_int(entry.get("amount", 1), key + ("amount",), "amount", 1),
                                        guard=entry.get("guard", "")))
            elif isinstance(entry, dict) and "machine" in entry:
                if entry["machine"] not in self.rules.machines:
                    raise SpecError(f"no machine '{entry['machine']}' ({', '.join(self.rules.machines)})", key)
                state.floor.append(Loot(state.floor_key(entry["machine"]), "machine", machine=entry["machine"]))
            elif isinstance(entry, dict) and "item" in entry:
                item = self.thing(entry["item"], OPEN_DECK_TYPES["items"], key + ("item",))
                state.floor.append(Loot(state.floor_key(item), "item", card=item))
            else:
                raise SpecError("a floor entry is a pickup-deck card id, {pickup: ..., amount: ...}, "
                                "{machine: ...} or {item: ...}", key)

    def decks(self, state: State, spec: Any, pickup_deck: list[str]) -> None:
        spec = spec or {}
        if not isinstance(spec, dict):
            raise SpecError("decks: expected a mapping of deck name -> cards, top first", ("decks",))
        _check_keys(spec, DECKS, ("decks",), "decks")
        top = []
        for i, card in enumerate(spec.get("pickups") or ()):
            self.take_from_deck(pickup_deck, card, ("decks", "pickups", i))
            top.append(card)
        state.piles["pickups"] = top + pickup_deck
        for deck, type_ids in OPEN_DECK_TYPES.items():
            if deck in spec:
                state.piles[deck] = [self.thing(v, type_ids, ("decks", deck, i))
                                     for i, v in enumerate(spec[deck] or ())]
            else:
                state.piles[deck] = [c.id for c in self.game.cards_in(deck) for _ in range(c.count)]

    def fight(self, spec: Any) -> tuple[list[tuple[Thing, str]], bool]:
        """The foes an example starts fighting, each with the deck it returns to."""
        if not spec:
            return [], False
        if not isinstance(spec, dict):
            raise SpecError("fight: expected {enemies: [...]} or {boss: ...}", ("fight",))
        _check_keys(spec, ("enemies", "boss"), ("fight",), "fight")
        foes = [(self.things[self.thing(value, ("enemy",), ("fight", "enemies", i))], "enemies")
                for i, value in enumerate(spec.get("enemies") or ())]
        if spec.get("boss"):
            foes.append((self.things[self.thing(spec["boss"], ("boss",), ("fight", "boss"))], "bosses"))
        return foes, bool(spec.get("boss"))


def read_setup(game, spec: dict, log) -> State:
    rules = rules_from(game)
    reader = _Reader(game, rules)
    _check_keys(spec, SETUP_KEYS, (), "setup")
    players = spec.get("players")
    if not isinstance(players, list) or not players:
        raise SpecError("setup: 'players' lists at least one player (name and counters)", ("players",))
    pickup_deck = list(rules.pickup_deck)
    state = State(rules, reader.things, [])
    state.players = [reader.player(p, ("players", i), pickup_deck) for i, p in enumerate(players)]
    names = [p.name for p in state.players]
    if len(set(names)) != len(names):
        raise SpecError("two players share a name", ("players",))
    state.coins = _int(spec.get("coins", 0), ("coins",), "coins")
    state.floor_number = _int(spec.get("floor_number", rules.first_floor), ("floor_number",), "floor_number", 1)
    reader.floor(state, spec.get("floor"), pickup_deck)
    reader.decks(state, spec.get("decks"), pickup_deck)
    for i, room in enumerate(spec.get("discovered") or ()):
        if room not in rules.special_rooms:
            raise SpecError(f"no special room '{room}'", ("discovered", i))
        state.discovered.append(room)
    state.devil_room_open = bool(spec.get("devil_room_open", False))
    foes, boss = reader.fight(spec.get("fight"))
    if foes:
        start_fight(state, foes, boss, log)
    return state
