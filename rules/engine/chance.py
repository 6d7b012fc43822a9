"""Chance objects: the only source of dice rolls and deck orders for rules code.

Rules code never imports ``random``; it asks a chance object, which also
records every outcome in the event log. Two kinds exist, with one interface:

- ``SeededChance(seed)`` plays games: the same seed gives the same game.
- ``ScriptedChance(rolls, shuffles)`` replays a worked example (like
  boardgame.io's MockRandom). It fails loudly, naming the example's step, on a
  roll the die cannot show, on running out of rolls or deck orders, and (in
  ``finish``) on any left over.

The interface rules code may use:

- ``roll(sides, what) -> int``: one die, a face from 1 to ``sides``.
- ``shuffle(items, what) -> list``: a new order of ``items``, first = top.
  ``what`` names the pile (``Zones.shuffle`` passes the zone's name); a
  scripted order is looked up by that name.
- ``step``: a description of the example step being replayed, set by the
  runner and quoted in error messages.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from deckwright.rules.numbers import whole_number
from deckwright.rules.problems import did_you_mean

from .errors import ChanceError
from .log import NULL_LOG

_DIE_FACE = re.compile(r"^\s*[dD](\d+)\s*[=:]\s*(-?\d+)\s*$")


def item_id(item) -> str:
    """How a pile item is named in scripts and logs: its ``id`` attribute, or the item itself."""
    return getattr(item, "id", item)


def _order_text(items, limit: int = 8) -> str:
    names = [str(item_id(item)) for item in items]
    shown = ", ".join(names[:limit])
    return shown + (f", ... ({len(names)} cards)" if len(names) > limit else "")


@lru_cache(maxsize=256)
def _fisher_yates_steps(n: int) -> tuple[tuple[int, int], ...]:
    """Each position a shuffle of ``n`` items fills, last first, with the bits its index is drawn from."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


class SeededChance:
    """Pseudo-random outcomes reproducible from one integer."""

    def __init__(self, seed: int, log=NULL_LOG):
        self.seed = seed
        self.log = log
        self.step = ""
        self._random = random.Random(seed)

    def roll(self, sides: int, what: str = "") -> int:
        face = int(self._random.random() * sides) + 1
        if "roll" in self.log:
            self.log.add("roll", die=sides, face=face, what=what)
        return face

    def shuffle(self, items, what: str = "") -> list:
        order = list(items)
        getrandbits = self._random.getrandbits
        # random.Random.shuffle spelt out (Fisher-Yates, each index drawn by rejection from getrandbits): the
        # same orders from the same seed, without a Python call per card; and ours, whatever a later Python does
        for i, k in _fisher_yates_steps(len(order)):
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            order[i], order[j] = order[j], order[i]
        if "shuffle" in self.log:
            self.log.add("shuffle", pile=what, order=[item_id(i) for i in order])
        return order

    def pick(self, options):
        """A uniformly chosen option; for random players, so it is not logged as a game outcome."""
        return options[int(self._random.random() * len(options))]

    def finish(self) -> None:
        """Nothing can be left over from a seeded game."""


@dataclass(frozen=True)
class ScriptedRoll:
    face: int
    die: int | None = None  # when the script says which die it expects (``D8=5``)

    def __str__(self) -> str:
        return f"D{self.die}={self.face}" if self.die else str(self.face)


def parse_roll(value) -> ScriptedRoll:
    """A scripted roll: a face (``5``) or a face on a named die (``D8=5``); raises ValueError."""
    if isinstance(value, int) and not isinstance(value, bool):
        return ScriptedRoll(value)
    match = _DIE_FACE.match(value) if isinstance(value, str) else None
    face, die = (whole_number(match.group(2)), whole_number(match.group(1))) if match else (None, None)
    if face is None or die is None:
        shown = value if not isinstance(value, str) or len(value) <= 40 else f"{value[:40]}..."
        raise ValueError(f"a scripted roll is a face such as 5 or a die and face such as D8=5, not {shown!r}")
    return ScriptedRoll(face, die)


class ScriptedChance:
    """Replays given rolls (in order) and deck orders (by pile name, in order).

    ``shuffles`` maps a pile name to a list of orders, each a list of ids, top
    first. An order may name only the top cards: the order of the rest does
    not matter, so ``[]`` scripts "shuffled, but the order does not matter
    here". With ``rest_seed`` None the rest keep the order they had; with a
    seed they are put in an order drawn from it, so a replay under several
    seeds shows whether the example really does not depend on that order.
    ``free_orders`` counts the shuffles whose unnamed rest could be ordered in
    more than one way; ``dealt`` holds every shuffle's order as it came out.
    """

    def __init__(self, rolls=(), shuffles: dict | None = None, log=NULL_LOG, rest_seed: int | None = None):
        self.rolls = [r if isinstance(r, ScriptedRoll) else parse_roll(r) for r in rolls]
        self.shuffles = {name: [list(order) for order in orders] for name, orders in (shuffles or {}).items()}
        self.log = log
        self.step = "setup"
        self.rest_seed = rest_seed
        self.free_orders = 0
        self.dealt: list[tuple[str, tuple, bool]] = []  # (pile, its ids top first, whether the rest was free)
        self._next_roll = 0
        self._next_shuffle = Counter()

    def roll(self, sides: int, what: str = "") -> int:
        index = self._next_roll
        label = f" for {what}" if what else ""
        if index >= len(self.rolls):
            raise ChanceError(f"{self.step}: the rules roll a D{sides}{label}, but all {len(self.rolls)} "
                              f"scripted roll(s) are used up; add the missing roll to 'rolls'")
        scripted = self.rolls[index]
        if scripted.die is not None and scripted.die != sides:
            raise ChanceError(f"{self.step}: scripted roll {index + 1} ({scripted}) is for a D{scripted.die}, "
                              f"but the rules roll a D{sides}{label}", ("rolls", index))
        if not 1 <= scripted.face <= sides:
            raise ChanceError(f"{self.step}: scripted roll {index + 1} is {scripted.face}, "
                              f"impossible on a D{sides}{label} (faces 1 to {sides})", ("rolls", index))
        self._next_roll += 1
        if self.log:
            self.log.add("roll", die=sides, face=scripted.face, what=what)
        return scripted.face

    def shuffle(self, items, what: str = "") -> list:
        orders = self.shuffles.get(what, [])
        index = self._next_shuffle[what]
        if index >= len(orders):
            scripted = f"all {len(orders)} scripted order(s) for it are used up" if orders else "the example scripts no order for it"
            raise ChanceError(f"{self.step}: the rules shuffle '{what}', but {scripted}; "
                              f"add one under 'shuffles: {what}:' (top card first)")
        self._next_shuffle[what] += 1
        free = self.free_orders
        order = self._arrange(list(items), orders[index], what, index)
        self.dealt.append((what, tuple(item_id(i) for i in order), self.free_orders > free))
        if self.log:
            self.log.add("shuffle", pile=what, order=[item_id(i) for i in order])
        return order

    def _arrange(self, items: list, wanted: list, what: str, index: int) -> list:
        rest = list(items)
        top = []
        for position, name in enumerate(wanted):
            for i, item in enumerate(rest):
                if item_id(item) == name:
                    top.append(rest.pop(i))
                    break
            else:
                raise ChanceError(self._unheld(items, name, what, index, position), ("shuffles", what, index, position))
        if len(set(map(item_id, rest))) > 1:
            self.free_orders += 1
            if self.rest_seed is not None:
                random.Random(f"{self.rest_seed}:{what}:{index}").shuffle(rest)
        return top + rest

    def _unheld(self, items: list, name: str, what: str, index: int, position: int) -> str:
        """Why ``name``, at ``position`` of scripted order ``index`` for the pile ``what`` of ``items``, is not
        there to take: the pile has no such card, or fewer copies than the order names."""
        held = Counter(item_id(i) for i in items)
        if not held[name]:
            return (f"{self.step}: no card '{name}' in '{what}'{did_you_mean(name, [str(i) for i in held])} "
                    f"(it holds: {_order_text(sorted(held, key=str), 20)})")
        return (f"{self.step}: scripted order {index + 1} for '{what}' names '{name}' at position {position + 1}, "
                f"one more than the pile holds (it holds {held[name]})")

    def finish(self) -> None:
        """Raises ChanceError if any scripted roll or order was not used."""
        left, first = [], None  # what is left over, and where the first of it is in the script
        if self._next_roll < len(self.rolls):
            extra = self.rolls[self._next_roll:]
            left.append(f"{len(extra)} scripted roll(s) left over: {', '.join(map(str, extra))}")
            first = ("rolls", self._next_roll)
        for what, orders in self.shuffles.items():
            unused = len(orders) - self._next_shuffle[what]
            if unused > 0:
                left.append(f"{unused} scripted order(s) for '{what}' left over")
                first = first or ("shuffles", what, self._next_shuffle[what])
        if left:
            raise ChanceError(f"{self.step}: " + "; ".join(left) + " (the rules never used them)", first)
