"""Where each field of a card is written, held compactly: a game of 20,000 cards has 120,000 of them.

A card's field locations as a dict of ``Loc`` take about 800 bytes a card (a dict, a ``Loc`` each); when they
are all in the card's own file and none names a spreadsheet cell (a YAML card file, the common case), the
field names (a tuple shared by the cards that list their fields in the same order) and the lines and columns
(an array of 32-bit numbers) take under 200. A ``Loc`` is made when one is asked for, as messages need them.
"""
from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping

from deckwright.rules.problems import Loc

_LARGEST = 2**31 - 1


class FieldLocs(Mapping):
    """A read-only mapping of field name -> ``Loc`` in one file."""

    __slots__ = ("_file", "_names", "_places")

    def __init__(self, file: str, names: tuple[str, ...], places: array):
        self._file = file
        self._names = names
        self._places = places  # line, column of each name, in order

    def __getitem__(self, name: str) -> Loc:
        try:
            index = self._names.index(name)
        except ValueError:
            raise KeyError(name) from None
        return Loc(self._file, self._places[2 * index], self._places[2 * index + 1])

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self) == dict(other)

    def __hash__(self) -> int:
        return hash((self._file, self._names, self._places.tobytes()))

    def __repr__(self) -> str:
        return repr(dict(self))


class FieldLocsMaker:
    """Makes each card's ``FieldLocs``, one tuple of names for all the cards that list the same fields."""

    def __init__(self):
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}

    def __call__(self, locs: list[tuple[str, Loc]]) -> Mapping[str, Loc]:
        """The locations of a card's fields (name, Loc) in the card's order: compact when they can be."""
        if not locs:
            return {}
        file = locs[0][1].file
        if any(loc.cell or loc.file != file or not 0 <= loc.line <= _LARGEST or not 0 <= loc.col <= _LARGEST
               for _, loc in locs):
            return dict(locs)
        names = tuple(name for name, _ in locs)
        names = self._names.setdefault(names, names)
        places = array("i", [number for _, loc in locs for number in (loc.line, loc.col)])
        return FieldLocs(file, names, places)
