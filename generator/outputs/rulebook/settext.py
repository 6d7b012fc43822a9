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
            self.lines = max(1, fitted.lines)
            self.height = ((self.lines - 1) * spec.leading + spec.face.ascent + spec.face.descent) * em * PT_PER_MM
            self.width = available_width
            self._set_at = available_width
        return self.width, self.height

    def at_most(self, available_width: float) -> float:
        """A height it cannot exceed wrapped to ``available_width``, from its measures alone (to skip setting
        it): of two lines in a row, the first and the second's first word would not fit on one, so a paragraph
        takes at most one line more than twice its width over the cell's; doubled, for words broken after a
        dot or slash, whose pieces may be shorter."""
        spec = self.spec
        room = available_width - spec.size  # less a space, narrower than an em
        if room <= 0:
            return float("inf")
        lines = sum(4 * width / room + 1 for width in self.widths()[0])
        return (lines * spec.leading + spec.face.ascent + spec.face.descent) * spec.size

    def split(self, available_width, available_height):
        """A cell too tall for the rest of the page (a card text longer than a page) split between lines, as
        wrapped to the cell (a table asks with the cell's width before its padding)."""
        if self._set_at is None:
            self.wrap(available_width, available_height)
        return Lines(self, 0, self.lines).split(available_width, available_height)

    def draw(self):
        self.paint(self.canv)
        if self.link:
            self.canv.linkRect("", self.link, (0, 0, self.width, self.height), relative=1, thickness=0)
        if self.mention:
            self.canv.getNamedCB(MENTION)(self.canv, "onDraw", self.mention)

    def paint(self, canv, first: int = 0, count: int | None = None) -> None:
        """Its lines (``count`` of them from ``first``), the first one's top at the height the text was set to."""
        items = self.items
        if first or count is not None:
            em = self.spec.size * MM_PER_PT
            step = self.spec.leading * em
            last = first + (count if count is not None else self.lines)

            def line_of(item) -> int:  # a run's baseline, or an icon's first point, lies on its line
                y = item.y if isinstance(item, dl.Text) else item.commands[0][2] if isinstance(item, dl.Path) else 0.0
                return int(y // step)

            items = tuple(item for item in items if first <= line_of(item) < last)
        painter = painter_for(canv, self.faces.fonts)
        painter.page_height = 0.0
        canv.saveState()
        canv.translate(0, self.height)
        cell = dl.DisplayList("cell", self.width / PT_PER_MM, self.height / PT_PER_MM, 0.0, items)
        painter.place(cell, 0.0, 0.0)
        canv.restoreState()


class Lines(Flowable):
    """``count`` lines of a ``SetText`` from its line ``first``: the part of a cell on one page."""

    def __init__(self, text: SetText, first: int, count: int):
        super().__init__()
        spec = text.spec
        self.text, self.first, self.count = text, first, count
        self.step = spec.leading * spec.size  # points from line to line
        self.width = text.width
        self.height = (count - 1) * self.step + (spec.face.ascent + spec.face.descent) * spec.size

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def split(self, available_width, available_height):
        fit = int((available_height - (self.height - (self.count - 1) * self.step)) // self.step) + 1
        if fit < 1 or fit >= self.count:
            return []
        return [Lines(self.text, self.first, fit), Lines(self.text, self.first + fit, self.count - fit)]

    def draw(self):
        canv = self.canv
        canv.saveState()
        window = canv.beginPath()
        window.rect(-self.width, 0, 3 * self.width, self.height)  # only these lines (a glyph may reach sideways)
        canv.clipPath(window, stroke=0, fill=0)
        canv.translate(0, self.height + self.first * self.step - self.text.height)
        self.text.paint(canv, self.first, self.count)
        canv.restoreState()
        if self.first == 0 and self.text.link:
            canv.linkRect("", self.text.link, (0, 0, self.width, self.height), relative=1, thickness=0)
        if self.first == 0 and self.text.mention:
            canv.getNamedCB(MENTION)(canv, "onDraw", self.text.mention)
