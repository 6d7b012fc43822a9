"""rules.data.xlsx, the streaming workbook reader, against openpyxl's own reading of the same workbooks."""
from __future__ import annotations

import datetime
import io
import zipfile

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference

from deckwright.rules.data.spreadsheets import read_table
from deckwright.rules.data.xlsx import WorkbookError, open_workbook
from deckwright.rules.problems import Loc


def _saved(book: openpyxl.Workbook) -> zipfile.ZipFile:
    data = io.BytesIO()
    book.save(data)
    data.seek(0)
    return zipfile.ZipFile(data)


def _openpyxl_cells(archive: zipfile.ZipFile, title: str) -> dict[str, tuple]:
    """Every cell that holds something, as openpyxl reads it: (value, kind) by coordinate."""
    archive.fp.seek(0)
    sheet = openpyxl.load_workbook(archive.fp, data_only=False)[title]
    cells = {}
    for row in sheet.iter_rows():
        for cell in row:
            if cell.value is None:
                continue
            kind = {"f": "formula", "e": "error"}.get(cell.data_type, "date" if cell.is_date else "value")
            cells[cell.coordinate] = (cell.value, kind)
    return cells


def _our_cells(archive: zipfile.ZipFile, title: str) -> tuple[dict[str, tuple], list[str]]:
    from openpyxl.utils.cell import get_column_letter

    workbook = open_workbook(archive)
    rows = workbook.read(next(sheet for sheet in workbook.sheets if sheet.name == title))
    cells = {f"{get_column_letter(cell.column)}{number}": (cell.value, cell.kind)
             for number, row in rows for cell in row}
    return cells, rows.merged


def test_every_kind_of_cell_reads_as_openpyxl_reads_it():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Monsters & Co"
    sheet.append(["id", "name", "power", "ratio", "fast", "born", "sum", "oops"])
    sheet.append(["bog-rat", "Bog Rat", 3, 0.25, True, datetime.datetime(2024, 2, 6), "=C2*2", "#DIV/0!"])
    sheet.append(["eel", "Lantern\r\nEel", -4, 1e21, False, datetime.datetime(2024, 2, 6, 13, 30), "=SUM(C2:C3)",
                  "#N/A"])
    sheet["C7"] = 12  # rows 4 to 6 missing from the XML: row numbers kept
    sheet["K7"] = "far right"
    sheet["B8"] = "_x0041_ kept as typed"
    sheet.merge_cells("D7:E8")
    book.create_sheet("Notes")["A1"] = "not cards"
    archive = _saved(book)
    ours, merged = _our_cells(archive, "Monsters & Co")
    theirs = _openpyxl_cells(archive, "Monsters & Co")
    assert ours == theirs
    assert ours["E2"] == (True, "value") and ours["C7"] == (12, "value") and ours["G3"] == ("=SUM(C2:C3)", "formula")
    assert ours["F2"] == (datetime.datetime(2024, 2, 6), "date") and ours["H3"] == ("#N/A", "error")
    assert merged == ["D7:E8"]
    assert [(sheet.name, sheet.is_worksheet) for sheet in open_workbook(archive).sheets] == \
        [("Monsters & Co", True), ("Notes", True)]


def test_a_chart_sheet_is_named_but_is_not_a_worksheet(tmp_path):
    book = openpyxl.Workbook()
    book.active.append(["id", "name"])
    chart = BarChart()
    chart.add_data(Reference(book.active, min_col=1, max_col=2, min_row=1))
    book.create_chartsheet("Chart").add_chart(chart)
    sheets = open_workbook(_saved(book)).sheets
    assert [(sheet.name, sheet.is_worksheet) for sheet in sheets] == [("Sheet", True), ("Chart", False)]
    book.save(tmp_path / "cards.xlsx")
    declared = Loc("heroes.yaml", 5, 8)
    table, problems = read_table(tmp_path / "cards.xlsx", "cards.xlsx", tmp_path, "Chart", declared_at=declared)
    assert table is None and [str(problem) for problem in problems] == \
        ["heroes.yaml:5:8: sheet 'Chart' in cards.xlsx is a chart, not a sheet of cells"]
    table, problems = read_table(tmp_path / "cards.xlsx", "cards.xlsx", tmp_path, declared_at=declared)
    assert problems == [] and [column.name for column in table.columns] == ["id", "name"]  # the one sheet of cells


def _rewritten(archive: zipfile.ZipFile, part: str, change) -> zipfile.ZipFile:
    """The archive with one part's XML text changed (``change(text)``; None drops the part)."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as rewritten:
        for name in archive.namelist():
            content = archive.read(name)
            if name == part:
                content = change(content.decode())
                if content is None:
                    continue
                content = content.encode()
            rewritten.writestr(name, content)
    data.seek(0)
    return zipfile.ZipFile(data)


def _first_sheet(archive: zipfile.ZipFile) -> list[list[tuple]]:
    workbook = open_workbook(archive)
    return [[(cell.value, cell.kind) for cell in row] for _, row in workbook.read(workbook.sheets[0])]


def test_inline_strings_and_a_1904_workbook():
    book = openpyxl.Workbook()
    book.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    book.active["A1"] = datetime.datetime(2024, 2, 6)
    # rich text in an inline string, as some writers save it
    archive = _rewritten(_saved(book), "xl/worksheets/sheet1.xml", lambda xml: xml.replace(
        "</row>", '<c r="B1" t="inlineStr"><is><r><t>Bog </t></r><r><t>Rat</t></r></is></c></row>', 1))
    assert _first_sheet(archive) == [[(datetime.datetime(2024, 2, 6), "date"), ("Bog Rat", "value")]]


def test_a_shared_formula_reads_as_the_spreadsheet_shows_it_in_each_cell():
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"] = 1, 2
    shared = ('<c r="B1"><f t="shared" ref="B1:B2" si="0">A1*2</f><v>2</v></c></row>',
              '<c r="B2"><f t="shared" si="0"/><v>4</v></c></row>')
    archive = _rewritten(_saved(book), "xl/worksheets/sheet1.xml",
                         lambda xml: xml.replace("</row>", shared[0], 1).replace("</row></sheetData>",
                                                                                  shared[1] + "</sheetData>"))
    assert _first_sheet(archive) == [[(1, "value"), ("=A1*2", "formula")], [(2, "value"), ("=A2*2", "formula")]]


@pytest.mark.parametrize("damage", ["no workbook part", "broken sheet XML"])
def test_a_damaged_workbook_is_one_error(damage):
    book = openpyxl.Workbook()
    book.active["A1"] = "id"
    if damage == "no workbook part":
        archive = _rewritten(_saved(book), "xl/workbook.xml", lambda xml: None)
    else:
        archive = _rewritten(_saved(book), "xl/worksheets/sheet1.xml", lambda xml: xml[:-40])
    with pytest.raises(WorkbookError):
        _first_sheet(archive)


def _relabelled(archive: zipfile.ZipFile, part: str, flags: int = 0, method: int | None = None) -> zipfile.ZipFile:
    """The archive, its parts stored uncompressed, with ``part``'s central-directory entry given extra flag bits
    (1: encrypted) or another compression method: what a damaged or unusual writer leaves."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_STORED) as rewritten:
        for name in archive.namelist():
            rewritten.writestr(name, archive.read(name))
    raw = bytearray(data.getvalue())
    entry = raw.find(b"PK\x01\x02")  # the central directory's first entry; its name starts 46 bytes in
    encoded = part.encode()
    while raw[entry + 46:entry + 46 + len(encoded)] != encoded:
        entry = raw.find(b"PK\x01\x02", entry + 1)
    raw[entry + 8] |= flags
    if method is not None:
        raw[entry + 10:entry + 12] = method.to_bytes(2, "little")
    return zipfile.ZipFile(io.BytesIO(bytes(raw)))


@pytest.mark.parametrize("part, flags, method, message", [
    ("xl/worksheets/sheet1.xml", 1, None, "the workbook is protected by a password; save a copy without one"),
    ("_rels/.rels", 1, None, "the workbook is protected by a password; save a copy without one"),
    ("xl/worksheets/sheet1.xml", 0, 98, "the workbook is damaged or compressed in a way deckwright cannot read"),
    ("xl/worksheets/sheet1.xml", 0, zipfile.ZIP_DEFLATED, "the workbook is damaged or compressed in a way"),
])
def test_an_encrypted_or_strangely_compressed_part_is_one_error(part, flags, method, message):
    """Each raised past the reader before (RuntimeError, NotImplementedError, zlib.error): a traceback."""
    book = openpyxl.Workbook()
    book.active["A1"] = "id"
    with pytest.raises(WorkbookError, match=message.replace("(", r"\(")):
        _first_sheet(_relabelled(_saved(book), part, flags, method))


@pytest.mark.parametrize("rows", ['<row r="0">', '<row r="-2">', '<row r="1">'])  # the third: row 1 twice
def test_rows_numbered_out_of_order_are_one_error(rows):
    """Read before as rows 0, -2, or a second row 1 (written by no spreadsheet program: a damaged file)."""
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"] = "id", "rat"
    archive = _rewritten(_saved(book), "xl/worksheets/sheet1.xml", lambda xml: xml.replace('<row r="2"', rows[:-1], 1))
    with pytest.raises(WorkbookError, match=r"row -?\d+ comes after row \d+ .*the file is damaged"):
        _first_sheet(archive)


def test_a_number_beyond_a_double_is_an_error_value_not_the_text_inf():
    book = openpyxl.Workbook()
    book.active["A1"] = 5
    archive = _rewritten(_saved(book), "xl/worksheets/sheet1.xml", lambda xml: xml.replace("<v>5</v>", "<v>1E400</v>"))
    assert _first_sheet(archive) == [[("#NUM!", "error")]]
