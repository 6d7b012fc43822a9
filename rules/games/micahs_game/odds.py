"""Micah's Game's exact odds: every die step of the ladder against every encounter's numbers."""
from __future__ import annotations

from deckwright.rules.engine.dice import DIE_STEPS, Dice, pool_text, step_up
from deckwright.rules.engine.odds import Distribution, OddsTable, Row
from deckwright.rules.engine.openvalues import Open

from .encounter import pool_dice
from .numbers import INTENTION_STAT, INTENTION_TARGET, Rules, alternative_for

ENCOUNTER_DECK = "encounters"


def ladder(largest: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every stat's dice from the smallest die step up to ``largest`` (D4, D6, ... D20, D20 + D4, ...),
    one upgrade at a time; up to D20 when no larger pool is given or it is not on the ladder
    (``checks.consistency`` reports that at the constant's line)."""
    pools = [(DIE_STEPS[0],)]
    top = tuple(sorted(largest, reverse=True)) or (DIE_STEPS[-1],)
    while pools[-1] != top and len(pools[-1]) <= len(top):
        pools.append(tuple(step_up(list(pools[-1]))))
    return pools if pools[-1] == top else pools[:len(DIE_STEPS)]


def on_ladder(pool: tuple[int, ...]) -> bool:
    return ladder(pool)[-1] == tuple(sorted(pool, reverse=True))


def meets(pool: tuple[int, ...], target) -> object:
    """The chance a roll of ``pool`` meets ``target`` (a number or a dice expression the creature rolls)."""
    player = Distribution.of_dice(pool_dice(pool))
    number = Distribution.of_dice(target) if isinstance(target, Dice) else Distribution.certain(target)
    return player.combine(number, lambda total, needed: total >= needed)[True]


def _row(creature, intention: str, pools: list[tuple[int, ...]]) -> Row:
    against = INTENTION_TARGET[intention]
    target = creature.get(against)
    label = f"{creature.name}: {intention} ({against.capitalize()} {target})" if target is not None and \
        not isinstance(target, Open) else f"{creature.name}: {intention} ({against.capitalize()})"
    alt = alternative_for(creature, intention)
    if alt and (alt.get("roll") is not None or alt.get("success") == "doubles"):
        return Row(label, tuple("card's own rule" for _ in pools))
    if target is None:
        return Row(label, tuple("\u2014" for _ in pools))
    if isinstance(target, Open):
        return Row(label, tuple(target for _ in pools))
    return Row(label, tuple(meets(pool, target) for pool in pools))


def odds(rules: Rules) -> dict[str, OddsTable]:
    pools = ladder(rules.largest_pool)
    creatures = [rules.cards[card_id] for card_id in dict.fromkeys(rules.decks.get(ENCOUNTER_DECK, ()))]
    rows = tuple(_row(creature, intention, pools) for creature in creatures for intention in INTENTION_STAT)
    return {"Die steps against the encounters": OddsTable(
        caption=("The chance that a stat's dice, summed, meet each encounter's number (the intention succeeds), "
                 "for every step of the die ladder up to the largest pool the game names. A number the creature "
                 "rolls is rolled against the player's total."),
        corner="Encounter: intention", columns=tuple(pool_text(list(pool)).replace(" ", "") for pool in pools), rows=rows)}
