"""Tokens and tiles in the print PDFs: pieces packed on home sheets with their outline as the cut line, and the
die-cut line for the print shop.

Home sheets (see ``generator.layout.shapes``): each round or hex piece is clipped to its outline grown by the
bleed, so neighbours' bleed bands touch without overlapping, and its cut line is drawn as its outline just
outside the trim: a thin black line on a slightly wider white one, visible on any art and never over the
card inside its trim. Back pages mirror the places and draw no cut lines (a back printed a little off must
not show one). Rectangles with rounded corners keep the card grid and its crop marks, with bleed between
the cards (each is cut on its own: none shares a cut line), and get their rounded outline as well.

``home`` below is the ``print_pdfs.HomePrint`` writing the PDF (not imported here: it imports this module).

Print shop: ``deck-<deck>-cut.pdf`` has a page for each page of ``deck-<deck>.pdf``, the same size and
boxes, holding only the die-cut path (the trim outline) stroked in the spot colour ``CutContour``, the name
cutters look for.
"""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.homefit import FOOT, piece_packing
from deckwright.generator.layout.paper import SHOP_BLEED
from deckwright.generator.layout.shapes import Packing, Shape, outline, shape_of
from deckwright.generator.render.pdf import PT_PER_MM, finish_page, new_canvas
from deckwright.rules.data.model import Deck, Game
from deckwright.rules.problems import Problem

CUT_OFFSET = 0.35  # the cut line's centre, outside the trim
CUT_WIDTH = 0.2
CUT_HALO = 0.5  # the white line under it
CUT_SPOT = "CutContour"


def pdf_path(canvas, commands, page_height: float):
    """Display-list path commands in page millimetres (y down) as a ReportLab path; with ``page_height`` 0, in a
    frame whose origin is the card's corner."""
    path = canvas.beginPath()
    k = PT_PER_MM
    for command in commands:
        op = command[0]
        if op == "M":
            path.moveTo(command[1] * k, (page_height - command[2]) * k)
        elif op == "L":
            path.lineTo(command[1] * k, (page_height - command[2]) * k)
        elif op == "C":
            path.curveTo(*(v * k if i % 2 == 0 else (page_height - v) * k for i, v in enumerate(command[1:])))
        else:
            path.close()
    return path


def cut_line(canvas, page_height: float, shape: Shape, x: float, y: float) -> None:
    """The piece's cut line, its box's corner at page (x, y): black on white, just outside the trim."""
    commands = outline(shape, CUT_OFFSET, x, y)
    canvas.saveState()
    canvas.setLineJoin(1)
    for color, width in (((1, 1, 1), CUT_HALO), ((0, 0, 0), CUT_WIDTH)):
        canvas.setStrokeColorRGB(*color)
        canvas.setLineWidth(width * PT_PER_MM)
        canvas.drawPath(pdf_path(canvas, commands, page_height), stroke=1, fill=0)
    canvas.restoreState()


def _packing(home, shape: Shape, deck: Deck) -> tuple[Packing, tuple[float, float]]:
    best = piece_packing(home.job.paper, shape)
    if best is None:
        home.does_not_fit(Problem(deck.loc, f"deck '{deck.id}' ({deck.size}) does not fit on {home.job.paper} paper "
                                            "with bleed"))
    return best


@dataclass(frozen=True)
class PackedPages:
    """Round or hex pieces packed on a page (``print_pdfs._GridPages`` is the same for cards): where each goes,
    clipped to its outline grown by the bleed, its cut line on fronts, and the ruler."""

    home: object  # the HomePrint writing the PDF
    packing: Packing
    paper: tuple[float, float]

    @property
    def per_page(self) -> int:
        return self.packing.per_page

    def place(self, index: int, face: dl.DisplayList, key, mirrored: bool) -> None:
        home, packing = self.home, self.packing
        x, y = packing.place(index, mirrored)
        canvas = home.canvas
        canvas.saveState()
        canvas.clipPath(pdf_path(canvas, outline(packing.shape, packing.bleed, x, y), home.painter.page_height),
                        stroke=0, fill=0)
        home.painter.place(face, x, y, form_key=key)
        canvas.restoreState()
        if not mirrored:
            cut_line(canvas, self.paper[1], packing.shape, x, y)

    def furniture(self, label: str, mirrored: bool, filled: int) -> None:
        from deckwright.generator.layout.impose import RULER_LENGTH

        self.home._ruler((self.paper[0] - RULER_LENGTH) / 2, self.paper[1] - FOOT + 3.0, False, label)


def packed_pages(home, deck: Deck) -> PackedPages:
    """Where a deck of round or hex pieces goes on home sheets."""
    return PackedPages(home, *_packing(home, shape_of(deck.size), deck))


def write_cutline_pdf(target, game: Game, deck: Deck, backs: bool) -> int:
    """The die-cut path for each page of the deck's print-shop PDF (same pages, same boxes)."""
    from reportlab.lib.colors import CMYKColorSep

    shape = shape_of(deck.size)
    b = SHOP_BLEED
    size = (shape.width + 2 * b, shape.height + 2 * b)
    from deckwright.generator.layout.fonts import shipped_fonts

    canvas = new_canvas(target, size, shipped_fonts(), f"{game.title}: {deck.name}, die-cut line",
                        f"print-shop die-cut path ({CUT_SPOT}), one page per page of deck-{deck.id}.pdf")
    spot = CMYKColorSep(0, 1, 0, 0, spotName=CUT_SPOT, density=1)
    pages = game.deck_total(deck.id) * (2 if backs else 1)
    k = PT_PER_MM
    for _ in range(pages):
        canvas.setPageSize((size[0] * k, size[1] * k))
        canvas.setStrokeColor(spot)
        canvas.setLineWidth(0.25)  # points: a hairline, as cutters expect
        canvas.drawPath(pdf_path(canvas, outline(shape, 0.0, b, b), size[1]), stroke=1, fill=0)
        canvas.setTrimBox([b * k, b * k, (size[0] - b) * k, (size[1] - b) * k])
        canvas.setBleedBox([0, 0, size[0] * k, size[1] * k])
        finish_page(canvas)
    canvas.save()
    return pages
