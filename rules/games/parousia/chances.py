"""Parousia's ways of leaving things to a die.

- The "x/D20 chance" notation (also written "x/20"): one D20 is rolled and
  the effect applies when the roll is x or less. A chain of "else" clauses is
  read against the same roll, each line with its own x, first match wins.
- An amount such as ``D20/5``: a dice expression whose division rounds the
  way the game's ``division_rounding`` constant says.
"""
from __future__ import annotations

from typing import Sequence

from deckwright.rules.engine.dice import Dice

from .numbers import ChanceLine, Rules


def chance_result(lines: Sequence[ChanceLine], roll: int) -> str | None:
    """The result of the first line the roll does not exceed, or None when every line misses."""
    for line in lines:
        if roll <= line.up_to:
            return line.result
    return None


def roll_chance(rules: Rules, lines: Sequence[ChanceLine], chance, what: str) -> tuple[int, str | None]:
    roll = chance.roll(rules.die, what)
    return roll, chance_result(lines, roll)


def chance_text(lines: Sequence[ChanceLine], die: int) -> str:
    """``1-2 item, 3-20 pickup`` style wording of a chance chain, for narration and cards."""
    parts, low = [], 1
    for line in lines:
        if line.up_to >= low:
            span = str(low) if line.up_to == low else f"{low}-{line.up_to}"
            parts.append(f"{span} {line.result}")
            low = line.up_to + 1
    if low <= die:
        parts.append(f"{low}-{die} nothing" if low < die else f"{die} nothing")
    return ", ".join(parts)


def roll_amount(rules: Rules, amount: Dice, chance, what: str) -> tuple[int, list[int]]:
    """An amount that may be rolled (``D20/2``) or fixed (``2``), never below 0."""
    total, faces = amount.roll(chance, what, rules.rounding)
    return max(total, 0), faces


def divide(rules: Rules, value: int, divisor: int) -> int:
    """``value / divisor`` rounded the game's way (as in ``D20/5``)."""
    total, _ = Dice((), value, divisor).roll(None, "", rules.rounding)
    return total


def shot_hits(roll: int, damage: int, defense: int) -> bool:
    """A player's shot: the roll plus their damage meets the enemy's resilience (a boss's evasiveness)."""
    return roll + damage >= defense


def accuracy_hits(roll: int, accuracy: int, speed: int) -> bool:
    """An enemy's shot: its accuracy plus the roll exceeds the target's speed."""
    return accuracy + roll > speed


def devil_opens(roll: int, noted: int) -> bool:
    """The devil room opens on a devil-die roll that meets or beats the noted value."""
    return roll >= noted
