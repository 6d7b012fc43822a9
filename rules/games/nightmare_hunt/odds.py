"""Nightmare Hunt's exact odds: what a prey's attack at each Power does through each armour, and the chance
it wounds at all, given what a hand drawn from the action deck can cancel."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from deckwright.rules.engine.odds import Distribution, OddsTable, Row, hands, percent_text

from .numbers import ArmorDef, Rules
from .prey import wounds_from


def attack_powers(rules: Rules) -> dict[int, list[str]]:
    """Every Power a prey or boss attacks with -> the names of those that do, in data order."""
    found: dict[int, list[str]] = {}
    for enemy in rules.enemies.values():
        for ability in enemy.abilities:
            for kind, value in ability.steps:
                if kind == "power" and enemy.name not in found.setdefault(value, []):
                    found[value].append(enemy.name)
    return dict(sorted(found.items()))


def defenses(rules: Rules) -> list[tuple[str, ArmorDef, tuple[int, ...]]]:
    """(column name, armour, track): every armour as worn, then with each condition that adds to the track."""
    out = [(armor.name, armor, armor.track) for armor in rules.armors.values()]
    for condition in rules.conditions.values():
        if condition.track_bonus:
            out += [(f"{armor.name}, {condition.name.lower()}", armor, tuple(sorted(armor.track + (condition.track_bonus,))))
                    for armor in rules.armors.values()]
    return out


def held_cards(rules: Rules) -> Distribution:
    """The action cards a hand of Mind cards, freshly drawn from the whole action deck, holds (as a set)."""
    return hands(Counter(rules.action_deck), rules.mind, lambda held, card, k: held | {card} if k else held,
                 frozenset())


def can_cancel(rules: Rules, held: frozenset, prey_left_at_zero: bool) -> bool:
    """A reaction in reach (prey._enemy_acts asks it for these cards): a reaction card held, or a basic reaction,
    which costs any action card."""
    for action in rules.reactions:
        if not (action.cancels == "any" or (action.cancels == "zero-energy" and prey_left_at_zero)):
            continue
        if (action.kind == "card" and action.id in held) or (action.kind == "basic" and held):
            return True
    return False


def _wounds_cell(wounds: int, critical: bool) -> int | str:
    return f"{wounds} to hand" if critical else wounds


def odds(rules: Rules) -> dict[str, OddsTable]:
    powers = attack_powers(rules)
    columns = defenses(rules)
    held = held_cards(rules)
    hit = held.chance(lambda cards: not can_cancel(rules, cards, prey_left_at_zero=False))
    hit_at_zero = held.chance(lambda cards: not can_cancel(rules, cards, prey_left_at_zero=True))
    dodges = " or ".join(a.name for a in rules.reactions if a.cancels == "any")
    labels = {power: f"Power {power}" for power in powers}
    wounds = {(power, name): wounds_from(power, track, armor.critical)
              for power in powers for name, armor, track in columns}
    headers = tuple(name for name, _, _ in columns)
    hand = f"a hand of {rules.mind} cards freshly drawn from the {len(rules.action_deck)}-card action deck"
    return {
        "Wounds through each armour": OddsTable(
            caption=("Wounds an attack deals: one for each value of the defense track its Power reaches, into the "
                     "action discard; on a critical one more, and all of them into the hand (\"to hand\")."),
            corner="Attack", columns=(*headers, "who attacks so"),
            rows=tuple(Row(labels[p], (*(_wounds_cell(*wounds[p, name]) for name in headers), "; ".join(powers[p])))
                       for p in powers)),
        "The chance an attack wounds": OddsTable(
            caption=(f"The chance an attack at each Power wounds when the prey still has energy after paying for "
                     f"it, so that only {dodges or 'nothing'} cancels it, with {hand}. (An attack that leaves the "
                     f"prey at 0 energy gets through such a hand with a chance of {percent_text(hit_at_zero)}.)"),
            corner="Attack", columns=headers,
            rows=tuple(Row(labels[p], tuple(hit if wounds[p, name][0] else Fraction(0) for name in headers))
                       for p in powers)),
    }
