"""Micah's Game's constants and cards, read once from the Game by ``prepare``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from deckwright.rules.data.fields import dice, record, whole
from deckwright.rules.data.model import Game
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.openvalues import Open, known

CONSTANTS = record(
    merchant_slots=whole(min=1, doc="The merchant always shows this many items"),
    starting_coins=whole(min=0, doc="Coins a player starts with"),
    companion_slots=whole(min=1, open_ok=True, doc="Companions a player may take along at once"),
    max_health=whole(min=1, open_ok=True, doc="The most health a player can have"),
    largest_pool=dice(optional=True, doc="The largest stat dice the odds tables climb the die-step ladder to"),
)

INTENTIONS = ("attack", "charm", "escape")
STATS = ("attack", "charisma", "speed")
INTENTION_STAT = {"attack": "attack", "charm": "charisma", "escape": "speed"}
INTENTION_TARGET = {"attack": "defense", "charm": "charm", "escape": "escape"}


@dataclass(frozen=True)
class Rules:
    merchant_slots: int
    starting_coins: int
    companion_slots: int | None  # None: the source leaves it open, no limit is enforced
    max_health: int | None  # None: the source leaves it open, no ceiling is applied
    largest_pool: tuple[int, ...]  # the odds tables' last die step, e.g. (20, 20, 6); () when not given
    cards: Mapping[str, Any]  # card id -> Card
    decks: Mapping[str, tuple[str, ...]]  # deck id -> its card ids in file order, copies repeated

    def card(self, card_id: str, type_id: str | None = None):
        card = self.cards.get(card_id)
        if card is None or (type_id and card.type != type_id):
            raise RuleError(f"'{card_id}' is not a {type_id or 'card'} of this game")
        return card

    def name(self, card_id: str) -> str:
        return self.cards[card_id].name


def prepare(game: Game) -> Rules:
    c = game.constants

    def known_or_none(name: str):
        return None if isinstance(c.get(name), Open) else c.get(name)

    return Rules(
        merchant_slots=c["merchant_slots"], starting_coins=c["starting_coins"],
        companion_slots=known_or_none("companion_slots"), max_health=known_or_none("max_health"),
        largest_pool=tuple(c["largest_pool"].dice) if c.get("largest_pool") is not None else (),
        cards={card.id: card for card in game.cards},
        decks={deck: game.deck_cards(deck) for deck in game.decks},
    )


def card_value(card, name: str) -> Any:
    """A card's value; OpenRuleError when the source leaves it open, RuleError when the card has none."""
    value = known(card.get(name), f"{card.name}'s {name}")
    if value is None:
        raise RuleError(f"{card.name} has no {name}")
    return value


def roll_value(value, chance, what: str) -> int:
    """A card number: plain numbers as they are, dice expressions rolled now (any enemy number may be rolled)."""
    if isinstance(value, int):
        return value
    total, _ = value.roll(chance, what)
    return total


def alternative_for(creature, intention: str) -> Mapping | None:
    """The card's own resolution of an intention, if it has one."""
    for alt in creature.get("alternatives") or ():
        if alt["intention"] == intention:
            return alt
    return None
