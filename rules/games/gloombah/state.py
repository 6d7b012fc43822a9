"""Gloombah!'s state as plain frozen values: players, what they wear, monsters, the piles, and the
position a game is at (``State``)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace

from .formula import Hit
from .numbers import Rules
from .rulings import Rulings

MONSTER = "monster"  # the target of a card played on the monster's side
NOT_GIVEN = "not given in this example"


@dataclass(frozen=True)
class Effect:
    """A monster's effect on a loser: multiplies their attack until the end of round ``until_round``."""

    name: str
    multiplier: Fraction
    until_round: int


@dataclass(frozen=True)
class Worn:
    """Equipped gear or weapon: a card, or an example's unnamed item (``card`` None)."""

    card: str | None
    name: str
    value: object  # gear: durability (int, Open or AtLeast); weapon: bonus
    classes: tuple[str, ...] = ()  # a weapon's allowed classes; empty for an unnamed one
    damaged: bool = False

    @property
    def id(self) -> str | None:
        return self.card


@dataclass(frozen=True)
class Monster:
    """A monster card's values, or an example's unnamed monster (``id`` None; missing values open)."""

    id: str | None
    name: str
    attack: object
    damage: object
    xp: object
    treasure: object
    armour_piercing: bool = False
    effect: str | None = None
    effect_multiplier: object = None


def monster_from_card(card) -> Monster:
    return Monster(card.id, card.name, card["attack"], card["damage"], card["xp"], card["treasure"],
                   bool(card.get("armour_piercing", False)), card.get("effect"), card.get("effect_multiplier"))


@dataclass(frozen=True)
class Player:
    name: str
    klass: str | None = None  # the class card's id
    level: int = 1
    hand: tuple[str, ...] = ()
    gear: Worn | None = None
    weapon: Worn | None = None
    effects: tuple[Effect, ...] = ()

    @property
    def worn(self) -> tuple[Worn, ...]:
        return tuple(w for w in (self.gear, self.weapon) if w is not None)

    def without(self, card: str) -> "Player":
        if card not in self.hand:
            raise RuleError(f"{self.name} has no {card} in hand (hand: {', '.join(self.hand) or 'empty'})")
        hand = list(self.hand)
        hand.remove(card)
        return replace(self, hand=tuple(hand))


@dataclass(frozen=True)
class Play:
    """A consumable played in a fight by ``by`` on a fighter or on the monster."""

    card: str
    by: str
    on: str  # a player's name or MONSTER


@dataclass(frozen=True)
class Fight:
    monster: str
    fighters: tuple[str, ...]  # the turn's player first, then helpers
    side: int | None  # None when an example states the outcome without the fight
    monster_side: int | None
    outcome: str  # "won" or "lost"

    @property
    def margin(self) -> int | None:
        return None if self.side is None or self.monster_side is None else abs(self.side - self.monster_side)


@dataclass(frozen=True)
class Escape:
    how: str  # "fight" (chose to), "auto-run", "roll" or "flee"
    escaped: bool
    roll: int | None = None


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    items: tuple[str, ...] = ()  # top card first
    monsters: tuple[Monster, ...] = ()
    classes: tuple[str, ...] = ()
    item_discard: tuple[str, ...] = ()  # most recent first
    monster_discard: tuple[Monster, ...] = ()
    in_play: tuple[str, ...] = ()  # consumables played in the current fight
    fighting: Monster | None = None  # the monster drawn this turn, until the turn ends
    active: int = 0  # index of the player whose turn it is
    round: int = 1
    winner: str | None = None

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise RuleError(f"no player named '{name}' (players: {', '.join(p.name for p in self.players)})")

    def with_player(self, player: Player) -> "Table":
        return replace(self, players=tuple(player if p.name == player.name else p for p in self.players))

    def discard(self, *cards: str | None) -> "Table":
        """Cards to the item discard pile (an unnamed example item just leaves play)."""
        return replace(self, item_discard=tuple(c for c in cards if c)[::-1] + self.item_discard)

    @property
    def turn_player(self) -> Player:
        return self.players[self.active]


def piles(table: Table) -> dict[str, list[str]]:
    """Every pile of card ids, top first, the players' hands and equipment included."""
    out = {"items": list(table.items), "monsters": [m.id for m in table.monsters if m.id],
           "classes": list(table.classes), "item-discard": list(table.item_discard),
           "monster-discard": [m.id for m in table.monster_discard if m.id], "in-play": list(table.in_play),
           "fighting": [table.fighting.id] if table.fighting and table.fighting.id else []}
    for p in table.players:
        out[f"{p.name}:hand"] = list(p.hand)
        out[f"{p.name}:equipped"] = [c for c in (p.klass, *(w.card for w in p.worn)) if c]
    return out


def cards_on_table(table: Table) -> Counter:
    return Counter(card for pile in piles(table).values() for card in pile)



@dataclass(frozen=True)
class State:
    """A game at one decision: the table, the rulings in force, and the turn's fight so far.

    ``phase`` is one of PHASES (see ``actions``).
    """

    rules: Rules
    table: Table
    rulings: Rulings = Rulings()
    phase: str = "start"
    fighters: tuple[str, ...] = ()
    plays: tuple[Play, ...] = ()
    fight: Fight | None = None
    escape: Escape | None = None
    hits: tuple[tuple[str, Hit], ...] = ()
    keeping: tuple[str, ...] = ()  # dead players still to choose the card they keep
    died: tuple[str, ...] = ()


PHASES = ("setup", "start", "monster", "fight", "post-fight", "keep", "over")
