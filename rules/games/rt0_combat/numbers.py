"""RT:0 combat's constants and tarot values, read once from the Game by ``prepare``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from deckwright.rules.data.fields import record, text, whole
from deckwright.rules.data.model import Game

CONSTANTS = record(
    starting_hp=whole(min=1, doc="Every player's HP at the start of every combat"),
    injury_hp=whole(min=1, doc="HP bought back with a major injury at 0 HP"),
    hand_size=whole(min=1, doc="Cards drawn at the start of a turn"),
    arcana_abilities=whole(min=0, doc="Arcana abilities chosen before a combat"),
    arcana_per_corruption=whole(min=0, doc="Extra arcana abilities per corruption point taken"),
    supremacy_corruption_limit=whole(min=1, doc="A player with this much corruption or more: no supremacy"),
    supremacy_tally=whole(min=0, doc="Tallies for a clean win"),
    supremacy_full_hp_tally=whole(min=0, doc="One more when every player is at full HP"),
    catastrophe_card=text(doc="The tarot card (its id) whose draw activates catastrophe"),
)


@dataclass(frozen=True)
class Rules:
    starting_hp: int
    injury_hp: int
    hand_size: int
    arcana_abilities: int
    arcana_per_corruption: int
    supremacy_corruption_limit: int
    supremacy_tally: int
    supremacy_full_hp_tally: int
    catastrophe_card: str
    values: Mapping[str, int]  # tarot card id -> value
    room_sides: Mapping[str, int]  # room id -> zones along a side
    game: Game  # the decks (a deck id in a setup is shuffled from it) and the adversary cards


def prepare(game: Game) -> Rules:
    return Rules(**{name: game.constants[name] for name, _ in CONSTANTS.fields},
                 values={card.id: card["value"] for card in game.cards_of("tarot")},
                 room_sides={card.id: card["side"] for card in game.cards_of("room")}, game=game)
