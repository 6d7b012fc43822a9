"""Dice expressions: ``D8``, ``2d6``, ``D4+2``, ``D20/5``, ``D20+D20+D6``.

An expression is a sum of dice groups and constants, optionally divided by a
whole number. It can be rolled with a chance object and gives its exact
distribution as fractions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor

from deckwright.rules.numbers import MAX_DIGITS, whole_number

DIE_STEPS = (4, 6, 8, 10, 12, 20)
ROUNDINGS = ("down", "up", "nearest")

_TERM = re.compile(r"\s*([+-]?)\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))\s*")
_DIVISOR = re.compile(r"\s*/\s*(\d+)\s*$")


class DiceError(ValueError):
    """A dice expression that cannot be read; the message says why."""


@dataclass(frozen=True)
class DiceGroup:
    count: int
    sides: int
    sign: int = 1

    def __str__(self) -> str:
        return f"{self.count if self.count > 1 else ''}D{self.sides}"


@dataclass(frozen=True)
class Dice:
    """A parsed dice expression; ``str()`` gives its canonical spelling."""

    groups: tuple[DiceGroup, ...]
    constant: int = 0
    divisor: int = 1

    def __str__(self) -> str:
        parts: list[str] = []
        for group in self.groups:
            parts.append(("-" if group.sign < 0 else "+") + str(group))
        if self.constant:
            parts.append(f"{self.constant:+d}")
        text = "".join(parts).lstrip("+") or "0"
        return f"{text}/{self.divisor}" if self.divisor != 1 else text

    @property
    def dice(self) -> list[int]:
        """The sides of every die rolled, largest first, e.g. [20, 20, 6]."""
        return sorted((g.sides for g in self.groups for _ in range(g.count)), reverse=True)

    def bounds(self, rounding: str = "down") -> tuple[int, int]:
        dist = self.distribution(rounding)
        return min(dist), max(dist)

    def roll(self, chance, what: str = "", rounding: str = "down") -> tuple[int, list[int]]:
        """Roll every die through ``chance``; returns the total and the faces rolled."""
        faces: list[int] = []
        total = self.constant
        for group in self.groups:
            for _ in range(group.count):
                face = chance.roll(group.sides, what or str(self))
                faces.append(face)
                total += group.sign * face
        return _divide(total, self.divisor, rounding), faces

    def distribution(self, rounding: str = "down") -> dict[int, Fraction]:
        """Exact probability of every total."""
        ways: dict[int, int] = {self.constant: 1}
        outcomes = 1
        for group in self.groups:
            for _ in range(group.count):
                nxt: dict[int, int] = {}
                for total, count in ways.items():
                    for face in range(1, group.sides + 1):
                        key = total + group.sign * face
                        nxt[key] = nxt.get(key, 0) + count
                ways = nxt
                outcomes *= group.sides
        result: dict[int, Fraction] = {}
        for total, count in ways.items():
            key = _divide(total, self.divisor, rounding)
            result[key] = result.get(key, 0) + Fraction(count, outcomes)
        return dict(sorted(result.items()))

    def chance_at_least(self, target: int, rounding: str = "down") -> Fraction:
        return sum((p for v, p in self.distribution(rounding).items() if v >= target), Fraction(0))


def _divide(total: int, divisor: int, rounding: str) -> int:
    if divisor == 1:
        return total
    if rounding == "up":
        return ceil(Fraction(total, divisor))
    if rounding == "nearest":
        return floor(Fraction(total, divisor) + Fraction(1, 2))
    return floor(Fraction(total, divisor))


def _term_number(digits: str, text: str) -> int:
    number = whole_number(digits)
    if number is None:
        raise DiceError(f'"{text[:40]}..." has a number of more than {MAX_DIGITS} digits')
    return number


def parse_dice(text: str | int) -> Dice:
    """Read a dice expression; raises DiceError naming what is wrong."""
    if isinstance(text, int) and not isinstance(text, bool):
        return Dice((), text)
    if not isinstance(text, str) or not text.strip():
        raise DiceError("expected a dice expression such as D8, 2d6 or D4+2")
    source = text
    divisor = 1
    match = _DIVISOR.search(source)
    if match:
        divisor = _term_number(match.group(1), text)
        if divisor == 0:
            raise DiceError(f'cannot divide by 0 in "{text}"')
        source = source[: match.start()]
    groups: list[DiceGroup] = []
    constant = 0
    pos = 0
    while pos < len(source):
        term = _TERM.match(source, pos)
        if not term or term.end() == pos or (pos > 0 and not term.group(1)):
            raise DiceError(f'"{text}" is not a dice expression (expected e.g. D8, 2d6, D4+2, D20/5)')
        sign = -1 if term.group(1) == "-" else 1
        if term.group(3) is not None:
            count = _term_number(term.group(2) or "1", text)
            sides = _term_number(term.group(3), text)
            if sides < 2:
                raise DiceError(f'a die needs at least 2 sides, "{text}" has D{sides}')
            if not 1 <= count <= 100:
                raise DiceError(f'"{text}" rolls {count} dice; use 1 to 100')
            groups.append(DiceGroup(count, sides, sign))
        else:
            constant += sign * _term_number(term.group(4), text)
        pos = term.end()
    if not groups and not constant and pos == 0:
        raise DiceError(f'"{text}" is not a dice expression')
    return Dice(tuple(groups), constant, divisor)


def parse_die(text: str) -> int:
    """A single die step such as ``D8``; returns its sides."""
    dice = parse_dice(text)
    if len(dice.groups) != 1 or dice.groups[0].count != 1 or dice.constant or dice.divisor != 1:
        raise DiceError(f'expected one die such as D8, got "{text}"')
    sides = dice.groups[0].sides
    if sides not in DIE_STEPS:
        raise DiceError(f'D{sides} is not a die step; use one of {", ".join(f"D{s}" for s in DIE_STEPS)}')
    return sides


def is_die_step(dice: Dice) -> bool:
    """One die of the step ladder (D4, D6, ... D20), nothing added."""
    return isinstance(dice, Dice) and len(dice.dice) == 1 and not dice.constant and dice.divisor == 1 \
        and dice.dice[0] in DIE_STEPS


def step_up(pool: list[int], steps: int = 1) -> list[int]:
    """Upgrade a die pool: the smallest die below D20 goes up a step; all at D20 adds a D4."""
    pool = sorted(pool, reverse=True)
    for _ in range(steps):
        below = [i for i, sides in enumerate(pool) if sides < DIE_STEPS[-1]]
        if below:
            i = below[-1]
            pool[i] = DIE_STEPS[DIE_STEPS.index(pool[i]) + 1]
        else:
            pool.append(DIE_STEPS[0])
    return sorted(pool, reverse=True)


def pool_text(pool: list[int]) -> str:
    return " + ".join(f"D{sides}" for sides in sorted(pool, reverse=True))
