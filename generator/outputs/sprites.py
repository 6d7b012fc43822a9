"""The sprite-sheet manifest: where each card's face is on which image, for any virtual tabletop's importer.

``manifest.json`` beside the images (the same sheets as the Tabletop Simulator export)::

    {"game", "title",
     "images": [{"file", "deck", "width", "height", "columns", "rows", "card_width", "card_height", "dpi"}],
     "cards":  [{"id", "name", "type", "deck", "copies", "image", "row", "column",
                 "box": {"x", "y", "width", "height"}}],
     "backs":  [{"deck", "image", "box"}],
     "sheets": [{"id", "name", "image", "width", "height", "width_mm", "height_mm"}]}

Rows and columns count from 0 at the top left; boxes are pixels. ``copies`` is how many to put in
the deck (a card whose count the source leaves open has ``copies: 1`` and ``copies_open`` saying so).
"""
from __future__ import annotations

from deckwright.rules.data.model import Game
from deckwright.rules.data.values import Open

from .deck_sheets import DeckImages, SheetImage

IMAGES = "images"


def _box(left: int, top: int, width: int, height: int) -> dict:
    return {"x": left, "y": top, "width": width, "height": height}


def manifest(game: Game, decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...]) -> dict:
    images, cards, backs = [], [], []
    for plan in decks:
        for sheet in plan.sheets:
            width, height = sheet.size
            images.append({"file": f"{IMAGES}/{sheet.file}", "deck": plan.deck.id, "width": width, "height": height,
                           "columns": sheet.columns, "rows": sheet.rows, "card_width": sheet.card.width,
                           "card_height": sheet.card.height, "dpi": round(sheet.card.dpi, 2)})
            for slot, card in enumerate(sheet.cards):
                row, column = sheet.cell(slot)
                entry = {"id": card.id, "name": card.name, "type": card.type, "deck": card.deck, "copies": card.count,
                         "image": f"{IMAGES}/{sheet.file}", "row": row, "column": column, "box": _box(*sheet.box(slot))}
                if isinstance(card.copies, Open):
                    entry["copies_open"] = card.copies.note
                cards.append(entry)
        backs.append({"deck": plan.deck.id, "image": f"{IMAGES}/{plan.back_file}",
                      "box": _box(0, 0, plan.card.width, plan.card.height)})
    return {"game": game.slug, "title": game.title, "images": images, "cards": cards, "backs": backs,
            "sheets": [{"id": item.sheet.id, "name": item.sheet.name, "image": f"{IMAGES}/{item.file}",
                        "width": item.pixels.width, "height": item.pixels.height,
                        "width_mm": item.sheet.size.width, "height_mm": item.sheet.size.height} for item in sheets]}
