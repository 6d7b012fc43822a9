"""Whole numbers read from a game's text: a value, a field path's index, a dice term, a command-line count.

Python's ``int()`` refuses a string of more than 4,300 digits with a ValueError, and ``str.isdigit()`` accepts
characters ``int()`` cannot read (the superscript ``²``). Text from a game folder or a command line is read
here, so neither can end in a traceback.
"""
from __future__ import annotations

# Python's default limit for int() on a string. A card's number has a few digits; a longer one is not a number.
MAX_DIGITS = 4300


def whole_number(text: str) -> int | None:
    """The whole number ``text`` reads as (an optional sign, then decimal digits), or None when it is not one or
    has more digits than Python reads (MAX_DIGITS)."""
    body = text.strip()
    digits = body[1:] if body[:1] in ("+", "-") else body
    if not digits.isdecimal() or len(digits) > MAX_DIGITS:
        return None
    return int(body)


def unsigned_number(text: str) -> int | None:
    """The number ``text`` reads as when it is decimal digits alone (an index, a count, a port: no sign, no
    spaces), or None."""
    return whole_number(text) if text.isdecimal() else None


def digits_order(digits: str) -> tuple[int, str]:
    """A sort key putting a run of decimal digits in the order of its value, for any length: fewer significant
    digits first, then digit by digit."""
    significant = digits.lstrip("0")
    return len(significant), significant
