"""The "Odds" page of a game's site: the exact chance tables its rules module's ``odds(rules)`` returns.

Probabilities are shown as percentages (``rules.engine.odds.percent_text``), with the exact fraction on
hover; a value the source leaves open reads "open" with its note, and a row open throughout is one cell.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from deckwright.rules.data.model import Game
from deckwright.rules.engine.odds import OddsTable, cell_text, is_probability
from deckwright.rules.engine.openvalues import Open

PROSE = 24  # characters: a longer text cell is set as prose, left-aligned and wrapped


@dataclass(frozen=True)
class OddsCell:
    text: str
    exact: str = ""  # a probability's exact fraction, shown on hover
    open_note: str = ""  # why the source leaves the value open
    kind: str = "text"  # chance, open, number, text (a word or two) or prose (longer, wrapped and left-aligned)
    chance: str = ""  # a probability from 0 to 1 for the cell's shading, as CSS reads it
    span: int = 1


@dataclass(frozen=True)
class OddsRow:
    label: str
    cells: tuple[OddsCell, ...]


@dataclass(frozen=True)
class OddsTableView:
    name: str
    anchor: str
    caption: str
    corner: str
    columns: tuple[str, ...]
    numeric: tuple[bool, ...]  # per column: numbers, right-aligned
    rows: tuple[OddsRow, ...]


@dataclass(frozen=True)
class OddsPage:
    tables: tuple[OddsTableView, ...]
    problem: str = ""  # why the rules could not give their odds (an open value they need, a broken module)


def _cell(value: Any) -> OddsCell:
    if isinstance(value, Open):
        return OddsCell("open", open_note=value.note, kind="open")
    if is_probability(value):
        exact = f"{value.numerator} in {value.denominator}" if 0 < value < 1 else ""
        return OddsCell(cell_text(value), exact, kind="chance", chance=f"{float(value):.4f}")
    if isinstance(value, int) and not isinstance(value, bool):
        return OddsCell(str(value), kind="number")
    return OddsCell(cell_text(value))


def _row(label: str, values: tuple) -> OddsRow:
    first = values[0] if values else None
    if isinstance(first, Open) and len(values) > 1 and all(v == first for v in values):
        return OddsRow(label, (OddsCell(f"open: {first.note}", open_note=first.note, kind="open", span=len(values)),))
    return OddsRow(label, tuple(_cell(v) for v in values))


def anchor(name: str) -> str:
    return "odds-" + (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "table")


def table_view(name: str, table: OddsTable) -> OddsTableView:
    rows = tuple(_row(row.label, row.cells) for row in table.rows)
    # A column holding any longer text is set as prose throughout: left-aligned and wrapped.
    prose = {i for row in rows if len(row.cells) == len(table.columns)
             for i, cell in enumerate(row.cells) if cell.kind == "text" and len(cell.text) > PROSE}
    rows = tuple(OddsRow(row.label, tuple(replace(cell, kind="prose") if i in prose and cell.kind == "text" else cell
                                          for i, cell in enumerate(row.cells))) for row in rows)
    numeric = tuple(all(isinstance(row.cells[i], (int, Open)) or is_probability(row.cells[i]) for row in table.rows)
                    for i in range(len(table.columns)))
    columns = tuple(column.replace("+", "+\u200b") for column in table.columns)  # D20+D20+D6 may wrap after a +
    return OddsTableView(name, anchor(name), table.caption, table.corner, columns, numeric, rows)


def odds_page(game: Game) -> OddsPage | None:
    """The game's odds page, or None when its rules module has no ``odds``."""
    if not game.mechanics:
        return None
    from deckwright.rules.games import rules_module

    module = rules_module(game)
    hook = getattr(module, "odds", None)
    if hook is None:
        return None
    from deckwright.rules.engine.timelimit import time_limit

    try:
        with time_limit():
            tables = hook(module.prepare(game))
    except Exception as exc:  # the rules module's own error (an open value it needs, a bug, a loop), on the page
        return OddsPage((), f"{type(exc).__name__}: {exc}")
    return OddsPage(tuple(table_view(name, table) for name, table in tables.items()))
