"""The build step for printing: home-print PDFs, print-shop PDFs and 300 dpi PNGs under ``<game>/print/``.

    print/deck-<deck>.pdf       one per deck: fronts and (mirrored) backs on A4 or Letter
    print/sheets.pdf            the game's sheets (mats, play aids)
    print/everything.pdf        all decks and sheets in one file
    print/proof.pdf             every card small and labelled, for proofreading (--target proof)
    print/printshop/deck-<deck>.pdf     one card per page, 1/8 in bleed, TrimBox and BleedBox
    print/printshop/deck-<deck>-cut.pdf the die-cut path of each page (tokens, tiles, rounded corners)
    print/printshop/sheets.pdf
    print/printshop/<deck>/NN-<card>.png and back.png    300 dpi with bleed
    print/printshop/cards.csv   every PNG with the number of copies to order
    print/rulebook.pdf, rulebook-booklet.pdf, printshop/rulebook.pdf    the rulebook (``outputs.rulebook``)
"""
from __future__ import annotations

import csv
from pathlib import Path

from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.paper import SHOP_BLEED
from deckwright.generator.layout.shapes import shape_of
from deckwright.rules.problems import InvalidGame

from .print_pdfs import HomePrint, PrintError, PrintJob, write_printshop_pdf, write_printshop_sheets
from .print_shapes import write_cutline_pdf
from .proof import write_proof
from .rulebook import rulebooks_beside

PNG_DPI = 300


def step_print(game, folder: Path, options, faces: Faces, report) -> list:
    """Writes the print files (what drawing the faces found is in ``faces.problems``)."""
    if options.target not in ("all", "home", "printshop", "proof"):
        return None
    try:
        with rulebooks_beside(game, faces, report.examples, folder / "print", options.paper,
                              home=options.target in ("all", "home"), printshop=options.target in ("all", "printshop")):
            _build(game, faces, folder / "print", options)
    except (LayoutError, PrintError) as exc:
        raise InvalidGame(exc.problems) from None
    return None


def _build(game, faces: Faces, out: Path, options) -> None:
    decks = tuple(deck for deck in game.decks.values() if game.deck_total(deck.id) > 0)
    sheets = tuple(game.sheets.values())
    out.mkdir(parents=True, exist_ok=True)
    if options.target in ("all", "home"):
        for deck in decks:
            job = PrintJob(f"{game.title}: {deck.name}", (deck,), (), options.paper, options.backs)
            HomePrint(game, faces, job).write(str(out / f"deck-{deck.id}.pdf"))
        if sheets:
            job = PrintJob(f"{game.title}: sheets", (), sheets, options.paper, False)
            HomePrint(game, faces, job).write(str(out / "sheets.pdf"))
        job = PrintJob(f"{game.title}: print and play", decks, sheets, options.paper, options.backs)
        HomePrint(game, faces, job).write(str(out / "everything.pdf"))
    if options.target in ("all", "printshop"):
        _printshop(game, faces, decks, sheets, out / "printshop", options.backs)
    if options.target in ("all", "proof"):
        write_proof(str(out / "proof.pdf"), game, faces, options.paper)


def _printshop(game, faces: Faces, decks, sheets, out: Path, backs: bool) -> None:
    from deckwright.generator.render.raster import save_pngs

    out.mkdir(parents=True, exist_ok=True)
    pngs = []  # (display list, path): laid out here, drawn side by side below
    rows = [("deck", "file", "copies", "card")]
    for deck in decks:
        write_printshop_pdf(str(out / f"deck-{deck.id}.pdf"), game, faces, deck, backs)
        if shape_of(deck.size).outlined:  # tokens, tiles, rounded corners: the die-cut path beside it
            write_cutline_pdf(str(out / f"deck-{deck.id}-cut.pdf"), game, deck, backs)
        images = out / deck.id
        images.mkdir()
        for number, card in enumerate(game.cards_in(deck.id), start=1):
            name = f"{number:02d}-{card.id}.png"
            pngs.append((faces.front(card, SHOP_BLEED), images / name))
            rows.append((deck.id, f"{deck.id}/{name}", str(card.count), card.name))
        if backs:
            pngs.append((faces.back(deck, SHOP_BLEED), images / "back.png"))
            rows.append((deck.id, f"{deck.id}/back.png", str(game.deck_total(deck.id)), "back"))
    save_pngs(pngs, faces.fonts, PNG_DPI)
    if sheets:
        write_printshop_sheets(str(out / "sheets.pdf"), game, faces, list(sheets))
    with open(out / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
