"""A picture from a rulebook page (``![alt](../art/map.png "title")``) in the printed rulebook, where the text
has it, centred in the column.

Its size: the picture prints at ``PRINT_DPI`` (a 1200-pixel-wide diagram is 4 inches wide; Squib's decks are
300 dpi too), so it is never enlarged past the resolution a printer needs; a larger one shrinks to the
column's width, and to ``TALLEST`` of the text area's height so that it and its caption fit on a page. With a
title in the Markdown, its alt text is printed under it as a caption (without one, the alt text is only for
the site's readers). The file is the one ``check`` passed (``rules.book.pictures``), confined again when it is
drawn, so no picture is held in memory while the book is laid out.
"""
from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, KeepTogether

from deckwright.generator.render.pdf import PT_PER_MM
from deckwright.rules.data.confine import confined

from .document import Para
from .theme import Theme

PRINT_DPI = 300
TALLEST = 0.85  # of the text area's height


class Figure(Flowable):
    """The picture at ``path``: ``pixels`` wide and high, at most ``tallest`` points high."""

    def __init__(self, root: Path, path: Path, pixels: tuple[int, int], tallest: float):
        super().__init__()
        self.root, self.path = root, path
        self.natural = (pixels[0] * 72 / PRINT_DPI, pixels[1] * 72 / PRINT_DPI)  # points
        self.tallest = tallest
        self.hAlign = "CENTER"
        self.width, self.height = self.natural

    def wrap(self, available_width, available_height):
        width, height = self.natural
        scale = max(0.01, min(1.0, available_width / width, self.tallest / height))
        self.width, self.height = width * scale, height * scale
        return self.width, self.height

    def draw(self):
        # By its path, confined again, as card art is drawn (generator.render.pdf): ReportLab then keeps one copy
        # of the picture however often the book shows it, and copies a JPEG's bytes into the PDF as they are,
        # where given the bytes it decoded the whole picture each time it was drawn, to compare it with the others
        # (0.25 s for a photo of 8 megapixels).
        self.canv.drawImage(str(confined(self.root, self.path)), 0, 0, self.width, self.height, mask="auto")


def figure(image: Element, root: Path, theme: Theme) -> Flowable:
    """An ``img`` element of a page's tree, its ``src`` the checked file (``generator.book.markdown``), as a
    figure with its caption (kept together)."""
    size = theme.size
    picture = Figure(root, Path(image.get("src", "")), (int(image.get("width", "1")), int(image.get("height", "1"))),
                     theme.geometry.text_height * PT_PER_MM * TALLEST)
    picture.spaceBefore = size * 0.4
    picture.spaceAfter = size * 0.9
    caption = image.get("alt", "").strip() or (image.get("title") or "").strip()
    if image.get("title") is None or not caption:
        return picture
    picture.spaceAfter = size * 0.3
    return KeepTogether([picture, Para(escape(caption), theme.styles["figure-caption"])])
