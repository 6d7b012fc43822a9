"""A workbook's sheet read straight from its XML, a row at a time: what card data needs of an .xlsx file.

openpyxl reads a cell in about 35 us, whole workbook or read-only: 7.4 s and 185 MB for a sheet of 20,000 cards
(8 columns). Card data needs only each cell's value and what kind of value it is (text, number, boolean, a
formula, an error, a date), the sheet's merged ranges, and the sheet names: read here with ElementTree's
streaming parser (rows cleared as they are read), the same sheet takes about a second. openpyxl stays the
writer (``deckwright schema``, the tests) and lends its number-format, date and formula helpers, imported when a
cell needs them: importing openpyxl takes a quarter of a second, most card sheets need none of them.

The archive's size has been checked by the caller; ElementTree resolves no external entity.
"""
from __future__ import annotations

import math
import posixpath
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple
from xml.etree.ElementTree import ParseError, XMLPullParser, fromstring, iterparse

from deckwright.rules.numbers import unsigned_number

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RELATIONSHIPS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
OFFICE_RELATIONSHIP = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
WORKSHEET_TYPE = "/worksheet"  # the end of a worksheet relationship's Type (a chartsheet's is /chartsheet)
_ROW, _CELL, _FORMULA, _VALUE, _MERGE_CELL = (MAIN + name for name in ("row", "c", "f", "v", "mergeCell"))
_CHUNK = 64 * 1024  # bytes of a sheet's XML parsed at a time
MAX_MERGED = 10_000  # merged ranges of one sheet: each is a problem to report, and a card sheet has none


class WorkbookError(Exception):
    """The archive is not a workbook this reader understands (a part missing, XML that does not parse)."""


# What reading a damaged or unusual archive raises: beside bad XML and missing parts, zipfile's RuntimeError for an
# encrypted part, NotImplementedError for a compression it lacks, and zlib's error for damaged compressed data.
_UNREADABLE = (ParseError, KeyError, ValueError, OSError, EOFError, RuntimeError, NotImplementedError, zlib.error,
               zipfile.BadZipFile)


def _unreadable(exc: Exception) -> str:
    if isinstance(exc, RuntimeError) and "encrypted" in str(exc):
        return "the workbook is protected by a password; save a copy without one"
    if isinstance(exc, (NotImplementedError, zlib.error, EOFError)):
        return f"the workbook is damaged or compressed in a way deckwright cannot read ({exc}); save it again"
    return str(exc)


class SheetCell(NamedTuple):
    """A named tuple, made four times faster than a frozen dataclass: a sheet of 100,000 cards has a million."""

    column: int  # 1 for column A
    value: str | int | float | bool | None
    kind: str  # "value", "formula" (value: its text), "error" (value: #DIV/0! ...), "date" (value: a datetime)


@dataclass(frozen=True)
class Sheet:
    name: str
    part: str  # the sheet's XML in the archive
    is_worksheet: bool  # False for a chart sheet


@dataclass(frozen=True)
class Workbook:
    archive: zipfile.ZipFile
    sheets: tuple[Sheet, ...]
    strings: tuple[str, ...]  # the shared strings
    cell_formats: tuple[int | str, ...]  # each cell style's (xf index's) number format: a built-in one's id, or its code
    date1904: bool  # day 0 is 1 January 1904 (else 30 December 1899)

    def read(self, sheet: Sheet) -> SheetRows:
        return SheetRows(self, sheet)


class SheetRows:
    """A sheet's rows, read as they are iterated: (row number, the row's cells that hold something) of every
    row its XML lists, in order. Once they are all read, ``merged`` holds the sheet's merged ranges (A1:B2), which
    the XML lists after the rows."""

    def __init__(self, workbook: Workbook, sheet: Sheet):
        self.workbook, self.sheet = workbook, sheet
        self.merged: list[str] = []
        self.shared_formulas: dict[str, tuple[str, str | None]] = {}  # its si -> a shared formula and its cell

    def __iter__(self) -> Iterator[tuple[int, list[SheetCell]]]:
        number = 0
        parser = XMLPullParser(("end",))  # as iterparse, without its generator around each event
        try:
            with self.workbook.archive.open(self.sheet.part) as xml:
                while True:
                    chunk = xml.read(_CHUNK)
                    if chunk:
                        parser.feed(chunk)
                    else:
                        parser.close()
                    for _, element in parser.read_events():
                        tag = element.tag
                        if tag == _ROW:
                            number = self._row_number(element.get("r"), number)
                            yield number, self._row_cells(element)
                            element.clear()
                        elif tag == _MERGE_CELL:
                            if len(self.merged) == MAX_MERGED:
                                raise ValueError(f"more than {MAX_MERGED:,} merged ranges; unmerge the cells")
                            self.merged.append(element.get("ref", ""))
                    if not chunk:
                        break
        except _UNREADABLE as exc:
            raise WorkbookError(f"sheet {self.sheet.name}: {_unreadable(exc)}") from None

    @staticmethod
    def _row_number(written: str | None, previous: int) -> int:
        """A row's number: as written, or the one after ``previous``; rows come in order, from 1."""
        number = previous + 1 if written is None else int(written)
        if number <= previous:
            raise ValueError(f"row {number} comes after row {previous} (the rows of a sheet count up from 1); "
                             "the file is damaged: save it again from the spreadsheet program")
        return number

    def _row_cells(self, row) -> list[SheetCell]:
        cells = []
        column = 0
        for element in row:
            if element.tag != _CELL:
                continue
            reference = element.get("r")
            column = _column_number(reference.rstrip("0123456789")) if reference else column + 1
            cell = self._cell(element, column, reference)
            if cell is not None:
                cells.append(cell)
        return cells

    def _cell(self, element, column: int, reference: str | None) -> SheetCell | None:
        """As openpyxl's reader reads it (worksheet/_reader.py, 3.1): the same values, the same kinds."""
        formula = element.find(_FORMULA)
        if formula is not None:
            return SheetCell(column, self._formula(formula, reference), "formula")
        kind = element.get("t", "n")
        if kind == "inlineStr":
            inline = element.find(MAIN + "is")
            return SheetCell(column, _text_of(inline), "value") if inline is not None else None
        text = element.findtext(_VALUE) or None
        if text is None:
            return None
        if kind == "s":
            index = unsigned_number(text)
            if index is None or index >= len(self.workbook.strings):
                raise ValueError(f"a cell names shared string {text[:20]!r}, which the workbook does not hold")
            return SheetCell(column, self.workbook.strings[index], "value")
        if kind == "str":
            return SheetCell(column, text, "value")
        if kind == "b":
            return SheetCell(column, bool(int(text)), "value")
        if kind == "e":
            return SheetCell(column, text, "error")
        if kind == "d":
            from openpyxl.utils.datetime import from_ISO8601

            return SheetCell(column, from_ISO8601(text), "date")
        number = float(text) if "." in text or "E" in text or "e" in text else int(text)
        if isinstance(number, float) and not math.isfinite(number):  # 1E400: beyond what a spreadsheet holds
            return SheetCell(column, "#NUM!", "error")
        style = int(element.get("s") or 0)
        formats = self.workbook.cell_formats
        shown_as = _time_kind(formats[style]) if 0 <= style < len(formats) else ""
        if shown_as:
            from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH, from_excel

            epoch = MAC_EPOCH if self.workbook.date1904 else WINDOWS_EPOCH
            try:
                return SheetCell(column, from_excel(number, epoch, timedelta=shown_as == "duration"), "date")
            except (OverflowError, ValueError):  # a serial number no date has
                return SheetCell(column, "#VALUE!", "error")
        return SheetCell(column, number, "value")

    def _formula(self, formula, reference: str | None) -> str:
        """A formula's text; a cell sharing the formula of a cell above or beside (``<f t="shared" si="0"/>``)
        gets it translated to its own place, as a spreadsheet program shows it."""
        text = "=" + (formula.text or "")
        if formula.get("t") != "shared":
            return text
        from openpyxl.formula.tokenizer import TokenizerError
        from openpyxl.formula.translate import Translator, TranslatorError

        if formula.text:
            self.shared_formulas[formula.get("si", "")] = (text, reference)
            return text
        master = self.shared_formulas.get(formula.get("si", ""))
        if master is None or not master[1] or not reference:
            return text
        try:
            return Translator(master[0], origin=master[1]).translate_formula(reference)
        except (TokenizerError, TranslatorError, ValueError):  # a master formula no spreadsheet program wrote
            return text


def open_workbook(archive: zipfile.ZipFile) -> Workbook:
    """The workbook in ``archive``: its sheets, shared strings, cell styles' number formats and epoch."""
    try:
        main = _office_document(archive)
        book = _xml(archive, main)
        targets = _relationships(archive, main)
        sheets = []
        for element in book.iter(MAIN + "sheet"):
            target, kind = targets.get(element.get(OFFICE_RELATIONSHIP, ""), ("", ""))
            sheets.append(Sheet(element.get("name", ""), target, kind.endswith(WORKSHEET_TYPE)))
        properties = book.find(MAIN + "workbookPr")
        date1904 = properties is not None and properties.get("date1904", "0").lower() in ("1", "true")
        parts = {kind.rsplit("/", 1)[-1]: target for target, kind in targets.values()}
        strings = _shared_strings(archive, parts.get("sharedStrings"))
        cell_formats = _cell_formats(archive, parts.get("styles"))
    except _UNREADABLE as exc:
        raise WorkbookError(_unreadable(exc)) from None
    return Workbook(archive, tuple(sheets), strings, cell_formats, date1904)


def _xml(archive: zipfile.ZipFile, part: str):
    return fromstring(archive.read(part))


def _office_document(archive: zipfile.ZipFile) -> str:
    """The workbook part's name, from the package's relationships (xl/workbook.xml as Excel saves it)."""
    for relationship in _xml(archive, "_rels/.rels").iter(RELATIONSHIPS + "Relationship"):
        if relationship.get("Type", "").endswith("/officeDocument"):
            return relationship.get("Target", "").lstrip("/")
    raise WorkbookError("no workbook in the archive")


def _relationships(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """The part's relationships: id -> (the target part's name in the archive, the relationship's type)."""
    folder, name = posixpath.split(part)
    found = {}
    for relationship in _xml(archive, posixpath.join(folder, "_rels", name + ".rels")).iter(
            RELATIONSHIPS + "Relationship"):
        target = relationship.get("Target", "")
        target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        found[relationship.get("Id", "")] = (target, relationship.get("Type", ""))
    return found


def _text_of(element) -> str:
    """A string item's text: its own <t>, or its runs' (<r><t>), leaving out phonetic guides (<rPh>)."""
    own = element.find(MAIN + "t")
    if own is not None:
        return own.text or ""
    return "".join(run.findtext(MAIN + "t") or "" for run in element.iter(MAIN + "r"))


def _shared_strings(archive: zipfile.ZipFile, part: str | None) -> tuple[str, ...]:
    if part is None:
        return ()
    strings = []
    with archive.open(part) as xml:
        for _, element in iterparse(xml):
            if element.tag == MAIN + "si":
                strings.append(_text_of(element).replace("x005F_", ""))  # as openpyxl: _x005F_ escapes an _
                element.clear()
    return tuple(strings)


def _cell_formats(archive: zipfile.ZipFile, part: str | None) -> tuple[int | str, ...]:
    """Each cell style's number format: a built-in format's id, or the code of one the workbook defines."""
    if part is None:
        return ()
    styles = _xml(archive, part)
    custom = {int(number_format.get("numFmtId", -1)): number_format.get("formatCode", "")
              for number_format in styles.iter(MAIN + "numFmt")}
    cell_formats = styles.find(MAIN + "cellXfs")
    ids = [int(xf.get("numFmtId", 0)) for xf in cell_formats.iter(MAIN + "xf")] if cell_formats is not None else []
    return tuple(custom.get(number_format, number_format) for number_format in ids)


@cache
def _time_kind(number_format: int | str) -> str:
    """"date" when a number shown in this format shows a date or a time, "duration" for a duration ([h]:mm),
    "" for a plain number, as openpyxl tells them. openpyxl (a quarter of a second to import) is imported for
    the first number in a format other than General, not for every workbook."""
    if number_format == 0:
        return ""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

    code = BUILTIN_FORMATS.get(number_format, "") if isinstance(number_format, int) else number_format
    if not is_date_format(code):
        return ""
    return "duration" if is_timedelta_format(code) else "date"


@cache
def _column_number(letters: str) -> int:
    """1 for A, 28 for AB: a sheet has few columns, and every cell names one."""
    if not (letters.isascii() and letters.isalpha() and len(letters) <= 3):
        raise ValueError(f"{letters or 'a cell reference'} is not a column")
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number
