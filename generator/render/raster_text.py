"""Text runs painted at the output resolution, over a face whose shapes were painted supersampled.

The rasteriser paints shapes and pictures at ``SUPERSAMPLE`` times the resolution and averages each block of
pixels; painting text that way too cost most of a print-shop card's time (blending a glyph mask four times
the size, then averaging it). FreeType's mask of a run is still rendered at the supersampled size (the same
hinting, so the same glyph shapes and positions as before), but averaged down on its own and blended once into
the averaged face: the ink each pixel gets is the same up to rounding, for a quarter of the blending.

That changes the order of painting, so it is done only for a run that no later item painted supersampled can
overlap (``split_text``): a shape drawn over a run keeps the run on the supersampled canvas, under it.

A run's mask is put together from its words' masks (``word_masks``), each rendered once per font, size and
fraction of a pixel it starts at: ImageFont renders a run glyph by glyph at the advances it lays out, so a word
rendered alone from where the run puts it has the same pixels (tests/test_raster_text checks it in every shipped
font), and card text repeats its words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from deckwright.generator.layout import displaylist as dl

MM_PER_PT = 25.4 / 72
# how far a run's ink may reach around its baseline and measured width, in ems: accents above capitals,
# descenders, italic overhang; a generous box only keeps more runs on the supersampled canvas
ABOVE, BELOW, BESIDE = 1.5, 0.6, 1.0
EDGE = 0.2  # mm around every item: antialiasing and Pillow's rounding of edges

Box = tuple[float, float, float, float]  # left, top, right, bottom, mm


@dataclass(frozen=True)
class Split:
    """A face's items: those painted supersampled, in order, and the text runs painted after them at the output
    resolution, in order."""

    supersampled: tuple
    at_output: tuple[dl.Text, ...]


def split_text(items: tuple) -> Split:
    """``items`` (Groups opened: they only gather items) split so that painting ``supersampled`` and then
    ``at_output`` paints what painting ``items`` in order would: a run goes to ``at_output`` when nothing
    painted after it on the supersampled canvas reaches into its box."""
    flat = list(_opened(items))
    later: list[Box] = []  # boxes of the items after the current one that stay supersampled
    at_output = [False] * len(flat)
    for index in range(len(flat) - 1, -1, -1):
        item = flat[index]
        box = reach(item)
        if isinstance(item, dl.Text) and "\n" not in item.text and not any(_overlap(box, other) for other in later):
            at_output[index] = True
        else:
            later.append(box)
    return Split(tuple(item for item, late in zip(flat, at_output) if not late),
                 tuple(item for item, late in zip(flat, at_output) if late))


def _opened(items):
    for item in items:
        if isinstance(item, dl.Group):
            yield from _opened(item.items)
        else:
            yield item


def reach(item) -> Box:
    """The box (mm) an item can paint in."""
    if isinstance(item, dl.Text):
        em = item.size * MM_PER_PT
        width = item.width or len(item.text) * em
        return (item.x - BESIDE * em - EDGE, item.y - ABOVE * em - EDGE,
                item.x + width + BESIDE * em + EDGE, item.y + BELOW * em + EDGE)
    if isinstance(item, dl.Path):
        xs = [value for command in item.commands for value in command[1::2]]
        ys = [value for command in item.commands for value in command[2::2]]
        if not xs:
            return (0.0, 0.0, 0.0, 0.0)
        pen = (item.stroke_width if item.stroke else 0.0) + EDGE
        return min(xs) - pen, min(ys) - pen, max(xs) + pen, max(ys) + pen
    pen = getattr(item, "stroke_width", 0.0) if getattr(item, "stroke", None) else 0.0
    pen += EDGE
    return item.x - pen, item.y - pen, item.x + item.w + pen, item.y + item.h + pen


def _overlap(one: Box, other: Box) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


_WORD = re.compile(r"\S+")
PHASE_DIGITS = 6


def word_masks(font, font_key: tuple, text: str, start: tuple[float, float], kept) -> list[tuple[int, int, object]]:
    """FreeType's mask of each word of a run starting at fraction ``start`` of a pixel (ImageFont's ``getmask2``,
    kept in the ``BoundedStore`` ``kept`` by ``font_key``, word and the fraction the word starts at), with its
    top-left corner in pixels from the run's start: drawn together, the run's own mask."""
    pieces = []
    for word in _WORD.finditer(text):
        pen = start[0] + (font.getlength(text[:word.start()]) if word.start() else 0.0)
        whole = int(pen)  # as ImageDraw splits a point into its integer part and the fraction it renders from
        # rounded: the same line on another card starts a hair's breadth away (layout arithmetic), which FreeType's
        # 1/64 px cannot tell apart; rendered from the rounded value, the pixels depend on nothing else
        phase = (round(pen - whole, PHASE_DIGITS), round(start[1], PHASE_DIGITS))
        key = (font_key, word.group(), phase)
        mask = kept.get(key)
        if mask is None:
            mask = font.getmask2(word.group(), "L", anchor="ls", start=phase)
            kept.put(key, mask, mask[0].size[0] * mask[0].size[1] + 100)
        core, offset = mask
        if core.size[0] and core.size[1]:
            pieces.append((whole + offset[0], offset[1], core))
    return pieces
