"""Card data from spreadsheets: CSV, TSV and XLSX files read into the same cards, with the same checks, as YAML.

The test game ``tests/fixtures/spreadsheets`` keeps its monsters in ``monsters.csv``
(declared in game.yaml: no id column, so ids come from the names; a quoted
newline, a list, an open value) and its heroes on the Heroes sheet of
``cards.xlsx`` (declared by ``heroes.yaml`` beside it; numbers typed as numbers,
a list of records in inline YAML). The malformed-cell corpus breaks that game
one way at a time: each case gives exactly its located lines and exit 1.
"""
from __future__ import annotations

import csv
import datetime
import io
import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from deckwright.generator import cli
from deckwright.rules.data.cells import cell_node, derive_id
from deckwright.rules.data.schema import FieldDef
from deckwright.rules.data.values import Open, Range
from deckwright.rules.data.yamlsrc import AliasBudget
from deckwright.rules.load import load_game, load_game_with_warnings
from deckwright.rules.problems import Loc

FIXTURE = Path(__file__).parent / "fixtures" / "spreadsheets"
GAME = "sheets"  # the game folder's name in every corpus run: messages read sheets/monsters.csv:...


def make_game(where: Path) -> Path:
    game = where / GAME
    shutil.copytree(FIXTURE, game)
    return game


# -- how each case breaks the game ----------------------------------------------------------


def csv_edit(old: str, new: str, file: str = "monsters.csv"):
    def edit(game: Path) -> None:
        text = (game / file).read_text(encoding="utf-8")
        assert old in text, old
        (game / file).write_text(text.replace(old, new, 1), encoding="utf-8", newline="")
    return edit


def csv_bytes(data: bytes, file: str = "monsters.csv"):
    def edit(game: Path) -> None:
        (game / file).write_bytes(data)
    return edit


def yaml_edit(file: str, old: str, new: str):
    return csv_edit(old, new, file)


def workbook_edit(change):
    """Opens cards.xlsx, lets ``change(sheet)`` alter the Heroes sheet, saves it."""
    def edit(game: Path) -> None:
        book = openpyxl.load_workbook(game / "cards.xlsx")
        change(book["Heroes"])
        book.save(game / "cards.xlsx")
    return edit


def sheet_xml(change):
    """Rewrites the Heroes sheet's XML inside cards.xlsx with ``change(text)``: what no spreadsheet program writes,
    but a file may hold (found by a helper's hunt for tracebacks)."""
    def edit(game: Path) -> None:
        path = game / "cards.xlsx"
        with zipfile.ZipFile(path) as archive:
            parts = [(info, archive.read(info)) for info in archive.infolist()]
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for info, data in parts:
                archive.writestr(info, change(data.decode()).encode() if info.filename.endswith("sheet1.xml") else data)
    return edit


def _cell_xml(cell: str, xml: str):
    """The sheet's ``cell`` replaced by ``xml``."""
    return sheet_xml(lambda text: re.sub(f'<c r="{cell}"[^>]*>.*?</c>', xml, text, count=1))


def _merged_xml(*refs: str):
    cells = "".join(f'<mergeCell ref="{ref}"/>' for ref in refs)
    return sheet_xml(lambda text: text.replace("</sheetData>", f"</sheetData><mergeCells>{cells}</mergeCells>"))


def _set(cell: str, value):
    def change(sheet) -> None:
        sheet[cell] = value
    return change


def _merge(cells: str):
    def change(sheet) -> None:
        sheet.merge_cells(cells)
    return change


MONSTERS = (FIXTURE / "monsters.csv").read_text(encoding="utf-8")

# case -> (how to break the fixture, exactly what `deckwright check sheets` prints on stderr)
CASES = {
    "wrong_type": (csv_edit("Mire Hag,1,5,3", "Mire Hag,1,5,lots"), [
        'sheets/monsters.csv:3:power: monster.mire-hag.power: expected a whole number >= 0, got "lots"']),
    "wrong_type_in_workbook": (workbook_edit(_set("D3", "four")), [
        'sheets/cards.xlsx:Heroes!D3: hero.lamp-bearer.health: expected a whole number >= 1, got "four"']),
    "unknown_column": (csv_edit("name,copies,health,power", "name,copies,health,powr"), [
        "sheets/monsters.csv:1:powr: monster: unknown column 'powr'; did you mean 'power'?"]),
    "unnamed_column": (csv_edit("power,speed,traits", "power,,traits"), [  # named by its number: file:line:col
        "sheets/monsters.csv:1:5: this column holds values but has no name in the header row"]),
    "missing_column": (csv_edit("name,copies,health,power,", "name,copies,health,strength,"), [
        "sheets/monsters.csv:1: monster: no column 'power', which every monster card needs",
        "sheets/monsters.csv:1:strength: monster: unknown column 'strength'"]),
    "short_row": (csv_edit("Mire Hag,1,5,3", "Mire Hag,1,5"), [  # a cell left out: the row's errors say why
        "sheets/monsters.csv:3: warning: row 3 has 7 cells but the header names 8 columns: with a cell left out, the "
        "cells after it are read one column to the left (an empty cell is nothing between two separators)",
        'sheets/monsters.csv:3:power: monster.mire-hag.power: expected a whole number >= 0, got "1-2"',
        'sheets/monsters.csv:3:speed: monster.mire-hag.speed: expected a number or a range such as 2-6, got "Cursed"',
        'sheets/monsters.csv:3:fast: monster.mire-hag.fast: expected true or false, got "Whispers, then '
        'strikes.\\nEach h... (49 characters)"']),
    "sheet_of_a_csv": (yaml_edit("game.yaml", "{file: monsters.csv,", "{file: monsters.csv, sheet: Monsters,"), [
        "sheets/game.yaml:41:33: sheet: a CSV file is one table, without sheets; remove this line"]),
    "delimiter_of_a_workbook": (yaml_edit("heroes.yaml", "sheet: Heroes", 'sheet: Heroes\ndelimiter: ";"'), [
        "sheets/heroes.yaml:6:12: delimiter: a workbook (.xlsx) has sheets, not a delimiter; remove this line"]),
    "sheet_without_spreadsheet": (yaml_edit("heroes.yaml", "spreadsheet: cards.xlsx\n", "cards: []\n"), [
        "sheets/heroes.yaml:5:8: sheet: this file names no spreadsheet; add 'spreadsheet: <file>' or remove this "
        "line"]),
    "bad_list_syntax": (csv_edit("Small; Swarm", "[Small, Swarm"), [
        "sheets/monsters.csv:2:traits: cell syntax: this [...] list is never closed; add ']' "
        "(the cell is read as inline YAML because it starts with '[')"]),
    "missing_id": (workbook_edit(_set("B3", "***")), [
        'sheets/cards.xlsx:Heroes!B3: hero: the row has no id and its name "***" makes none '
        "(an id is lowercase letters, digits and hyphens); fill in the id"]),
    "no_id_no_name": (csv_edit("Old Stump,1,9,0", ",1,9,0"), [
        "sheets/monsters.csv:5: monster: this row has neither an id nor a name"]),
    "duplicate_id": (csv_edit("Old Stump,", "Bog Rat,"), [
        "sheets/monsters.csv:5:name: monster.bog-rat: duplicate id (first defined at sheets/monsters.csv:2:name)"]),
    "duplicate_id_across_files": (workbook_edit(_set("A4", "old-stump")), [
        "sheets/monsters.csv:5:name: monster.old-stump: duplicate id (first defined at sheets/cards.xlsx:Heroes!A4)"]),
    "unclosed_quote": (csv_edit('"A ""tree"" that never moves."', '"A ""tree"" that never moves.'), [
        'sheets/monsters.csv:5:text: this quoted cell is never closed; add the closing "']),
    "text_after_quote": (csv_edit('"Whispers, then strikes.', '"Whispers," then strikes.'), [
        'sheets/monsters.csv:3:text: text after the closing quote of a quoted cell; inside quotes, write a quote '
        'as two ("")']),
    "unquoted_comma": (csv_edit("A \"\"tree\"\" that never moves.\"", "A \"\"tree\"\" that never moves.\",1"), [
        "sheets/monsters.csv:5:9: row 5 has 9 cells but the header names 8 columns; "
        "is a , inside a cell not quoted?"]),
    "utf16_bom": (csv_bytes(MONSTERS.encode("utf-16")), [
        'sheets/monsters.csv:1:1: file is UTF-16 text; save it as UTF-8 (in a spreadsheet program: save as "CSV UTF-8")']),
    "not_utf8": (csv_bytes(MONSTERS.replace("Old Stump", "Vieux Ch\xeane").encode("cp1252")), [
        'sheets/monsters.csv:6:9: file is not UTF-8 text (byte 0xea); save it as UTF-8 '
        '(in a spreadsheet program: save as "CSV UTF-8")']),
    "wrong_delimiter": (yaml_edit("game.yaml", "{file: monsters.csv,", '{file: monsters.csv, delimiter: ";",'), [
        'sheets/monsters.csv:1:1: the header reads as one column, "name,copies,health,power,speed,traits...": '
        "this file separates its columns with ',', not ';' (delimiter: ';'); declare delimiter: ','"]),
    "empty_file": (csv_bytes(b""), [
        "sheets/monsters.csv:1:1: file is empty; expected a header row naming the columns (id, name, ...) "
        "and a row for each card"]),
    "formula": (workbook_edit(_set("D2", "=2*3")), [
        "sheets/cards.xlsx:Heroes!D2: a formula (=2*3); deckwright reads values, not formulas: copy the column "
        "and paste it back as values only"]),
    "merged_cells": (workbook_edit(_merge("G2:H2")), [
        "sheets/cards.xlsx:Heroes!G2: merged cells (G2:H2); unmerge them and fill in each cell"]),
    "date": (workbook_edit(_set("D4", datetime.datetime(2024, 2, 6))), [
        "sheets/cards.xlsx:Heroes!D4: a date (2024-02-06); the spreadsheet turned what was typed into a date "
        "(2-6 becomes 6 February): format the column as text and type the value again"]),
    "unknown_sheet": (yaml_edit("heroes.yaml", "sheet: Heroes", "sheet: Heros"), [
        "sheets/heroes.yaml:5:8: no sheet 'Heros' in sheets/cards.xlsx; did you mean 'Heroes'? (sheets: Heroes, Notes)"]),
    "bad_bool": (csv_edit("Swarm,yes,", "Swarm,maybe,"), [
        'sheets/monsters.csv:2:fast: monster.bog-rat.fast: expected true or false, got "maybe"']),
    "missing_required_value": (csv_edit("Old Stump,1,9,0", "Old Stump,1,,0"), [
        "sheets/monsters.csv:5: monster.old-stump: missing required field 'health'"]),
    "open_without_note": (csv_edit("{open: the made-up source gives no health}", "{open: }"), [
        "sheets/monsters.csv:4:health: monster.lantern-eel.health.open: expected a note saying what the source "
        "leaves open, got nothing"]),
    "xlsx_shared_string_missing": (_cell_xml("B2", '<c r="B2" t="s"><v>7</v></c>'), [
        "sheets/cards.xlsx:1:1: cannot read this workbook (sheet Heroes: a cell names shared string '7', which the "
        "workbook does not hold); open it in the spreadsheet program and save it again as .xlsx"]),
    "xlsx_merge_of_no_range": (_merged_xml("zz"), [
        "sheets/cards.xlsx:Heroes!A1: the sheet's list of merged cells names something that is no range of cells; "
        "open and save the file in a spreadsheet program"]),
    "xlsx_merges_of_every_row": (_merged_xml(*["A2:B1048576"] * 300), [  # 300 million rows walked, before
        "sheets/cards.xlsx:Heroes!A2: merged cells (A2:B1048576); unmerge them and fill in each cell"]),
    "xlsx_shared_formula_unreadable": (sheet_xml(lambda text: re.sub(
        r'<c r="D2"[^>]*>.*?</c>(.*?)<c r="D3"[^>]*>.*?</c>',
        r'<c r="D2"><f t="shared" si="0">"unclosed</f><v>3</v></c>\1<c r="D3"><f t="shared" si="0"/><v>3</v></c>',
        text, count=1, flags=re.S)), [
        'sheets/cards.xlsx:Heroes!D2: a formula (="unclosed); deckwright reads values, not formulas: copy the column '
        "and paste it back as values only",
        "sheets/cards.xlsx:Heroes!D3: a formula (=); deckwright reads values, not formulas: copy the column and paste "
        "it back as values only"]),
    "xlsx_cells_past_the_last_column": (sheet_xml(lambda text: text.replace(
        '<row r="2">', '<row r="2">' + "<c/>" * 16_400 + '<c t="inlineStr"><is><t>far</t></is></c>', 1)), [
        "sheets/cards.xlsx:Heroes!XFE2: a cell past column XFD, the last of 16,384; a card sheet needs a few dozen"]),
    "csv_row_of_commas": (csv_edit("Old Stump,", "Old Stump," + "," * 20_000), [
        "sheets/monsters.csv:5:16385: more than 16,384 cells in one row; a card sheet needs a few dozen "
        "columns"]),
    "undeclared_file": (yaml_edit("game.yaml", "{file: monsters.csv,", "{file: monster.csv,"), [
        "sheets/game.yaml:41:12: no spreadsheet 'monster.csv' in the game folder"]),
    "file_name_too_long": (yaml_edit("game.yaml", "{file: monsters.csv,", "{file: " + "m" * 300 + ".csv,"), [
        "sheets/game.yaml:41:12: spreadsheet: the file name '" + "m" * 40 + "...' is 304 bytes long; a file name "
        "has at most 255"]),
}


def run_check(capfd) -> tuple[int, list[str]]:
    status = cli.main(["check", GAME])
    return status, capfd.readouterr().err.splitlines()


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_cells_give_located_lines(case, tmp_path, monkeypatch, capfd):
    break_game, expected = CASES[case]
    game = make_game(tmp_path)
    break_game(game)
    monkeypatch.chdir(tmp_path)
    status, lines = run_check(capfd)
    assert lines == expected
    assert status == 1


def test_a_short_row_without_errors_is_no_problem(tmp_path, monkeypatch, capfd):
    """Its last cells are empty, as many programs write them: no hint unless something in the row is wrong."""
    game = make_game(tmp_path)
    csv_edit("Small; Swarm,yes,", "Small; Swarm,yes")(game)
    monkeypatch.chdir(tmp_path)
    status, lines = run_check(capfd)
    assert (status, lines) == (0, [])


@pytest.mark.parametrize("limit, value, expected", [
    # the limits lowered to the fixture's size: 3,000,000 cells and 10,000 merges take a while to write
    ("MAX_VALUES", 30, "sheets/monsters.csv:4:fast: the sheet holds more than 30 cells; deckwright reads at most that "
                       "many from one sheet, as from one YAML file: split the cards into several sheets"),
    ("MAX_VALUES", 12, "sheets/cards.xlsx:Heroes!A3: the sheet holds more than 12 cells; deckwright reads at most "
                       "that many from one sheet, as from one YAML file: split the cards into several sheets"),
    ("MAX_MERGED", 2, "sheets/cards.xlsx:1:1: cannot read this workbook (sheet Heroes: more than 2 merged ranges; "
                      "unmerge the cells); open it in the spreadsheet program and save it again as .xlsx"),
])
def test_a_sheet_of_too_many_cells_or_merges_stops_at_the_one_past_the_limit(limit, value, expected, tmp_path,
                                                                            monkeypatch, capfd):
    from deckwright.rules.data import spreadsheets, xlsx

    game = make_game(tmp_path)
    _merged_xml("A5:B5", "C5:D5", "E5:F5")(game)
    monkeypatch.setattr(spreadsheets if limit == "MAX_VALUES" else xlsx, limit, value)
    monkeypatch.chdir(tmp_path)
    status, lines = run_check(capfd)
    assert status == 1 and expected in lines


# -- what the cells mean ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def game():
    return load_game(FIXTURE)


def test_the_csv_deck_reads_as_its_rows_say(game):
    monsters = {card.id: card for card in game.cards_in("monsters")}
    assert list(monsters) == ["bog-rat", "mire-hag", "lantern-eel", "old-stump"]  # ids made from the names
    rat, hag, eel, stump = monsters.values()
    assert (rat.copies, rat["health"], rat["power"], rat["speed"], rat["traits"], rat["fast"]) == \
        (3, 2, 1, Range(2, 4), ("Small", "Swarm"), True)
    assert "text" not in rat.fields  # an empty cell is an optional field left out
    assert hag["text"] == "Whispers, then strikes.\nEach hero loses 1 health."  # a quoted newline
    assert hag["fast"] is False
    assert isinstance(eel["health"], Open) and eel["health"].note == "the made-up source gives no health"
    assert eel["traits"] == ("Aquatic", "Glows; faintly")  # inline YAML keeps a ';' inside an item
    assert stump["text"] == 'A "tree" that never moves.'
    assert str(hag.loc) == f"{hag.loc.file}:3" and hag.loc.file.endswith("monsters.csv")
    assert str(hag.field_locs["power"]).endswith("monsters.csv:3:power")
    assert game.deck_total("monsters") == 7


def test_the_workbook_deck_reads_typed_cells(game):
    heroes = {card.id: card for card in game.cards_in("heroes")}
    assert list(heroes) == ["ranger", "lamp-bearer", "sage"]
    ranger = heroes["ranger"]
    assert (ranger.copies, ranger["health"], str(ranger["attack"])) == (2, 6, "D6+1")
    assert ranger["skills"] == ({"skill": "Track", "cost": 1}, {"skill": "Snare", "cost": 2})
    assert ranger["rival"].id == "bog-rat"
    assert heroes["sage"].copies == 1  # an empty copies cell: the default
    assert str(heroes["sage"].field_locs["rival"]).endswith("cards.xlsx:Heroes!G4")


@pytest.mark.parametrize("text, kind, value", [
    ("4", "int", 4), (" 4 ", "int", 4), ("-2", "int", -2), ("2.5", "number", 2.5), ("2-6", "range", "2-6"),
    ("3", "range", 3), ("D6+1", "dice", "D6+1"), ("12", "text", "12"), ("[x]", "text", "[x]"),
    ("YES", "bool", True), ("false", "bool", False), ("maybe", "bool", "maybe"),
    ("9" * 5001, "int", "9" * 5001),
    ("1e999", "number", float("inf")),  # read as Python reads it; the number field refuses it (test_load)  # more digits than int() reads: kept as text, which the int field refuses
])
def test_a_cell_is_read_as_its_field_asks(text, kind, value):
    node = cell_node(text, FieldDef(kind), Loc("f.csv", 2, 1, "2:x"), [])
    assert node.value == value


def test_list_cells_split_on_semicolons_or_read_inline_yaml():
    item = FieldDef("list", of=FieldDef("int"))
    assert [n.value for n in cell_node("1; 2;3", item, Loc("f.csv"), []).value] == [1, 2, 3]
    assert [n.value for n in cell_node("[1, 2]", item, Loc("f.csv"), []).value] == [1, 2]


def test_yaml_aliases_in_the_cells_of_one_file_share_its_alias_limit():
    """Each inline YAML cell is a document of its own; its aliases count against its file's limit, as in one YAML
    file: ten cells whose aliases expand to 20,000 values each reach the 200,000, the eleventh goes past."""
    item = FieldDef("list", of=FieldDef("text"))
    cell = "[&a [" + ", ".join(["x"] * 99) + "], " + ", ".join(["*a"] * 200) + "]"
    aliases, problems = AliasBudget(), []
    nodes = [cell_node(cell, item, Loc("f.csv", row, 5, f"{row}:keywords"), problems, aliases) for row in range(2, 13)]
    assert [node is not None for node in nodes] == [True] * 10 + [False]
    assert [str(p) for p in problems] == [
        "f.csv:12:keywords: cell syntax: with this alias, the file's YAML aliases expand to more than 200,000 values "
        "(an alias bomb?); write the values out (the cell is read as inline YAML because it starts with '[')"]


@pytest.mark.parametrize("name, ident", [("Rabid Dog", "rabid-dog"), ("Zoë's Dagger", "zoe-s-dagger"),
                                         ("  The  Vile Giant! ", "the-vile-giant"), ("***", "")])
def test_ids_made_from_names(name, ident):
    assert derive_id(name) == ident


def _csv_game(tmp_path: Path, data: bytes, file: str = "monsters.csv", declaration: str = "") -> Path:
    game = make_game(tmp_path)
    (game / "monsters.csv").unlink()
    (game / file).write_bytes(data)
    text = (game / "game.yaml").read_text().replace("{file: monsters.csv,", f"{{file: {file},{declaration}")
    (game / "game.yaml").write_text(text)
    return game


def _rewritten(delimiter: str, newline: str = "\n") -> bytes:
    """The fixture's monsters.csv written again with another delimiter or line end (by Python's csv module)."""
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter, lineterminator=newline).writerows(csv.reader(io.StringIO(MONSTERS)))
    return out.getvalue().encode()


@pytest.mark.parametrize("file, data, declaration", [
    ("monsters.csv", b"\xef\xbb\xbf" + MONSTERS.encode(), ""),  # UTF-8 with a byte-order mark (Excel's CSV UTF-8)
    ("monsters.csv", _rewritten(";"), ""),  # sniffed from the header
    ("monsters.csv", _rewritten("|"), ' delimiter: "|",'),
    ("monsters.tsv", _rewritten("\t"), ""),
    ("monsters.csv", _rewritten(",", "\r\n"), ""),  # Windows line ends
])
def test_encodings_and_delimiters(tmp_path, file, data, declaration):
    game, problems = load_game_with_warnings(_csv_game(tmp_path, data, file, declaration))
    assert problems.errors == []
    hag = game.card("mire-hag")
    assert hag["text"] == "Whispers, then strikes.\nEach hero loses 1 health."
    assert game.card("bog-rat")["traits"] == ("Small", "Swarm")


def test_a_type_column_mixes_card_types_in_one_sheet(tmp_path):
    game = make_game(tmp_path)
    (game / "mixed.csv").write_text("type,id,name,health,power,attack\nmonster,,Gnat,1,1,\nhero,hob,Hob,3,,D4\n")
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("    count: 7\n", "").replace(
        "  - {file: monsters.csv, type: monster, deck: monsters}",
        "  - {file: monsters.csv, type: monster, deck: monsters}\n  - {file: mixed.csv, deck: heroes}"))
    loaded = load_game(game)
    assert (loaded.card("gnat").type, loaded.card("gnat")["power"]) == ("monster", 1)
    assert (loaded.card("hob").type, str(loaded.card("hob")["attack"])) == ("hero", "D4")


# -- templates and builds ------------------------------------------------------------------


def test_schema_writes_a_csv_template_per_card_type_that_loads(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    game = make_game(tmp_path)
    assert cli.main(["schema", GAME, "--out", "out"]) == 0
    schema = tmp_path / "out" / "spreadsheet-sample" / "schema"
    assert (schema / "monster.csv").read_text() == "id,name,copies,health,power,speed,traits,fast,text\n"
    assert (schema / "hero.csv").read_text() == "id,name,copies,health,attack,skills,rival,motto\n"
    # a designer fills the template in: it is a valid card file as it stands
    rows = (schema / "monster.csv").read_text() + "bog-rat,Bog Rat,3,2,1,,,,\nmire-hag,Mire Hag,4,5,3,,Old; Wily,,\n"
    (game / "monsters.csv").write_text(rows)
    loaded = load_game(game)
    assert loaded.card("mire-hag")["traits"] == ("Old", "Wily") and loaded.deck_total("monsters") == 7


def test_the_spreadsheet_game_builds(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    make_game(tmp_path)
    assert cli.main(["build", GAME, "--out", "out", "--target", "home"]) == 0
    out = tmp_path / "out" / "spreadsheet-sample"
    from pypdf import PdfReader

    monsters = PdfReader(out / "print" / "deck-monsters.pdf")
    assert len(monsters.pages) == 2  # one page of fronts (7 poker cards), one of backs
    text = monsters.pages[0].extract_text()
    assert text.count("Bog Rat") == 3 and "Each hero loses 1 health." in text
    heroes = PdfReader(out / "print" / "deck-heroes.pdf").pages[0].extract_text()
    assert heroes.count("Ranger") == 2 and "Lamp Bearer" in heroes and "Rival: Bog Rat" in heroes
    gallery = (tmp_path / "out" / "site" / "spreadsheet-sample" / "cards.html").read_text()
    assert 'id="card-lamp-bearer"' in gallery and 'id="card-old-stump"' in gallery
    page = (tmp_path / "out" / "site" / "spreadsheet-sample" / "rules" / "intro.html").read_text()
    assert "monsters.csv" not in page and ">Mire Hag<" in page


def test_a_broken_spreadsheet_leaves_the_earlier_build_as_it_was(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    game = make_game(tmp_path)
    assert cli.main(["build", GAME, "--out", "out", "--target", "proof"]) == 0
    before = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    capfd.readouterr()
    CASES["formula"][0](game)
    assert cli.main(["build", GAME, "--out", "out", "--target", "proof"]) == 1
    assert capfd.readouterr().err.splitlines() == CASES["formula"][1]
    assert {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()} == before
