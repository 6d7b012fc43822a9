"""RT:0 combat's data checks run by ``deckwright check``: tarot values follow the source's rule."""
from __future__ import annotations

from deckwright.rules.data.model import Game
from deckwright.rules.engine.numerals import roman_value
from deckwright.rules.problems import Problems, did_you_mean


def consistency(game: Game, problems: Problems) -> None:
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
    tarot = [c.id for c in game.cards_of("tarot")]
    if catastrophe not in tarot:
        problems.error(game.constant_loc("catastrophe_card"), f"game.constants.catastrophe_card: no tarot card "
                                                              f"'{catastrophe}'{did_you_mean(str(catastrophe), tarot)}")


def _check_major(card, value, loc, problems: Problems) -> None:
    if card.get("suit") or card.get("rank"):
        problems.error(card.loc, f"tarot.{card.id}: a major arcanum has no suit or rank")
    numeral = card.get("numeral")
    expected = roman_value(numeral) if isinstance(numeral, str) else None
    if expected is None or expected > 21:
        problems.error(card.field_locs.get("numeral", card.loc),
                       f"tarot.{card.id}.numeral: expected a numeral from 0 to XXI, got {numeral!r}")
    elif isinstance(value, int) and value != expected:
        problems.error(loc, f"tarot.{card.id}.value: {value}, but its numeral {numeral} is {expected}")
