"""Deep, comparable copies of a rules module's states, for the conformance suite (rules.ci.conformance): a copy
before and after ``apply`` shows whether it changed the state it was given, and copies of the states of ``apply``
and ``apply_in_place`` show whether the two agree.

A copy keeps a value's structure: a dataclass as its type's name and its compared fields (``compare=False``
fields are bookkeeping), dicts, lists and tuples item by item, a set as its items' reprs in order, another object
as its type's name and its attributes; shared objects (the prepared rules) by identity only; below
``MAX_DEPTH`` levels, "...".

Random play takes a copy at every action, and a state shares most of its tuples with the state before it (the
ids of every card created so far, say). A tuple or frozenset holding only text, numbers, true/false, none and such
tuples cannot change, by the language's rules: its copy is made once and reused while it is in one of the last two
values copied.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any

MAX_DEPTH = 60
_SCALARS = frozenset({str, int, float, bool, type(None)})
_FIXED = (tuple, frozenset)  # exact types whose contents cannot change


class Snapshots:
    """Copies taken with one set of shared objects, reusing the copies of unchangeable tuples between takes."""

    def __init__(self, shared: frozenset[int] | set[int] = frozenset()):
        self.shared = shared
        self._compared: dict[type, tuple[str, ...] | None] = {}  # a type's compared dataclass fields; None: none
        self._kept: dict[int, tuple[Any, Any, int]] = {}  # id: (the value, its copy, its levels) in this take
        self._earlier: dict[int, tuple[Any, Any, int]] = {}  # the same for the take before

    def take(self, value: Any) -> Any:
        self._earlier, self._kept = self._kept, {}
        return self.copy(value, 0)

    def copy(self, value: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            return "..."
        if id(value) in self.shared:
            return ("shared", id(value))
        kind = type(value)
        if kind in _SCALARS:
            return value
        if kind in _FIXED:
            found = self._kept.get(id(value)) or self._earlier.get(id(value))
            # the entry holds the value, so its id is no other object's; a copy made nearer the depth limit differs
            if found is not None and found[0] is value and depth + found[2] <= MAX_DEPTH:
                self._kept[id(value)] = found
                return found[1]
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        deeper = depth + 1
        names = self._compared_fields(kind)
        if names is not None:
            return (kind.__name__, tuple((name, self.copy(getattr(value, name), deeper)) for name in names))
        if isinstance(value, dict):
            return ("dict", tuple((self.copy(k, deeper), self.copy(v, deeper)) for k, v in value.items()))
        if isinstance(value, (list, tuple)):
            copied = (kind.__name__, tuple(self.copy(v, deeper) for v in value))
            if kind is tuple:
                self._keep(value, copied, depth)
            return copied
        if isinstance(value, (set, frozenset)):
            copied = ("set", tuple(sorted(repr(v) for v in value)))
            if kind is frozenset and all(type(v) in _SCALARS for v in value):
                self._kept[id(value)] = (value, copied, 0)
            return copied
        if hasattr(value, "__dict__") and not callable(value):
            return (kind.__name__, self.copy(vars(value), deeper))
        return repr(value)

    def _compared_fields(self, kind: type) -> tuple[str, ...] | None:
        if kind not in self._compared:
            dataclass = hasattr(kind, "__dataclass_fields__") and not issubclass(kind, type)
            self._compared[kind] = tuple(f.name for f in fields(kind) if f.compare) if dataclass else None
        return self._compared[kind]

    def _keep(self, value: tuple, copied: Any, depth: int) -> None:
        """Keep a tuple's copy when everything in it is unchangeable (and was copied whole, above the limit)."""
        levels = 0
        for item in value:
            kind = type(item)
            if kind in _SCALARS:
                levels = max(levels, 1)
                continue
            found = self._kept.get(id(item)) if kind in _FIXED else None
            if found is None or found[0] is not item:
                return
            levels = max(levels, found[2] + 1)
        if depth + levels <= MAX_DEPTH:
            self._kept[id(value)] = (value, copied, levels)


def snapshot(value: Any, shared: frozenset[int] | set[int] = frozenset(), depth: int = 0) -> Any:
    """One value's copy (see the module's doc)."""
    return Snapshots(shared).copy(value, depth)
