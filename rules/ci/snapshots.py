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
values copied. A dataclass whose fields hold only such values (or such dataclasses), and a tuple of them, can
change (even a frozen one, behind its back): their copies are reused only once each field is found to hold the
same object as when it was copied, and each of those objects to be unchanged in turn.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import fields
from functools import partial
from operator import attrgetter
from typing import Any

MAX_DEPTH = 60
_SCALARS = frozenset({str, int, float, bool, type(None)})


class Snapshots:
    """Copies taken with one set of shared objects, reusing the copies of unchangeable tuples between takes."""

    def __init__(self, shared: frozenset[int] | set[int] = frozenset()):
        self.shared = shared
        self._copiers: dict[type, Callable[[Any, int], Any]] = {}  # how a type's values are copied, by exact type
        # id: (the value, its copy, its levels, what to check before reusing it: None, nothing) in this take
        self._kept: dict[int, tuple[Any, Any, int, Any]] = {}
        self._earlier: dict[int, tuple[Any, Any, int, Any]] = {}  # the same for the take before

    def take(self, value: Any, depth: int = 0) -> Any:
        """A copy of ``value`` (as it would be ``depth`` levels down), reusing the copies of the take before."""
        self._earlier, self._kept = self._kept, {}
        return self.copy(value, depth)

    def copy(self, value: Any, depth: int) -> Any:
        """A copy within the current take: what it has copied it takes to be unchanged."""
        if depth > MAX_DEPTH:
            return "..."
        if id(value) in self.shared:
            return ("shared", id(value))
        kind = type(value)
        if kind in _SCALARS:
            return value
        copier = self._copiers.get(kind)
        if copier is None:
            copier = self._copiers[kind] = self._copier(kind)
        return copier(value, depth)

    def _copier(self, kind: type) -> Callable[[Any, int], Any]:
        """How values of exactly ``kind`` are copied: the tests of ``plain_copy`` (the module's doc), made once."""
        if issubclass(kind, (str, int, float, bool)):
            return _as_it_is
        if hasattr(kind, "__dataclass_fields__") and not issubclass(kind, type):
            return self._dataclass_copier(kind)
        if issubclass(kind, dict):
            return self._dict
        if issubclass(kind, (list, tuple)):
            return self._tuple if kind is tuple else partial(self._sequence, kind.__name__)
        if kind is frozenset:
            return self._frozenset
        if issubclass(kind, (set, frozenset)):
            return _set
        return self._other

    def _items(self, values: Iterable, deeper: int) -> list:
        """Copies of ``values`` one level down; text, numbers and such, the most common, without a call."""
        shared, copy = self.shared, self.copy
        if deeper > MAX_DEPTH:
            return [copy(v, deeper) for v in values]
        return [v if type(v) in _SCALARS and id(v) not in shared else copy(v, deeper) for v in values]

    def _dataclass_copier(self, kind: type) -> Callable[[Any, int], Any]:
        names = tuple(f.name for f in fields(kind) if f.compare)
        name = kind.__name__
        if not names:
            return lambda value, depth: (name, ())
        read = attrgetter(*names) if len(names) > 1 else (lambda value, get=attrgetter(names[0]): (get(value),))

        def copied(value: Any, depth: int) -> Any:
            parts = (kind, read(value))
            found = self._reused(value, depth, parts)
            if found is not None:
                return found
            items = self._items(parts[1], depth + 1)
            copy = (name, tuple(zip(names, items)))
            self._keep(value, copy, depth, parts[1], parts)
            return copy
        return copied

    def _dict(self, value: dict, depth: int) -> Any:
        copied = self._items(itertools.chain.from_iterable(value.items()), depth + 1)
        return ("dict", tuple(zip(copied[::2], copied[1::2])))

    def _sequence(self, name: str, value: list | tuple, depth: int) -> Any:
        return (name, tuple(self._items(value, depth + 1)))

    def _reused(self, value: Any, depth: int, parts: Any = None) -> Any:
        """The copy kept of ``value`` if it is still its copy, kept again for the next take; None: none. ``parts``:
        a dataclass's type and fields as they are now."""
        found = self._kept.get(id(value))
        # the entry holds the value, so its id is no other object's; a copy made nearer the depth limit differs
        if found is not None and found[0] is value and depth + found[2] <= MAX_DEPTH:
            return found[1]  # checked or made in this take, during which nothing changes
        found = self._earlier.get(id(value))
        if found is None or found[0] is not value or depth + found[2] > MAX_DEPTH:
            return None
        if found[3] is not None and not self._unchanged(found, parts, depth):
            return None
        self._kept[id(value)] = found
        return found[1]

    def _unchanged(self, found: tuple, parts: Any, depth: int) -> bool:
        """Whether a kept dataclass (``parts``: its type and fields now) or tuple of them copies as it did: the
        same type and field objects, each of which copies to its kept copy."""
        value, copied, _, kept = found
        if parts is not None:  # a dataclass
            if parts[0] is not kept[0] or len(parts[1]) != len(kept[1]) or any(
                    now is not then for now, then in zip(parts[1], kept[1])):
                return False
            values, copies = kept[1], [pair[1] for pair in copied[1]]
        else:
            values, copies = value, copied[1]
        return all(type(part) in _SCALARS or self.copy(part, depth + 1) is part_copy
                   for part, part_copy in zip(values, copies))

    def _tuple(self, value: tuple, depth: int) -> Any:
        copied = self._reused(value, depth)
        if copied is None:
            copied = ("tuple", tuple(self._items(value, depth + 1)))
            self._keep(value, copied, depth, value)
        return copied

    def _frozenset(self, value: frozenset, depth: int) -> Any:
        copied = self._reused(value, depth)
        if copied is not None:
            return copied
        copied = _set(value, depth)
        if all(type(v) in _SCALARS for v in value):
            self._kept[id(value)] = (value, copied, 0, None)
        return copied

    def _other(self, value: Any, depth: int) -> Any:
        if hasattr(value, "__dict__") and not callable(value):
            return (type(value).__name__, self.copy(vars(value), depth + 1))
        return repr(value)

    def _keep(self, value: Any, copied: Any, depth: int, items: Iterable, dataclass: Any = None) -> None:
        """Keep the copy of a tuple or dataclass (``dataclass``: its type and fields) when everything in it
        (``items``) is text, numbers and such or kept itself (and it was copied whole, above the limit): a tuple
        of unchangeable values as it is, any other with what to check before it is reused."""
        levels = 0
        checked = dataclass is not None
        for item in items:
            if type(item) in _SCALARS:
                levels = max(levels, 1)
                continue
            found = self._kept.get(id(item))
            if found is None or found[0] is not item:
                return
            checked = checked or found[3] is not None
            levels = max(levels, found[2] + 1)
        if depth + levels <= MAX_DEPTH:
            self._kept[id(value)] = (value, copied, levels, (dataclass or value) if checked else None)


def _as_it_is(value: Any, depth: int) -> Any:
    return value


def _set(value: set | frozenset, depth: int) -> Any:
    return ("set", tuple(sorted(repr(v) for v in value)))


def snapshot(value: Any, shared: frozenset[int] | set[int] = frozenset(), depth: int = 0) -> Any:
    """One value's copy (see the module's doc)."""
    return Snapshots(shared).copy(value, depth)
