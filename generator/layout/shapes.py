"""Tokens and tiles: the outline of a card with a shape, and pieces of one shape packed on a page.

A deck's size may have a shape (``rules.data.model.Size``): round tokens, hex tiles with a flat or a pointy
top, rectangles with rounded corners. Lengths are millimetres in the card's own frame (its bounding box's
top-left corner at 0, 0, y down), as in display lists.

Round and hex pieces cannot be cut along crop marks, so on home sheets each gets its bleed as a band
following its outline (neighbours' bands touch, never overlap) and its cut line drawn as its outline,
just outside the trim. They are packed densely: circles in staggered rows when that fits more than a square
grid, hexes as a honeycomb.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from deckwright.rules.data.model import Size

KAPPA = 0.5522847498  # a circle's quarter as one cubic Bezier curve
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Shape:
    kind: str  # "rect", "round", "hex-flat" or "hex-pointy"
    width: float  # the bounding box (the trim of a rectangle)
    height: float
    radius: float = 0.0  # a rectangle's rounded corners

    @property
    def packed(self) -> bool:
        """Placed by ``pack`` with its outline as the cut line (a rectangle is imposed with crop marks)."""
        return self.kind != "rect"

    @property
    def outlined(self) -> bool:
        """Its cut line is drawn: every shape but a plain rectangle."""
        return self.kind != "rect" or self.radius > 0


def shape_of(size: Size) -> Shape:
    return Shape(size.shape, size.width, size.height, size.radius)


def outline(shape: Shape, offset: float = 0.0, x: float = 0.0, y: float = 0.0) -> tuple[tuple, ...]:
    """Path commands (display-list style) of the shape's outline moved ``offset`` outwards, its box at (x, y)."""
    cx, cy = x + shape.width / 2, y + shape.height / 2
    if shape.kind == "round":
        return _circle(cx, cy, shape.width / 2 + offset)
    if shape.kind.startswith("hex"):
        across = shape.height if shape.kind == "hex-flat" else shape.width
        corner = (across + 2 * offset) / SQRT3  # centre to corner
        start = 0.0 if shape.kind == "hex-flat" else 30.0
        points = [(cx + corner * math.cos(math.radians(start + 60 * i)), cy + corner * math.sin(math.radians(start + 60 * i)))
                  for i in range(6)]
        return (("M", *points[0]), *(("L", *p) for p in points[1:]), ("Z",))
    return _rounded_rect(x - offset, y - offset, shape.width + 2 * offset, shape.height + 2 * offset,
                         shape.radius + offset if shape.radius > 0 else 0.0)


def _circle(cx: float, cy: float, r: float) -> tuple[tuple, ...]:
    k = KAPPA * r
    return (("M", cx + r, cy),
            ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
            ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
            ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
            ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
            ("Z",))


def _rounded_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[tuple, ...]:
    r = min(r, w / 2, h / 2)
    if r <= 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    k = KAPPA * r
    return (("M", x + r, y), ("L", x + w - r, y), ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r),
            ("L", x + w, y + h - r), ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h),
            ("L", x + r, y + h), ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r),
            ("L", x, y + r), ("C", x, y + r - k, x + r - k, y, x + r, y), ("Z",))


def css_clip(shape: Shape) -> str:
    """A CSS ``clip-path`` showing a picture of the piece's box as the piece: "" for a plain rectangle."""
    if shape.kind == "round":
        return "circle(50%)"
    if shape.kind == "hex-flat":
        return "polygon(25% 0, 75% 0, 100% 50%, 75% 100%, 25% 100%, 0 50%)"
    if shape.kind == "hex-pointy":
        return "polygon(50% 0, 100% 25%, 100% 75%, 50% 100%, 0 75%, 0 25%)"
    if shape.radius > 0:
        return f"inset(0 round {100 * shape.radius / shape.width:.2f}% / {100 * shape.radius / shape.height:.2f}%)"
    return ""


def svg_path(commands: tuple[tuple, ...]) -> str:
    """The commands as an SVG path's ``d``."""
    return " ".join(command[0] + " ".join(f"{v:.3f}" for v in command[1:]) for command in commands)


# -- packing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Packing:
    """Where the pieces of one shape go on a page: each piece's box's top-left corner, in page millimetres."""

    paper: tuple[float, float]
    shape: Shape
    bleed: float
    places: tuple[tuple[float, float], ...]

    @property
    def per_page(self) -> int:
        return len(self.places)

    def place(self, index: int, mirrored: bool = False) -> tuple[float, float]:
        """The index-th piece's corner; ``mirrored`` for the back page (long-edge duplex)."""
        x, y = self.places[index]
        return (self.paper[0] - x - self.shape.width, y) if mirrored else (x, y)


def pack(paper: tuple[float, float], shape: Shape, bleed: float, area: tuple[float, float, float, float]) -> Packing | None:
    """The densest arrangement found of whole pieces, bleed bands included, inside ``area`` (x, y, w, h), centred
    in it; None when not one fits."""
    if shape.kind == "round":
        centres = _circles(shape.width + 2 * bleed, area[2], area[3])
    elif shape.kind.startswith("hex"):
        centres = _honeycomb(shape, bleed, area[2], area[3])
    else:
        centres = _grid(shape.width + 2 * bleed, shape.height + 2 * bleed, area[2], area[3])
    if not centres:
        return None
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    half_w, half_h = shape.width / 2 + bleed, shape.height / 2 + bleed
    used_w, used_h = max(xs) - min(xs) + 2 * half_w, max(ys) - min(ys) + 2 * half_h
    dx = area[0] + (area[2] - used_w) / 2 - (min(xs) - half_w)
    dy = area[1] + (area[3] - used_h) / 2 - (min(ys) - half_h)
    places = tuple(sorted(((round(cx + dx - shape.width / 2, 4), round(cy + dy - shape.height / 2, 4))
                           for cx, cy in centres), key=lambda p: (p[1], p[0])))
    return Packing(paper, shape, bleed, places)


def _grid(w: float, h: float, width: float, height: float) -> list[tuple[float, float]]:
    return [(w / 2 + i * w, h / 2 + j * h) for j in range(int(height // h)) for i in range(int(width // w))]


def _circles(d: float, width: float, height: float) -> list[tuple[float, float]]:
    """Circles of diameter ``d`` (bleed included): a square grid or staggered rows, whichever holds more."""
    square = _grid(d, d, width, height)
    pitch = d * SQRT3 / 2
    rows = int((height - d) // pitch) + 1 if height >= d else 0
    staggered = [(d / 2 + (d / 2 if row % 2 else 0) + i * d, d / 2 + row * pitch)
                 for row in range(rows) for i in range(int((width - (d / 2 if row % 2 else 0)) // d))]
    return staggered if len(staggered) > len(square) else square


def _honeycomb(shape: Shape, bleed: float, width: float, height: float) -> list[tuple[float, float]]:
    """Hexes whose bleed bands touch: flat-top ones in columns, every other one half a hex lower; pointy-top
    ones the same turned a quarter."""
    across = (shape.height if shape.kind == "hex-flat" else shape.width) + 2 * bleed
    corner = across / SQRT3
    if shape.kind == "hex-pointy":
        return [(y, x) for x, y in _columns(across, corner, height, width)]
    return _columns(across, corner, width, height)


def _columns(across: float, corner: float, width: float, height: float) -> list[tuple[float, float]]:
    """Flat-top hexes (corner to corner 2 x ``corner``, flat to flat ``across``) filling width x height."""
    step = 1.5 * corner
    columns = int((width - 2 * corner) // step) + 1 if width >= 2 * corner else 0
    out = []
    for col in range(columns):
        shift = across / 2 if col % 2 else 0.0
        for row in range(int((height - shift) // across)):
            out.append((corner + col * step, across / 2 + shift + row * across))
    return out
