"""Cards packed onto sheet images for virtual tabletops: the geometry, no pixels.

Tabletop Simulator reads a deck from one image per at most 10 x 7 cards, no more than 4096 px
each way, and takes the last slot of the grid for its hidden card (the picture shown for a card
nobody may see); so a sheet holds at most 69 faces, and a bigger deck spans several sheets. Each
card is on its sheet once, however many copies the deck has. The same sheets serve the plain
sprite-sheet export.

The card's pixel size follows from its aspect and those limits, the same for every deck of one
card size: a poker card is 409 x 573 px (about 164 dpi), a tarot card 341 x 585 px.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from deckwright.rules.data.model import Card, Deck, Game, Sheet

MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_PIXELS = 4096
FACES_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last slot is the hidden card's
SHEET_DPI = 150  # mats and play aids: their text stays readable when zoomed in


@dataclass(frozen=True)
class Pixels:
    """The pixel size a face of ``width`` x ``height`` mm is drawn at, and the dpi that gives it."""

    width: int
    height: int
    dpi: float

    def __str__(self) -> str:
        return f"{self.width} x {self.height} px ({self.dpi:.0f} dpi)"


def pixels_at(width_mm: float, height_mm: float, dpi: float) -> Pixels:
    """The size the PNG painter gives a face at ``dpi`` (the same arithmetic, so the same rounding)."""
    px_per_mm = dpi / 25.4
    return Pixels(round(width_mm * px_per_mm), round(height_mm * px_per_mm), dpi)


def card_pixels(width_mm: float, height_mm: float) -> Pixels:
    """The largest card size that still lets 10 x 7 cards fit in 4096 x 4096 px."""
    px_per_mm = min((MAX_PIXELS // MAX_COLUMNS) / width_mm, (MAX_PIXELS // MAX_ROWS) / height_mm)
    return pixels_at(width_mm, height_mm, px_per_mm * 25.4)


def sheet_pixels(width_mm: float, height_mm: float) -> Pixels:
    """A mat or play aid at ``SHEET_DPI``, or smaller where that would pass 4096 px."""
    dpi = min(SHEET_DPI, MAX_PIXELS / (max(width_mm, height_mm) / 25.4))
    return pixels_at(width_mm, height_mm, dpi)


def grid_for(faces: int) -> tuple[int, int]:
    """Columns and rows for ``faces`` cards plus the hidden card's slot: as few rows as the 10 columns
    allow, then as few columns as those rows need (23 cards: 8 x 3, not 10 x 3)."""
    if not 1 <= faces <= FACES_PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {FACES_PER_SHEET} faces, not {faces}")
    slots = faces + 1
    rows = math.ceil(slots / MAX_COLUMNS)
    return math.ceil(slots / rows), rows


@dataclass(frozen=True)
class DeckSheet:
    """One image of a deck's faces, row by row from the top left; the last slot shows the deck's back."""

    deck: Deck
    number: int  # 1, 2, ... within the game: Tabletop Simulator's id for this sheet (its CustomDeck key)
    file: str  # the image's file name
    cards: tuple[Card, ...]  # in slot order
    columns: int
    rows: int
    card: Pixels

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.card.width, self.rows * self.card.height

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1

    def cell(self, slot: int) -> tuple[int, int]:
        """Row and column of a slot."""
        return divmod(slot, self.columns)

    def box(self, slot: int) -> tuple[int, int, int, int]:
        """The slot's pixels: left, top, width, height."""
        row, column = self.cell(slot)
        return column * self.card.width, row * self.card.height, self.card.width, self.card.height


@dataclass(frozen=True)
class DeckImages:
    """A deck's face sheets and its back image."""

    deck: Deck
    sheets: tuple[DeckSheet, ...]
    back_file: str
    card: Pixels

    def place(self, card: Card) -> tuple[DeckSheet, int]:
        """The sheet and slot a card's face is in."""
        for sheet in self.sheets:
            for slot, placed in enumerate(sheet.cards):
                if placed.id == card.id:
                    return sheet, slot
        raise KeyError(card.id)


@dataclass(frozen=True)
class SheetImage:
    """A mat, character sheet or play aid as one image."""

    sheet: Sheet
    file: str
    pixels: Pixels


def plan_decks(game: Game, extension: str) -> tuple[DeckImages, ...]:
    """Every deck with cards, its faces cut into sheets of at most 69; sheets are numbered across the game,
    so no two decks in one saved game share a Tabletop Simulator deck id."""
    plans = []
    number = 0
    for deck in game.decks.values():
        cards = game.cards_in(deck.id)
        if not cards:
            continue
        pixels = card_pixels(deck.size.width, deck.size.height)
        sheets = []
        for start in range(0, len(cards), FACES_PER_SHEET):
            batch = tuple(cards[start:start + FACES_PER_SHEET])
            number += 1
            part = start // FACES_PER_SHEET + 1
            file = f"deck-{deck.id}-{part}.{extension}"
            sheets.append(DeckSheet(deck, number, file, batch, *grid_for(len(batch)), pixels))
        plans.append(DeckImages(deck, tuple(sheets), f"deck-{deck.id}-back.{extension}", pixels))
    return tuple(plans)


def plan_sheets(game: Game, extension: str) -> tuple[SheetImage, ...]:
    return tuple(SheetImage(sheet, f"sheet-{sheet.id}.{extension}", sheet_pixels(sheet.size.width, sheet.size.height))
                 for sheet in game.sheets.values())
