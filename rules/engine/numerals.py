"""Roman numerals, as printed on major arcana: 0 (The Fool) to XXI and beyond."""
from __future__ import annotations

import re

_LETTERS = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
            (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
_PATTERN = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")


def roman(number: int) -> str:
    """``14`` -> ``XIV``; 0 is written ``0`` (there is no Roman zero)."""
    if number == 0:
        return "0"
    out = ""
    for value, letters in _LETTERS:
        while number >= value:
            out, number = out + letters, number - value
    return out


def roman_value(numeral: str) -> int | None:
    """``XIV`` -> 14, ``0`` -> 0; None when the text is not a numeral written the standard way."""
    if numeral == "0":
        return 0
    if not numeral or not _PATTERN.match(numeral):
        return None
    total = 0
    for value, letters in _LETTERS:
        while numeral.startswith(letters):
            total, numeral = total + value, numeral[len(letters):]
    return total
