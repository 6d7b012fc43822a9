"""The canvases a rulebook is drawn on: the plain one (the full-page PDF), and two that keep each page as a
form XObject and lay the forms out when the file is saved: two-up in saddle-stitch order on a sheet (the
booklet), or one to a page with bleed, TrimBox and BleedBox (the print-shop file).

Imposing by drawing each page as a form, rather than by reading a finished PDF back, keeps the booklet
ReportLab's own work: no PDF parser, the same fonts subset once, the same bytes every time.
"""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from deckwright.generator.render.pdf import PT_PER_MM


class RulebookCanvas(Canvas):
    """Writes the same bytes for the same input; ``before_save`` callbacks run when everything is drawn
    (they define what was referenced before it was known, such as page numbers in the contents)."""

    def __init__(self, *args, **kwargs):
        from reportlab import rl_config

        rl_config.useA85 = 0  # plain binary streams, as every PDF of deckwright (render.pdf.new_canvas)
        kwargs.update(invariant=1, pageCompression=1)
        super().__init__(*args, **kwargs)
        self.before_save: list = []

    def save(self):
        self.finish_drawing()
        for callback in self.before_save:
            callback(self)
        self.lay_out_pages()
        super().save()

    def finish_drawing(self) -> None:
        pass

    def lay_out_pages(self) -> None:
        pass


class PageFormCanvas(RulebookCanvas):
    """Each page platypus draws becomes a form XObject ``page<N>``; links, bookmarks and the outline are
    left out (they belong to a page, and these files are for printing)."""

    form_reach = 0.0  # mm the forms keep beyond the page edge (the bleed)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.page_forms: list[str] = []
        self._begin_page_form()

    def _begin_page_form(self) -> None:
        width, height = self._pagesize
        reach = self.form_reach * PT_PER_MM
        self.beginForm(f"page{len(self.page_forms) + 1}", -reach, -reach, width + reach, height + reach)

    def showPage(self):  # noqa: N802 (ReportLab's name)
        self.endForm()
        self.page_forms.append(f"page{len(self.page_forms) + 1}")
        self._pageNumber += 1
        self._begin_page_form()

    def finish_drawing(self) -> None:
        """Drop the form begun for a page that never came."""
        self._formData = None
        self._restartAccumulators()
        self.pop_state_stack()

    def _without_page_features(self, *args, **kwargs) -> None:
        """Links, bookmarks and outline entries belong to a page: inside a form they would be lost or invalid."""

    bookmarkPage = bookmarkHorizontal = bookmarkHorizontalAbsolute = addOutlineEntry = _without_page_features
    linkRect = linkAbsolute = linkURL = _without_page_features

    def _place(self, form: str, x: float, y: float, clip: tuple[float, float, float, float] | None) -> None:
        """Draw a page form with its page's lower-left corner at (x, y) points."""
        self.saveState()
        if clip is not None:
            path = self.beginPath()
            path.rect(*clip)
            self.clipPath(path, stroke=0, fill=0)
        self.translate(x, y)
        self.doForm(form)
        self.restoreState()

    def _show_sheet(self) -> None:
        Canvas.showPage(self)


def bound_pages(pages: int) -> int:
    """How many pages a saddle-stitched booklet of ``pages`` has: four to a folded sheet, the last ones blank."""
    return max(4, -(-pages // 4) * 4)


def saddle_stitch(pages: int) -> list[tuple[int | None, int | None]]:
    """The sides of the sheets of a saddle-stitched booklet, in printing order (front, back, front, ...),
    each as (left page, right page), 1-based; ``None`` is a blank page padding the count to a multiple of 4.

    Folded and nested, sheet 1 is the outside: its front holds the last page and page 1."""
    total = bound_pages(pages)
    sides = []
    for sheet in range(total // 4):
        sides.append((total - 2 * sheet, 1 + 2 * sheet))
        sides.append((2 + 2 * sheet, total - 1 - 2 * sheet))
    return [tuple(p if p <= pages else None for p in side) for side in sides]


def booklet_canvas(sheet_mm: tuple[float, float], bleed_mm: float = 0.0):
    """A canvas maker: pages two-up on landscape sheets of ``sheet_mm`` (width, height), folded at the middle.
    The page forms keep ``bleed_mm`` beyond the page edge (cut off on the sheet), so that the print-shop
    file can place the same forms with their bleed (``printshop``)."""

    class BookletCanvas(PageFormCanvas):
        form_reach = bleed_mm

        def lay_out_pages(self) -> None:
            page_w, page_h = self._pagesize
            sheet_w, sheet_h = sheet_mm[0] * PT_PER_MM, sheet_mm[1] * PT_PER_MM
            fold = sheet_w / 2
            y = (sheet_h - page_h) / 2
            self.setViewerPreference("Duplex", "DuplexFlipShortEdge")
            self.setViewerPreference("PrintScaling", "None")  # two A5 pages on A4 at actual size, not fitted
            self.setPageSize((sheet_w, sheet_h))
            for left, right in saddle_stitch(len(self.page_forms)):
                if left is not None:
                    self._place(f"page{left}", fold - page_w, y, (fold - page_w, y, page_w, page_h))
                if right is not None:
                    self._place(f"page{right}", fold, y, (fold, y, page_w, page_h))
                self._show_sheet()

    return BookletCanvas


def bleed_canvas(bleed_mm: float):
    """A canvas maker: each page on its own, grown by ``bleed_mm`` all round, with TrimBox and BleedBox, and
    blank pages to the booklet's count (a multiple of four, for saddle-stitch binding)."""

    class BleedCanvas(PageFormCanvas):
        form_reach = bleed_mm

        def lay_out_pages(self) -> None:
            page_w, page_h = self._pagesize
            b = bleed_mm * PT_PER_MM
            self.setPageSize((page_w + 2 * b, page_h + 2 * b))
            forms = self.page_forms
            for number in range(bound_pages(len(forms))):  # blank pages after the last, as in the booklet
                if number < len(forms):
                    self._place(forms[number], b, b, None)
                self.setTrimBox([b, b, b + page_w, b + page_h])
                self.setBleedBox([0, 0, page_w + 2 * b, page_h + 2 * b])
                self._show_sheet()

    return BleedCanvas
