"""Spreadsheets read into located tables: CSV, TSV and Excel workbooks (.xlsx).

A table is a header row naming the columns and one row per card; every cell
keeps its place, named the way a spreadsheet names it: ``monsters.csv:14:power``
(row 14, column ``power``; rows count as a spreadsheet counts them, the header
being row 1, also when a quoted cell spans several lines) and
``cards.xlsx:Monsters!C14`` (sheet and cell). What the cells mean is
``rules.data.cells``' job; this module only reads them, reporting what a
spreadsheet program would hide: an unclosed quote, a delimiter that does not
split the header, UTF-16 or non-UTF-8 text, and in a workbook formulas, dates,
error values and merged cells.

CSV is read by a small parser of its own rather than the ``csv`` module, whose
errors carry no position.
"""
from __future__ import annotations

import bisect
import io
import re
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, NamedTuple

from deckwright.rules.problems import Loc, Problem

from .confine import MAX_CARD_FILE_BYTES, FileRefused, read_confined
from .yamlsrc import read_text
from .ynode import MAX_VALUES

if TYPE_CHECKING:  # imported when a workbook is read: a CSV-only game loads without openpyxl
    from .xlsx import Sheet, SheetCell, Workbook

EXTENSIONS = (".csv", ".tsv", ".xlsx")
DELIMITERS = {",": ",", ";": ";", "|": "|", "tab": "\t"}  # as declared -> the character
_SNIFFED = (",", ";", "\t", "|")
_DELIMITER_NAMES = {",": "','", ";": "';'", "\t": "tabs", "|": "'|'"}
MAX_WORKBOOK_UNPACKED = 64 * 1024 * 1024  # a zip bomb stops here
MAX_ROWS = 100_000
# Column XFD, the last a spreadsheet program makes. A row of commas, or of cells without a reference, could
# otherwise make a column apiece: a 4 MB file of commas made 4 million and filled 1.5 GB.
MAX_COLUMNS = 16_384


class Cell(NamedTuple):
    """A named tuple, made four times faster than a frozen dataclass: a file of 100,000 cards has a million."""

    value: str | int | float | bool  # text from a CSV file; a workbook's numbers and booleans keep their type
    loc: Loc


@dataclass(frozen=True)
class Column:
    name: str  # "" for a header cell left empty
    loc: Loc  # the header cell


@dataclass(frozen=True)
class Row:
    loc: Loc  # the whole row
    cells: tuple[tuple[int, Cell], ...]  # (column index, cell) of every cell that is not empty


@dataclass(frozen=True)
class Table:
    file: str  # as shown in messages
    header: Loc  # the header row
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    short_rows: tuple[tuple[Loc, int], ...] = ()  # (row, its cells) of each CSV row of fewer cells than columns


class _Stop(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem


def read_table(path: Path, shown: str, root: Path, sheet: str | None = None, delimiter: str | None = None,
               declared_at: Loc | None = None) -> tuple[Table | None, list[Problem]]:
    """The table in a CSV, TSV or XLSX file inside the game folder ``root`` (read through rules.data.confine);
    ``sheet`` picks a workbook's sheet, ``delimiter`` (a key of DELIMITERS) overrides the one sniffed from a CSV
    file's header. Problems in the declaration itself (an unknown sheet) are reported at ``declared_at``."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".xlsx":
            return _read_workbook(path, shown, root, sheet, declared_at or Loc(shown))
        return _read_delimited(path, shown, root, DELIMITERS.get(delimiter or "", None), suffix == ".tsv")
    except _Stop as stop:
        return None, [stop.problem]


# -- CSV and TSV ---------------------------------------------------------------


class _CsvError(Exception):
    def __init__(self, row: int, col: int, message: str):  # row and col count from 0
        self.row, self.col, self.message = row, col, message


def _column_label(columns: tuple[Column, ...], index: int) -> str:
    """A column's header name, or its number when the header leaves it unnamed (the place then reads
    ``row:column`` as any other file's ``line:col``)."""
    name = columns[index].name if index < len(columns) else ""
    return name or str(index + 1)


def _csv_loc(shown: str, row: int, index: int, columns: tuple[Column, ...]) -> Loc:
    """Row ``row`` (from 1), column ``index`` (from 0), named by its header cell."""
    return Loc(shown, row, index + 1, f"{row}:{_column_label(columns, index)}")


def _header(shown: str, cells: list[str]) -> tuple[Column, ...]:
    names = [text.strip() for text in cells]
    return tuple(Column(name, Loc(shown, 1, i + 1, f"1:{name or i + 1}")) for i, name in enumerate(names))


def _records(text: str, delimiter: str, records: list[list[str]]) -> None:
    """RFC 4180 records into ``records``: quoted cells may hold the delimiter, newlines and doubled quotes.
    Raises _CsvError at the cell that cannot be read."""
    unquoted = re.compile(f"[^{re.escape(delimiter)}\r\n]*")
    record: list[str] = []
    i, n = 0, len(text)
    left = MAX_VALUES  # cells still to read
    while True:
        if i < n and text[i] == '"':
            parts, j = [], i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    raise _CsvError(len(records), len(record), 'this quoted cell is never closed; add the closing "')
                parts.append(text[j:k])
                if text.startswith('"', k + 1):
                    parts.append('"')
                    j = k + 2
                    continue
                break
            value, i = "".join(parts).replace("\r\n", "\n"), k + 1
            if i < n and text[i] not in (delimiter, "\r", "\n"):
                raise _CsvError(len(records), len(record), 'text after the closing quote of a quoted cell; inside '
                                                           'quotes, write a quote as two ("")')
        else:
            end = unquoted.match(text, i).end()
            value, i = text[i:end], end
        record.append(value)
        left -= 1
        if left < 0:
            raise _CsvError(len(records), len(record) - 1, _too_many_cells())
        if len(record) > MAX_COLUMNS:
            raise _CsvError(len(records), len(record) - 1, f"more than {MAX_COLUMNS:,} cells in one row; a card "
                                                           f"sheet needs a few dozen columns")
        if i >= n:
            records.append(record)
            return
        if text[i] == delimiter:
            i += 1
            continue
        i += 2 if text.startswith("\r\n", i) else 1
        records.append(record)
        record = []
        if i >= n:
            return


def _split_count(text: str, delimiter: str) -> int:
    """How many columns the first line of ``text`` has with this delimiter (quotes respected)."""
    count, quoted = 1, False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "\r\n":
            break
        elif not quoted and ch == delimiter:
            count += 1
    return count


def _sniff(text: str) -> str:
    """The delimiter that splits the header into the most columns (a comma when none splits it)."""
    best = max(_SNIFFED, key=lambda d: (_split_count(text, d), d == ","))
    return best if _split_count(text, best) > 1 else ","


def _read_delimited(path: Path, shown: str, root: Path, declared: str | None,
                    tsv: bool) -> tuple[Table | None, list[Problem]]:
    text, problems = read_text(path, shown, root, MAX_CARD_FILE_BYTES)
    if text is None:
        return None, [_save_as_utf8(p) for p in problems]
    if not text.strip():
        return None, [Problem(Loc(shown), "file is empty; expected a header row naming the columns (id, name, ...) "
                                          "and a row for each card")]
    delimiter = declared or ("\t" if tsv else _sniff(text))
    if _split_count(text, delimiter) == 1:
        other = _sniff(text)
        if _split_count(text, other) > 1 and other != delimiter:
            why = "delimiter: " + ("tab" if delimiter == "\t" else repr(delimiter)) if declared else "a .tsv file"
            fix = f"declare delimiter: {'tab' if other == chr(9) else repr(other)}" if declared or other != "," else \
                "rename it .csv"
            header = text.splitlines()[0]
            raise _Stop(Problem(Loc(shown, 1, 1),
                                f'the header reads as one column, "{_short(header)}": this file separates its columns '
                                f"with {_DELIMITER_NAMES[other]}, not {_DELIMITER_NAMES[delimiter]} ({why}); {fix}"))
    records: list[list[str]] = []
    try:
        _records(text, delimiter, records)
    except _CsvError as exc:
        columns = _header(shown, records[0]) if records and exc.row > 0 else ()
        raise _Stop(Problem(_csv_loc(shown, exc.row + 1, exc.col, columns), exc.message)) from None
    columns = _header(shown, records[0])
    labels = [_column_label(columns, index) for index in range(len(columns))]
    rows, problems, short_rows = [], [], []
    for number, record in enumerate(records[1:], start=2):
        if number > MAX_ROWS + 1:
            raise _Stop(Problem(Loc(shown, number, 0, str(number)), f"more than {MAX_ROWS} rows; split the cards "
                                                                     "into several files"))
        cells = []
        for index, text in enumerate(record):
            if not text.strip():
                continue
            if index >= len(columns):
                problems.append(Problem(_csv_loc(shown, number, index, columns),
                                        f"row {number} has {len(record)} cells but the header names {len(columns)} "
                                        f"columns; is a {_DELIMITER_NAMES[delimiter].strip(chr(39))} inside a cell "
                                        "not quoted?"))
                break
            cells.append((index, Cell(text, Loc(shown, number, index + 1, f"{number}:{labels[index]}"))))
        rows.append(Row(Loc(shown, number, 0, str(number)), tuple(cells)))
        if len(record) < len(columns):  # no problem by itself (its last cells are empty), but see short_row_hints
            short_rows.append((rows[-1].loc, len(record)))
    return Table(shown, Loc(shown, 1, 0, "1"), columns, tuple(rows), tuple(short_rows)), problems


def short_row_hints(table: Table, problems: Iterable[Problem]) -> list[Problem]:
    """For each short row that has an error in it, why its values may be in the wrong columns."""
    wrong = {(problem.loc.file, problem.loc.line) for problem in problems if problem.severity == "error"}
    return [Problem(row, f"row {row.line} has {cells} cells but the header names {len(table.columns)} columns: with "
                         "a cell left out, the cells after it are read one column to the left (an empty cell is "
                         "nothing between two separators)", "warning")
            for row, cells in table.short_rows if (row.file, row.line) in wrong]


def _too_many_cells() -> str:
    return (f"the sheet holds more than {MAX_VALUES:,} cells; deckwright reads at most that many from one sheet, as "
            "from one YAML file: split the cards into several sheets")


def _save_as_utf8(problem: Problem) -> Problem:
    if "UTF-8" in problem.message and "save it as UTF-8" in problem.message:
        return Problem(problem.loc, problem.message + ' (in a spreadsheet program: save as "CSV UTF-8")')
    return problem


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


# -- workbooks -------------------------------------------------------------------


@cache
def _letters(index: int) -> str:
    """Column letters of a 1-based column number: 1 -> A, 28 -> AB."""
    out = ""
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def _sheet_ref(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name) else "'" + name.replace("'", "''") + "'"


def _workbook_bytes(path: Path, shown: str, root: Path) -> io.BytesIO:
    """The workbook's bytes, read through the confinement gate (a regular file inside the game folder)."""
    try:
        return io.BytesIO(read_confined(root, path, MAX_CARD_FILE_BYTES))
    except FileRefused as exc:
        raise _Stop(Problem(Loc(shown), exc.message)) from None


def _check_archive(data: io.BytesIO, shown: str) -> None:
    """Refuse what is not a workbook, or would unpack into far more than card data needs."""
    try:
        with zipfile.ZipFile(data) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise _Stop(Problem(Loc(shown), "not an Excel workbook (.xlsx); save it from the spreadsheet program as "
                                        "\"Excel Workbook (.xlsx)\", or as CSV")) from None
    except OSError as exc:
        raise _Stop(Problem(Loc(shown), f"cannot read file: {exc.strerror or exc}")) from None
    if unpacked > MAX_WORKBOOK_UNPACKED:
        raise _Stop(Problem(Loc(shown), f"this workbook unpacks to {unpacked / 2**20:.0f} MB; deckwright reads "
                                        f"workbooks of at most {MAX_WORKBOOK_UNPACKED // 2**20} MB unpacked"))


def _open_workbook(path: Path, shown: str, root: Path) -> Workbook:
    from .xlsx import WorkbookError, open_workbook

    data = _workbook_bytes(path, shown, root)
    _check_archive(data, shown)
    data.seek(0)
    try:
        return open_workbook(zipfile.ZipFile(data))
    except WorkbookError as exc:
        raise _Stop(_unreadable(shown, exc)) from None


def _merged_ranges(texts: list[str]) -> list | None:
    """A sheet's merged ranges (openpyxl CellRanges) by their top-left cell; None when one names no range."""
    if not texts:
        return []
    from openpyxl.worksheet.cell_range import CellRange  # openpyxl imported only when it is needed

    try:
        return sorted((CellRange(text) for text in texts), key=lambda span: (span.min_row, span.min_col))
    except (TypeError, ValueError):  # "zz", an empty ref, a row past the last one
        return None


def _covered(spans: list[tuple[int, int]]):
    """Whether a row number lies in one of the (first, last) row spans: a search of the spans joined, so that a
    merge of a million rows costs no more than one of two."""
    joined: list[list[int]] = []
    for first, last in sorted(spans):
        if joined and first <= joined[-1][1] + 1:
            joined[-1][1] = max(joined[-1][1], last)
        else:
            joined.append([first, last])
    starts = [first for first, _ in joined]

    def covered(row: int) -> bool:
        at = bisect.bisect_right(starts, row) - 1
        return at >= 0 and row <= joined[at][1]
    return covered


def _unreadable(shown: str, exc: Exception) -> Problem:
    return Problem(Loc(shown), f"cannot read this workbook ({exc}); open it in the spreadsheet program and save it "
                               "again as .xlsx")


def _pick_sheet(workbook: Workbook, shown: str, sheet: str | None, declared_at: Loc) -> Sheet:
    from .schema import did_you_mean

    names = [each.name for each in workbook.sheets]
    worksheets = [each for each in workbook.sheets if each.is_worksheet]
    if sheet is None:
        if len(worksheets) == 1:
            return worksheets[0]
        raise _Stop(Problem(declared_at, f"{shown} has {len(names)} sheets ({', '.join(names)}); say which one holds "
                                         f"the cards with sheet:"))
    chosen = next((each for each in workbook.sheets if each.name == sheet), None)
    if chosen is None:
        raise _Stop(Problem(declared_at, f"no sheet '{sheet}' in {shown}{did_you_mean(sheet, names)} "
                                         f"(sheets: {', '.join(names)})"))
    if not chosen.is_worksheet:
        raise _Stop(Problem(declared_at, f"sheet '{sheet}' in {shown} is a chart, not a sheet of cells"))
    return chosen


def _workbook_value(cell: SheetCell, loc: Loc) -> tuple[str | int | float | bool | None, Problem | None]:
    """A cell's value, or the problem that keeps deckwright from reading it as card data."""
    value = cell.value
    if cell.kind == "value":
        if value.__class__ is str:
            return (value.replace("\r\n", "\n") if "\r" in value else value), None
        if value.__class__ is float and value.is_integer():
            return int(value), None  # a spreadsheet has one kind of number: 4 and 4.0 are the same value
        return value, None
    if cell.kind == "formula":
        return None, Problem(loc, f"a formula ({_short(value)}); deckwright reads values, not formulas: copy the "
                                  "column and paste it back as values only")
    if cell.kind == "error":
        return None, Problem(loc, f"an error value ({value}); put the value itself in the cell")
    shown = value.date() if hasattr(value, "date") and not (value.hour or value.minute or value.second) else value
    return None, Problem(loc, f"a date ({shown}); the spreadsheet turned what was typed into a date (2-6 becomes "
                              "6 February): format the column as text and type the value again")


def _read_workbook(path: Path, shown: str, root: Path, sheet: str | None,
                   declared_at: Loc) -> tuple[Table | None, list[Problem]]:
    from .xlsx import WorkbookError

    workbook = _open_workbook(path, shown, root)
    chosen = _pick_sheet(workbook, shown, sheet, declared_at)
    ref = _sheet_ref(chosen.name)

    def loc(row: int, col: int) -> Loc:
        return Loc(shown, row, col, f"{ref}!{_letters(col)}{row}")

    named: dict[int, str] = {}  # column -> what names its cells before the row number: "Monsters!C"

    problems: list[Problem] = []
    broken: set[int] = set()  # rows holding a cell that cannot be read: left out, so nothing else is blamed on it
    header: list[SheetCell] | None = None
    rows: list[Row] = []
    widest = kept = 0
    sheet_rows = workbook.read(chosen)
    try:
        for number, cells_in in sheet_rows:
            if number > MAX_ROWS + 1:
                raise _Stop(Problem(loc(MAX_ROWS + 2, 1), f"more than {MAX_ROWS} rows; split the cards into several "
                                                          f"sheets"))
            # a program writes a row's cells in column order; a cell without a reference, among cells with one,
            # may come before a cell left of it
            widest = max(widest, max(cell.column for cell in cells_in)) if cells_in else widest
            if widest > MAX_COLUMNS:
                raise _Stop(Problem(loc(number, MAX_COLUMNS + 1), f"a cell past column XFD, the last of "
                                                                  f"{MAX_COLUMNS:,}; a card sheet needs a few dozen"))
            if header is None:
                if number != 1 or not cells_in:
                    break
                header = cells_in
                continue
            kept += len(cells_in)
            if kept > MAX_VALUES:
                raise _Stop(Problem(loc(number, 1), _too_many_cells()))
            cells = []
            row_name = str(number)
            for cell in cells_in:  # a sheet of 20,000 cards has 150,000 cells: loc() and its f-string unrolled
                column = cell.column
                where = Loc(shown, number, column,
                            (named.get(column) or named.setdefault(column, f"{ref}!{_letters(column)}")) + row_name)
                value, problem = _workbook_value(cell, where)
                if problem:
                    problems.append(problem)
                    broken.add(number)
                elif value is not None and not (value.__class__ is str and (not value or value.isspace())):
                    cells.append((column - 1, Cell(value, where)))
            rows.append(Row(Loc(shown, number, 0, f"{ref}!{number}:{number}"), tuple(cells)))
    except WorkbookError as exc:
        raise _Stop(_unreadable(shown, exc)) from None
    if header is None:
        raise _Stop(Problem(loc(1, 1), "the sheet has no header row; put the column names (id, name, ...) in row 1"))
    merged = _merged_ranges(sheet_rows.merged)
    if merged is None:
        raise _Stop(Problem(loc(1, 1), "the sheet's list of merged cells names something that is no range of "
                                       "cells; open and save the file in a spreadsheet program"))
    merged_problems = [Problem(loc(span.min_row, span.min_col),
                               f"merged cells ({span.coord}); unmerge them and fill in each cell") for span in merged]
    in_merged = _covered([(span.min_row, span.max_row) for span in merged])
    names = {cell.column: cell for cell in header}
    columns = []
    for column in range(1, widest + 1):
        value, problem = _workbook_value(names[column], loc(1, column)) if column in names else (None, None)
        if problem:
            problems.append(problem)
        columns.append(Column(str(value).strip() if value is not None else "", loc(1, column)))
    rows = [row for row in rows if row.loc.line not in broken and not in_merged(row.loc.line)]
    return Table(shown, Loc(shown, 1, 0, f"{ref}!1:1"), tuple(columns), tuple(rows)), merged_problems + problems
