"""Zones: the named piles a game's cards live in (deck, hand, discard, floor, in play, trash).

Every card move goes through a ``Zones`` object, so card conservation can be
checked at any time: the cards in all piles equal the starting cards plus
those ``create``d (taken from an unlimited supply, such as wounds) minus those
``remove``d (trashed or returned to the supply).

A pile is a Python list stored bottom to top: the top card is the list's last
item, so drawing is a cheap ``pop()``. The methods take and return lists top
first, the way people read a deck. Items are card ids (strings) or objects
with an ``id`` attribute (a card in play carrying its own state).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import Callable, Iterable

from .chance import item_id
from .errors import RuleError


def _counted(items) -> Counter:
    """How many of each card id ``items`` hold (counted in C; objects by identity, then under their ids)."""
    counts = Counter(items)
    for item in [key for key in counts if type(key) is not str]:
        counts[item_id(item)] += counts.pop(item)
    return counts


@dataclass(slots=True)
class Zones:
    piles: dict[str, list] = field(default_factory=dict)
    # Every card id created and removed, oldest first, as tuples: a copy shares them, and random play copies the
    # zones at every action; the conservation check counts them in C at the end of every game.
    created_ids: tuple = ()
    removed_ids: tuple = ()
    # The piles this object may change in place; None: all of them. A copy shares every pile's list
    # with its original until one of the two changes it (copy on write).
    _owned: set | None = field(default=None, repr=False, compare=False)

    @property
    def created(self) -> Counter:
        return Counter(self.created_ids)

    @property
    def removed(self) -> Counter:
        return Counter(self.removed_ids)

    @classmethod
    def with_piles(cls, *names: str, **top_first: Iterable) -> "Zones":
        """Empty piles for ``names``, and piles filled from ``top_first`` lists (top card first)."""
        zones = cls({name: [] for name in names})
        for name, cards in top_first.items():
            zones.piles[name] = list(cards)[::-1]
        return zones

    def __getitem__(self, name: str) -> list:
        """The pile (bottom to top), to read; change it through the methods below or ``own``."""
        return self.piles[name]

    def own(self, name: str) -> list:
        """The pile itself, to change in place (made this object's own first, if a copy shares it)."""
        owned = self._owned
        if owned is None or name in owned:
            return self.piles[name]
        owned.add(name)
        pile = self.piles[name] = self.piles[name][:]
        return pile

    def top_first(self, name: str) -> list:
        return self.piles[name][::-1]

    def ids(self, name: str) -> list:
        """The pile's card ids, top first."""
        return [item_id(item) for item in reversed(self.piles[name])]

    def count(self, name: str, card=None) -> int:
        pile = self.piles[name]
        if card is None:
            return len(pile)
        return sum(1 for item in pile if item_id(item) == card)

    def put(self, name: str, cards: Iterable, to: str = "top") -> None:
        """Set the cards of a pile at the start of a game: ``cards`` top first, placed on top or bottom."""
        cards = list(cards)[::-1]
        if to == "top":
            self.own(name).extend(cards)
        else:
            self.own(name)[:0] = cards

    # -- moving cards ------------------------------------------------------

    def take(self, name: str, card) -> object:
        """Remove the topmost item named ``card`` from a pile and return it; RuleError if absent."""
        owned = self._owned
        pile = self.piles[name] if owned is None or name in owned else self.own(name)  # own(), without a call
        if type(card) is str and card in pile:  # an id among ids: found in C, not item by item
            return pile.pop(len(pile) - 1 - pile[::-1].index(card))
        for i in range(len(pile) - 1, -1, -1):
            item = pile[i]
            if item is card or (type(item) is not str and item_id(item) == card):
                return pile.pop(i)
        raise RuleError(f"no {card} in {name} (it holds: {', '.join(map(str, self.ids(name))) or 'nothing'})")

    def move(self, card, src: str, dst: str, to: str = "top") -> object:
        item = self.take(src, card)
        owned = self._owned
        if to == "top" and (owned is None or dst in owned):  # _place's common case, without the call
            self.piles[dst].append(item)
        else:
            self._place(item, dst, to)
        return item

    def move_all(self, src: str, dst: str, to: str = "top", flip: bool = False) -> list:
        """Move a whole pile onto (or under) another, keeping its order; ``flip`` turns it over first."""
        moved = self.piles[src][::-1] if flip else self.piles[src]
        self.piles[src] = []
        if self._owned is not None:
            self._owned.add(src)
        if to == "top":
            self.own(dst).extend(moved)
        else:
            self.own(dst)[:0] = moved
        return moved

    def draw(self, src: str, dst: str, n: int = 1, refill: Callable[["Zones"], None] | None = None) -> list:
        """Move up to ``n`` cards from the top of ``src`` to ``dst``.

        When ``src`` is empty before a draw, ``refill(zones)`` is called (the
        game's reshuffle policy); if the pile is still empty the draw stops short.
        """
        owned = self._owned
        if owned is None or (src in owned and dst in owned):
            source, target = self.piles[src], self.piles[dst]
        else:
            source, target = self.own(src), self.own(dst)
        if refill is None or n <= len(source):  # no refill can happen: the top n cards in one slice
            drawn = source[:-n - 1:-1] if n > 0 else []
            del source[len(source) - len(drawn):]
            target += drawn
            return drawn
        drawn = []
        for _ in range(n):
            if not source and refill is not None:
                refill(self)
                source, target = self.own(src), self.own(dst)
            if not source:
                break
            item = source.pop()
            target.append(item)
            drawn.append(item)
        return drawn

    def shuffle(self, name: str, chance) -> None:
        """Shuffle a pile through the chance object, which is asked under the pile's name."""
        self.piles[name] = chance.shuffle(self.piles[name][::-1], name)[::-1]
        if self._owned is not None:
            self._owned.add(name)

    def _place(self, item, dst: str, to: str) -> None:
        owned = self._owned
        pile = self.piles[dst] if owned is None or dst in owned else self.own(dst)  # own(), without a call
        if to == "top":
            pile.append(item)
        else:
            pile.insert(0, item)

    # -- the supply --------------------------------------------------------

    def create(self, card, dst: str, to: str = "top") -> None:
        """Bring a card in from outside the counted piles (an unlimited supply, a summoned copy)."""
        self.created_ids += (card if type(card) is str else item_id(card),)
        if to == "top":
            owned = self._owned
            (self.piles[dst] if owned is None or dst in owned else self.own(dst)).append(card)
        else:
            self._place(card, dst, to)

    def create_copies(self, card: str, dst: str, copies: int) -> None:
        """``copies`` of a card id from the supply, on top of ``dst``: as many ``create`` calls would."""
        if copies <= 0:
            return
        self.created_ids += (card,) * copies
        owned = self._owned
        (self.piles[dst] if owned is None or dst in owned else self.own(dst)).extend([card] * copies)

    def remove(self, card, src: str) -> object:
        """Take a card out of play for good (trashed, or back to the supply)."""
        item = self.take(src, card)
        self.removed_ids += (item_id(item),)
        return item

    def remove_every(self, card: str, src: str) -> int:
        """Take every card with id ``card`` out of a pile for good (as ``remove`` one by one would); how many."""
        pile = self.piles[src]
        count = pile.count(card)
        if count:
            self.piles[src] = [item for item in pile if item != card]
            if self._owned is not None:
                self._owned.add(src)
            self.removed_ids += (card,) * count
        return count

    # -- conservation ------------------------------------------------------

    def inventory(self) -> Counter:
        """How many of each card id lie in all piles together."""
        return _counted(chain.from_iterable(self.piles.values()))

    def conservation_problems(self, start: Counter) -> list[str]:
        """Differences between the piles and ``start`` + created - removed; empty when every card is accounted for."""
        # each side counted in one pass, in C, and only upwards: no zero or negative entry
        held = _counted(chain(chain.from_iterable(self.piles.values()), self.removed_ids))
        supplied = Counter(chain(start.elements(), self.created_ids))
        if dict.__eq__(held, supplied):  # every card accounted for: the common case, compared in C (no zero entries)
            return []
        created, removed = self.created, self.removed
        expected = Counter(start)
        expected.update(created)
        expected.subtract(removed)
        actual = self.inventory()
        problems = []
        for card in sorted(set(expected) | set(actual), key=str):
            if expected[card] != actual[card]:
                problems.append(f"{card}: {actual[card]} in the piles, expected {expected[card]} "
                                f"(start {start.get(card, 0)}, created {created[card]}, removed {removed[card]})")
        return problems

    def copy(self) -> "Zones":
        """Zones that change apart from these: the two share each pile until one changes it (``own``).
        The items themselves are shared: copy mutable ones yourself."""
        self._owned = set()
        return Zones(dict(self.piles), self.created_ids, self.removed_ids, set())
