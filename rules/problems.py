"""Problems a user can cause, each tied to a place in a file.

Everything that reads user files reports through these: one line per problem,
``file:line:col: message``, sorted by file and line.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Loc:
    """A place in a user's file; line and column count from 1."""

    file: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


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

    def __str__(self) -> str:
        prefix = "" if self.severity == "error" else f"{self.severity}: "
        return f"{self.loc}: {prefix}{self.message}"


@dataclass
class Problems:
    """Collects problems instead of stopping at the first one."""

    items: list[Problem] = field(default_factory=list)

    def error(self, loc: Loc, message: str) -> None:
        self.items.append(Problem(loc, message, "error"))

    def warning(self, loc: Loc, message: str) -> None:
        self.items.append(Problem(loc, message, "warning"))

    def extend(self, other: "Problems | list[Problem]") -> None:
        self.items.extend(other.items if isinstance(other, Problems) else other)

    @property
    def error_count(self) -> int:
        return sum(1 for p in self.items if p.severity == "error")

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


def hint(close: str | None) -> str:
    return f"; did you mean '{close}'?" if close else ""


def did_you_mean(word: str, choices) -> str:
    """``; did you mean 'swipe'?`` for a close choice, else ""."""
    return hint(closest(word, choices))


class InvalidGame(Exception):
    """Raised when a game folder has errors; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = sorted(set(problems))
