"""Where cards go on a home-print page: the grid, its cut lines, crop marks and the calibration ruler.

All lengths are millimetres from the page's top-left corner. Each axis is
planned on its own: as many cards as fit, then, for that count, the most
bleed that still leaves room for crop marks outside the cards:

1. full bleed around every card (cards ``2 x bleed`` apart, two cuts between neighbours);
2. butted cards sharing one cut line (no bleed between them, full bleed outside);
3. butted cards with the outer bleed reduced, but never below ``MIN_OUTER_BLEED``.

Crop marks sit in the margin outside the outermost bleed, on the extension
of each cut line. Where that margin is narrower than what many home printers
leave unprinted (``PRINTER_EDGE``), a mark would print little or nothing, so it
also runs over the outer bleed, which is cut away, to ``MARK_GAP`` short of the
trim (drawn black on white, to show on any art): it never crosses a card's trim.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .paper import HOME_BLEED

MARK_ZONE = 4.0  # margin kept outside the outermost bleed for crop marks
MARK_GAP = 0.8  # distance from the bleed edge to the start of a mark
MARK_LENGTH = 5.0
MIN_OUTER_BLEED = 1.0
ROUNDED_BLEED = 1.5  # around cards with rounded corners, on a side where full bleed would cost a row or column
RULER_LENGTH = 50.0
RULER_DEPTH = 3.8  # the bar and its label, across the strip
_CLEAR = 1.5  # kept free around a crop mark along the strip
PRINTER_EDGE = 6.35  # from the paper's edge: many home printers print nothing nearer (1/4 in; others 3 to 5 mm)


@dataclass(frozen=True)
class Axis:
    count: int
    card: float  # card length on this axis
    gutter: float  # between two neighbouring trims (0 when butted)
    outer_bleed: float
    start: float  # page coordinate of the first trim edge

    @property
    def inner_bleed(self) -> float:
        return self.gutter / 2

    def trim(self, index: int) -> float:
        return self.start + index * (self.card + self.gutter)

    @property
    def end(self) -> float:
        return self.trim(self.count - 1) + self.card

    def cuts(self) -> list[float]:
        """Every cut line (butted neighbours share one)."""
        cuts = set()
        for i in range(self.count):
            cuts.add(round(self.trim(i), 4))
            cuts.add(round(self.trim(i) + self.card, 4))
        return sorted(cuts)

    def visible(self, index: int) -> tuple[float, float]:
        """The part of the page a card's art may cover on this axis: its trim plus the bleed it keeps."""
        before = self.outer_bleed if index == 0 else self.inner_bleed
        after = self.outer_bleed if index == self.count - 1 else self.inner_bleed
        return self.trim(index) - before, self.card + before + after


def plan_axis(paper: float, card: float, bleed: float, mark_zone: float = MARK_ZONE, butted: bool = True) -> Axis | None:
    """The best arrangement of cards along one side of the paper; None when not even one card fits. Without
    ``butted`` every card keeps its full bleed (cards with rounded corners: each is cut on its own)."""

    def count(gutter: float, outer: float) -> int:
        n = 0
        while (n + 1) * card + n * gutter + 2 * outer + 2 * mark_zone <= paper + 1e-9:
            n += 1
        return n

    full = count(2 * bleed, bleed)
    shared = count(0.0, bleed) if butted else 0
    reduced = count(0.0, min(bleed, MIN_OUTER_BLEED)) if butted else 0
    best = max(full, shared, reduced)
    if best == 0:
        return None
    if full == best:
        gutter, outer = 2 * bleed, bleed
    elif shared == best:
        gutter, outer = 0.0, bleed
    else:
        gutter, outer = 0.0, min(bleed, (paper - best * card - 2 * mark_zone) / 2)
    used = best * card + (best - 1) * gutter
    return Axis(best, card, gutter, outer, (paper - used) / 2)


@dataclass(frozen=True)
class Mark:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Ruler:
    x: float  # where the bar starts
    y: float
    vertical: bool  # runs down the page (in a side margin) instead of across
    side: str = "bottom"  # the margin it sits in
    mark_length: float = MARK_LENGTH  # crop marks in that margin are cut to this length to make room


@dataclass(frozen=True)
class _Strip:
    side: str
    depth: float  # from the art's edge to the paper's edge
    cuts: list[float]  # crop mark positions along the strip
    extent: float  # the strip's length (the paper's side)
    art_edge: float  # page coordinate of the art's edge on this side
    outward: int  # +1 when the paper edge lies at larger coordinates, -1 otherwise
    bleed: float  # the outer bleed inside the art's edge, cut away with the margin

    def across(self, offset: float, thickness: float) -> float:
        """Page coordinate of the near side of something ``offset`` away from the art, ``thickness`` thick."""
        return self.art_edge + offset if self.outward > 0 else self.art_edge - offset - thickness


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]
    cols: Axis
    rows: Axis

    @property
    def per_page(self) -> int:
        return self.cols.count * self.rows.count

    def slot(self, index: int, mirrored: bool = False) -> tuple[int, int]:
        """Column and row of the index-th card on a page; ``mirrored`` for the back page (long-edge duplex)."""
        col, row = index % self.cols.count, index // self.cols.count
        return (self.cols.count - 1 - col if mirrored else col), row

    def trim_origin(self, col: int, row: int) -> tuple[float, float]:
        return self.cols.trim(col), self.rows.trim(row)

    def visible(self, col: int, row: int) -> tuple[float, float, float, float]:
        x, w = self.cols.visible(col)
        y, h = self.rows.visible(row)
        return x, y, w, h

    @property
    def art(self) -> tuple[float, float, float, float]:
        """The whole area cards may print on, outer bleed included."""
        x = self.cols.start - self.cols.outer_bleed
        y = self.rows.start - self.rows.outer_bleed
        return x, y, self.cols.end + self.cols.outer_bleed - x, self.rows.end + self.rows.outer_bleed - y

    def _strips(self) -> list[_Strip]:
        pw, ph = self.paper
        ax, ay, aw, ah = self.art
        return [
            _Strip("bottom", ph - (ay + ah), self.cols.cuts(), pw, ay + ah, +1, self.rows.outer_bleed),
            _Strip("top", ay, self.cols.cuts(), pw, ay, -1, self.rows.outer_bleed),
            _Strip("right", pw - (ax + aw), self.rows.cuts(), ph, ax + aw, +1, self.cols.outer_bleed),
            _Strip("left", ax, self.rows.cuts(), ph, ax, -1, self.cols.outer_bleed),
        ]

    def marks(self, ruler: Ruler | None = None, filled: int | None = None) -> list[Mark]:
        """Crop marks: each cut line continued into the margin on all four sides, outside all art (and over the
        outer bleed where the margin is narrower than PRINTER_EDGE); with ``filled``, only the cut lines of the
        first ``filled`` slots (a page of 4 mini cards marks no empty row)."""
        out = []
        cols, rows = _used_places(self, filled)
        used = self if cols is None else Grid(self.paper, replace(self.cols, count=cols), replace(self.rows, count=rows))
        for strip in used._strips():
            limit = ruler.mark_length if ruler is not None and ruler.side == strip.side else MARK_LENGTH
            length = min(limit, strip.depth - MARK_GAP)
            if length <= 0:
                continue
            over_bleed = strip.bleed if strip.depth < PRINTER_EDGE else 0.0
            near = strip.across(MARK_GAP - over_bleed, length + over_bleed)
            far = near + length + over_bleed
            for cut in strip.cuts:
                if strip.side in ("top", "bottom"):
                    out.append(Mark(cut, near, cut, far))
                else:
                    out.append(Mark(near, cut, far, cut))
        return out

    def ruler(self) -> Ruler | None:
        """A place for the 50 mm ruler in a margin, clear of the crop marks: beside the cards between two
        marks if there is such a gap, else beyond the marks' ends (marks shortened as needed)."""
        strips = self._strips()
        for strip in strips:
            if strip.depth < RULER_DEPTH + MARK_GAP + 1.0:
                continue
            start = free_span(strip.cuts, strip.extent, RULER_LENGTH + 2 * _CLEAR)
            if start is not None:
                return self._ruler(strip, start + _CLEAR, strip.across(MARK_GAP, RULER_DEPTH), MARK_LENGTH)
        for strip in strips:
            mark_length = min(MARK_LENGTH, strip.depth - MARK_GAP - 0.5 - RULER_DEPTH - 1.0)
            if mark_length >= 2.0:
                across = strip.across(MARK_GAP + mark_length + 0.5, RULER_DEPTH)
                return self._ruler(strip, (strip.extent - RULER_LENGTH) / 2, across, mark_length)
        return None

    @staticmethod
    def _ruler(strip: _Strip, along: float, across: float, mark_length: float) -> Ruler:
        if strip.side in ("top", "bottom"):
            return Ruler(along, across, False, strip.side, mark_length)
        return Ruler(across, along, True, strip.side, mark_length)


def _used_places(grid: Grid, filled: int | None) -> tuple[int | None, int | None]:
    """How many columns and rows the first ``filled`` slots reach (None: all)."""
    if filled is None or filled >= grid.per_page:
        return None, None
    return min(filled, grid.cols.count), -(-filled // grid.cols.count)


def free_span(cuts: list[float], extent: float, length: float) -> float | None:
    """Start of the gap between crop marks nearest the middle of the strip that holds ``length``."""
    edges = [5.0] + [c for cut in cuts for c in (cut - _CLEAR, cut + _CLEAR)] + [extent - 5.0]
    gaps = [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2) if edges[i + 1] - edges[i] >= length]
    if not gaps:
        return None
    middle = extent / 2
    a, b = min(gaps, key=lambda g: abs((g[0] + g[1]) / 2 - middle))
    return max(a, min(b - length, middle - length / 2))


def plan_grid(paper: tuple[float, float], card: tuple[float, float], bleed: float, butted: bool = True) -> Grid | None:
    cols = plan_axis(paper[0], card[0], bleed, butted=butted)
    rows = plan_axis(paper[1], card[1], bleed, butted=butted)
    if cols is None or rows is None:
        return None
    return Grid(paper, cols, rows)


def rounded_grid(paper: tuple[float, float], size: tuple[float, float]) -> Grid | None:
    """Cards with rounded corners are each cut on their own, so none shares a cut line with its neighbour; on each
    side the bleed narrows to ROUNDED_BLEED where that fits more cards (the columns of 3 x 3 poker cards on A4;
    their rows keep full bleed)."""
    cols, rows = _unshared_axis(paper[0], size[0]), _unshared_axis(paper[1], size[1])
    if cols is None or rows is None:
        return None
    return Grid(paper, cols, rows)


def _unshared_axis(paper: float, card: float) -> Axis | None:
    axes = [axis for axis in (plan_axis(paper, card, bleed, butted=False) for bleed in (HOME_BLEED, ROUNDED_BLEED))
            if axis is not None]
    return max(axes, key=lambda axis: axis.count, default=None)  # the first, full bleed, on a tie
