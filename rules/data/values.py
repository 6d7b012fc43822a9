"""Value types that card data can hold besides plain numbers and text."""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.problems import Loc


@dataclass(frozen=True)
class Open:
    """A value the source leaves open: declared with a note, never guessed.

    Written in YAML as ``health: {open: "the source gives no health"}``.
    Shown on cards as "?" and listed by ``deckwright check``.
    """

    note: str
    loc: Loc

    def __str__(self) -> str:
        return "?"


@dataclass(frozen=True)
class Range:
    """A whole-number range such as ``2-6``; a single number is a range of one."""

    low: int
    high: int

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}\u2013{self.high}"

    def __contains__(self, value: int) -> bool:
        return self.low <= value <= self.high


def is_open(value) -> bool:
    return isinstance(value, Open)
