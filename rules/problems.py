"""Problems a user can cause, each tied to a place in a file.

Everything that reads user files reports through these: one line per problem,
``file:line:col: message``, sorted by file and line.
"""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .numbers import digits_order

READABLE = 300  # characters of a message printed before it is cut
# C0 and C1 controls (escape sequences, bells, line breaks), DEL, bidirectional overrides and line separators:
# text from a game folder must not clear a terminal, retitle it, or reorder what it shows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str, keep_newlines: bool = False) -> str:
    """Control characters written as visible escapes (``\\x1b``, ``\\n``, ``\\u202e``); the rest unchanged."""
    def escape(match: re.Match) -> str:
        char = match.group(0)
        if keep_newlines and char == "\n":
            return char
        return repr(char)[1:-1] if ord(char) < 0x100 else f"\\u{ord(char):04x}"

    return _CONTROL.sub(escape, text)


def clip(text: str, limit: int = READABLE) -> str:
    """Text cut at a readable length, saying how much is left out: whole "; "-separated items with
    ``(N more)``, or else characters with ``(N more characters)``."""
    if len(text) <= limit:
        return text
    items = text.split("; ")
    kept: list[str] = []
    for item in items:
        if sum(len(k) + 2 for k in kept) + len(item) > limit:
            break
        kept.append(item)
    if kept and len(items) > 1:
        return "; ".join(kept) + f"; ({len(items) - len(kept)} more)"
    first = items[0] if len(items) > 1 else text
    cut = first.rfind(" ", limit // 2, limit)
    cut = cut if cut > 0 else limit
    if len(items) > 1:  # even the first item is too long: cut it, and count the items left out
        return f"{first[:cut]}...; ({len(items) - 1} more)"
    return f"{text[:cut]}... ({len(text) - cut} more characters)"


@dataclass(order=True, slots=True, unsafe_hash=True)
class Loc:
    """A place in a user's file; line and column count from 1.

    Treated as immutable, but not a frozen dataclass: a frozen one's ``__init__`` sets each field through
    ``object.__setattr__`` (1.3 us a Loc against 0.34 us), and every value of a 20,000-card file has one."""

    file: str
    line: int = 1
    col: int = 1
    # A spreadsheet's own name for the place, shown instead of line:col: "14:power" (a CSV file's row 14,
    # column power) or "Monsters!C14" (a workbook's sheet and cell). line and col still give the sort order.
    cell: str = ""

    @property
    def position(self) -> str:
        """The place within the file: ``line:col``, or the spreadsheet cell."""
        return self.cell or f"{self.line}:{self.col}"

    def __str__(self) -> str:
        return f"{self.file}:{self.position}"


def display_path(path: Path | str) -> str:
    """The path as a user should see it: relative to the working folder when under it.

    Links are not followed: a card file that links elsewhere is still named by its own path.
    """
    try:
        absolute, here = Path(os.path.abspath(path)), Path.cwd()
        return os.path.relpath(absolute, here) if absolute.is_relative_to(here) else str(path)
    except (OSError, ValueError):
        return str(path)


@dataclass(frozen=True, order=True)
class Problem:
    loc: Loc
    message: str
    severity: str = "error"  # "error" or "warning"
    detail: str = field(default="", compare=False, repr=False)  # a rules module's traceback, for --traceback

    def __str__(self) -> str:
        """One line: ``file:line:col: message``, control characters escaped, a long message cut."""
        prefix = "" if self.severity == "error" else f"{self.severity}: "
        return printable(f"{self.loc}: {prefix}{clip(self.message)}")


@dataclass
class Problems:
    """Collects problems instead of stopping at the first one."""

    items: list[Problem] = field(default_factory=list)
    # (the list counted, how many of its items, errors among them): error_count looks only at what was added
    # since, as the loader asks for it once per card and a big file can hold thousands of problems.
    _counted: tuple = field(default=(None, 0, 0), init=False, repr=False, compare=False)

    def error(self, loc: Loc, message: str) -> None:
        self.items.append(Problem(loc, message, "error"))

    def warning(self, loc: Loc, message: str) -> None:
        self.items.append(Problem(loc, message, "warning"))

    def extend(self, other: "Problems | list[Problem]") -> None:
        self.items.extend(other.items if isinstance(other, Problems) else other)

    @property
    def error_count(self) -> int:
        counted, seen, errors = self._counted
        if counted is not self.items or seen > len(self.items):  # another list, or items taken away: count again
            seen, errors = 0, 0
        errors += sum(1 for p in self.items[seen:] if p.severity == "error")
        self._counted = (self.items, len(self.items), errors)
        return errors

    @property
    def errors(self) -> list[Problem]:
        return sorted({p for p in self.items if p.severity == "error"})

    @property
    def warnings(self) -> list[Problem]:
        return sorted({p for p in self.items if p.severity != "error"})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def sorted(self) -> list[Problem]:
        return sorted(set(self.items))


def closest(word: str, choices) -> str | None:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return close[0] if close else None


class Suggestions:
    """``closest`` over one set of choices, asked for many words: each word answered once, and over thousands of
    choices (a 20,000-card game's ids) only the ``SHORTLIST`` that share the most three-letter pieces with the word
    are compared (difflib over 20,000 ids takes 0.4 s a word: a spreadsheet column of misspelt references would
    take hours)."""

    INDEXED = 500  # choices beyond which a word is compared with its shortlist only
    SHORTLIST = 50

    def __init__(self, choices):
        self.choices = [str(c) for c in choices]
        self._answers: dict[str, str | None] = {}
        self._pieces: dict[str, list[int]] | None = None

    def closest(self, word: str) -> str | None:
        word = str(word)
        if word not in self._answers:
            self._answers[word] = closest(word, self._shortlist(word))
        return self._answers[word]

    def _shortlist(self, word: str) -> list[str]:
        if len(self.choices) <= self.INDEXED:
            return self.choices
        if self._pieces is None:
            self._pieces = {}
            for index, choice in enumerate(self.choices):
                for piece in set(_trigrams(choice)):
                    self._pieces.setdefault(piece, []).append(index)
        postings = [self._pieces[piece] for piece in set(_trigrams(word)) if piece in self._pieces]
        # a piece most choices have (``card-`` in every id) tells little and costs most: counted only when the
        # word has no rarer one
        rare = [posting for posting in postings if len(posting) <= len(self.choices) // 20] or postings
        shared: dict[int, int] = {}
        for posting in rare:
            for index in posting:
                shared[index] = shared.get(index, 0) + 1
        size = len(word)  # of choices sharing as much, those nearest the word's length first
        best = sorted(shared, key=lambda index: (-shared[index], abs(len(self.choices[index]) - size), index))
        best = best[:self.SHORTLIST]
        return [self.choices[index] for index in sorted(best)]


def _trigrams(text: str) -> list[str]:
    padded = f"  {text.lower()} "
    return [padded[i:i + 3] for i in range(len(padded) - 2)]


def hint(close: str | None) -> str:
    return f"; did you mean '{close}'?" if close else ""


def reading_order(name: str) -> tuple:
    """A sort key putting names as a reader looks them up: letters without case, numbers by value
    ("Relic 2" before "Relic 10")."""
    return tuple((0, *digits_order(part)) if part.isdecimal() else (1, 0, part) for part in re.split(r"(\d+)", name.casefold()))


def did_you_mean(word: str, choices) -> str:
    """``; did you mean 'swipe'?`` for a close choice, else ""."""
    return hint(closest(word, choices))


class InvalidGame(Exception):
    """Raised when a game folder has errors; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = sorted(set(problems))
