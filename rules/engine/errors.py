"""What can go wrong while the engine replays or plays a game.

Each error's message is written for the person who wrote the example: it says
what happened and, where it knows, which step of the example did it.
"""
from __future__ import annotations


class EngineError(Exception):
    """Base of the errors below; the runner turns them into a failing example."""


class ChanceError(EngineError):
    """A scripted roll or deck order that cannot be used: impossible, missing or left over.

    ``place`` is where in the example's script the offending entry is, when one is, counted from 0, so the runner
    can point at it: ``("rolls", roll)``, ``("shuffles", pile, order)`` or ``("shuffles", pile, order, position)``.
    """

    def __init__(self, message: str, place: tuple | None = None):
        super().__init__(message)
        self.place = place


class RuleError(EngineError):
    """An action the rules do not allow in the current state (a card not in hand, a dead target)."""


class SpecError(EngineError):
    """An example's setup or action that the game cannot read.

    ``key`` is the path of the offending value inside the piece being read,
    e.g. ``("hand", 2)``, so the runner can point at its line.
    """

    def __init__(self, message: str, key: tuple = ()):
        super().__init__(message)
        self.key = tuple(key)
