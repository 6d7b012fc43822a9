"""Parousia's exact odds: every x/D20 effect and rolled amount on its cards, shots both ways, and the devil die.

All of them are one roll of the game's die (``die_sides``) read by the same rules play uses (``chances``)."""
from __future__ import annotations

from deckwright.rules.engine.odds import Distribution, OddsTable, Row

from .chances import accuracy_hits, chance_result, chance_text, devil_opens, shot_hits
from .numbers import Effect, Rules

NOTHING = "nothing"  # what a roll above every line gives (as chances.chance_text words it)


def _faces(rules: Rules) -> Distribution:
    return Distribution.uniform(range(1, rules.die + 1))


def _effects(rules: Rules) -> list[tuple[str, Effect]]:
    """Every effect on a card, named as players see it: the pickup deck's tarot cards, then the machines."""
    cards = [(card.name, card.effect) for card in rules.deck_cards.values()]
    return cards + [(rules.machine_names[key], effect) for key, effect in rules.machines.items()]


def chance_table(rules: Rules) -> OddsTable:
    rows = []
    for name, effect in _effects(rules):
        if not effect.chance:
            continue
        results = _faces(rules).map(lambda roll: chance_result(effect.chance, roll) or NOTHING)
        for result in dict.fromkeys([*(line.result for line in effect.chance), NOTHING]):  # the card's order
            if results[result]:
                rows.append(Row(f"{name}: {result}", (chance_text(effect.chance, rules.die), results[result])))
    return OddsTable(caption=(f"Every x/D{rules.die} chance on the cards: one D{rules.die} is rolled, and each "
                              f"line applies on a roll of its number or less, the first that fits."),
                     corner="Card: result", columns=("rolls", "chance"), rows=tuple(rows))


def amount_table(rules: Rules) -> OddsTable:
    drops = [(f"{name}: {drop.pickup}s ({drop.amount})", Distribution.of_dice(drop.amount, rules.rounding)
              .map(lambda n: max(n, 0)))  # as chances.roll_amount: never below 0
             for name, effect in _effects(rules) for drop in effect.drops if drop.amount.groups]
    amounts = sorted({n for _, dist in drops for n in dist.outcomes()})
    return OddsTable(caption=(f"Every rolled amount on the cards, divisions rounded {rules.rounding} "
                              f"(the game's division rounding)."),
                     corner="Card: drops", columns=tuple(str(n) for n in amounts),
                     rows=tuple(Row(label, tuple(dist[n] for n in amounts)) for label, dist in drops))


def shot_table(rules: Rules) -> OddsTable:
    """By the gap a shot must close: the target's speed over the enemy's accuracy, or the enemy's resilience
    (a boss's evasiveness) over the player's damage. Both sides' numbers are open where their cards are."""
    faces = _faces(rules)
    rows = [Row(f"gap {gap}", (faces.chance(lambda roll: accuracy_hits(roll, 0, gap)),
                               faces.chance(lambda roll: shot_hits(roll, 0, gap))))
            for gap in range(0, rules.die + 2)]
    return OddsTable(caption=(f"An enemy hits when its accuracy + D{rules.die} exceeds the slowest player's speed; "
                              f"a player hits when D{rules.die} + their damage meets the enemy's resilience (a "
                              f"boss's evasiveness). The gap is the target's number minus the shooter's: a gap of 0 "
                              f"or less always hits."),
                     corner="Target's number minus shooter's", columns=("enemy's accuracy hits", "player's shot hits"),
                     rows=tuple(rows))


def devil_table(rules: Rules) -> OddsTable:
    faces = _faces(rules)  # the devil-die counter runs from 0 to the counter cap
    return OddsTable(caption=(f"After a boss fight each player rolls D{rules.die} against the devil die they noted; "
                              f"a roll that meets or beats it opens the devil room. The chance it opens, with one "
                              f"player rolling."),
                     corner="Devil die noted", columns=("devil room opens",),
                     rows=tuple(Row(str(noted), (faces.chance(lambda roll: devil_opens(roll, noted)),))
                                for noted in range(0, rules.counter_cap + 1)))


def odds(rules: Rules) -> dict[str, OddsTable]:
    return {"Chances on the cards": chance_table(rules), "Rolled amounts": amount_table(rules),
            "Shots": shot_table(rules), "The devil die": devil_table(rules)}
