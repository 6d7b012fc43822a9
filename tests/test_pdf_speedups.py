"""PdfPainter's kept ellipse paths and fill operators: the bytes ReportLab's own calls write."""
from __future__ import annotations

import io

from pypdf import PdfReader

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.render.pdf import PdfPainter, finish_page, new_canvas


def painted_shapes() -> bytes:
    fonts = shipped_fonts()
    data = io.BytesIO()
    canvas = new_canvas(data, (210, 297), fonts, "shapes")
    painter = PdfPainter(canvas, fonts)
    face = (dl.Ellipse(5, 5, 10, 10, "#8c1c13"), dl.Ellipse(20, 5, 10, 6, "#2f4858", "#000000", 0.3),
            dl.Rect(0, 20, 30, 5, "#8c1c13"), dl.Text(2, 30, "Draw two cards.", "Open Sans:regular", 8, "#2f4858"),
            dl.Text(2, 34, "Draw two cards.", "Open Sans:bold", 8, "#2f4858"))
    for slot in range(4):  # the same face four times: the second time round its paths and colours are known
        painter.place(dl.DisplayList("face", 40, 40, 0.0, face), 10 + 45 * (slot % 2), 10 + 45 * (slot // 2))
    finish_page(canvas)
    canvas.save()
    return data.getvalue()


def test_ellipses_and_fill_colours_are_the_bytes_reportlab_writes(monkeypatch):
    fast = painted_shapes()

    def ellipse(self, e):
        stroke, fill = self._paint(e.fill, e.stroke, e.stroke_width)
        k = 72 / 25.4
        self.c.ellipse(e.x * k, -(e.y + e.h) * k, (e.x + e.w) * k, -e.y * k, stroke=stroke, fill=fill)

    def set_fill(self, color):
        self.c.setFillColorRGB(*self._rgb_of(color))
        self._fill = color

    monkeypatch.setattr(PdfPainter, "_ellipse", ellipse)
    monkeypatch.setattr(PdfPainter, "_set_fill", set_fill)
    monkeypatch.setattr(PdfPainter, "_chunks", lambda self, name, font, text, doc: font.splitString(text, doc))
    assert fast == painted_shapes()
    page = PdfReader(io.BytesIO(fast)).pages[0]
    assert page.extract_text().count("Draw two cards.") == 8
