"""Where a word too long for its line breaks: after a dot, slash, hyphen or underscore that fits (an address
or a file name breaks where a reader expects), else after the last character that fits."""
from __future__ import annotations

from collections.abc import Sequence

SOFT_BREAKS = "./-_"


def word_pieces(word: str, advances: Sequence[float], width: float) -> list[str]:
    """``word`` (its characters advancing by ``advances``) in pieces no wider than ``width``, each as long as it
    can be but ending after the last soft break in it if it has one; a character wider than ``width`` on its own.
    Each piece is a line of its own (but the first and last may share theirs with the words around them)."""
    pieces = []
    start = 0
    while start < len(word):
        cut, used = start + 1, advances[start]  # a piece holds at least one character
        while cut < len(word) and used + advances[cut] <= width:
            used += advances[cut]
            cut += 1
        if cut < len(word):
            soft = max(word.rfind(mark, start + 1, cut) for mark in SOFT_BREAKS)
            cut = soft + 1 if soft > start else cut
        pieces.append(word[start:cut])
        start = cut
    return pieces
