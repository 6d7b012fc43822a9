"""Printable pages: every card placed on paper at its real size, in millimetres.

The grid and crop marks come from the home-print imposition (``generator.layout.impose``)
with no bleed, so cards sit butted along shared cut lines. Decks of one card
size share sheets; each fronts sheet is followed by its backs sheet with the
columns mirrored, so a long-edge duplex print puts every back behind its front.
"""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.generator.layout.impose import Mark, plan_grid
from deckwright.generator.layout.paper import PAPER_SIZES
from deckwright.rules.data.model import Card, Deck, Game

from .cards import CardArt, back_symbol_id, face_symbol_id


@dataclass(frozen=True)
class Slot:
    x: float  # left edge, mm from the paper's left
    y: float  # top edge, mm from the paper's top
    symbol_id: str
    alt: str


@dataclass(frozen=True)
class PrintSheet:
    decks: tuple[Deck, ...]  # the decks with cards on this sheet, in order
    side: str  # "front" or "back"
    number: int  # 1-based within the game
    card_width: float
    card_height: float
    slots: tuple[Slot, ...]
    marks: tuple[Mark, ...]

    @property
    def label(self) -> str:
        return ", ".join(deck.name for deck in self.decks)


def print_sheets(game: Game, art: CardArt, paper_name: str = "a4", backs: bool = True) -> list[PrintSheet]:
    """Every printed card of the game, each fronts sheet followed by its backs sheet."""
    paper = PAPER_SIZES[paper_name]
    by_size: dict[tuple[float, float], list[tuple[Card, Deck]]] = {}
    for deck in game.decks.values():
        by_size.setdefault((deck.size.width, deck.size.height), []).extend(
            (card, deck) for card in game.printed_cards(deck.id))
    sheets: list[PrintSheet] = []
    for size, cards in by_size.items():
        grid = plan_grid(paper, size, bleed=0.0)
        if grid is None:  # a card larger than the paper: the print PDFs report it
            continue
        marks = tuple(grid.marks())
        for start in range(0, len(cards), grid.per_page):
            batch = cards[start:start + grid.per_page]
            fronts, rears = [], []
            for index, (card, deck) in enumerate(batch):
                fronts.append(Slot(*grid.trim_origin(*grid.slot(index)), face_symbol_id(card.id), art.alt(card)))
                rears.append(Slot(*grid.trim_origin(*grid.slot(index, mirrored=True)), back_symbol_id(deck.id),
                                  art.back_alt(deck)))
            decks = tuple(dict.fromkeys(deck for _, deck in batch))
            number = sum(1 for sheet in sheets if sheet.side == "front") + 1
            sheets.append(PrintSheet(decks, "front", number, *size, tuple(fronts), marks))
            if backs:
                sheets.append(PrintSheet(decks, "back", number, *size, tuple(rears), marks))
    return sheets
