"""The numbers and card facts Parousia's rules read, taken from the game data once by ``prepare``.

Nothing here is typed in code: limits and prices are game constants, what a
card gives or does is in its card file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from deckwright.rules.data.fields import choice, record, whole
from deckwright.rules.data.model import Game
from deckwright.rules.engine.dice import ROUNDINGS, Dice, parse_dice
from deckwright.rules.engine.openvalues import Open

CONSTANTS = record(
    counter_cap=whole(min=1, doc="Every counter stops at this value unless its card names another limit"),
    die_sides=whole(min=2, doc="All rolls in the game are made with this die"),
    hand_size=whole(min=0, doc="Playable cards a hand holds"),
    soul_hearts_per_container=whole(min=1, doc="Soul or black hearts that pay for one red heart container"),
    devil_die_per_fight=whole(min=0, doc="Devil die increase for red heart damage in a fight"),
    devil_die_per_boss_fight=whole(min=0, doc="Devil die increase for red heart damage in a boss fight"),
    devil_die_divisor=whole(min=1, doc="A floor left without a devil deal divides the devil die by this"),
    charge_per_fight=whole(min=0, doc="Added to every activated item's charge when a fight ends"),
    pickups_per_fight=whole(min=0, doc="Pickups drawn onto the floor when a fight ends"),
    hearts_per_hit=whole(min=1, doc="Hearts one hit of damage takes"),
    division_rounding=choice(*ROUNDINGS, doc="How a division (D20/5) rounds"),
    first_floor=whole(min=1, doc="The number of the first floor"),
)

# The card types of the decks the source names without listing; example setups may define such cards inline.
OPEN_DECK_TYPES = {
    "rooms": ("room",),
    "items": ("item", "activated-item"),
    "devil-items": ("devil-item",),
    "enemies": ("enemy",),
    "bosses": ("boss",),
}


@dataclass(frozen=True)
class CounterRule:
    id: str
    name: str
    group: str  # pickup, stat or other
    cap: str  # counter-cap, heart-containers or item-charge
    shared: bool
    order: int


@dataclass(frozen=True)
class PickupRule:
    id: str
    name: str
    counter: str | None  # None: soul and black hearts, which have no counter on the sheet
    value: int


@dataclass(frozen=True)
class ChanceLine:
    up_to: int
    result: str  # item or pickup


@dataclass(frozen=True)
class Drop:
    pickup: str
    amount: Dice


@dataclass(frozen=True)
class Effect:
    """What playing a tarot card or using a machine does; every part is optional."""

    damage: int = 0
    damage_target: str = ""  # highest-hp or every-enemy
    bonus: tuple[tuple[str, int], ...] = ()
    conditions: tuple[str, ...] = ()
    lasts: str = ""  # combat or turns
    turns: int = 0
    drops: tuple[Drop, ...] = ()
    chance: tuple[ChanceLine, ...] = ()
    machine: str = ""
    travel: str = ""
    reveals: tuple[str, ...] = ()
    full_heal: bool = False
    open_note: str = ""  # set when the source leaves the effect open


@dataclass(frozen=True)
class DeckCard:
    """One card of the pickup deck."""

    id: str
    name: str
    kind: str  # pickup, ace, joker or tarot
    pickup: str = ""  # what it gives, or what an Ace turns the floor into
    amount: int = 0
    effect: Effect = field(default_factory=Effect)

    @property
    def playable(self) -> bool:
        return self.kind != "pickup"


@dataclass(frozen=True)
class SpecialRoom:
    id: str
    name: str
    in_room_deck: bool
    items: int = 0
    item_deck: str = ""
    pickups: int = 0
    item_price: int = 0
    pickup_price: int = 0
    key_cost: int = 0
    key_free_floors: int = 0
    machines: tuple[str, ...] = ()
    starts_combat: bool = False


@dataclass(frozen=True)
class Rules:
    counter_cap: int
    die: int
    hand_size: int
    soul_hearts_per_container: int
    devil_die_per_fight: int
    devil_die_per_boss_fight: int
    devil_die_divisor: int
    charge_per_fight: int
    pickups_per_fight: int
    hearts_per_hit: int
    rounding: str
    first_floor: int
    counters: Mapping[str, CounterRule]
    pickups: Mapping[str, PickupRule]
    deck_cards: Mapping[str, DeckCard]  # the pickup deck's card kinds, by id
    pickup_deck: tuple[str, ...]  # every physical card, copies repeated, in file order
    machines: Mapping[str, Effect]
    machine_names: Mapping[str, str]
    special_rooms: Mapping[str, SpecialRoom]
    guards: Mapping[str, str]  # guard id -> what taking the pickup costs
    stat_counters: tuple[str, ...]  # the character stats, in sheet order
    empty_decks: tuple[str, ...]  # decks the source names but lists no cards of, as "enemies (enemy cards)"
    game: Game  # the card types inline cards are read through, and the decks random play deals

    def counter_name(self, counter: str) -> str:
        return self.counters[counter].name


def effect_from(fields: Mapping[str, Any]) -> Effect:
    damage = fields.get("damage") or {}
    text = fields.get("text")
    return Effect(
        damage=damage.get("amount", 0),
        damage_target=damage.get("target", ""),
        bonus=tuple((stat, amount) for stat, amount in (fields.get("bonus") or {}).items()),
        conditions=tuple(fields.get("conditions") or ()),
        lasts=fields.get("lasts", ""),
        turns=fields.get("turns", 0),
        drops=tuple(Drop(str(d["pickup"]), d["amount"] if isinstance(d["amount"], Dice) else parse_dice(d["amount"]))
                    for d in fields.get("drops") or ()),
        chance=tuple(ChanceLine(line["up_to"], line["result"]) for line in fields.get("chance") or ()),
        machine=str(fields.get("machine") or ""),
        travel=str(fields.get("travel") or ""),
        reveals=tuple(str(r) for r in fields.get("reveals") or ()),
        full_heal=bool(fields.get("full_heal", False)),
        open_note=text.note if isinstance(text, Open) else "",
    )


def _deck_card(card) -> DeckCard:
    if card.type == "playing-card":
        kind = "ace" if card["action"] == "convert-floor" else "pickup"
        return DeckCard(card.id, card.name, kind, str(card["pickup"]), card.get("amount", 0))
    if card.type == "joker":
        return DeckCard(card.id, card.name, "joker", effect=Effect(travel=str(card["travel"])))
    return DeckCard(card.id, card.name, "tarot", effect=effect_from(card.fields))


def _special_room(card) -> SpecialRoom:
    f = card.fields
    return SpecialRoom(card.id, card.name, f["in_room_deck"], f.get("items", 0), f.get("item_deck", ""),
                       f.get("pickups", 0), f.get("item_price", 0), f.get("pickup_price", 0), f.get("key_cost", 0),
                       f.get("key_free_floors", 0), tuple(str(m) for m in f.get("machines") or ()),
                       f.get("starts_combat", False))


def prepare(game: Game) -> Rules:
    c = game.constants
    counters = {card.id: CounterRule(card.id, card.name, card["group"], card["cap"], bool(card.get("shared", False)),
                                     card["order"])
                for card in sorted(game.cards_of("counter"), key=lambda card: card["order"])}
    deck = game.cards_in("pickups")
    return Rules(
        counter_cap=c["counter_cap"], die=c["die_sides"], hand_size=c["hand_size"],
        soul_hearts_per_container=c["soul_hearts_per_container"], devil_die_per_fight=c["devil_die_per_fight"],
        devil_die_per_boss_fight=c["devil_die_per_boss_fight"], devil_die_divisor=c["devil_die_divisor"],
        charge_per_fight=c["charge_per_fight"], pickups_per_fight=c["pickups_per_fight"],
        hearts_per_hit=c["hearts_per_hit"], rounding=c["division_rounding"], first_floor=c["first_floor"],
        counters=counters,
        pickups={card.id: PickupRule(card.id, card.name, str(card["counter"]) if card.get("counter") else None,
                                     card["value"]) for card in game.cards_of("pickup")},
        deck_cards={card.id: _deck_card(card) for card in deck},
        pickup_deck=game.deck_cards("pickups"),
        machines={card.id: effect_from(card.fields) for card in game.cards_of("machine")},
        machine_names={card.id: card.name for card in game.cards_of("machine")},
        special_rooms={card.id: _special_room(card) for card in game.cards_of("special-room")},
        guards={card.id: card["pays"] for card in game.cards_of("guard")},
        stat_counters=tuple(cid for cid, rule in counters.items() if rule.group == "stat"),
        empty_decks=tuple(f"{deck} ({' or '.join(types)} cards)" for deck, types in OPEN_DECK_TYPES.items()
                          if not any(card.type in types for card in game.cards_in(deck))),
        game=game,
    )
