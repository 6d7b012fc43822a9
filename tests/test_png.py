"""The PNG writer of the sheet images: Pillow reads back the same pixels and resolution, byte for byte the same file."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from deckwright.generator.render.png import ZLIB, fastest_deflate, png_bytes

DEFLATES = list(dict.fromkeys((ZLIB, fastest_deflate())))  # zlib, and ISA-L's where the png extra is installed


def _picture(mode: str) -> Image.Image:
    image = Image.new(mode, (37, 23), "white" if mode != "L" else 255)
    draw = ImageDraw.Draw(image)
    ink = {"L": 40, "RGB": (200, 30, 10), "RGBA": (10, 90, 200, 128)}[mode]
    draw.ellipse((3, 2, 30, 20), fill=ink)
    draw.text((5, 5), "Ag", fill=ink)
    return image


@pytest.mark.parametrize("deflate", DEFLATES, ids=lambda deflate: deflate.name)
@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
def test_pillow_reads_back_the_same_pixels_and_dpi(mode, deflate):
    image = _picture(mode)
    back = Image.open(io.BytesIO(png_bytes(image, dpi=164.0, deflate=deflate)))
    back.load()
    assert (back.format, back.mode, back.size) == ("PNG", mode, image.size)
    assert back.tobytes() == image.tobytes()
    assert back.info["dpi"] == pytest.approx((164.0, 164.0), abs=0.01)


def test_same_image_same_bytes_with_zlib_and_no_dpi_when_not_given():
    image = _picture("RGB")  # ISA-L promises the same pixels only (see generator/render/png.py)
    assert png_bytes(image, 150, ZLIB) == png_bytes(image.copy(), 150, ZLIB)
    assert "dpi" not in Image.open(io.BytesIO(png_bytes(image))).info


def test_other_modes_are_refused():
    with pytest.raises(ValueError, match="mode P"):
        png_bytes(Image.new("P", (4, 4)))
