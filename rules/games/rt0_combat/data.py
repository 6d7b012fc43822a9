"""RT:0 combat's numbers read from the game data, and the data checks ``deckwright check`` runs."""
from __future__ import annotations

import re

from .core import Rules

_ROMAN = {"I": 1, "V": 5, "X": 10}
_ROMAN_PATTERN = re.compile(r"^(?:0|X{0,2}(?:IX|IV|V?I{0,3}))$")


def rules_from(game) -> Rules:
    c = game.constants
    return Rules(
        starting_hp=c["starting_hp"], injury_hp=c["injury_hp"], hand_size=c["hand_size"],
        arcana_abilities=c["arcana_abilities"], arcana_per_corruption=c["arcana_per_corruption"],
        supremacy_corruption_limit=c["supremacy_corruption_limit"], supremacy_tally=c["supremacy_tally"],
        supremacy_full_hp_tally=c["supremacy_full_hp_tally"], catastrophe_card=c["catastrophe_card"],
        values={card.id: card["value"] for card in game.cards_of("tarot")},
        room_sides={card.id: card["side"] for card in game.cards_of("room")},
    )


def roman_value(numeral: str) -> int | None:
    """The value of a major arcanum's numeral, 0 to XXI; None when it is not one."""
    if not numeral or not _ROMAN_PATTERN.match(numeral):
        return None
    total = 0
    for i, char in enumerate(numeral):
        value = _ROMAN.get(char, 0)
        total += -value if i + 1 < len(numeral) and _ROMAN.get(numeral[i + 1], 0) > value else value
    return total


def consistency(game, problems) -> None:
    """Tarot values follow the source's rule: a major's numeral, one value per rank in every suit."""
    by_rank: dict[str, list] = {}
    suits: dict[str, list[str]] = {}
    for card in game.cards_of("tarot"):
        value = card["value"]
        loc = card.field_locs.get("value", card.loc)
        if card["arcana"] == "major":
            _check_major(card, value, loc, problems)
            continue
        suit, rank = card.get("suit"), card.get("rank")
        if not suit or not rank or card.get("numeral"):
            problems.error(card.loc, f"tarot.{card.id}: a minor arcanum has a suit and a rank and no numeral")
            continue
        if rank in suits.setdefault(suit, []):
            problems.error(card.loc, f"tarot.{card.id}: a second {rank} of {suit}")
        suits[suit].append(rank)
        if not isinstance(value, int):
            continue
        if rank.isdigit() and value != int(rank):
            problems.error(loc, f"tarot.{card.id}.value: {value}, but a numbered card counts as printed ({rank})")
        else:
            by_rank.setdefault(rank, []).append((card, value, loc))
    for rank, members in by_rank.items():
        values = [value for _, value, _ in members]
        usual = max(values, key=values.count)
        for card, value, loc in members:
            if value != usual:
                problems.error(loc, f"tarot.{card.id}.value: {value}, but the other {rank}s count {usual}")
    catastrophe = game.constants.get("catastrophe_card")
    if catastrophe not in {c.id for c in game.cards_of("tarot")}:
        problems.error(game.loc, f"constants.catastrophe_card: no tarot card '{catastrophe}'")


def _check_major(card, value, loc, problems) -> None:
    if card.get("suit") or card.get("rank"):
        problems.error(card.loc, f"tarot.{card.id}: a major arcanum has no suit or rank")
    numeral = card.get("numeral")
    expected = roman_value(numeral) if isinstance(numeral, str) else None
    if expected is None:
        problems.error(card.field_locs.get("numeral", card.loc),
                       f"tarot.{card.id}.numeral: expected a numeral from 0 to XXI, got {numeral!r}")
    elif isinstance(value, int) and value != expected:
        problems.error(loc, f"tarot.{card.id}.value: {value}, but its numeral {numeral} is {expected}")
