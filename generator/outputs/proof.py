"""Proof sheets (``--target proof``): every card small, labelled, for proofreading and review meetings.

``print/proof.pdf`` on A4 or Letter: each deck in game.yaml's order, headed by its name, size and card count;
first its back (once), then its cards in the game's order (the deck PDFs' and the print-shop files'), each
drawn at PROOF_SCALE without bleed and labelled with its id, copies and type, and the ``file:line`` it is written
at (a spreadsheet's row). Cards in no deck come last. Twenty poker cards fit a page, five by four, on A4 and on Letter.
Round and hex pieces are cut to their shape; every piece has a hairline outline, so white cards show.
"""
from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.paper import paper_size
from deckwright.generator.layout.shapes import Shape, outline, shape_of
from deckwright.generator.render.pdf import PT_PER_MM, PdfPainter, finish_page, new_canvas
from deckwright.rules.data.model import Card, Deck, Game
from deckwright.rules.data.units import CARD_SIZES

from .print_pdfs import PageRuns
from .print_shapes import pdf_path

PROOF_SCALE = 0.56  # a poker card 35.6 x 49.8 mm: five by four on A4 and on Letter, labels included
MARGIN = 9.0
HEADER = 9.0  # the page's running head
HEADING = 8.0  # a deck's heading
GAP = 3.0  # between cells
LABEL_SIZE = 6.0  # points
LABEL_LINE = 2.4  # mm
LABEL = 3 * LABEL_LINE + 0.8  # the label under a card
REGULAR, BOLD = "Open Sans:regular", "Open Sans:bold"
INK, MUTED, RULE = "#222222", "#666666", "#bbbbbb"
SUBJECT = "every card small, labelled with its id, copies and where it is written"
RUN_PAGES = 100  # pages held at a time (2,000 poker cards; ReportLab keeps a canvas's pages until it is saved)


@dataclass(frozen=True)
class Cell:
    """One picture on the proof, a card's face or a deck's back (laid out as it is drawn: a proof of 20,000 cards
    would otherwise hold every card's display list), and its three label lines."""

    piece: Card | Deck
    shape: Shape
    lines: tuple[str, str, str]

    def display(self, faces: Faces) -> dl.DisplayList:
        return faces.front(self.piece) if isinstance(self.piece, Card) else faces.back(self.piece)


def _shown(loc, root: Path) -> str:
    """``file:line`` (a spreadsheet's row: ``monsters.csv:14``, ``cards.xlsx:Heroes!14:14``), the file relative to
    the game folder."""
    path = Path(loc.file)
    try:
        shown = path.resolve().relative_to(root).as_posix()
    except (OSError, ValueError):
        shown = path.name
    return f"{shown}:{loc.cell or loc.line}"


def _copies(card: Card) -> str:
    return f"\u00d7{card.copies}" if isinstance(card.copies, int) else "\u00d7? (open)"


def sections(game: Game) -> list[tuple[str, Shape, list[Cell]]]:
    """(heading, piece shape, cells) per deck, in game.yaml's order, then the cards in no deck."""
    out = []
    for deck in game.decks.values():
        cards = list(game.cards_in(deck.id))
        if not cards:
            continue
        shape = shape_of(deck.size)
        back = Cell(deck, shape, ("back", f"deck {deck.id}", _shown(deck.loc, game.root)))
        cells = [back] + [Cell(card, shape, (card.id, f"{_copies(card)} \u00b7 "
                                                                    f"{game.card_types[card.type].name}",
                                                          _shown(card.loc, game.root))) for card in cards]
        heading = f"{deck.name} \u00b7 {deck.size} \u00b7 {len(cards)} different, {game.deck_total(deck.id)} to print"
        out.append((heading, shape, cells))
    loose = [card for card in game.cards if card.deck not in game.decks]
    if loose:
        shape = Shape("rect", *CARD_SIZES["poker"])
        cells = [Cell(card, shape, (card.id, _copies(card), _shown(card.loc, game.root))) for card in loose]
        out.append((f"Not in a deck \u00b7 {len(loose)} cards", shape, cells))
    return out


class ProofPdf:
    """Writes the proof: sections flow down the pages, a deck's heading never alone at a page's foot.

    ReportLab keeps a canvas's pages until it is saved, so a proof written to a path is drawn in runs of
    ``run_pages`` pages joined into the file at the end, as home print does (``print_pdfs.PageRuns``,
    ``render.pdfjoin``); a proof of one run is written as it always was."""

    def __init__(self, game: Game, faces: Faces, paper: str, run_pages: int = RUN_PAGES):
        self.game = game
        self.faces = faces
        self.paper = paper_size(paper)
        self.run_pages = run_pages
        self.pages = 0
        self.title = f"{game.title}: proof"

    def write(self, target) -> int:
        """Writes the proof to a path (in runs) or a file object (held whole); returns its page count."""
        runs = PageRuns(Path(target), self.run_pages) if isinstance(target, (str, PathLike)) else None
        try:
            self._draw(target if runs is None else str(target), runs)
            if runs is not None:
                runs.join(self.pages, [], self.title, SUBJECT, duplex=False)
        finally:
            if runs is not None:
                runs.clean()
        return self.pages

    def _draw(self, target, runs: PageRuns | None) -> None:
        self.runs = runs
        self._open(target)
        self.y = None  # no page open
        for heading, shape, cells in sections(self.game):
            self._section(heading, shape, cells)
        if self.y is not None:
            self._end_page()
        self.canvas.save()

    def _open(self, target) -> None:
        self.canvas = new_canvas(target, self.paper, self.faces.fonts, self.title, SUBJECT)
        self.painter = PdfPainter(self.canvas, self.faces.fonts)

    # -- flow ----------------------------------------------------------------------

    def _section(self, heading: str, shape: Shape, cells: list[Cell]) -> None:
        width, height = shape.width * PROOF_SCALE, shape.height * PROOF_SCALE
        row = height + LABEL + GAP
        usable = self.paper[0] - 2 * MARGIN
        per_row = max(1, int((usable + GAP) // (width + GAP)))
        step = width + (usable - per_row * width) / max(per_row - 1, 1) if per_row > 1 else width
        step = min(step, width + 3 * GAP)
        if self.y is None or self.y + HEADING + row > self.paper[1] - MARGIN:
            self._new_page()
        self._text(MARGIN, self.y + 5.0, heading, BOLD, 8.0, INK)
        self.y += HEADING
        for start in range(0, len(cells), per_row):
            if self.y + row > self.paper[1] - MARGIN:
                self._new_page()
            for index, cell in enumerate(cells[start:start + per_row]):
                self._cell(MARGIN + index * step, self.y, cell, width)
            self.y += row
        self.y += GAP

    def _new_page(self) -> None:
        if self.y is not None:
            self._end_page()
        next_run = self.runs.turn(self.pages, self.canvas) if self.runs is not None else None
        if next_run is not None:  # the run drawn so far is full and saved: the next begun
            self._open(next_run)
        self.painter.set_page_size(*self.paper)
        self.pages += 1
        self._text(MARGIN, MARGIN - 2.0, f"{self.game.title}: proof", BOLD, 7.0, MUTED)
        self._text(self.paper[0] - MARGIN, MARGIN - 2.0, f"page {self.pages}", REGULAR, 7.0, MUTED, right=True)
        self.y = MARGIN + HEADER - 4.0

    def _end_page(self) -> None:
        finish_page(self.canvas)

    # -- drawing --------------------------------------------------------------------

    def _cell(self, x: float, y: float, cell: Cell, width: float) -> None:
        from reportlab.lib.colors import HexColor

        c, k, s = self.canvas, PT_PER_MM, PROOF_SCALE
        shape = cell.shape
        page_height = self.painter.page_height
        c.saveState()
        c.translate(x * k, (page_height - y) * k)
        c.scale(s, s)
        if shape.packed:
            c.clipPath(pdf_path(c, outline(shape), 0.0), stroke=0, fill=0)
        self.painter.page_height = 0.0  # the scaled frame's origin is the card's corner
        self.painter.place(cell.display(self.faces), 0.0, 0.0, clip=(0.0, 0.0, shape.width, shape.height))
        self.painter.page_height = page_height
        c.restoreState()
        c.saveState()
        c.translate(x * k, (page_height - y) * k)
        c.scale(s, s)
        c.setStrokeColor(HexColor(RULE))
        c.setLineWidth(0.25 / s)
        c.drawPath(pdf_path(c, outline(shape), 0.0), stroke=1, fill=0)
        c.restoreState()
        first, second, third = cell.lines
        top = y + shape.height * s + LABEL_LINE
        self._text(x, top, self._fit(first, BOLD, width), BOLD, LABEL_SIZE, INK)
        self._text(x, top + LABEL_LINE, self._fit(second, REGULAR, width), REGULAR, LABEL_SIZE, MUTED)
        self._text(x, top + 2 * LABEL_LINE, self._fit(third, REGULAR, width, keep_end=True), REGULAR, LABEL_SIZE, MUTED)

    def _fit(self, text: str, font: str, width: float, keep_end: bool = False) -> str:
        """The text cut with an ellipsis to ``width`` mm (a path keeps its end: the file name and line)."""
        limit = width * 72 / 25.4 / LABEL_SIZE
        if self.faces.fonts.width(font, text) <= limit:
            return text
        while len(text) > 1 and self.faces.fonts.width(font, "\u2026" + text) > limit:
            text = text[1:] if keep_end else text[:-1]
        return "\u2026" + text if keep_end else text + "\u2026"

    def _text(self, x: float, y: float, text: str, font: str, size: float, color: str, right: bool = False) -> None:
        from reportlab.lib.colors import HexColor

        c = self.canvas
        c.setFillColor(HexColor(color))
        c.setFont(font, size)
        draw = c.drawRightString if right else c.drawString
        draw(x * PT_PER_MM, (self.painter.page_height - y) * PT_PER_MM, text)


def write_proof(target, game: Game, faces: Faces, paper: str, run_pages: int = RUN_PAGES) -> int:
    """The proof PDF; returns its page count."""
    return ProofPdf(game, faces, paper, run_pages).write(target)
