"""Narration: each event's sentence, made from its data by the game's table of event kinds.

A game's ``NARRATION`` maps an event kind to a function ``(data, rules) -> str``,
where ``rules`` is what the game's ``prepare`` returned (card names, numbers).
The engine narrates its own kinds (``roll``, ``shuffle``); a kind nobody
narrates shows its data.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

Say = Callable[[Mapping[str, Any], Any], str]


def plain_narration(kind: str, data: Mapping[str, Any]) -> str:
    """The narration of a kind nobody narrates: the data itself, ``key value`` pairs."""
    return ", ".join(f"{key} {value}" for key, value in data.items()) or kind


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 wound``, ``3 wounds`` (``many`` for irregular plurals)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def listing(items, empty: str = "nothing") -> str:
    items = [str(item) for item in items]
    return ", ".join(items) if items else empty


def order_text(ids, limit: int = 8) -> str:
    ids = [str(i) for i in ids]
    shown = ", ".join(ids[:limit])
    return shown + (f", ... ({len(ids)} cards)" if len(ids) > limit else "")


def _roll(data: Mapping[str, Any], rules: Any) -> str:
    return f"{data.get('what') or 'roll'}: D{data['die']} shows {data['face']}"


def _shuffle(data: Mapping[str, Any], rules: Any) -> str:
    return f"{data.get('pile') or 'pile'} shuffled: top {order_text(data['order'])}"


ENGINE_NARRATION: dict[str, Say] = {"roll": _roll, "shuffle": _shuffle}


class Narrator:
    """``narrator(kind, data) -> str`` for an ``EventLog``: a game's table, then the engine's, then the data."""

    def __init__(self, table: Mapping[str, Say] | None = None, rules: Any = None):
        self.table = {**ENGINE_NARRATION, **(table or {})}
        self.rules = rules

    def __call__(self, kind: str, data: Mapping[str, Any]) -> str:
        say = self.table.get(kind)
        return say(data, self.rules) if say is not None else plain_narration(kind, data)
