"""Lengths: numbers are millimetres; strings may carry a unit (``63.5mm``, ``2.5in``, ``12pt``)."""
from __future__ import annotations

import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}

# The sizes game.yaml may name, in millimetres (width, height), portrait: card sizes for decks and sheets,
# page formats for sheets. Which paper a home print is laid out on is the generator's (layout.paper).
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (41.0, 63.0),
    "mini-euro": (44.0, 67.0),
    "square": (70.0, 70.0),
}
PAGE_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")


def parse_length(value) -> float:
    """Millimetres from a number or a string with a unit; raises ValueError."""
    if isinstance(value, bool):
        raise ValueError("expected a length such as 63.5, 63.5mm or 2.5in")
    if isinstance(value, (int, float)):
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f'"{value}" is not a length (use e.g. 63.5, 63.5mm or 2.5in)')
    return float(match.group(1)) * MM_PER[match.group(2) or "mm"]


def mm_to_pt(mm: float) -> float:
    return mm * 72 / 25.4


_ROUND = re.compile(r"^\s*(?:round|circle)\s+(\S+)\s*$", re.I)
_HEX = re.compile(r"^\s*hex\s+(\S+)(?:\s+(flat|pointy))?\s*$", re.I)
_ROUNDED = re.compile(r"^(.*\S)\s+rounded\s+(\S+)\s*$", re.I)


def parse_shape(text: str) -> tuple[str, float, float, float, str | None] | None:
    """A size with a shape: ``round 25mm`` (diameter), ``hex 40mm`` or ``hex 40mm pointy`` (across the flats; a
    flat top by default), ``poker rounded 3mm`` (any size with rounded corners). Gives (shape, width, height,
    corner radius, the size before "rounded" or None); None when the text names no shape; raises ValueError."""
    match = _ROUND.match(text)
    if match:
        diameter = _positive(match.group(1), "diameter")
        return "round", diameter, diameter, 0.0, None
    match = _HEX.match(text)
    if match:
        across = _positive(match.group(1), "size across the flats")
        corners = across * 2 / 3 ** 0.5
        if (match.group(2) or "flat").lower() == "flat":
            return "hex-flat", corners, across, 0.0, None
        return "hex-pointy", across, corners, 0.0, None
    match = _ROUNDED.match(text)
    if match:
        return "rect", 0.0, 0.0, _positive(match.group(2), "corner radius"), match.group(1)
    return None


def _positive(text: str, what: str) -> float:
    value = parse_length(text)
    if value <= 0:
        raise ValueError(f'"{text}": a {what} is more than 0')
    return value
