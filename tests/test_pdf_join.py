"""everything.pdf is the deck and sheet files' own pages joined (generator.render.pdfjoin), not drawn again."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
from deckwright.generator.render.pdfjoin import JoinError, Part, join_pdfs, pdf_text
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", "build", str(FIXTURE), "--out", str(out),
                             "--target", "home"], check=False, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return out / "print-sample" / "print"


def test_everything_holds_the_pages_of_each_file_in_order(built):
    parts = ["deck-units.pdf", "deck-tokens.pdf", "sheets.pdf"]  # game.yaml's deck order, then the sheets
    expected = [page.extract_text() for part in parts for page in PdfReader(built / part).pages]
    joined = PdfReader(built / "everything.pdf")
    assert [page.extract_text() for page in joined.pages] == expected
    assert "Archer" in expected[0] and "Print Sample board" in expected[-2]
    sizes = [tuple(round(float(v)) for v in page.mediabox) for part in parts for page in PdfReader(built / part).pages]
    assert [tuple(round(float(v)) for v in page.mediabox) for page in joined.pages] == sizes


def test_everything_has_an_outline_entry_per_deck_and_sheet(built):
    reader = PdfReader(built / "everything.pdf")
    marks = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    # units: 2 front and 2 back pages, tokens 1 + 1, then the board (a page of its own) and the small sheets
    assert marks == [("Units", 0), ("Tokens", 4), ("Board", 6), ("Reference card", 7)]
    assert reader.metadata.title == "Print Sample: print and play"
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"


def test_joining_twice_writes_the_same_bytes(built, tmp_path):
    parts = [Part(built / "deck-units.pdf", (("Units", 0),)), Part(built / "sheets.pdf")]
    join_pdfs(parts, tmp_path / "a.pdf", "Tést (1)", "s")
    join_pdfs(parts, tmp_path / "b.pdf", "Tést (1)", "s")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    reader = PdfReader(tmp_path / "a.pdf")
    assert reader.metadata.title == "Tést (1)" and len(reader.pages) == 4 + 2
    assert dict(reader.trailer["/Root"]["/ViewerPreferences"]) == {"/PrintScaling": "/None"}  # no duplex asked


@pytest.mark.usefixtures("qpdf")
def test_qpdf_finds_no_problem_in_the_joined_file(built):
    result = subprocess.run(["qpdf", "--check", str(built / "everything.pdf")], check=False, capture_output=True, text=True)
    assert result.returncode == 0 and "No syntax or stream encoding errors found" in result.stdout, result.stdout


def test_each_card_is_drawn_once_for_the_home_files(tmp_path, monkeypatch):
    """The deck files draw every card; everything.pdf draws none."""
    from deckwright.generator.outputs import print_step

    game = load_game(FIXTURE)
    faces = Faces(game)
    drawn = []
    front = faces.front
    monkeypatch.setattr(faces, "front", lambda card, bleed=0.0: drawn.append(card.id) or front(card, bleed))

    class Options:
        paper, backs, target = "a4", True, "home"

    print_step._build(game, faces, tmp_path, Options())
    printed = [card.id for deck in game.decks.values() for card in game.printed_cards(deck.id)]
    assert sorted(set(drawn)) == sorted(set(printed)) and len(drawn) <= len(printed)
    assert len(PdfReader(tmp_path / "everything.pdf").pages) == 4 + 2 + 2


def test_a_file_not_written_by_reportlab_is_refused(tmp_path):
    (tmp_path / "x.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<< >>\nendobj\nnot a table")
    with pytest.raises(JoinError):
        join_pdfs([Part(tmp_path / "x.pdf")], tmp_path / "out.pdf", "t", "s")


def test_pdf_text_strings():
    assert pdf_text("a (b) \\ c") == b"(a \\(b\\) \\\\ c)"
    assert pdf_text("Dé") == b"<feff004400e9>"  # UTF-16 with its byte-order mark


def test_a_deck_file_written_alone_joins_to_the_same_pages(tmp_path):
    game = load_game(FIXTURE)
    deck = game.decks["units"]
    home = HomePrint(game, Faces(game), PrintJob("t", (deck,), (), "letter", False))
    home.write(str(tmp_path / "d.pdf"))
    assert home.outline == [("Units", 0)]
    assert join_pdfs([Part(tmp_path / "d.pdf", tuple(home.outline))], tmp_path / "j.pdf", "t", "t") == 2
    assert [p.extract_text() for p in PdfReader(tmp_path / "j.pdf").pages] == \
        [p.extract_text() for p in PdfReader(tmp_path / "d.pdf").pages]


def test_a_file_drawn_in_runs_of_pages_holds_the_same_pages_as_one_drawn_whole(tmp_path):
    """A long home-print file is drawn in runs of pages joined at the end, so that ReportLab holds one run's pages
    at a time: the same pages, page boxes, outline, title and duplex preference as the file drawn in one go."""
    game = load_game(FIXTURE)
    faces = Faces(game)
    job = PrintJob("Runs", tuple(game.decks.values()), tuple(game.sheets.values()), "letter", True)
    whole = HomePrint(game, faces, job)
    assert whole.write(str(tmp_path / "whole.pdf")) == 8
    runs = HomePrint(game, faces, job, chunk_pages=3)
    assert runs.write(str(tmp_path / "runs.pdf")) == 8
    assert runs.outline == whole.outline == [("Units", 0), ("Tokens", 4), ("Board", 6), ("Reference card", 7)]
    one, joined = PdfReader(tmp_path / "whole.pdf"), PdfReader(tmp_path / "runs.pdf")
    assert [page.extract_text() for page in joined.pages] == [page.extract_text() for page in one.pages]
    assert "Archer" in joined.pages[0].extract_text()
    assert [tuple(page.mediabox) for page in joined.pages] == [tuple(page.mediabox) for page in one.pages]
    assert [(item.title, joined.get_destination_page_number(item)) for item in joined.outline] == whole.outline
    assert joined.metadata.title == "Runs" and joined.metadata.subject == "Print Sample: print and play"
    assert joined.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["runs.pdf", "whole.pdf"]  # no run left behind
    HomePrint(game, faces, job, chunk_pages=3).write(str(tmp_path / "again.pdf"))
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "runs.pdf").read_bytes()


def test_a_printshop_file_drawn_in_runs_of_pages_holds_the_same_pages_as_one_drawn_whole(tmp_path):
    """The print-shop files (one card a page, thousands of pages) are drawn in runs too: the same pages, trim and
    bleed boxes, title and subject; the same bytes on a second build."""
    from deckwright.generator.outputs.print_pdfs import write_printshop_pdf, write_printshop_sheets

    game = load_game(FIXTURE)
    faces = Faces(game)
    deck = game.decks["units"]
    assert write_printshop_pdf(str(tmp_path / "whole.pdf"), game, faces, deck, True) == 22
    assert write_printshop_pdf(str(tmp_path / "runs.pdf"), game, faces, deck, True, run_pages=3) == 22
    one, joined = PdfReader(tmp_path / "whole.pdf"), PdfReader(tmp_path / "runs.pdf")
    assert [page.extract_text() for page in joined.pages] == [page.extract_text() for page in one.pages]
    assert "Archer" in joined.pages[0].extract_text()
    for box in ("mediabox", "trimbox", "bleedbox"):
        assert [tuple(getattr(page, box)) for page in joined.pages] == [tuple(getattr(page, box)) for page in one.pages]
    assert tuple(joined.pages[21].trimbox) != tuple(joined.pages[21].mediabox)
    assert (joined.metadata.title, joined.metadata.subject) == (one.metadata.title, one.metadata.subject)
    write_printshop_pdf(str(tmp_path / "again.pdf"), game, faces, deck, True, run_pages=3)
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "runs.pdf").read_bytes()
    sheets = list(game.sheets.values())
    assert write_printshop_sheets(str(tmp_path / "sheets.pdf"), game, faces, sheets, run_pages=1) == \
        len(PdfReader(tmp_path / "sheets.pdf").pages) == sum(sheet.copies for sheet in sheets)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["again.pdf", "runs.pdf", "sheets.pdf", "whole.pdf"]
