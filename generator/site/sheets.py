"""Printable pages: every card and sheet placed on paper at its real size, in millimetres.

The grid and crop marks come from the home-print imposition (``generator.layout.impose``)
with no bleed, so cards sit butted along shared cut lines, and crop marks mark only the
slots that hold a card. Decks of one card size share pages; each fronts page is followed
by its backs page with the columns mirrored, so a long-edge duplex print puts every back
behind its front. Then come the game's sheets, each as many times as its ``copies``: small
ones packed like cards, page-sized ones one to a page inside the same margin as the PDF.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from markupsafe import Markup, escape

from deckwright.generator.layout.impose import Mark, plan_grid
from deckwright.generator.layout.paper import PAGE_MARGIN, is_page_sheet, paper_size
from deckwright.generator.layout.shapes import Shape, css_clip, outline, pack, shape_of, svg_path
from deckwright.rules.data.model import Card, Deck, Game, Sheet

from .cards import CardArt, Picture, back_symbol_id, face_symbol_id, sheet_symbol_id
from .spool import SpooledText


@dataclass(frozen=True, slots=True)  # one per printed card and paper
class Slot:
    x: float  # left edge, mm from the paper's left
    y: float  # top edge, mm from the paper's top
    symbol_id: str
    alt: str | SpooledText  # str() of it is the text


@dataclass(frozen=True)
class PrintSheet:
    label: str  # the decks or sheets on it
    side: str  # "front", "back", or "sheet" (a game sheet: no back)
    number: int  # 1-based within its kind (cards, sheets)
    card_width: float  # every slot's size
    card_height: float
    slots: tuple[Slot, ...]
    marks: tuple[Mark, ...]
    paper: tuple[float, float]  # width and height, turned for a landscape sheet
    pictures: tuple[Picture, ...] = ()  # pictures its slots use that the gallery does not show
    cuts: tuple[str, ...] = ()  # SVG paths of the cut lines of tokens, tiles and rounded corners (page mm)
    clip: str = ""  # the CSS clip-path of each slot's picture: the piece's shape

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]


def sheet_html(sheet: PrintSheet) -> Markup:
    """The sheet's crop marks, then its cards, as print.html shows them: made here in one pass, as a template's
    loops spent a fifth of a big game's site on them."""
    marks = "".join(f'<span class="crop" style="left: {mark.x1:.2f}mm; top: {mark.y1:.2f}mm; '
                    f'width: {mark.x2 - mark.x1:.2f}mm; height: {mark.y2 - mark.y1:.2f}mm"></span>'
                    for mark in sheet.marks)
    width, height = escape(sheet.card_width), escape(sheet.card_height)
    size = f"width: {width}mm; height: {height}mm" + (f"; clip-path: {escape(sheet.clip)}" if sheet.clip else "")
    cards = "".join(f'    <svg class="print-card" role="img" aria-label="{escape(slot.alt)}" viewBox="0 0 {width} '
                    f'{height}" style="left: {slot.x:.3f}mm; top: {slot.y:.3f}mm; {size}"><use '
                    f'href="#{escape(slot.symbol_id)}" width="{width}" height="{height}"/></svg>\n'
                    for slot in sheet.slots)
    return Markup(marks + cards)  # every value escaped above


def print_sheets(game: Game, art: CardArt, paper_name: str = "a4", backs: bool = True) -> list[PrintSheet]:
    """Every printed card of the game, each fronts page followed by its backs page, then the game's sheets."""
    paper = paper_size(paper_name)
    by_shape: dict[Shape, list[tuple[Card, Deck]]] = {}
    for deck in game.decks.values():
        by_shape.setdefault(shape_of(deck.size), []).extend((card, deck) for card in game.printed_cards(deck.id))
    pages: list[PrintSheet] = []
    fronts_pages = 0
    back_slots: dict[str, tuple[str, str]] = {}  # deck id -> its backs' symbol id and alt text, one string each

    def backs_of(deck: Deck) -> tuple[str, str]:
        if deck.id not in back_slots:
            back_slots[deck.id] = (back_symbol_id(deck.id), art.back_alt(deck))
        return back_slots[deck.id]

    for shape, cards in by_shape.items():
        places = _places(paper, shape)
        if places is None:  # a card larger than the paper: the print PDFs report it
            continue
        per_page, place, marks_of = places
        place = functools.cache(place)  # every page has the same places: their numbers held once, not once a card
        marks_by_count: dict[int, tuple[tuple, tuple]] = {}  # pages of as many cards share their crop marks
        for start in range(0, len(cards), per_page):
            batch = cards[start:start + per_page]
            fronts, rears = [], []
            for index, (card, deck) in enumerate(batch):
                fronts.append(Slot(*place(index, False), face_symbol_id(card.id), art.alt(card)))
                rears.append(Slot(*place(index, True), *backs_of(deck)))
            label = ", ".join(deck.name for deck in dict.fromkeys(deck for _, deck in batch))
            fronts_pages += 1
            number = fronts_pages
            if len(batch) not in marks_by_count:
                marks = marks_of(len(batch))
                marks_by_count[len(batch)] = marks, tuple(_mirrored(mark, paper[0]) for mark in marks)
            marks, mirrored = marks_by_count[len(batch)]
            cuts = tuple(svg_path(outline(shape, 0.0, slot.x, slot.y)) for slot in fronts) if shape.outlined else ()
            clip = css_clip(shape)
            pages.append(PrintSheet(label, "front", number, shape.width, shape.height, tuple(fronts), marks, paper,
                                    cuts=cuts, clip=clip))
            if backs:
                pages.append(PrintSheet(label, "back", number, shape.width, shape.height, tuple(rears), mirrored,
                                        paper, clip=clip))
    return pages + _game_sheets(game, art, paper_name)


def _places(paper: tuple[float, float], shape: Shape):
    """(pieces per page, the place of the index-th piece (mirrored for backs), the crop marks for n pieces) for
    one shape on the paper: tokens and tiles packed, rectangles in the card grid; None when none fits."""
    if shape.packed:
        packing = pack(paper, shape, 0.0, (PAGE_MARGIN, PAGE_MARGIN, paper[0] - 2 * PAGE_MARGIN,
                                           paper[1] - 2 * PAGE_MARGIN))
        if packing is None:
            return None
        return packing.per_page, packing.place, lambda count: ()
    grid = plan_grid(paper, (shape.width, shape.height), bleed=0.0)
    if grid is None:
        return None
    return (grid.per_page, lambda index, mirrored: grid.trim_origin(*grid.slot(index, mirrored)),
            lambda count: tuple(grid.marks(filled=count)))


def _mirrored(mark: Mark, width: float) -> Mark:
    return Mark(width - mark.x2, mark.y1, width - mark.x1, mark.y2)


def _game_sheets(game: Game, art: CardArt, paper_name: str) -> list[PrintSheet]:
    """The game's sheets, copies repeated: small ones share pages like cards, page-sized ones fill a page."""
    pages: list[PrintSheet] = []
    small: dict[tuple[float, float], list[Sheet]] = {}
    for sheet in game.sheets.values():
        if is_page_sheet(sheet):
            picture = art.page_sheet(sheet, paper_name)
            paper = paper_size(paper_name, sheet.size.width > sheet.size.height)
            slot = Slot(PAGE_MARGIN, PAGE_MARGIN, picture.symbol_id, f"Sheet: {sheet.name}")
            extra = () if picture.symbol_id == sheet_symbol_id(sheet.id) else (picture,)
            for _ in range(sheet.copies):
                pages.append(PrintSheet(sheet.name, "sheet", len(pages) + 1, picture.width_mm, picture.height_mm,
                                        (slot,), (), paper, extra))
        else:
            small.setdefault((sheet.size.width, sheet.size.height), []).extend([sheet] * sheet.copies)
    for size, sheets in small.items():
        for landscape in (False, True):
            paper = paper_size(paper_name, landscape)
            grid = plan_grid(paper, size, bleed=0.0)
            if grid is not None:
                break
        else:  # larger than the paper either way round: the print PDFs report it
            continue
        for start in range(0, len(sheets), grid.per_page):
            batch = sheets[start:start + grid.per_page]
            slots = tuple(Slot(*grid.trim_origin(*grid.slot(index)), sheet_symbol_id(sheet.id), f"Sheet: {sheet.name}")
                          for index, sheet in enumerate(batch))
            label = ", ".join(dict.fromkeys(sheet.name for sheet in batch))
            pages.append(PrintSheet(label, "sheet", len(pages) + 1, *size, slots,
                                    tuple(grid.marks(filled=len(batch))), paper))
    return pages
