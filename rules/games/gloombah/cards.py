"""Reading Gloombah!'s cards for play: a card's values (an open one stops play), what a player wears, a
monster, and attack points from a player's level, weapon and effects."""
from __future__ import annotations

from fractions import Fraction

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.openvalues import known

from .formula import attack_points, multiplier
from .state import Effect, Monster, Player, Worn


def card_value(card, name: str, default=None):
    return known(card.get(name, default), f"{card.name}'s {name.replace('_', ' ')}")


def standing(player: Player) -> tuple[Fraction, ...]:
    return tuple(e.multiplier for e in player.effects)


def weapon_bonus(player: Player) -> int:
    return known(player.weapon.value, f"{player.weapon.name}'s bonus") if player.weapon else 0


def player_attack(player: Player, multipliers=(), bonus: int = 0) -> int:
    """A player's attack points: their standing effects, plus the effect cards and bonuses played on them."""
    return attack_points(player.level, weapon_bonus(player), standing(player) + tuple(multipliers), bonus)


def worn_from_card(card) -> Worn:
    if card.type == "gear":
        return Worn(card.id, card.name, card["durability"])
    if card.type == "weapon":
        return Worn(card.id, card.name, card["bonus"], tuple(str(c) for c in card["classes"]))
    raise RuleError(f"{card.name} is a {card.type}, neither gear nor a weapon")


def effect_of(monster: Monster, round_: int) -> Effect | None:
    if monster.effect_multiplier is None:
        return None
    value = known(monster.effect_multiplier, f"{monster.name}'s effect")
    return Effect(monster.effect or monster.name, multiplier(value), round_ + 1)
