"""A measured card face, back or sheet: what to draw and where, in millimetres.

Every renderer (PDF, PNG, SVG, the web gallery) draws from these values and
measures nothing itself, so all of them show the same thing.

Coordinates are millimetres from the top-left corner of the trim, y pointing
down; the bleed lies at negative coordinates and beyond ``width``/``height``.
Text sizes are points. Colours are ``#rrggbb`` strings; ``None`` means no
paint. Paths fill with the even-odd rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0  # mm
    radius: float = 0.0  # mm, rounded corners
    opacity: float = 1.0


@dataclass(frozen=True)
class Ellipse:
    x: float  # bounding box
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    opacity: float = 1.0


# Path commands: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",), absolute millimetres.
Command = tuple


@dataclass(frozen=True)
class Path:
    commands: tuple[Command, ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    opacity: float = 1.0


@dataclass(frozen=True)
class Text:
    """One measured run of text in one face: ``x``, ``y`` is the left end of its baseline."""

    x: float
    y: float
    text: str
    font: str  # a face name, "Family:style" (see generator.fonts)
    size: float  # points
    color: str
    width: float = 0.0  # measured advance width, mm


@dataclass(frozen=True)
class Image:
    x: float
    y: float
    w: float
    h: float
    path: str  # absolute path of a PNG or JPEG file
    opacity: float = 1.0


@dataclass(frozen=True)
class Clip:
    """Items drawn only inside a rectangle (e.g. an image cropped to its box)."""

    x: float
    y: float
    w: float
    h: float
    items: tuple["Item", ...]


@dataclass(frozen=True)
class Group:
    """Items that do not depend on the card (a frame, a back): renderers may draw them once and reuse them."""

    items: tuple["Item", ...]


Item = Union[Rect, Ellipse, Path, Text, Image, Clip, Group]
ITEM_KINDS = (Rect, Ellipse, Path, Text, Image, Clip, Group)


BOXED_KINDS = (Rect, Ellipse, Image, Clip)  # the kinds drawn in a box (x, y, w, h)


def inverted(item) -> bool:
    """A box of negative width or height: nothing to draw. The measurer reports the layout that would make one;
    a display list made otherwise may still hold one, and no renderer may fail on it."""
    return item.w < 0 or item.h < 0


def handlers(renderer) -> dict[type, object]:
    """The renderer's drawing method for each item kind: ``renderer._rect`` for a Rect, and so on; the methods
    of the boxed kinds skip an ``inverted`` box.

    Renderers look items up here (``handlers[type(item)](item)``), so adding a kind is one change."""
    methods = {kind: getattr(renderer, "_" + kind.__name__.lower()) for kind in ITEM_KINDS}
    return {kind: _unless_inverted(method) if kind in BOXED_KINDS else method for kind, method in methods.items()}


def _unless_inverted(method):
    def draw(*args) -> None:  # (item) for a bound method, (renderer, item) for the class's function
        if not inverted(args[-1]):
            method(*args)
    return draw



@dataclass(frozen=True)
class TextFit:
    """How one text box was fitted: the size it got and whether the text fits at all."""

    box: str
    field: str  # the card field the text comes from ("" when none)
    size: float  # points
    fits: bool
    loc: object = None  # where the box is defined (a rules.problems.Loc)
    overflow_ok: bool = False  # the box says ``fit: overflow-ok``: text that does not fit is no error


@dataclass(frozen=True)
class ArtFit:
    """A picture as placed in its box: the resolution it prints at."""

    box: str
    src: str  # as the layout names it
    dpi: float  # pixels per inch of the picture at its printed size (the lower of the two axes)
    width: float  # the box, mm
    height: float


@dataclass(frozen=True)
class DisplayList:
    name: str  # what it shows, e.g. "prey dire-rat" or "back of level-1"
    width: float  # trim size, mm
    height: float
    bleed: float  # mm on each side, drawn in
    items: tuple[Item, ...]
    fits: tuple[TextFit, ...] = field(default=(), compare=False)
    art: tuple[ArtFit, ...] = field(default=(), compare=False)
    # what laying it out found wrong without stopping it (rules.problems.Problem): a box drawn off the face
    problems: tuple = field(default=(), compare=False)


def walk(items) -> "list[Item]":
    """Every drawable item, with Groups and Clips opened (for tests and measurements)."""
    out = []
    for item in items:
        if isinstance(item, (Group, Clip)):
            out.extend(walk(item.items))
        else:
            out.append(item)
    return out


def texts(display: DisplayList) -> list[str]:
    """The text runs in drawing order."""
    return [item.text for item in walk(display.items) if isinstance(item, Text)]
