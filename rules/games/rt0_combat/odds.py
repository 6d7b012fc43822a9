"""RT:0 combat's exact odds: the value of one tarot card, and what a whole hand adds up to.

A player fights from a full tarot deck of their own (readings.yaml: player-decks), drawing the hand size
each turn. How cards turn into shield is left to the combat abilities the source does not list, so the hand
table gives the most shield a hand could make: every card's value spent on shield."""
from __future__ import annotations

from collections import Counter

from deckwright.rules.engine.odds import Distribution, OddsTable, Row, hands

from .numbers import Rules

DECK = "tarot"  # the deck every player (and the GM) fights from (setup.new_game)
PER_ROW = 10  # hand totals shown per row of the table: a row for 0-9, one for 10-19, ...


def deck_values(rules: Rules) -> Counter:
    """Value -> how many cards of the deck carry it."""
    return Counter(rules.values[card_id] for card_id in rules.game.deck_cards(DECK))


def hand_totals(rules: Rules) -> Distribution:
    """The sum of the values of a hand drawn from the full deck."""
    return hands(deck_values(rules), rules.hand_size, lambda total, value, k: total + value * k, 0)


def value_table(rules: Rules) -> OddsTable:
    values = deck_values(rules)
    card = Distribution.uniform(rules.values[card_id] for card_id in rules.game.deck_cards(DECK))
    return OddsTable(caption=(f"The value of one card drawn from the full {sum(values.values())}-card tarot deck "
                              f"(an intent the GM draws, or a player's first card)."),
                     corner="Value", columns=("cards", "chance", "this or more"),
                     rows=tuple(Row(str(v), (values[v], card[v], card.at_least(v))) for v in card.outcomes()))


def hand_table(rules: Rules) -> OddsTable:
    totals = hand_totals(rules)
    top = max(totals.outcomes())
    rows = []
    for start in range(0, top + 1, PER_ROW):
        cells = tuple(totals.at_least(n) if n <= top else "\u2014" for n in range(start, start + PER_ROW))
        rows.append(Row(f"{start}\u2013{start + PER_ROW - 1}", cells))
    return OddsTable(caption=(f"The chance that a hand of {rules.hand_size} cards from the full deck reaches each "
                              f"shield total, if every card's value went to shield: read the row for the tens and "
                              f"the column for the units (the source's combat abilities, which turn cards into "
                              f"shield and damage, are not given)."),
                     corner="Total", columns=tuple(f"+{unit}" for unit in range(PER_ROW)), rows=tuple(rows))


def odds(rules: Rules) -> dict[str, OddsTable]:
    return {"Tarot values": value_table(rules), f"A hand of {rules.hand_size} against each shield total":
            hand_table(rules)}
