"""A card's fields as plain text, worded as its layout words them: for alt text, search and exports.

Markup is dropped (``**bold**`` becomes bold's words) and an inline icon reads as its name.
"""
from __future__ import annotations

from deckwright.rules.data.model import Card, Game
from deckwright.rules.data.pictures import names_a_picture

from .faces import Faces, type_field_label
from .richtext import plain


def field_label(game: Game, card: Card, key: str) -> str:
    """The field's label from the card type, or its key in words."""
    return type_field_label(game.card_types[card.type], key)


def plain_text(faces: Faces, markup: str) -> str:
    """Card-text markup as plain text, an icon read as its name."""
    return plain(markup, faces.icons, lambda name: name.replace("-", " "))


def card_fields(faces: Faces, card: Card) -> list[tuple[str, str]]:
    """Label and plain text of every field the card has a value for, in the card type's order; a picture's file
    name (its art) is not text to read, in an alt text, a search or a tabletop's card description."""
    game = faces.game
    fmt = faces.card_context(card)["fmt"]  # the card's context built once for all its fields
    fields = []
    for key, _ in game.card_types[card.type].fields:
        value = card.fields.get(key)
        if value is None or (isinstance(value, str) and names_a_picture(value, game.root)):
            continue
        text = plain_text(faces, fmt(key))
        if text:
            fields.append((field_label(game, card, key), text))
    return fields


def card_description(faces: Faces, card: Card) -> str:
    """The card's type, then one ``Label: text`` line per field: e.g. a virtual tabletop's card description."""
    lines = [faces.game.card_types[card.type].name]
    lines.extend(f"{label}: {text}" for label, text in card_fields(faces, card))
    return "\n".join(lines)
