"""Cards pictured in the rulebook: the face's display list, the same one the card sheets print, drawn as
vectors at a smaller scale (each face stored once in the PDF and placed wherever it appears)."""
from __future__ import annotations

from reportlab.platypus import Flowable

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.render.pdf import PT_PER_MM, PdfPainter

from .document import Para

CORNER = 3.0  # mm, the rounded corner of a die-cut card
GAP = 2.5  # mm between pictures


def painter_for(canv, fonts) -> PdfPainter:
    """One painter per canvas, so a face drawn twice is one form XObject in the file."""
    painter = getattr(canv, "_deckwright_painter", None)
    if painter is None:
        painter = canv._deckwright_painter = PdfPainter(canv, fonts)
    return painter


class CardPicture(Flowable):
    """A card face at ``scale``, cut to the card's rounded corners, with a hairline edge."""

    def __init__(self, display: dl.DisplayList, key: object, scale: float, fonts, edge):
        super().__init__()
        self.display = display
        self.key = key
        self.scale = scale
        self.fonts = fonts
        self.edge = edge  # colour of the hairline
        self.width = display.width * scale * PT_PER_MM
        self.height = display.height * scale * PT_PER_MM

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        c = self.canv
        radius = CORNER * self.scale * PT_PER_MM
        c.saveState()
        path = c.beginPath()
        path.roundRect(0, 0, self.width, self.height, radius)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(0, self.height)
        c.scale(self.scale, self.scale)
        painter = painter_for(c, self.fonts)
        painter.page_height = 0.0  # the painter measures down from its origin: the card's top-left corner
        painter.place(self.display, 0.0, 0.0, form_key=self.key)
        c.restoreState()
        c.saveState()
        c.setStrokeColor(self.edge)
        c.setLineWidth(0.4)
        c.roundRect(0, 0, self.width, self.height, radius, stroke=1, fill=0)
        c.restoreState()


class Thumbnails(Flowable):
    """Card pictures in rows of at most ``columns``, each with its name underneath; a page break may come
    between rows."""

    def __init__(self, pictures: list[CardPicture], names: list[str], style, columns: int):
        super().__init__()
        self.pictures = pictures
        self.names, self.style = names, style
        self.captions = [Para(name, style) for name in names]
        self.columns = max(1, columns)
        gap = GAP * PT_PER_MM
        self.cell_width = max(p.width for p in pictures)
        self.cell_height = max(p.height for p in pictures)
        self.gap = gap
        count = min(self.columns, len(pictures))
        self.width = count * self.cell_width + (count - 1) * gap
        self._caption_height = 0.0

    def _rows(self) -> list[list[int]]:
        indexes = list(range(len(self.pictures)))
        return [indexes[i:i + self.columns] for i in range(0, len(indexes), self.columns)]

    def wrap(self, available_width, available_height):
        self._caption_height = max(c.wrap(self.cell_width + self.gap * 0.8, 1e6)[1] for c in self.captions)
        row_height = self.cell_height + self._caption_height + self.gap * 0.4
        rows = len(self._rows())
        self.height = rows * row_height + (rows - 1) * self.gap * 0.6
        return self.width, self.height

    def split(self, available_width, available_height):
        self.wrap(available_width, available_height)
        rows = self._rows()
        row_height = self.cell_height + self._caption_height + self.gap
        fit = int((available_height + self.gap * 0.6) // row_height)
        if fit < 1 or fit >= len(rows):
            return []
        cut = fit * self.columns
        return [Thumbnails(self.pictures[:cut], self.names[:cut], self.style, self.columns),
                Thumbnails(self.pictures[cut:], self.names[cut:], self.style, self.columns)]

    # ImageAndFlowables asks its picture to fit the room (an Image shrinks); cards keep their size.
    def _restrictSize(self, available_width, available_height):  # noqa: N802
        return self.wrap(available_width, available_height)

    def _unRestrictSize(self):  # noqa: N802
        pass

    def draw(self):
        row_height = self.cell_height + self._caption_height + self.gap * 0.4
        top = self.height
        for row in self._rows():
            for column, index in enumerate(row):
                picture, caption = self.pictures[index], self.captions[index]
                x = column * (self.cell_width + self.gap) + (self.cell_width - picture.width) / 2
                picture.drawOn(self.canv, x, top - picture.height)
                cw, ch = caption.wrap(self.cell_width + self.gap * 0.8, 1e6)
                caption.drawOn(self.canv, column * (self.cell_width + self.gap) - self.gap * 0.4,
                               top - self.cell_height - self.gap * 0.4 - ch)
            top -= row_height + self.gap * 0.6
