"""Card text in a table cell, set by the card layouts' own text setter: the same line breaking, bold and
italic, and the same icons (drawn, not named) as on the printed card, at the cost of a few string
measurements instead of a parsed paragraph per cell."""
from __future__ import annotations

from reportlab.platypus import Flowable

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.richtext import parse
from deckwright.generator.layout.textfit import MM_PER_PT, TextSpec
from deckwright.generator.render.pdf import PT_PER_MM

from .document import MENTION
from .pictures import painter_for


def literal(text: str) -> str:
    """Plain text as the layouts' markup would read it: markup characters kept as they are."""
    return "".join("\\" + ch if ch in "\\*~:" else ch for ch in text)


class SetText(Flowable):
    """Text in the layouts' markup, wrapped to the cell (a word too long for it broken); optionally a link (a
    card's index entry) and a card whose mention is recorded on the page the cell is drawn on."""

    def __init__(self, markup: str, face, size: float, color: str, faces, align: str = "left",
                 link: str = "", mention: str = "", leading: float = 1.25):
        super().__init__()
        self.paragraphs = parse(markup, faces.icons)
        self.spec = TextSpec(face, size, size, leading, align, "top", color, shrink=False)
        self.faces = faces
        self.link = link
        self.mention = mention
        self._set_at: float | None = None
        self._measured = None

    @property
    def measured(self):
        if self._measured is None:
            self._measured = self.faces.measurer.setter.measure(self.paragraphs, self.spec.face)
        return self._measured

    def widths(self) -> tuple[tuple[float, ...], float]:
        """The width each of its lines takes unbroken, and its widest word, in points."""
        spec, measured = self.spec, self.measured
        space = self.faces.fonts.width(spec.face.name, " ")
        lines = tuple((sum(w for _, w in clusters) + space * max(0, len(clusters) - 1)) * spec.size
                      for clusters in measured)
        narrowest = max((w for clusters in measured for _, w in clusters), default=0.0)
        return lines or (0.0,), narrowest * spec.size

    def wrap(self, available_width, available_height):
        if self._set_at != available_width:
            width_mm = available_width / PT_PER_MM
            setter = self.faces.measurer.setter
            measured = setter.break_words(self.measured, self.spec.size, width_mm)  # never past the cell's edge
            fitted = setter.fit(self.paragraphs, self.spec, 0.0, 0.0, width_mm, 1e6, measured)
            self.items = fitted.items
            spec = self.spec
            em = spec.size * MM_PER_PT
            lines = max(1, fitted.lines)
            self.height = ((lines - 1) * spec.leading + spec.face.ascent + spec.face.descent) * em * PT_PER_MM
            self.width = available_width
            self._set_at = available_width
        return self.width, self.height

    def draw(self):
        canv = self.canv
        painter = painter_for(canv, self.faces.fonts)
        painter.page_height = 0.0
        canv.saveState()
        canv.translate(0, self.height)
        cell = dl.DisplayList("cell", self.width / PT_PER_MM, self.height / PT_PER_MM, 0.0, self.items)
        painter.place(cell, 0.0, 0.0)
        canv.restoreState()
        if self.link:
            canv.linkRect("", self.link, (0, 0, self.width, self.height), relative=1, thickness=0)
        if self.mention:
            canv.getNamedCB(MENTION)(canv, "onDraw", self.mention)
