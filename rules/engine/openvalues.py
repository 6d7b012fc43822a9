"""Values the source leaves open, and the error play raises when it reaches one.

Card data writes such a value ``{open: "what is missing"}``; it is read as an
``Open`` with that note. Rules code never guesses one: ``known(value, what)``
passes a known value through and stops play on an open one with an
``OpenRuleError`` that quotes the note, so an example or random play that
needs it fails saying exactly what the source does not give.
"""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.problems import Loc

from .errors import RuleError


@dataclass(frozen=True)
class Open:
    """A value the source leaves open: declared with a note, never guessed. Shown on cards as "?"."""

    note: str
    loc: Loc | None = None

    def __str__(self) -> str:
        return "?"


class OpenRuleError(RuleError):
    """Play reached a value or a rule the source leaves open, and nothing settles it."""


def is_open(value) -> bool:
    return isinstance(value, Open)


def known(value, what: str):
    """``value`` when it is known; OpenRuleError naming ``what`` and the source's note when it is open."""
    if isinstance(value, Open):
        raise OpenRuleError(f"{what} is open ({value.note})")
    return value
