"""A picture's ``opacity`` (a layout key of every box) in the PNGs and the PDFs: both painted it opaque."""
from __future__ import annotations

import subprocess

import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.render.pdf import PdfPainter
from deckwright.generator.render.raster import Rasterizer

BLUE = (0x33, 0x66, 0x99)
HALF_ON_WHITE = tuple(round((255 + value) / 2) for value in BLUE)


def face(tmp_path, opacity: float) -> dl.DisplayList:
    path = tmp_path / "blue.png"
    Image.new("RGB", (40, 40), BLUE).save(path)
    return dl.DisplayList("face", 30, 30, 0.0, (dl.Rect(0, 0, 30, 30, fill="#ffffff"),
                                                 dl.Image(5, 5, 20, 20, str(path), opacity)))


@pytest.mark.parametrize("opacity, expected", [(1.0, BLUE), (0.5, HALF_ON_WHITE)])
def test_a_pictures_opacity_in_the_png(tmp_path, opacity, expected):
    painted = Rasterizer(shipped_fonts(), reuse=False).image(face(tmp_path, opacity), 100)
    middle = painted.getpixel((painted.width // 2, painted.height // 2))[:3]
    assert middle == pytest.approx(expected, abs=2)


@pytest.mark.usefixtures("poppler")
@pytest.mark.parametrize("opacity, expected", [(1.0, BLUE), (0.5, HALF_ON_WHITE)])
def test_a_pictures_opacity_in_the_pdf(tmp_path, opacity, expected):
    pdf = tmp_path / "face.pdf"
    canvas = Canvas(str(pdf), pagesize=(30 / 25.4 * 72, 30 / 25.4 * 72))
    painter = PdfPainter(canvas, shipped_fonts())
    painter.set_page_size(30, 30)
    painter.place(face(tmp_path, opacity), 0, 0)
    canvas.showPage()
    canvas.save()
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-singlefile", str(pdf), str(tmp_path / "page")], check=True)
    with Image.open(tmp_path / "page.png") as page:
        middle = page.convert("RGB").getpixel((page.width // 2, page.height // 2))
    assert middle == pytest.approx(expected, abs=3)
