"""Value types that card data can hold besides plain numbers and text."""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.engine.openvalues import Open, is_open

__all__ = ["Open", "Range", "is_open"]


@dataclass(frozen=True)
class Range:
    """A whole-number range such as ``2-6``; a single number is a range of one."""

    low: int
    high: int

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}\u2013{self.high}"

    def __contains__(self, value: int) -> bool:
        return self.low <= value <= self.high
