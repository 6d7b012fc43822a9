"""A bounded memo: results remembered by key, at most about ``limit`` of them, the ones in use kept longest.

Two generations: a result found in the older one moves to the newer; when the newer is full it becomes the older
and the oldest results are dropped. Lookups and inserts stay O(1), and results still asked for survive a flood of
ones asked for once (a card's name, its rules text), unlike a cache that starts again when full.
"""
from __future__ import annotations

from typing import Any, Hashable


class Memo:
    def __init__(self, limit: int):
        self.half = max(1, limit // 2)
        self.new: dict[Hashable, Any] = {}
        self.old: dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        """The result remembered for ``key``, or None."""
        found = self.new.get(key)
        if found is None:
            found = self.old.get(key)
            if found is not None:
                self.put(key, found)
        return found

    def put(self, key: Hashable, result: Any) -> None:
        if len(self.new) >= self.half:
            self.old, self.new = self.new, {}
        self.new[key] = result
