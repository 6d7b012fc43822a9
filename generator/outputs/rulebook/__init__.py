"""The printable rulebook: a game's rulebook pages as PDFs, from the same parsed Markdown, card tables and
worked examples as the site.

    print/rulebook.pdf            A4 or Letter pages, with links, bookmarks and page numbers in the contents
    print/rulebook-booklet.pdf    A5 pages (half-letter on Letter) two-up on the sheet in saddle-stitch order,
                                  padded with blank pages to a multiple of 4; print duplex, flip on the short edge
    print/printshop/rulebook.pdf  the same A5 / half-letter pages one by one, 1/8 in bleed, TrimBox and BleedBox

Modules: ``parsed`` (the pages read once), ``theme`` (geometry, palette, styles), ``inline`` and ``prose``
(Markdown elements to flowables), ``panels`` (tables and boxes), ``settext`` (table cells set like card
text), ``examples`` (worked-example panels), ``pictures`` (card faces), ``flow`` (keeping and floating),
``matter`` (cover, contents, appendices, index), ``document`` (the single layout pass), ``canvases``
(booklet and bleed imposition), ``printshop`` (the print-shop file from the booklet's page forms),
``beside`` (a worker process writing them while the build draws the card PDFs). May
import ``generator.book``, ``generator.render``, ``generator.layout`` and ``deckwright.rules``.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from reportlab.platypus import NextPageTemplate, PageBreak

from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.paper import paper_size
from deckwright.generator.parallel import run_beside
from deckwright.generator.render.pdf import PT_PER_MM
from deckwright.rules.data.model import Game

from ..rulebook_files import BOOKLET, FULL, PRINTSHOP
from .canvases import RulebookCanvas, bleed_canvas, booklet_canvas
from .document import RulebookDoc
from .matter import Cover, appendices, back_entries, chapter_entries, contents, index_of_cards
from .parsed import ParsedBook
from .printshop import printshop_pages
from .prose import PageFlow
from .theme import BLEED, Geometry, Theme, book_page, full_page


def verdict_line(book: ParsedBook) -> str:
    """What the cover says of the book's worked examples."""
    views = [view for _, view in book.examples]
    if not views:
        return "Made with deckwright"
    counts = {v: sum(1 for view in views if view.verdict == v) for v in ("verified", "erratum", "failing", "unchecked")}
    if counts["unchecked"] == len(views):
        return (f"{len(views)} worked example{'s' * (len(views) != 1)}, not replayed (the game has no rules module "
                "yet) \u00b7 made with deckwright")
    parts = [f"{counts['verified']} verified" if counts["verified"] else "",
             f"{counts['erratum']} known errat{'um' if counts['erratum'] == 1 else 'a'}" if counts["erratum"] else "",
             f"{counts['failing']} failing" if counts["failing"] else ""]
    return (f"{len(views)} worked example{'s' * (len(views) != 1)}, each replayed by the rules engine: "
            + ", ".join(p for p in parts if p) + " \u00b7 made with deckwright")


PRINTSHOP_KIND = "rulebook, print-shop pages"


def story(book: ParsedBook, theme: Theme) -> list:
    width = theme.geometry.text_width * 72 / 25.4
    flowables: list = [Cover(book, theme, verdict_line(book)), NextPageTemplate("body"), PageBreak()]
    flowables += contents(chapter_entries(book) + back_entries(book), theme)
    flowables.append(PageBreak())
    for page in book.pages:
        flowables += PageFlow(book, theme, page, width).flowables()
    flowables += appendices(book, theme)
    flowables += index_of_cards(book, theme)
    return flowables


def lay_out(book: ParsedBook, geometry: Geometry, target, canvasmaker=RulebookCanvas,
            kind: str = "rulebook") -> RulebookDoc:
    """The book laid out and drawn in one format into ``target`` (a path or a file object)."""
    theme = Theme(book.game, geometry, book.faces.fonts)
    title = book.game.title
    doc = RulebookDoc(target, theme, f"{title}: {kind}",
                      f"The rules of {title}, with worked examples replayed by deckwright's rules engine", title)
    doc.build(story(book, theme), canvasmaker=canvasmaker)
    return doc


def write_rulebooks(game: Game, faces: Faces, results: list, out: Path, paper: str, home: bool = True,
                    printshop: bool = True) -> list[Path]:
    """The rulebook PDFs of ``game`` under ``out`` (a game's ``print/`` folder); ``results`` are its replayed
    examples (``rules.book.examples.ExampleResult``). Returns the files written (none for a game without
    rulebook pages). The booklet and the print-shop file share one layout and one drawing of the half-size
    pages (``printshop``)."""
    if not game.pages or not (home or printshop):
        return []
    book = ParsedBook(game, faces, results)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if home:
        lay_out(book, full_page(paper), out / FULL)
        lay_out(book, book_page(paper), out / BOOKLET,
                booklet_canvas(paper_size(paper, landscape=True), BLEED), "rulebook booklet")
        written += [out / FULL, out / BOOKLET]
    if printshop:
        (out / "printshop").mkdir(exist_ok=True)
        shop = out / "printshop" / PRINTSHOP
        if home:  # the booklet's page forms, placed one to a page: not drawn again
            page = book_page(paper).page_pt
            shop.write_bytes(printshop_pages((out / BOOKLET).read_bytes(), page, BLEED * PT_PER_MM,
                                             f"{game.title}: {PRINTSHOP_KIND}"))
        else:
            lay_out(book, book_page(paper), shop, bleed_canvas(BLEED), PRINTSHOP_KIND)
        written.append(shop)
    return written


@contextmanager
def rulebooks_beside(game: Game, faces: Faces, results: list, out: Path, paper: str, home: bool = True,
                     printshop: bool = True) -> Iterator[None]:
    """``write_rulebooks`` run while the block runs; its errors are raised when the block ends. The worker
    (``generator.parallel.run_beside``) starts with the game, its compiled layouts and fonts already in memory,
    so on a machine with a core to spare the rulebooks' wall-clock cost hides behind the card PDFs drawn
    meanwhile; it collects no garbage, as it lives for one game's rulebooks."""
    if not game.pages or not (home or printshop):
        yield
        return
    job = partial(write_rulebooks, game, faces, results, out, paper, home, printshop)
    with run_beside(job, "rulebook worker"):
        yield
