"""The build step for printing: home-print PDFs, print-shop PDFs and 300 dpi PNGs under ``<game>/print/``.

    print/deck-<deck>.pdf       one per deck: fronts and (mirrored) backs on A4 or Letter
    print/sheets.pdf            the game's sheets (mats, play aids)
    print/everything.pdf        all decks and sheets in one file: their pages, joined (render.pdfjoin)
    print/proof.pdf             every card small and labelled, for proofreading (--target proof)
    print/printshop/deck-<deck>.pdf     one card per page, 1/8 in bleed, TrimBox and BleedBox
    print/printshop/deck-<deck>-cut.pdf the die-cut path of each page (tokens, tiles, rounded corners)
    print/printshop/sheets.pdf
    print/printshop/<deck>/NN-<card>.png and back.png    300 dpi with bleed
    print/printshop/cards.csv   every PNG with the number of copies to order
    print/rulebook.pdf, rulebook-booklet.pdf, printshop/rulebook.pdf    the rulebook (``outputs.rulebook``), written
        beside every step of the game by the build (``build.rulebooks_beside_steps``)
"""
from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass
from pathlib import Path

from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.paper import SHOP_BLEED
from deckwright.generator.layout.shapes import shape_of
from deckwright.generator.render.pdfjoin import Part, join_pdfs
from deckwright.rules.problems import InvalidGame

from .print_pdfs import HomePrint, PrintError, PrintJob, write_printshop_pdf, write_printshop_sheets
from .print_shapes import write_cutline_pdf
from .proof import write_proof

PNG_DPI = 300


def step_print(game, folder: Path, options, faces: Faces, report) -> list:
    """Writes the print files (what drawing the faces found is in ``faces.problems``)."""
    if options.target not in ("all", "home", "printshop", "proof"):
        return None
    try:
        _build(game, faces, folder / "print", options)
    except (LayoutError, PrintError) as exc:
        raise InvalidGame(exc.problems) from None
    return None


def _build(game, faces: Faces, out: Path, options) -> None:
    decks = printed_decks(game)
    sheets = tuple(game.sheets.values())
    out.mkdir(parents=True, exist_ok=True)
    if options.target in ("all", "home"):
        _home(game, faces, decks, sheets, out, options)
    if options.target in ("all", "printshop"):
        _printshop(game, faces, decks, sheets, out / "printshop", options.backs)
    if options.target in ("all", "proof"):
        write_proof(str(out / "proof.pdf"), game, faces, options.paper)


def _home(game, faces: Faces, decks, sheets, out: Path, options) -> None:
    """A PDF per deck, one of the sheets, and everything.pdf joined from their finished pages (each card is
    laid out and drawn once): the files the build's check drew (``options.home_draft``) moved in, when it did."""
    draft = getattr(options, "home_draft", None)
    if draft is None:
        draft = draw_home(game, faces, decks, sheets, out, options.paper, options.backs)
    parts = [Part(out / part.path.name, part.outline) for part in draft.parts]
    for part, moved in zip(draft.parts, parts):
        if part.path != moved.path:
            shutil.move(part.path, moved.path)
    title = f"{game.title}: print and play"
    if not parts:  # nothing to print: the empty file HomePrint writes
        HomePrint(game, faces, PrintJob(title, (), (), options.paper, options.backs)).write(str(out / "everything.pdf"))
        return
    join_pdfs(parts, out / "everything.pdf", title, title, duplex=options.backs)


@dataclass(frozen=True)
class HomeDraft:
    """The deck and sheet PDFs of a home print, drawn into ``parts``' folder, and the faces drawn for them (at
    HOME_BLEED): what the build's check need not lay out again."""

    parts: tuple[Part, ...]
    fronts: frozenset[str]  # card ids
    backs: frozenset[str]  # deck ids


def draw_home(game, faces: Faces, decks, sheets, out: Path, paper: str, backs: bool) -> HomeDraft:
    """Writes ``deck-<deck>.pdf`` for each deck and ``sheets.pdf`` into ``out``."""
    parts, fronts, drawn_backs = [], set(), set()
    for deck in decks:
        home = HomePrint(game, faces, PrintJob(f"{game.title}: {deck.name}", (deck,), (), paper, backs))
        parts.append(_written(home, out / f"deck-{deck.id}.pdf"))
        fronts |= home.drawn
        drawn_backs |= home.backs_drawn
    if sheets:
        job = PrintJob(f"{game.title}: sheets", (), sheets, paper, False)
        parts.append(_written(HomePrint(game, faces, job), out / "sheets.pdf"))
    return HomeDraft(tuple(parts), frozenset(fronts), frozenset(drawn_backs))


def _written(home: HomePrint, path: Path) -> Part:
    home.write(str(path))
    return Part(path, tuple(home.outline))


def printed_decks(game) -> tuple:
    """The decks with cards to print, in game.yaml's order."""
    return tuple(deck for deck in game.decks.values() if game.deck_total(deck.id) > 0)


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV file a spreadsheet opens: one starting as a formula does (``=``, ``+``, ``-``, ``@``, a
    tab or a return) is written after a ``'``, so that a card named ``=2+5+cmd|...`` is read as its name, never run."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _printshop(game, faces: Faces, decks, sheets, out: Path, backs: bool) -> None:
    from .printshop_pngs import DeckPngs, SharedFaces, pngs_beside  # Pillow's modules: not for a home build

    out.mkdir(parents=True, exist_ok=True)
    pngs = [DeckPngs(out / deck.id, deck, tuple(game.cards_in(deck.id)), backs) for deck in decks]
    for images in pngs:
        images.folder.mkdir()
    # painted by workers (printshop_pngs) from the faces the PDFs lay out here
    with pngs_beside(pngs, faces, SHOP_BLEED, PNG_DPI) as painter:
        shared = SharedFaces(faces, painter)
        for deck in decks:
            write_printshop_pdf(str(out / f"deck-{deck.id}.pdf"), game, shared, deck, backs)
            if shape_of(deck.size).outlined:  # tokens, tiles, rounded corners: the die-cut path beside it
                write_cutline_pdf(str(out / f"deck-{deck.id}-cut.pdf"), game, deck, backs)
        if sheets:
            write_printshop_sheets(str(out / "sheets.pdf"), game, faces, list(sheets))
    with open(out / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        rows = csv.writer(handle, lineterminator="\n")
        rows.writerow(("deck", "file", "copies", "card"))
        for images in pngs:
            deck = images.deck.id
            for name, card in images.files():
                copies, title = (game.deck_total(deck), "back") if card is None else (card.count, card.name)
                rows.writerow((deck, f"{deck}/{name}", str(copies), spreadsheet_text(title)))
