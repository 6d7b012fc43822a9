"""The event log: every action and chance outcome as an event ``(kind, data)`` with its narration beside it.

``data`` holds the facts as plain values (ids, numbers, true/false, lists and
mappings of those); the narration, one sentence a player can read ("Rabid Dog
spends 6 energy: Power 4 against Robes -> 2 wounds to the discard"), is made
from the data by the log's narrator (``rules.engine.narration``), never
written by the rules code. Golden logs and tests compare the facts; the
wording can change without changing what happened.

Random play that needs no log passes ``NULL_LOG``, which is falsy, so callers
write ``if log: log.add(...)`` around events whose data is costly to build. A
log also says which kinds it records: ``kind in log`` (an ``EventLog`` every
kind, ``NULL_LOG`` none, the simulator's card-fact log the few it counts), so
a hot path can write ``if "draw" in log: log.add("draw", ...)`` and build only
the events the log keeps.

The simulator's log (``rules.sim.worker.CardFactLog``) counts cards only, and has ``card_facts`` true: a hot
path may hand it the cards of a ``CARD_FACTS`` event directly, ``log.drew(cards)`` and ``log.played(card)``,
instead of adding the event (a call in C, no event built). Every other log has ``card_facts`` false.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .narration import Narrator

Narrate = Callable[[str, Mapping[str, Any]], str]


@dataclass(frozen=True)
class Event:
    kind: str  # "action", "roll", "shuffle", "attack", ... (each game names its own)
    data: dict[str, Any]
    text: str = ""  # the narration, made from the data

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"

    @property
    def fact(self) -> tuple[str, dict[str, Any]]:
        return self.kind, self.data


# An event's data nest a few levels; far deeper, writing, reading or comparing them would exhaust Python's stack.
MAX_DEPTH = 100


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and mappings nest in ``value`` more than ``limit`` deep (counted without recursion)."""
    level = [value]
    for _ in range(limit + 1):
        level = [item for inner in level if isinstance(inner, (list, tuple, dict))
                 for item in (inner.values() if isinstance(inner, dict) else inner)]
        if not level:
            return False
    return True


def golden_line(event: Event) -> str:
    """One event as a golden-log line: ``["kind", {data}, "narration"]`` (JSON; raises TypeError on data that is
    not plain, ValueError on data nested more than MAX_DEPTH deep)."""
    if _deeper_than(event.data, MAX_DEPTH):
        raise ValueError(f"event '{event.kind}': its data nest more than {MAX_DEPTH} deep")
    return json.dumps([event.kind, event.data, event.text], ensure_ascii=False, sort_keys=True, allow_nan=False)


def fact_of_line(line: str) -> tuple[str, Any]:
    """The (kind, data) of a golden-log line; raises ValueError when the line is not one."""
    try:
        value = json.loads(line)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if not (isinstance(value, list) and len(value) in (2, 3) and isinstance(value[0], str)) \
            or _deeper_than(value[1], MAX_DEPTH):
        raise ValueError("expected [kind, data, narration]")
    return value[0], value[1]


def plain_fact(event: Event) -> tuple[str, Any]:
    """The event's facts as they read back from JSON (tuples become lists), for comparing with a golden line."""
    return event.kind, json.loads(json.dumps(event.data, sort_keys=True))


def fact_difference(want: tuple[str, Any], got: tuple[str, Any]) -> str:
    """Where two events' facts, (kind, data) as JSON reads them back, first differ, in a few words ("" where
    they do not): ``order.2: expected 'crown', got 'coin'``, ``key 'left' added: 3``. Lists are counted from 1, as
    an example's claims count them; values compare as ``strict`` compares them, so this is "" exactly when they
    are equal."""
    if want[0] != got[0]:
        return f"expected event '{want[0]}', got '{got[0]}' ({brief(got[1])})"
    return _difference(want[1], got[1], "")


def _difference(want: Any, got: Any, path: str) -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(want.keys() | got.keys(), key=str):  # in the golden file's order: its keys are sorted
            where = f"{path}.{key}" if path else str(key)
            if key not in got:
                return f"key '{where}' missing (expected {brief(want[key])})"
            if key not in want:
                return f"key '{where}' added: {brief(got[key])}"
            found = _difference(want[key], got[key], where)
            if found:
                return found
        return ""
    if isinstance(want, list) and isinstance(got, list):
        for number, (wanted, gotten) in enumerate(zip(want, got), start=1):
            found = _difference(wanted, gotten, f"{path}.{number}" if path else str(number))
            if found:
                return found
        if len(want) == len(got):
            return ""
        longer, more = (got, "added") if len(got) > len(want) else (want, "missing")
        rest = longer[min(len(want), len(got)):]
        return (f"{path or 'data'}: expected {len(want)} item(s), got {len(got)} ({more}: "
                f"{', '.join(brief(item) for item in rest)})")
    if strict(want) == strict(got):
        return ""
    return f"{path or 'data'}: expected {brief(want)}, got {brief(got)}"


def strict(value: Any) -> Any:
    """``value`` made to compare as a rulebook reader would: ``true`` never equal to ``1`` (Python's ``==`` says
    they are), at any depth. Tuples compare as lists, keys as text, as they read back from JSON."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (list, tuple)):
        return [strict(item) for item in value]
    if isinstance(value, dict):
        return {str(key): strict(item) for key, item in value.items()}
    return value


def brief(value: Any, limit: int = 60) -> str:
    """A plain value in a message: text in quotes, the rest as JSON, cut at ``limit`` characters."""
    text = f"'{value}'" if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass
class EventLog:
    narrate: Narrate = field(default_factory=Narrator)  # without a game's table: the engine's own kinds
    events: list[Event] = field(default_factory=list)
    card_facts = False  # card facts arrive as events (a class attribute, not a field)

    def __bool__(self) -> bool:  # an empty log is still a log that records
        return True

    def __contains__(self, kind: object) -> bool:  # every kind is recorded
        return True

    def add(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, data, self.narrate(kind, data)))

    def lines(self) -> list[str]:
        """``kind: narration``, one line an event: what a reader sees."""
        return [str(event) for event in self.events]

    def facts(self) -> list[tuple[str, dict[str, Any]]]:
        return [event.fact for event in self.events]

    def golden(self) -> str:
        """The golden-file form: one JSON line an event."""
        return "".join(golden_line(event) + "\n" for event in self.events)


class NullLog(tuple):
    """A log that records nothing, for fast random play.

    It is an empty tuple so that ``if log:`` and ``kind in log`` are decided in
    C: random play asks them hundreds of thousands of times.
    """

    card_facts = False

    @property
    def events(self) -> tuple:
        return ()

    def add(self, kind: str, **data: Any) -> None:
        pass

    def lines(self) -> list[str]:
        return []

    def facts(self) -> list:
        return []

    def golden(self) -> str:
        return ""


NULL_LOG = NullLog()
