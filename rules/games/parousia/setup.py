"""Where a run starts: an example's position (``setup:``, read through ``SETUP``) or a new run.

The decks the source leaves open (rooms, items, devil items, enemies, bosses)
hold no shipped cards, so an example may define its own inline, numbers and
all: ``{name: Gaper, resilience: 8, speed: 3}`` in ``decks: {enemies: [...]}``.
An inline card is read through its card type's fields in game.yaml (so the
setup's field definitions depend on the game: ``SETUP`` is a function of it);
inline cards nest two deep (a room's inline enemy with an inline next form).
Counters a player's setup leaves out start at 0 (a convenience of examples,
not a rule: the source gives no starting values).
"""
from __future__ import annotations

import re
from typing import Any

from deckwright.rules.data.fields import choice, either, flag, listing, record, ref, text, whole
from deckwright.rules.data.model import Game
from deckwright.rules.data.schema import FieldDef
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import OpenRuleError, known
from deckwright.rules.engine.protocol import Chance, Log

from .combat import start_fight
from .numbers import OPEN_DECK_TYPES, Rules
from .pickups import card_loot
from .state import Loot, Player, State, Thing

PICKUP_DECK = ("playing-card", "joker", "tarot")
INLINE_DEPTH = 2


def _slug(text_: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text_.lower()).strip("-")


def card_field(game: Game, types: tuple[str, ...], depth: int = INLINE_DEPTH, optional: bool = False) -> FieldDef:
    """A card id of ``types``, or (``depth`` permitting) a card written inline."""
    if depth == 0 or not any(t in OPEN_TYPES for t in types):
        return ref(*types, optional=optional)
    return either(scalar=ref(*types), map=inline_card(game, types, depth), optional=optional)


def inline_card(game: Game, types: tuple[str, ...], depth: int = INLINE_DEPTH) -> FieldDef:
    """A card written inline: its name, and the fields of its type, each card it refers to again an id or
    an inline card (one level less deep)."""
    fields: dict[str, FieldDef] = {}
    for type_id in types:
        for name, fdef in game.card_types[type_id].fields:
            fields[name] = _inline_refs(game, fdef if len(types) == 1 else replace(fdef, optional=True), depth - 1)
    return record(name=text(), id=text(optional=True), type=choice(*types, optional=True), **fields)


def _inline_refs(game: Game, fdef: FieldDef, depth: int) -> FieldDef:
    if fdef.type == "ref":
        return card_field(game, fdef.to, depth, fdef.optional)
    if fdef.type == "list" and fdef.of is not None and fdef.of.type == "ref":
        return replace(fdef, of=card_field(game, fdef.of.to, depth))
    return fdef


OPEN_TYPES = {t for types in OPEN_DECK_TYPES.values() for t in types}


def SETUP(game: Game) -> FieldDef:  # noqa: N802 (the protocol's name: a setup's fields, here made from the game's)
    """The fields of an example's setup, inline cards read through the game's own card types."""
    counters = {card.id: whole(min=0, optional=True) for card in game.cards_of("counter") if not card.get("shared")}
    hand = listing(ref(*PICKUP_DECK))
    player = record(name=text(), **counters, **{"soul-hearts": whole(min=0, optional=True),
                                                "black-hearts": whole(min=0, optional=True)},
                    hand=hand, items=listing(card_field(game, OPEN_DECK_TYPES["items"] + OPEN_DECK_TYPES["devil-items"])),
                    activated=card_field(game, ("activated-item",), optional=True), charge=flag())
    floor_entry = either(scalar=ref(*PICKUP_DECK), map=record(
        pickup=ref("pickup", optional=True), amount=whole(min=1, optional=True), guard=ref("guard", optional=True),
        machine=ref("machine", optional=True), item=card_field(game, OPEN_DECK_TYPES["items"], optional=True)))
    decks = record(optional=True, pickups=hand,
                   rooms=listing(either(scalar=ref("room", "special-room"), map=inline_card(game, ("room",)))),
                   **{deck: listing(card_field(game, types)) for deck, types in OPEN_DECK_TYPES.items() if deck != "rooms"})
    return record(
        players=listing(player, optional=False, min=1), coins=whole(min=0, optional=True),
        floor_number=whole(min=1, optional=True), floor=listing(floor_entry), decks=decks,
        discovered=listing(ref("special-room")), devil_room_open=flag(),
        fight=record(optional=True, enemies=listing(card_field(game, ("enemy",))),
                     boss=card_field(game, ("boss",), optional=True)),
    )


class _Reader:
    """Turns a validated setup into a State, registering the inline cards it defines."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.game = rules.game
        self.things: dict[str, Thing] = {}
        for type_id in sorted(OPEN_TYPES | {"special-room"}):
            for card in self.game.cards_of(type_id):
                self.things[card.id] = Thing(card.id, card.name, card.type, dict(card.fields))

    def thing(self, value: Any, types: tuple[str, ...], key: tuple) -> str:
        """A card id, or an inline card (registered under its id, or its name made an id); returns the id."""
        if isinstance(value, str):
            return value
        type_id = value.get("type") or ("activated-item" if "activated-item" in types and "charge" in value
                                        else types[0])
        card_type = self.game.card_types[type_id]
        missing = [name for name, fdef in card_type.fields if not fdef.optional and name not in value]
        if missing:
            raise SpecError(f"{type_id} '{value['name']}': missing field '{missing[0]}'", key)
        allowed = {name for name, _ in card_type.fields}
        stray = [name for name in value if name not in allowed | {"name", "id", "type"}]
        if stray:
            raise SpecError(f"{type_id} '{value['name']}': no field '{stray[0]}' on a {type_id}", key + (stray[0],))
        fields = {name: self._field(fdef, value[name], key + (name,)) for name, fdef in card_type.fields if name in value}
        card_id = value.get("id") or _slug(value["name"])
        if card_id in self.things and self.things[card_id].fields != fields:
            raise SpecError(f"two different cards are called '{card_id}'; give one an 'id:'", key)
        self.things[card_id] = Thing(card_id, value["name"], type_id, fields)
        return card_id

    def _field(self, fdef: FieldDef, item: Any, key: tuple) -> Any:
        if fdef.type == "ref":
            return self.thing(item, fdef.to, key)
        if fdef.type == "list" and fdef.of is not None and fdef.of.type == "ref":
            return tuple(self.thing(v, fdef.of.to, key + (i,)) for i, v in enumerate(item))
        if fdef.type == "list":
            return tuple(item)
        return item

    def player(self, spec: dict, key: tuple, pickup_deck: list[str]) -> Player:
        counters = [c for c, rule in self.rules.counters.items() if not rule.shared]
        player = Player(spec["name"], {c: spec.get(c, 0) for c in counters}, soul_hearts=spec.get("soul-hearts", 0),
                        black_hearts=spec.get("black-hearts", 0), charges_attack=spec.get("charge", False))
        hand = spec.get("hand", ())
        if len(hand) > self.rules.hand_size:
            raise SpecError(f"{spec['name']} holds {len(hand)} playable cards; a hand holds {self.rules.hand_size}",
                            key + ("hand",))
        for i, card in enumerate(hand):
            if not self.rules.deck_cards[card].playable:
                raise SpecError(f"'{card}' is not a playable card of the pickup deck", key + ("hand", i))
            self.take_from_deck(pickup_deck, card, key + ("hand", i))
            player.hand.append(card)
        for i, item in enumerate(spec.get("items", ())):
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

    def floor(self, state: State, spec: list, pickup_deck: list[str]) -> None:
        for i, entry in enumerate(spec):
            key = ("floor", i)
            if isinstance(entry, str):
                self.take_from_deck(pickup_deck, entry, key)
                state.floor.append(card_loot(state, entry))
            elif len({"pickup", "machine", "item"} & set(entry)) != 1:
                raise SpecError("a floor entry is a pickup-deck card id, {pickup: ..., amount: ..., guard: ...}, "
                                "{machine: ...} or {item: ...}", key)
            elif "pickup" in entry:
                state.floor.append(Loot(state.floor_key(entry["pickup"]), "pickup", pickup=entry["pickup"],
                                        amount=entry.get("amount", 1), guard=entry.get("guard", "")))
            elif "machine" in entry:
                state.floor.append(Loot(state.floor_key(entry["machine"]), "machine", machine=entry["machine"]))
            else:
                item = self.thing(entry["item"], OPEN_DECK_TYPES["items"], key + ("item",))
                state.floor.append(Loot(state.floor_key(item), "item", card=item))

    def decks(self, state: State, spec: dict, pickup_deck: list[str]) -> None:
        top = []
        for i, card in enumerate(spec.get("pickups", ())):
            self.take_from_deck(pickup_deck, card, ("decks", "pickups", i))
            top.append(card)
        state.piles["pickups"] = top + pickup_deck
        for deck, type_ids in OPEN_DECK_TYPES.items():
            if deck in spec:
                types = type_ids + (("special-room",) if deck == "rooms" else ())
                state.piles[deck] = [self.thing(v, types, ("decks", deck, i)) for i, v in enumerate(spec[deck])]
            else:
                try:
                    state.piles[deck] = list(self.game.deck_cards(deck))
                except OpenRuleError as exc:  # a deck an example does not draw from need not be known
                    state.piles[deck] = []
                    state.unknown_decks = state.unknown_decks + ((deck, str(exc)),)

    def fight(self, spec: dict) -> tuple[list[tuple[Thing, str]], bool]:
        """The foes an example starts fighting, each with the deck it returns to."""
        foes = [(self.things[self.thing(value, ("enemy",), ("fight", "enemies", i))], "enemies")
                for i, value in enumerate(spec.get("enemies", ()))]
        if spec.get("boss"):
            foes.append((self.things[self.thing(spec["boss"], ("boss",), ("fight", "boss"))], "bosses"))
        return foes, bool(spec.get("boss"))


def setup(rules: Rules, spec: dict, chance: Chance, log: Log) -> State:
    reader = _Reader(rules)
    pickup_deck = list(rules.pickup_deck)
    state = State(rules, reader.things, [])
    state.players = [reader.player(p, ("players", i), pickup_deck) for i, p in enumerate(spec["players"])]
    names = [p.name for p in state.players]
    if len(set(names)) != len(names):
        raise SpecError("two players share a name", ("players",))
    state.coins = spec.get("coins", 0)
    state.floor_number = spec.get("floor_number", rules.first_floor)
    reader.floor(state, spec.get("floor", ()), pickup_deck)
    reader.decks(state, spec.get("decks", {}), pickup_deck)
    state.discovered = list(spec.get("discovered", ()))
    state.devil_room_open = spec.get("devil_room_open", False)
    foes, boss = reader.fight(spec.get("fight", {}))
    if foes:
        start_fight(state, foes, boss, log)
    return state

OPTIONS = record(
    floors=whole(min=1, optional=True, doc="the run ends when the party leaves this floor (random play needs it: "
                                           "the source names no end to a run)"),
    players=listing(text(), doc="the players' names (default one, P1)"),
)


def new_game(rules: Rules, options: dict, chance: Chance, log: Log) -> State:
    """A run for random play: every deck shuffled, each player's counters at the values the counter cards
    give (open in the source: a fixture must give them), the party on the first floor.

    Options: ``players`` (names; default one, "P1"), and ``floors``: the run ends when the party leaves
    that floor. The source names no end to a run, so random play asks for one and never defaults it.
    """
    if "floors" not in options:
        raise OpenRuleError("random play needs the option floors (--option floors=N: the run ends when the party "
                            "leaves floor N); the source names no end to a run")
    if rules.empty_decks:  # play from an empty deck would give figures of no game (found once, by prepare)
        raise OpenRuleError(f"the source names decks but lists no cards of them: {', '.join(rules.empty_decks)} "
                            f"(lay them over the game: --fixture FOLDER)")
    reader = _Reader(rules)
    state = State(rules, reader.things, [], floor_number=rules.first_floor, floors=options["floors"])
    for name in options.get("players", ["P1"]):
        counters = {}
        for card in rules.game.cards_of("counter"):
            start = known(card["start"], f"{card.name}'s base value")
            if card.get("shared"):
                state.coins = start
            else:
                counters[card.id] = start
        state.players.append(Player(name, counters))
    for deck in ("pickups", *OPEN_DECK_TYPES):
        state.piles[deck] = chance.shuffle(list(rules.game.deck_cards(deck)), deck)
    return state
