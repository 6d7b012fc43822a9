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


def test_inline_strings_and_a_1904_workbook():
    book = openpyxl.Workbook()
    book.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    book.active["A1"] = datetime.datetime(2024, 2, 6)
    archive = _saved(book)
    # an inline string, as some writers save text, in place of the shared one
    parts = {name: archive.read(name) for name in archive.namelist()}
    sheet_xml = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = sheet_xml.replace(
        "</row>", '<c r="B1" t="inlineStr"><is><r><t>Bog </t></r><r><t>Rat</t></r></is></c></row>', 1).encode()
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as rewritten:
        for name, content in parts.items():
            rewritten.writestr(name, content)
    data.seek(0)
    workbook = open_workbook(zipfile.ZipFile(data))
    assert [[(cell.value, cell.kind) for cell in row] for _, row in workbook.read(workbook.sheets[0])] == \
        [[(datetime.datetime(2024, 2, 6), "date"), ("Bog Rat", "value")]]


@pytest.mark.parametrize("damage", ["no workbook part", "broken sheet XML"])
def test_a_damaged_workbook_is_one_error(damage):
    book = openpyxl.Workbook()
    book.active["A1"] = "id"
    archive = _saved(book)
    parts = {name: archive.read(name) for name in archive.namelist()}
    if damage == "no workbook part":
        del parts["xl/workbook.xml"]
    else:
        parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"][:-40]
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as rewritten:
        for name, content in parts.items():
            rewritten.writestr(name, content)
    data.seek(0)
    with pytest.raises(WorkbookError):
        workbook = open_workbook(zipfile.ZipFile(data))
        list(workbook.read(workbook.sheets[0]))
