"""Tabletop Simulator saved objects: a game's decks on their sheet images, and its sheets as tiles.

A saved object is a JSON file in TTS's ``Saves/Saved Objects`` folder (a PNG of the same name is its
picture): ``{"SaveName": ..., "ObjectStates": [...]}``. A deck is a ``DeckCustom`` whose ``CustomDeck``
maps each of its sheet ids to the sheet's ``FaceURL`` and ``BackURL`` and grid, and whose
``ContainedObjects`` are its cards, copies repeated, each a ``Card`` with ``CardID`` = sheet id x 100 +
slot; ``DeckIDs`` lists the same ids in the same order. A deck of one card is that ``Card`` alone.
A mat or play aid is a ``Custom_Tile`` showing its image. Each object's ``GMNotes`` (seen only by the
game master and by scripts) holds its deckwright id.

Sizes: at scale 1 a card is taken to be as wide as a poker card, and every deck and tile is scaled by its
real width against that (a 297 mm mat is 4.68 times as wide as a poker card), so the table shows them in
proportion; TTS's own sizes are not documented, so this is a convention, not a measurement.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from deckwright.rules.data.model import Card, Game

from .deck_sheets import DeckImages, DeckSheet, SheetImage

POKER_WIDTH_MM = 63.5
CARD_UNITS = 2.2  # the width of a scale-1 card in table units (about inches), for spacing objects apart
GAP_UNITS = 1.0
ROW_UNITS = 40.0  # sheets are laid out in rows this wide


@dataclass(frozen=True)
class CardText:
    """What TTS shows for a card: its name, and its text in the tooltip and on hover."""

    nickname: str
    description: str


def scale_for(width_mm: float) -> float:
    return round(width_mm / POKER_WIDTH_MM, 4)


def transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3),
            "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def custom_deck(sheet: DeckSheet, face_url: str, back_url: str) -> dict:
    """The ``CustomDeck`` entry of one sheet: one back for the whole deck, TTS's hidden card shown as that back."""
    return {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.columns, "NumHeight": sheet.rows,
            "BackIsHidden": True, "UniqueBack": False, "Type": 0}


def card_id(sheet: DeckSheet, slot: int) -> int:
    return sheet.number * 100 + slot


def deck_object(game: Game, plan: DeckImages, url: Callable[[str], str], text: Callable[[Card], CardText],
                x: float = 0.0, z: float = 0.0) -> dict:
    """The deck face down, every copy of every card in it (a card whose count is left open once), in deck order."""
    deck = plan.deck
    scale = scale_for(deck.size.width)
    entries = {sheet.number: custom_deck(sheet, url(sheet.file), url(plan.back_file)) for sheet in plan.sheets}
    cards = []
    for card in game.printed_cards(deck.id):
        sheet, slot = plan.place(card)
        words = text(card)
        cards.append({"Name": "Card", "Transform": transform(x, z, scale, face_down=True),
                      "Nickname": words.nickname, "Description": words.description, "GMNotes": card.id,
                      "CardID": card_id(sheet, slot), "CustomDeck": {str(sheet.number): entries[sheet.number]}})
    if len(cards) == 1:
        return cards[0]
    return {"Name": "DeckCustom", "Transform": transform(x, z, scale, face_down=True),
            "Nickname": deck.name, "Description": deck.doc, "GMNotes": deck.id,
            "DeckIDs": [card["CardID"] for card in cards],
            "CustomDeck": {str(number): entry for number, entry in entries.items()},
            "ContainedObjects": cards}


def tile_object(item: SheetImage, url: Callable[[str], str], x: float = 0.0, z: float = 0.0) -> dict:
    """A mat or play aid as a flat tile showing its image (the image's aspect gives the tile's shape)."""
    return {"Name": "Custom_Tile", "Transform": transform(x, z, scale_for(item.sheet.size.width)),
            "Nickname": item.sheet.name, "Description": "", "GMNotes": item.sheet.id,
            "CustomImage": {"ImageURL": url(item.file), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.2, "Stackable": False, "Stretch": True}}}


def saved_object(name: str, objects: list[dict]) -> dict:
    return {"SaveName": name, "ObjectStates": objects}


def _units(width_mm: float, height_mm: float) -> tuple[float, float]:
    per_mm = CARD_UNITS / POKER_WIDTH_MM
    return width_mm * per_mm, height_mm * per_mm


def table(game: Game, decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...], url: Callable[[str], str],
          text: Callable[[Card], CardText]) -> list[dict]:
    """Every deck in a row, and below it the sheets in rows, none overlapping: the whole game on the table."""
    objects = []
    x = 0.0
    deck_depth = 0.0
    for plan in decks:
        width, depth = _units(plan.deck.size.width, plan.deck.size.height)
        objects.append(deck_object(game, plan, url, text, x + width / 2, -depth / 2))
        x += width + GAP_UNITS
        deck_depth = max(deck_depth, depth)
    x, z, row_depth = 0.0, -(deck_depth + 2 * GAP_UNITS), 0.0
    for item in sheets:
        width, depth = _units(item.sheet.size.width, item.sheet.size.height)
        if x > 0 and x + width > ROW_UNITS:
            x, z, row_depth = 0.0, z - row_depth - GAP_UNITS, 0.0
        objects.append(tile_object(item, url, x + width / 2, z - depth / 2))
        x += width + GAP_UNITS
        row_depth = max(row_depth, depth)
    return objects
