"""Parousia's own data checks, run by ``deckwright check`` after the generic ones."""
from __future__ import annotations

from collections import Counter

from deckwright.rules.data.model import Game
from deckwright.rules.data.values import Open
from deckwright.rules.engine.numerals import roman
from deckwright.rules.problems import Problems


def consistency(game: Game, problems: Problems) -> None:
    die = game.constants["die_sides"]
    _check_playing_cards(game, problems)
    _check_arcana(game, problems, die)
    _check_counters(game, problems)
    for card in game.cards_of("machine"):
        _check_chance(card, problems, die)


def _check_playing_cards(game, problems) -> None:
    seen: dict[tuple[str, str], object] = {}
    suit_counter: dict[str, set] = {}
    pickups = {c.id: c for c in game.cards_of("pickup")}
    for card in game.cards_of("playing-card"):
        key = (card["suit"], card["rank"])
        if key in seen:
            problems.error(card.loc, f"playing-card.{card.id}: a second {card['rank']} of {card['suit']}")
        seen[key] = card
        if card.copies != 1:
            problems.error(card.loc, f"playing-card.{card.id}: each solitaire card exists once")
        pickup = pickups.get(str(card["pickup"]))
        if pickup is not None:
            suit_counter.setdefault(card["suit"], set()).add(str(pickup.get("counter")))
        if (card["action"] == "gain") != ("amount" in card.fields):
            problems.error(card.loc, f"playing-card.{card.id}: a card that gives pickups has an amount; an Ace has none")
    for suit, counters in suit_counter.items():
        if len(counters) > 1:
            problems.error(game.loc, f"the {suit} give pickups of different counters ({', '.join(sorted(counters))}); "
                                     f"a suit stands for one pickup")


def _check_arcana(game, problems, die: int) -> None:
    numbers = Counter()
    counters = {c.id for c in game.cards_of("counter")}
    for card in game.cards_of("tarot"):
        numbers[card["number"]] += 1
        if card["numeral"] != roman(card["number"]):
            problems.error(card.field_locs.get("numeral", card.loc),
                           f"tarot.{card.id}: numeral {card['numeral']} is not {card['number']} ({roman(card['number'])})")
        for stat in card.get("bonus") or {}:
            if stat not in counters:
                problems.error(card.field_locs.get("bonus", card.loc), f"tarot.{card.id}.bonus: no counter '{stat}'")
        if (card.get("lasts") == "turns") != ("turns" in card.fields):
            problems.error(card.loc, f"tarot.{card.id}: 'lasts: turns' and 'turns:' go together")
        if (card.get("bonus") or card.get("conditions")) and not card.get("lasts"):
            problems.error(card.loc, f"tarot.{card.id}: a bonus or condition needs 'lasts:'")
        _check_chance(card, problems, die)
    for number, count in numbers.items():
        if count > 1:
            problems.error(game.loc, f"tarot number {number} is used by {count} cards")


def _check_chance(card, problems, die: int) -> None:
    last = 0
    for line in card.get("chance") or ():
        if isinstance(line, Open):
            continue
        if line["up_to"] <= last or line["up_to"] > die:
            problems.error(card.field_locs.get("chance", card.loc),
                           f"{card.type}.{card.id}.chance: each up_to rises and stays within the D{die}")
        last = line["up_to"]


def _check_counters(game, problems) -> None:
    orders = Counter(c["order"] for c in game.cards_of("counter"))
    for order, count in orders.items():
        if count > 1:
            problems.error(game.loc, f"two counters share position {order} on the character sheet")
