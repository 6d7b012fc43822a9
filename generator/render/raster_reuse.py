"""What the PNG painter keeps from one face to the next, so that what repeats is painted once.

- A card face's leading ``Group`` items (its frame: card-independent by the display list's contract) are
  painted once, at the supersampled size and reduced; a face sharing them starts from a copy of the reduced
  frame and paints only its own items on the supersampled frame, and only the blocks those items touched are
  reduced; the frame's pixels where the items could reach (``raster_text.reach``), kept before, are then
  put back. Reducing is averaging each block of pixels, so a face pieced together this way has exactly the
  pixels of one painted from scratch.
- A text run's glyph mask (FreeType's rendering, the costliest single step) is kept by font, size, text,
  colour and the fractional pixel it starts at, so the same mask is drawn the same way again.
- A path's polygons and, for an even-odd fill, its mask are kept by its commands: an icon in the same place
  on every card is flattened and filled once.

The stores are bounded by bytes: the oldest entries go first.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, Hashable, TypeVar

Value = TypeVar("Value")
Box = tuple[int, int, int, int]  # left, top, right, bottom: pixels, right and bottom excluded

MARGIN = 2  # px around what an item says it covers: Pillow's rounding of edges and line joins


class BoundedStore(Generic[Value]):
    """A dict that forgets its oldest entries once their sizes add up to more than ``budget``."""

    def __init__(self, budget: int):
        self.budget = budget
        self._entries: OrderedDict[Hashable, tuple[Value, int]] = OrderedDict()
        self._used = 0

    def get(self, key: Hashable) -> Value | None:
        entry = self._entries.get(key)
        return None if entry is None else entry[0]

    def put(self, key: Hashable, value: Value, size: int) -> None:
        if size > self.budget:
            return
        self.drop(key)
        while self._used + size > self.budget:
            _, (_, oldest) = self._entries.popitem(last=False)
            self._used -= oldest
        self._entries[key] = (value, size)
        self._used += size

    def drop(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._used -= entry[1]


@dataclass(frozen=True)
class Background:
    """A face's frame: as painted (``full``, supersampled) and reduced (``reduced``). A face is painted on ``full``
    itself, which keeps copies of the blocks the face may paint in (``keep``) to put back afterwards (``face``)."""

    full: object  # PIL images
    reduced: object

    @property
    def size_in_bytes(self) -> int:
        # Pillow keeps an RGB pixel in 4 bytes
        return 4 * (self.full.width * self.full.height + self.reduced.width * self.reduced.height)

    def keep(self, reach: list[Box]) -> list[tuple[Box, object]]:
        """The frame's pixels in the boxes ``reach`` (already whole blocks), before a face is painted there."""
        return [(box, self.full.crop(box)) for box in merged(reach)]

    def face(self, kept: list[tuple[Box, object]], touched: list[Box], factor: int):
        """The face painted on ``full``: the reduced frame with every block ``touched`` reduced anew; ``full``
        then the frame again where ``kept``. False when the face painted outside what was kept (the frame is then
        spoilt), else the face."""
        face = self.reduced.copy()
        blocks = merged([aligned(box, factor, self.full.size) for box in touched])
        for box in blocks:
            face.paste(self.full.reduce(factor, box), (box[0] // factor, box[1] // factor))
        for box, pixels in kept:
            self.full.paste(pixels, box[:2])
        inside = all(any(_within(block, box) for box, _ in kept) for block in blocks)
        return face, inside


def _within(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def aligned(box: tuple[float, float, float, float], factor: int, size: tuple[int, int]) -> Box:
    """``box`` grown by ``MARGIN`` and out to whole blocks of ``factor`` px, inside ``size``."""
    left = max(0, int(box[0] - MARGIN) // factor * factor)
    top = max(0, int(box[1] - MARGIN) // factor * factor)
    right = min(size[0], -(-int(box[2] + MARGIN + 1) // factor) * factor)
    bottom = min(size[1], -(-int(box[3] + MARGIN + 1) // factor) * factor)
    return left, top, max(left, right), max(top, bottom)


def merged(boxes: list[Box]) -> list[Box]:
    """Boxes that overlap joined into the box around them, until none overlap; empty boxes left out."""
    pending = [box for box in boxes if box[2] > box[0] and box[3] > box[1]]
    done: list[Box] = []
    while pending:
        box = pending.pop()
        for index, other in enumerate(done):
            if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]:
                del done[index]
                pending.append((min(box[0], other[0]), min(box[1], other[1]),
                                max(box[2], other[2]), max(box[3], other[3])))
                break
        else:
            done.append(box)
    return sorted(done)
