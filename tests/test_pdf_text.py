"""PdfPainter's text runs: the same bytes as ReportLab's own per-character subsetting (``splitString``) when the
painter translates runs of characters it has already coded in one call, and the text readable from the page,
across no-break spaces, empty runs and more characters than one font subset holds."""
from __future__ import annotations

import io

from pypdf import PdfReader

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.render.pdf import PdfPainter, finish_page, new_canvas

GREEK = "".join(chr(code) for code in range(0x391, 0x3AA) if code != 0x3A2)
CYRILLIC = "".join(chr(code) for code in range(0x410, 0x450))
LATIN = "".join(chr(code) for code in range(0xC0, 0x100) if code not in (0xD7, 0xF7))
EXTENDED = "".join(chr(code) for code in range(0x100, 0x180))
RUNS = ["Draw two cards.", "Draw\u00a0two cards.", "", "Draw two cards.", LATIN, EXTENDED, GREEK, CYRILLIC,
        "Draw two cards, then " + GREEK[:5] + " and " + CYRILLIC[:5] + ".", CYRILLIC[::-1], "Draw two cards."]


def painted(runs: list[str]) -> bytes:
    fonts = shipped_fonts()
    data = io.BytesIO()
    canvas = new_canvas(data, (210, 297), fonts, "text")
    painter = PdfPainter(canvas, fonts)
    items = tuple(dl.Text(10, 10 + 8 * i, text, "Open Sans:regular", 10, "#000000") for i, text in enumerate(runs))
    painter.place(dl.DisplayList("runs", 190, 277, 0.0, items), 0, 0)
    finish_page(canvas)
    canvas.save()
    return data.getvalue()


def test_translated_runs_are_the_bytes_of_reportlabs_own_subsetting(monkeypatch):
    fast = painted(RUNS)
    monkeypatch.setattr(PdfPainter, "_chunks", lambda self, name, font, text, doc: font.splitString(text, doc))
    assert fast == painted(RUNS)


def test_every_run_reads_back_from_the_page():
    text = PdfReader(io.BytesIO(painted(RUNS))).pages[0].extract_text()
    for run in RUNS:
        assert run.replace("\u00a0", " ") in text.replace("\u00a0", " "), run


def test_more_characters_than_a_subset_holds_go_to_the_second():
    assert len(set("".join(RUNS))) > 256
    page = PdfReader(io.BytesIO(painted(RUNS))).pages[0]
    assert len(page["/Resources"]["/Font"]) == 2  # Open Sans in two subsets
    assert CYRILLIC[::-1] in page.extract_text()
