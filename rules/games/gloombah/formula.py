"""Gloombah!'s arithmetic: attack points, running away, gear against damage, levels; and the numbers
printed sheets and the odds tables show."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, prod
from typing import Iterable

from deckwright.rules.data.model import Game
from deckwright.rules.engine.openvalues import Open, OpenRuleError

from .numbers import Rules, prepare
from .rulings import Rulings


def multiplier(value) -> Fraction:
    """An exact multiplier from card data (1.5 -> 3/2)."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def _product(value: int, multipliers: Iterable[Fraction]) -> Fraction:
    total = Fraction(value)
    for m in multipliers:
        total *= m
    return total


def attack_points(level: int, weapon_bonus: int = 0, multipliers: Iterable[Fraction] = (), bonus: int = 0) -> int:
    """((level + weapon bonus) x status effects), rounded up, + consumable bonus."""
    return ceil(_product(level + weapon_bonus, multipliers)) + bonus


def monster_attack_points(attack: int, multipliers: Iterable[Fraction] = ()) -> int:
    return ceil(_product(attack, multipliers))


def formula_text(level: int, weapon_bonus: int, multipliers: Iterable[Fraction], bonus: int) -> str:
    """The sum as a player writes it: ``(5 + 2) x 1.5 = 10.5, rounded up 11, + 4 = 15``."""
    multipliers = tuple(multipliers)
    exact = _product(level + weapon_bonus, multipliers)
    text = f"({level} + {weapon_bonus})" if weapon_bonus else f"{level}"
    if multipliers:
        text += "".join(f" x {number_text(m)}" for m in multipliers) + f" = {number_text(exact)}"
        if exact.denominator != 1:
            text += f", rounded up {ceil(exact)}"
    elif weapon_bonus:
        text += f" = {ceil(exact)}"
    if bonus:
        text += f", + {bonus} = {ceil(exact) + bonus}"
    return text


def number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


# -- running away --------------------------------------------------------------------


def run_chance(level: int, rules: Rules) -> Fraction:
    """The chance that running away works at ``level`` (without discarding the hand)."""
    if level < rules.auto_run_below_level:
        return Fraction(1)
    return rules.run_roll.chance_at_least(level)


def run_table(rules: Rules) -> list[tuple[int, Fraction]]:
    """(level, chance to run away) for every level a player can be at during play."""
    return [(level, run_chance(level, rules)) for level in range(rules.start_level, rules.win_level)]


def layout_data(game: Game) -> dict:
    """What printed sheets show that the rules compute, as numbers: the chance to run away at each level
    (``chance`` from 0 to 1, and as ``ways`` in ``outcomes`` of the run roll)."""
    rules = prepare(game)
    outcomes = prod(rules.run_roll.dice)
    return {"run_chances": [{"level": level, "free": level < rules.auto_run_below_level, "chance": float(chance),
                             "ways": int(chance * outcomes), "outcomes": outcomes}
                            for level, chance in run_table(rules)]}


# -- gear against damage -------------------------------------------------------------


@dataclass(frozen=True)
class AtLeast:
    """An open durability that an example bounds from below (Steel Plate: at least 2)."""

    low: int
    note: str = ""

    def __str__(self) -> str:
        return f"{self.low}+"


@dataclass(frozen=True)
class Hit:
    """What one loser's gear does with a monster's damage."""

    damage: int
    absorbed: int
    to_player: int
    gear: str  # "none" (no gear, or armour-piercing), "held" (no damage), "damaged" or "broken"


def absorb(damage: int, durability=None, damaged: bool = False, armour_piercing: bool = False,
           rulings: Rulings = Rulings()) -> Hit:
    """Damage against the worn gear (``durability`` None: no gear).

    Gear absorbs damage up to its durability and is left damaged; more than
    that breaks it and the rest reaches the player. Damaged gear breaks on
    any further damage. Armour-piercing damage passes gear by untouched.
    """
    if durability is None or armour_piercing:
        return Hit(damage, 0, damage, "none")
    if damage <= 0:
        return Hit(damage, 0, 0, "held")
    if isinstance(durability, Open):
        raise OpenRuleError(f"the gear's durability is open: {durability.note}")
    if isinstance(durability, AtLeast):
        # Every durability from damage upwards acts alike, so these are all the cases.
        outcomes = {absorb(damage, d, damaged, False, rulings) for d in range(durability.low, max(durability.low, damage) + 1)}
        if len(outcomes) > 1:
            raise OpenRuleError(f"{damage} damage: the outcome depends on the gear's open durability "
                                f"(known only to be at least {durability.low})")
        return outcomes.pop()
    if damaged:
        absorbed = min(damage, durability) if rulings.need("damaged_gear_absorbs") else 0
        return Hit(damage, absorbed, damage - absorbed, "broken")
    if damage > durability:
        return Hit(damage, durability, damage - durability, "broken")
    return Hit(damage, damage, 0, "damaged")


# -- levels --------------------------------------------------------------------------


def gain(level: int, amount: int, rules: Rules, may_win: bool) -> int:
    """Levels gained; only a win on one's own turn may reach the win level, other gains stop one short."""
    if may_win:
        return level + amount
    return max(level, min(level + amount, rules.win_level - 1))


def is_dead(level: int, rules: Rules) -> bool:
    return level < rules.min_attack_points
