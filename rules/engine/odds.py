"""Exact odds: a small distribution type, and the tables a rules module's ``odds(rules)`` returns.

Everything here is exact: probabilities are Fractions, worked out by enumerating
outcomes (dice faces through ``Dice.distribution``, hands through combinations of
a deck's composition), never by sampling.

A table holds values, not text: a cell is a probability (a Fraction from 0 to 1),
a whole number, a word, or an ``Open`` value the source leaves open. The site and
the layouts format them (``percent_text``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Callable, Hashable, Iterable, Mapping

from .dice import Dice
from .openvalues import Open

ONE = Fraction(1)
ZERO = Fraction(0)


@dataclass(frozen=True)
class Distribution:
    """Outcomes and their exact chances (Fractions adding up to 1), outcomes in sorted order."""

    chances: tuple[tuple[Any, Fraction], ...]

    @classmethod
    def of(cls, chances: Mapping[Any, Fraction]) -> "Distribution":
        merged = {outcome: Fraction(p) for outcome, p in chances.items() if p}
        return cls(tuple(sorted(merged.items(), key=lambda item: _order(item[0]))))

    @classmethod
    def certain(cls, outcome: Any) -> "Distribution":
        return cls(((outcome, ONE),))

    @classmethod
    def uniform(cls, outcomes: Iterable[Any]) -> "Distribution":
        """Each of ``outcomes`` equally likely; repeats count as more ways (a deck's copies)."""
        outcomes = list(outcomes)
        counts: dict[Any, int] = {}
        for outcome in outcomes:
            counts[outcome] = counts.get(outcome, 0) + 1
        return cls.of({outcome: Fraction(n, len(outcomes)) for outcome, n in counts.items()})

    @classmethod
    def of_dice(cls, dice: Dice, rounding: str = "down") -> "Distribution":
        return cls.of(dice.distribution(rounding))

    def map(self, function: Callable[[Any], Any]) -> "Distribution":
        out: dict[Any, Fraction] = {}
        for outcome, p in self.chances:
            key = function(outcome)
            out[key] = out.get(key, ZERO) + p
        return Distribution.of(out)

    def combine(self, other: "Distribution", function: Callable[[Any, Any], Any]) -> "Distribution":
        """The distribution of ``function(a, b)`` for ``a`` from this one and ``b`` from ``other``, independent."""
        out: dict[Any, Fraction] = {}
        for a, p in self.chances:
            for b, q in other.chances:
                key = function(a, b)
                out[key] = out.get(key, ZERO) + p * q
        return Distribution.of(out)

    def chance(self, predicate: Callable[[Any], bool]) -> Fraction:
        return sum((p for outcome, p in self.chances if predicate(outcome)), ZERO)

    def at_least(self, target) -> Fraction:
        return self.chance(lambda outcome: outcome >= target)

    def __getitem__(self, outcome) -> Fraction:
        return dict(self.chances).get(outcome, ZERO)

    def outcomes(self) -> list:
        return [outcome for outcome, _ in self.chances]


def _order(outcome: Any) -> tuple:
    return (0, outcome) if isinstance(outcome, (int, Fraction)) and not isinstance(outcome, bool) else (1, repr(outcome))


def hands(deck: Mapping[Hashable, int], size: int, fold: Callable[[Any, Hashable, int], Any],
          start: Any) -> Distribution:
    """What a hand of ``size`` cards drawn from ``deck`` (card kind -> copies) scores, exactly.

    ``fold(score, kind, k)`` adds ``k`` cards of ``kind`` to a score (``start`` for no cards); every way of
    taking k_i copies of each kind is weighed by the product of C(copies_i, k_i) over C(deck, size)."""
    ways: dict[tuple[int, Any], int] = {(0, start): 1}
    for kind, copies in deck.items():
        step: dict[tuple[int, Any], int] = {}
        for (taken, score), count in ways.items():
            for k in range(min(copies, size - taken) + 1):
                key = (taken + k, fold(score, kind, k))
                step[key] = step.get(key, 0) + count * comb(copies, k)
        ways = step
    total = comb(sum(deck.values()), size)
    if total == 0:
        raise ValueError(f"a hand of {size} cannot be drawn from {sum(deck.values())} cards")
    out: dict[Any, Fraction] = {}
    for (taken, score), count in ways.items():
        if taken == size:
            out[score] = out.get(score, ZERO) + Fraction(count, total)
    return Distribution.of(out)


# -- tables ------------------------------------------------------------------------------

Cell = Any  # Fraction (a probability), int, str (a word), or Open (the source leaves it open)


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class OddsTable:
    """One table of exact chances: a row per case, a column per case; ``odds(rules)`` names each one."""

    caption: str  # what the numbers are and how they come about, in the rulebook's words
    corner: str  # the heading over the row labels
    columns: tuple[str, ...]
    rows: tuple[Row, ...]

    def __post_init__(self):
        for row in self.rows:
            if len(row.cells) != len(self.columns):
                raise ValueError(f"row {row.label!r} has {len(row.cells)} cells for {len(self.columns)} columns")

    def cell(self, row_label: str, column: str) -> Cell:
        row = next(r for r in self.rows if r.label == row_label)
        return row.cells[self.columns.index(column)]


def is_probability(cell: Cell) -> bool:
    return isinstance(cell, Fraction)


def tables_problems(tables: Any) -> list[str]:
    """What is wrong with what ``odds(rules)`` returned: it must be a mapping of names to OddsTables whose chances
    lie between 0 and 1, exactly (a float is no exact chance). Each problem starts ``odds(rules)``."""
    if not isinstance(tables, Mapping):
        return [f"odds(rules) returned a {type(tables).__name__}, not a mapping of names to OddsTables"]
    problems = []
    for name, table in tables.items():
        if not isinstance(name, str) or not isinstance(table, OddsTable):
            problems.append(f"odds(rules)[{name!r}] is a {type(table).__name__}, not an OddsTable")
            continue
        for row in table.rows:
            bad = [c for c in row.cells if isinstance(c, (float, Fraction)) and not (isinstance(c, Fraction) and 0 <= c <= 1)]
            if bad:
                problems.append(f"odds(rules)[{name!r}], row {row.label!r}: {bad[0]!r} is not an exact chance "
                                f"(a Fraction from 0 to 1)")
    return problems


def percent_text(p: Fraction) -> str:
    """A probability as a percentage with one decimal, never rounded to a certainty it is not:
    ``0%`` and ``100%`` only when exact, ``<0.1%`` and ``>99.9%`` near them."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    tenths = round(p * 1000)
    if tenths == 0:
        return "<0.1%"
    if tenths == 1000:
        return ">99.9%"
    return f"{tenths / 10:.1f}%".replace(".0%", "%")


def cell_text(cell: Cell) -> str:
    if isinstance(cell, Open):
        return "open"
    if is_probability(cell):
        return percent_text(cell)
    return str(cell)


def plain_table(table: OddsTable) -> dict:
    """A table as plain values for templates and layouts: each cell its text, and a probability's exact
    value (``chance`` as a float, ``ways`` in ``outcomes`` with the smallest whole numbers)."""
    def plain_cell(cell: Cell) -> dict:
        out = {"text": cell_text(cell), "open": cell.note if isinstance(cell, Open) else ""}
        if is_probability(cell):
            out.update(chance=float(cell), ways=cell.numerator, outcomes=cell.denominator)
        return out

    rows = [{"label": row.label, "cells": [plain_cell(c) for c in row.cells]} for row in table.rows]
    return {"caption": table.caption, "corner": table.corner, "columns": list(table.columns), "rows": rows,
            # a cell by its row's and column's labels: at['Power 5']['Plate']
            "at": {row["label"]: dict(zip(table.columns, row["cells"])) for row in rows}}
