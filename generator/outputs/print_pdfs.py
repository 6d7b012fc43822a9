"""Print-and-play and print-shop PDFs of a game's decks and sheets.

Home print: cards imposed on A4 or US Letter (see ``generator.layout.impose``) with
crop marks and a 50 mm calibration ruler on every page; each front page is
followed by its back page, columns mirrored for long-edge duplex. Sheets the
size of a paper page fill the page inside a margin; smaller ones are imposed
like cards.

Print shop: one card per page, the page being the card plus 1/8 in bleed,
with TrimBox and BleedBox set; each front followed by its back.
"""
from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.homefit import card_grid
from deckwright.generator.layout.impose import RULER_DEPTH, RULER_LENGTH, Grid
from deckwright.generator.layout.paper import (
    HOME_BLEED,
    PAGE_FOOT,
    PAGE_MARGIN,
    SHOP_BLEED,
    is_page_sheet,
    page_sheet_area,
    paper_size,
)
from deckwright.generator.layout.shapes import Shape, shape_of
from deckwright.generator.render.pdf import PT_PER_MM, PdfPainter, finish_page, new_canvas
from deckwright.generator.render.pdfjoin import Part, join_pdfs
from deckwright.rules.data.model import Deck, Game, Sheet
from deckwright.rules.problems import Problem

from .print_shapes import cut_line, packed_pages

MARK_WIDTH = 0.25  # mm
MARK_HALO = 0.6  # the white line under a crop mark
CHUNK_PAGES = 400  # pages of a home-print file held at a time (about 6 MB: ReportLab keeps them until saved)
# pages of a print-shop file held at a time: one card a page, so small pages (a 3,000-card print shop's main
# process peaked at 78 MB with runs of 1,000 pages, 77 MB with 400, which embed the font subsets 2.5x as often)
SHOP_RUN_PAGES = 1000
RULER_FONT = "Open Sans:regular"


@dataclass(frozen=True)
class PrintJob:
    """What goes into one home-print PDF."""

    title: str
    decks: tuple[Deck, ...]
    sheets: tuple[Sheet, ...]
    paper: str
    backs: bool


def ruler_display(label: str) -> dl.DisplayList:
    """The 50 mm calibration ruler: ten alternating 5 mm segments under a short label."""
    bar_y, bar_h = RULER_DEPTH - 1.3, 1.3
    items: list = [dl.Rect(0, bar_y, RULER_LENGTH, bar_h, "#ffffff", "#000000", 0.15)]
    for i in range(0, 10, 2):
        items.append(dl.Rect(i * 5.0, bar_y, 5.0, bar_h, "#000000"))
    items.append(dl.Text(0, bar_y - 0.7, label, RULER_FONT, 5.0, "#000000"))
    return dl.DisplayList("ruler", RULER_LENGTH, RULER_DEPTH, 0.0, tuple(items))


class PrintError(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems


class HomePrint:
    """Writes one home-print PDF; decks and sheets are drawn page by page, nothing kept but the current card.

    ReportLab keeps every page of a canvas until the file is saved, so a file written to a path is drawn in
    runs of ``chunk_pages`` pages, each saved on its own beside the target and the runs joined into the target
    (``render.pdfjoin``): at most a run's pages are held. A file of one run is written as it always was; a
    joined one embeds each font subset once a run (about 60 KB a run for bench_pdf's deck of four fonts)."""

    def __init__(self, game: Game, faces: Faces, job: PrintJob, chunk_pages: int = CHUNK_PAGES):
        self.game = game
        self.faces = faces
        self.job = job
        self.chunk_pages = chunk_pages

    def write(self, target) -> int:
        """Writes the PDF to a path or file object (held whole: no runs); returns the number of pages."""
        self.pages = 0
        self.outline: list[tuple[str, int]] = []  # (title, page index): the bookmarks written, for join_pdfs
        if not isinstance(target, (str, PathLike)):
            self._draw(target, None)
            return self.pages
        runs = PageRuns(Path(target), self.chunk_pages)
        try:
            self._draw(str(target), runs)
            self.canvas.save()
            runs.join(self.pages, self.outline, self.job.title, f"{self.game.title}: print and play",
                      self.job.backs)
        finally:
            runs.clean()
        return self.pages

    def _draw(self, target, runs: "PageRuns | None") -> None:
        job = self.job
        self.runs = runs
        self._open(target)
        self.drawn: set[str] = set()  # the ids of the cards whose fronts were laid out
        self.backs_drawn: set[str] = set()  # the ids of the decks whose backs were
        for deck in job.decks:
            self._outline(deck.name, f"deck-{deck.id}")
            self._deck(deck)
        small: dict[tuple[float, float], list[Sheet]] = {}
        for sheet in job.sheets:
            if is_page_sheet(sheet):
                self._outline(sheet.name, f"sheet-{sheet.id}")
                for _ in range(sheet.copies):
                    self._page_sheet(sheet)
            else:
                small.setdefault((sheet.size.width, sheet.size.height), []).extend([sheet] * sheet.copies)
        for size, sheets in small.items():  # sheets smaller than a page share pages, like cards
            self._outline(sheets[0].name, f"sheet-{sheets[0].id}")
            self._small_sheets(size, sheets)
        if runs is None:
            self.canvas.save()

    def _open(self, target) -> None:
        job = self.job
        canvas = new_canvas(target, paper_size(job.paper), self.faces.fonts, job.title,
                            f"{self.game.title}: print and play", every_font=False)
        canvas.setViewerPreference("PrintScaling", "None")  # print dialogs offer actual size, not fit to page
        if job.backs:
            canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
        self.canvas = canvas
        self.painter = PdfPainter(canvas, self.faces.fonts)

    def _outline(self, title: str, key: str) -> None:
        self._pending_outline = (title, key)

    def _start_page(self, size: tuple[float, float]) -> None:
        next_run = self.runs.turn(self.pages, self.canvas) if self.runs is not None else None
        if next_run is not None:  # the run drawn so far is full and saved: the next begun
            self._open(next_run)
        self.painter.set_page_size(*size)
        if getattr(self, "_pending_outline", None):
            title, key = self._pending_outline
            self.canvas.bookmarkPage(key)
            self.canvas.addOutlineEntry(title, key, level=0)
            self.outline.append((title, self.pages))
            self._pending_outline = None

    def _end_page(self) -> None:
        finish_page(self.canvas)
        self.pages += 1

    def _grid(self, size: tuple[float, float], loc, what: str, rounded: bool = False) -> tuple[Grid, tuple[float, float]]:
        found = card_grid(self.job.paper, size, rounded)
        if found is not None:
            return found
        raise PrintError([Problem(loc, f"{what} ({size[0]:g} x {size[1]:g} mm) does not fit on {self.job.paper} paper "
                                       f"with bleed and crop marks")])

    def does_not_fit(self, problem: Problem) -> None:
        raise PrintError([problem])

    def _deck(self, deck: Deck) -> None:
        total = self.game.deck_total(deck.id)
        shape = shape_of(deck.size)
        if shape.packed:  # round tokens and hex tiles: packed, their outlines as cut lines
            pages_of = packed_pages(self, deck)
        else:
            grid, paper = self._grid((deck.size.width, deck.size.height), deck.loc, f"deck '{deck.id}'",
                                     rounded=shape.outlined)
            pages_of = _GridPages(self, grid, paper, shape)
        if total == 0:
            return
        back = self.faces.back(deck, HOME_BLEED) if self.job.backs else None
        if back is not None:
            self.backs_drawn.add(deck.id)
        pages = -(-total // pages_of.per_page)
        cards = self.game.printed_cards(deck.id)
        last: tuple[str, dl.DisplayList] | None = None
        for page in range(pages):
            chunk = list(itertools.islice(cards, pages_of.per_page))
            self._start_page(pages_of.paper)
            for index, card in enumerate(chunk):
                if last is None or last[0] != card.id:
                    last = (card.id, self.faces.front(card, HOME_BLEED))
                    self.drawn.add(card.id)
                key = ("face", deck.id, card.id) if card.count > 1 else None
                pages_of.place(index, last[1], key, mirrored=False)
            pages_of.furniture(f"{deck.name}: fronts {page + 1}/{pages}", mirrored=False, filled=len(chunk))
            self._end_page()
            if back is not None:
                self._start_page(pages_of.paper)
                for index in range(len(chunk)):
                    pages_of.place(index, back, ("back", deck.id), mirrored=True)
                pages_of.furniture(f"{deck.name}: backs {page + 1}/{pages}", mirrored=True, filled=len(chunk))
                self._end_page()

    def _place(self, grid: Grid, index: int, face: dl.DisplayList, key, mirrored: bool) -> None:
        col, row = grid.slot(index, mirrored)
        x, y = grid.trim_origin(col, row)
        self.painter.place(face, x, y, clip=grid.visible(col, row), form_key=key)

    def _furniture(self, grid: Grid, label: str, mirrored: bool, filled: int | None = None) -> None:
        """Crop marks around the ``filled`` slots and the ruler (mirrored on back pages, so both sides of a sheet
        match)."""
        c = self.canvas
        ruler = grid.ruler()
        pw, ph = grid.paper
        marks = grid.marks(ruler, filled)
        c.saveState()
        # black on white: a mark running over the outer bleed (in a narrow margin) shows on any art
        for color, width in (((1, 1, 1), MARK_HALO), ((0, 0, 0), MARK_WIDTH)):
            c.setStrokeColorRGB(*color)
            c.setLineWidth(width * PT_PER_MM)
            for mark in marks:
                x1, x2 = (pw - mark.x1, pw - mark.x2) if mirrored else (mark.x1, mark.x2)
                c.line(x1 * PT_PER_MM, (ph - mark.y1) * PT_PER_MM, x2 * PT_PER_MM, (ph - mark.y2) * PT_PER_MM)
        c.restoreState()
        if ruler is None:
            return
        x, y = ruler.x, ruler.y
        if mirrored:
            x = pw - x - (RULER_DEPTH if ruler.vertical else RULER_LENGTH)
        self._ruler(x, y, ruler.vertical, label)

    def _ruler(self, x: float, y: float, vertical: bool, label: str) -> None:
        display = ruler_display(f"50 mm at 100% scale \u00b7 {label}" if len(label) < 40 else "50 mm at 100% scale")
        if not vertical:
            self.painter.place(display, x, y)
            return
        c = self.canvas
        c.saveState()
        c.translate((x + RULER_DEPTH) * PT_PER_MM, (self.painter.page_height - y) * PT_PER_MM)
        c.rotate(-90)
        page_height = self.painter.page_height
        self.painter.page_height = 0.0  # the rotated frame's origin is the ruler's corner
        self.painter.place(display, 0.0, 0.0)
        self.painter.page_height = page_height
        c.restoreState()

    def _small_sheets(self, size: tuple[float, float], sheets: list[Sheet]) -> None:
        grid, paper = self._grid(size, sheets[0].loc, f"sheet '{sheets[0].id}'")
        for first in range(0, len(sheets), grid.per_page):
            self._start_page(paper)
            chunk = sheets[first:first + grid.per_page]
            for index, sheet in enumerate(chunk):
                key = ("sheet", sheet.id) if sheet.copies > 1 else None
                self._place(grid, index, self.faces.sheet(sheet, bleed=HOME_BLEED), key, mirrored=False)
            self._furniture(grid, ", ".join(dict.fromkeys(sheet.name for sheet in chunk)), mirrored=False,
                            filled=len(chunk))
            self._end_page()

    def _page_sheet(self, sheet: Sheet) -> None:
        paper, area = page_sheet_area(sheet, self.job.paper)
        display = self.faces.sheet(sheet, *area, paper=self.job.paper)
        self._start_page(paper)
        self.painter.place(display, PAGE_MARGIN, PAGE_MARGIN)
        self._ruler((paper[0] - RULER_LENGTH) / 2, paper[1] - PAGE_FOOT + 2.0, False, sheet.name)
        self._end_page()


class PageRuns:
    """The runs of pages of one PDF (home print, print shop, proof): the first is drawn into the target itself;
    when a second begins, the first is moved into a folder beside the target, each run saved there as a file of
    its own, and at the end they are joined into the target."""

    def __init__(self, target: Path, run_pages: int):
        self.target = target
        self.run_pages = run_pages
        self.in_run = 0  # pages begun in the run being drawn
        self.folder: Path | None = None
        self.files: list[Path] = []
        self.firsts: list[int] = []  # the index in the whole file of each run's first page

    def turn(self, page: int, canvas) -> str | None:
        """Page ``page`` (its index in the whole file) begins: when the run being drawn on ``canvas`` is full, that
        canvas saved and where the next run is drawn (the caller opens a canvas there), else None."""
        if self.in_run < self.run_pages:
            self.in_run += 1
            return None
        canvas.save()
        self.in_run = 1
        return self.next_target(page)

    def next_target(self, first_page: int) -> str:
        """Where the run beginning at page ``first_page`` is saved (the previous one saved already)."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix=".runs-", dir=self.target.parent))
            self.files.append(self.folder / "run-0001.pdf")
            self.firsts.append(0)
            os.replace(self.target, self.files[0])
        self.files.append(self.folder / f"run-{len(self.files) + 1:04d}.pdf")
        self.firsts.append(first_page)
        return str(self.files[-1])

    def join(self, pages: int, outline: list[tuple[str, int]], title: str, subject: str, duplex: bool) -> None:
        """The saved runs joined into the target, the bookmarks pointing at their pages (one run: written there)."""
        if not self.files:
            return
        parts = []
        for path, first, end in zip(self.files, self.firsts, [*self.firsts[1:], pages]):
            parts.append(Part(path, tuple((name, index - first) for name, index in outline if first <= index < end)))
        join_pdfs(parts, self.target, title, subject, duplex=duplex)

    def clean(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(frozen=True)
class _GridPages:
    """Cards on the card grid (``print_shapes.PackedPages`` is the same for tokens and tiles): where each goes,
    and the crop marks, ruler and (rounded corners) cut lines of a page."""

    home: HomePrint
    grid: Grid
    paper: tuple[float, float]
    shape: Shape

    @property
    def per_page(self) -> int:
        return self.grid.per_page

    def place(self, index: int, face: dl.DisplayList, key, mirrored: bool) -> None:
        self.home._place(self.grid, index, face, key, mirrored)
        if self.shape.outlined and not mirrored:  # rounded corners
            cut_line(self.home.canvas, self.paper[1], self.shape, *self.grid.trim_origin(*self.grid.slot(index)))

    def furniture(self, label: str, mirrored: bool, filled: int) -> None:
        self.home._furniture(self.grid, label, mirrored, filled)


def write_printshop_pdf(target, game: Game, faces: Faces, deck: Deck, backs: bool,
                        run_pages: int = SHOP_RUN_PAGES) -> int:
    """One card per page (copies repeated), each front followed by its back; returns the page count."""
    b = SHOP_BLEED
    size = (deck.size.width + 2 * b, deck.size.height + 2 * b)
    back = faces.back(deck, b) if backs else None
    with _ShopPages(target, size, faces, f"{game.title}: {deck.name}",
                    "print-shop file: one card per page, 1/8 in bleed", run_pages) as shop:
        last: tuple[str, dl.DisplayList] | None = None
        for card in game.printed_cards(deck.id):
            if last is None or last[0] != card.id:
                last = (card.id, faces.front(card, b))
            shop.page(last[1], size, ("face", card.id) if card.count > 1 else None)
            if back is not None:
                shop.page(back, size, ("back",))
    return shop.pages


def write_printshop_sheets(target, game: Game, faces: Faces, sheets: list[Sheet],
                           run_pages: int = SHOP_RUN_PAGES) -> int:
    b = SHOP_BLEED
    first = sheets[0].size
    with _ShopPages(target, (first.width + 2 * b, first.height + 2 * b), faces, f"{game.title}: sheets",
                    "print-shop file: one sheet per page, 1/8 in bleed", run_pages) as shop:
        for sheet in sheets:
            size = (sheet.size.width + 2 * b, sheet.size.height + 2 * b)
            display = faces.sheet(sheet, bleed=b)
            for _ in range(sheet.copies):
                shop.page(display, size, ("sheet", sheet.id) if sheet.copies > 1 else None)
    return shop.pages


class _ShopPages:
    """The pages of one print-shop file, one face a page, drawn (like ``HomePrint``'s) in runs of ``run_pages``
    pages, each saved beside the target and the runs joined into it when the block ends: a file of one run is
    written as it always was. A file object target is written whole."""

    def __init__(self, target, size: tuple[float, float], faces: Faces, title: str, subject: str, run_pages: int):
        self.first_size, self.faces, self.title, self.subject = size, faces, title, subject
        self.runs = PageRuns(Path(target), run_pages) if isinstance(target, (str, PathLike)) else None
        self.pages = 0
        self._open(str(target) if self.runs is not None else target)

    def _open(self, target) -> None:
        self.canvas = new_canvas(target, self.first_size, self.faces.fonts, self.title, self.subject, every_font=False)
        self.painter = PdfPainter(self.canvas, self.faces.fonts)

    def page(self, display: dl.DisplayList, size: tuple[float, float], key) -> None:
        next_run = self.runs.turn(self.pages, self.canvas) if self.runs is not None else None
        if next_run is not None:  # the run drawn so far is full and saved: the next begun
            self._open(next_run)
        _shop_page(self.canvas, self.painter, display, size, key)
        self.pages += 1

    def __enter__(self) -> "_ShopPages":
        return self

    def __exit__(self, kind, *_) -> None:
        try:
            if kind is None:
                self.canvas.save()
                if self.runs is not None:
                    self.runs.join(self.pages, [], self.title, self.subject, duplex=False)
        finally:
            if self.runs is not None:
                self.runs.clean()


def _shop_page(canvas, painter: PdfPainter, display: dl.DisplayList, size: tuple[float, float], key) -> None:
    b = display.bleed
    painter.set_page_size(*size)
    painter.place(display, b, b, form_key=key)
    k = PT_PER_MM
    canvas.setTrimBox([b * k, b * k, (size[0] - b) * k, (size[1] - b) * k])
    canvas.setBleedBox([0, 0, size[0] * k, size[1] * k])
    finish_page(canvas)
