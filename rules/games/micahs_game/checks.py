"""Micah's Game data checks run by ``deckwright check``: prices, die steps, charmed forms, card-defined rules."""
from __future__ import annotations

from deckwright.rules.data.model import Game
from deckwright.rules.data.values import Open
from deckwright.rules.engine.dice import DIE_STEPS, is_die_step
from deckwright.rules.problems import Problems

from .numbers import STATS
from .odds import on_ladder


def consistency(game: Game, problems: Problems) -> None:
    """Prices, die steps and charmed forms that the schema alone cannot check."""
    for item in game.cards_of("item"):
        buy_price, sell_price = item.get("buy"), item.get("sell")
        if isinstance(buy_price, int) and isinstance(sell_price, int) and buy_price <= sell_price:
            problems.error(item.field_locs.get("buy", item.loc),
                           f"item.{item.id}.buy: the merchant's price ({buy_price}) must be above the sell price ({sell_price})")
    for hero in game.cards_of("class"):
        for stat in STATS:
            value = hero.get(stat)
            if value is not None and not isinstance(value, Open) and not is_die_step(value):
                problems.error(hero.field_locs.get(stat, hero.loc),
                               f"class.{hero.id}.{stat}: {value} is not one die step ({', '.join(f'D{s}' for s in DIE_STEPS)})")
    largest = game.constants.get("largest_pool")
    if largest is not None and not (largest.groups and not largest.constant and largest.divisor == 1
                                    and all(g.sign > 0 for g in largest.groups) and on_ladder(tuple(largest.dice))):
        problems.error(game.constant_loc("largest_pool"),
                       f"game.constants.largest_pool: {largest} is not on the die-step ladder "
                       f"(D4, D6, ... D20, D20 + D4, ... D20 + D20 + D6, ...)")
    for creature in game.cards_of("creature"):
        form = creature.get("becomes")
        loc = creature.field_locs.get("becomes", creature.loc)
        if form is not None and str(form) == creature.id:
            problems.error(loc, f"creature.{creature.id}.becomes: a creature cannot become itself")
        elif form is not None and any(c.id == str(form) and c.deck == "encounters" for c in game.cards):
            problems.error(loc, f"creature.{creature.id}.becomes: '{form}' is an encounter card; "
                                f"a charmed form belongs in the charmed deck")
        for alt in creature.get("alternatives") or ():
            if alt.get("on_fail") == "lose-items" and alt.get("lose_items") is None:
                problems.error(creature.field_locs.get("alternatives", creature.loc),
                               f"creature.{creature.id}.alternatives: lose-items needs 'lose_items', the dice the encounter rolls")
