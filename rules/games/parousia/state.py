"""What a game of Parousia is made of at one moment.

The rule functions work on a private copy (``State.copy``) and change it; the
public ``apply`` never touches the state it was given.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import OpenRuleError

from .numbers import Rules


@dataclass(frozen=True)
class Thing:
    """A card of a deck the source leaves open (room, item, enemy, boss, devil item),
    from the game data or defined inline by an example's setup."""

    id: str
    name: str
    type: str
    fields: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass
class Loot:
    """One thing lying on the floor."""

    key: str  # how actions name it; unique on the floor
    kind: str  # pickup, playable, item, machine
    pickup: str = ""  # for kind pickup: the pickup it gives
    amount: int = 0  # for kind pickup: how many
    card: str = ""  # the card it is (a pickup-deck card, an item), if it is one
    machine: str = ""  # for kind machine: the machine it works as
    price: int = 0  # coins (shop) or heart containers (devil room); 0 = free
    price_in: str = ""  # coins or heart-containers
    guard: str = ""  # spikes, rocks or lock: what stands in the way


@dataclass
class TimedEffect:
    source: str  # the card that caused it
    bonus: dict[str, int]
    conditions: tuple[str, ...]
    lasts: str  # combat or turns
    turns_left: int = 0


@dataclass
class Player:
    name: str
    counters: dict[str, int]  # every counter but the shared ones
    soul_hearts: int = 0
    black_hearts: int = 0
    hand: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    activated: str = ""  # the activated item's id
    charges_attack: bool = False  # a character with "charge" acts after those without
    effects: list[TimedEffect] = field(default_factory=list)
    dealt_this_floor: bool = False

    def copy(self) -> "Player":
        return replace(self, counters=dict(self.counters), hand=list(self.hand), items=list(self.items),
                       effects=[replace(effect) for effect in self.effects])

    def stat(self, counter: str) -> int:
        """A counter plus every temporary bonus on it."""
        return self.counters[counter] + sum(e.bonus.get(counter, 0) for e in self.effects)

    def has(self, condition: str) -> bool:
        return any(condition in e.conditions for e in self.effects)


@dataclass
class Foe:
    """An enemy or a boss in the combat area."""

    key: str  # unique name in the fight
    thing: Thing  # its current form
    boss: bool
    hp: int = 0
    alive: bool = True
    deck: str = ""  # the deck it returns to (bottom) when the fight ends
    origin: str = ""  # the card id it came in as (forms change, the card does not)

    @property
    def defense(self) -> int:
        return self.thing.fields["evasiveness" if self.boss else "resilience"]

    @property
    def speed(self) -> int:
        return self.thing.fields["speed"]

    @property
    def accuracy(self) -> int | None:
        return self.thing.fields.get("accuracy")

    @property
    def charges_attack(self) -> bool:
        return bool(self.thing.fields.get("charge", False))


@dataclass
class Fight:
    foes: list[Foe]
    boss: bool
    red_damage: set[str] = field(default_factory=set)  # players whose devil die this fight already raised

    def copy(self) -> "Fight":
        return replace(self, foes=[replace(foe) for foe in self.foes], red_damage=set(self.red_damage))


@dataclass
class State:
    rules: Rules
    things: dict[str, Thing]
    players: list[Player]
    coins: int = 0
    floor_number: int = 1
    floor: list[Loot] = field(default_factory=list)
    piles: dict[str, list[str]] = field(default_factory=dict)  # deck name -> card ids, top first
    used: list[str] = field(default_factory=list)  # played pickup-deck cards, back into the deck on a new floor
    rooms_drawn: list[str] = field(default_factory=list)
    discovered: list[str] = field(default_factory=list)
    stocked: list[str] = field(default_factory=list)  # special rooms whose contents were put out this floor
    location: str = ""
    fight: Fight | None = None
    boss_beaten: bool = False  # a boss fight ended and its devil roll is still to come
    devil_room_open: bool = False
    last: dict[str, Any] = field(default_factory=dict)  # what the last action rolled and did
    floors: int | None = None  # random play: the run ends when the party leaves this floor (the source names no end)
    created: tuple = ()  # cards brought into play from outside the counted piles, their ids, oldest first
    unknown_decks: tuple[tuple[str, str], ...] = ()  # (deck, why) for decks whose cards the source leaves open

    def copy(self) -> "State":
        """A state that shares nothing the rules change with this one (``rules`` and ``things`` never change)."""
        return replace(self, players=[p.copy() for p in self.players], floor=[replace(loot) for loot in self.floor],
                       piles={name: list(cards) for name, cards in self.piles.items()}, used=list(self.used),
                       rooms_drawn=list(self.rooms_drawn), discovered=list(self.discovered),
                       stocked=list(self.stocked), fight=self.fight.copy() if self.fight else None, last=dict(self.last))

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        raise RuleError(f"no player named {name} (players: {', '.join(p.name for p in self.players)})")

    def thing(self, thing_id: str) -> Thing:
        thing = self.things.get(thing_id)
        if thing is None:
            raise RuleError(f"no card '{thing_id}' among the rooms, items, enemies and bosses in play")
        return thing

    def floor_key(self, base: str) -> str:
        """A name for a new thing on the floor: ``base``, or ``base-2`` and up when taken."""
        taken = {loot.key for loot in self.floor}
        if base not in taken:
            return base
        n = 2
        while f"{base}-{n}" in taken:
            n += 1
        return f"{base}-{n}"

    def loot(self, key: str) -> Loot:
        for loot in self.floor:
            if loot.key == key:
                return loot
        shown = ", ".join(loot.key for loot in self.floor) or "nothing"
        raise RuleError(f"nothing called '{key}' on the floor (it holds: {shown})")

    def draw(self, pile: str) -> str:
        cards = self.piles.get(pile) or []
        if not cards:
            why = dict(self.unknown_decks).get(pile)
            if why:
                raise OpenRuleError(f"the {pile} deck: {why}")
            raise OpenRuleError(f"the {pile} deck is empty, and the source does not say what happens then")
        return cards.pop(0)
