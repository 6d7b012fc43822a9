"""The event log: every action and chance outcome as a structured event with a one-line narration.

A narration is written for a player ("Rabid Dog spends 6 energy: Power 4
against Robes -> 2 wounds to the discard"); ``data`` holds the same facts as
plain values for programs. Random play that needs no log passes ``NULL_LOG``,
which is falsy, so callers write ``if log: log.add(...)`` around costly text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str  # "action", "roll", "shuffle", "attack", "wound", ... (each game names its own)
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"


@dataclass
class EventLog:
    events: list[Event] = field(default_factory=list)

    def __bool__(self) -> bool:  # an empty log is still a log that records
        return True

    def add(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

    def lines(self) -> list[str]:
        return [str(event) for event in self.events]

    def text(self) -> str:
        """The golden-file form: one ``kind: narration`` line per event."""
        return "".join(line + "\n" for line in self.lines())


class NullLog(tuple):
    """A log that records nothing, for fast random play.

    It is an empty tuple so that ``if log:`` is decided in C: random play
    asks it hundreds of thousands of times.
    """

    @property
    def events(self) -> tuple:
        return ()

    def add(self, kind: str, text: str, **data: Any) -> None:
        pass

    def lines(self) -> list[str]:
        return []

    def text(self) -> str:
        return ""


NULL_LOG = NullLog()
