"""Lengths: numbers are millimetres; strings may carry a unit (``63.5mm``, ``2.5in``, ``12pt``)."""
from __future__ import annotations

import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
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
