"""The search index of a big gallery: every card's page, deck, type and search text, for site.js.

A gallery cut into several pages (site/paging.py) holds only its own cards, so the script searches
and filters this index instead: a script file beside the pages (``<script src>`` loads from disk
as well as from a server, where fetching a JSON file from disk is refused). It is data only: one
JSON value, ASCII-escaped, assigned to a single name.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from deckwright.rules.data.model import Game

from .cards import card_anchor, sheet_anchor
from .paging import Gallery

GALLERY_INDEX = "cards-index.js"
SHEETS = "@sheets"  # the filters' value for the sheets, which no deck or type id can take


def gallery_index(game: Game, gallery: Gallery, alts: dict[str, Any]) -> str:
    """The index as a script: ``pages`` the gallery's files; ``cards`` one row per card in gallery order,
    [page number, anchor, deck id ("-": none), type id, name, type name, search text]; ``sheets`` the same for
    the game's sheets, whose deck and type are the filters' "@sheets" (gallery.html)."""
    return "".join(gallery_index_pieces(game, gallery, alts))


def gallery_index_pieces(game: Game, gallery: Gallery, alts: dict[str, Any]) -> Iterator[str]:
    """``gallery_index``'s text in pieces, a row at a time, for writing as made: a game of 20,000 cards held as
    rows, then as one text, took 18 MB at the site's peak."""
    dump = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), sort_keys=True).encode
    yield (f"/* deckwright: the cards of {len(gallery.pages)} gallery pages, for site.js. Data only. */\n"
           "window.deckwrightGallery = {\"cards\":[")
    separator = ""
    for page in gallery.pages:
        for section, cards in page.sections.items():
            for card in cards:
                yield separator + dump([page.number, card_anchor(card.id), section, card.type, card.name,
                                        game.card_types[card.type].name, str(alts[card.id]).lower()])
                separator = ","
    last = next(page.number for page in gallery.pages if page.sheets)
    sheets = [[last, sheet_anchor(sheet.id), SHEETS, SHEETS, sheet.name, "Sheet", sheet.name.lower()]
              for sheet in game.sheets.values()]
    yield f"],\"pages\":{dump([page.file for page in gallery.pages])},\"sheets\":{dump(sheets)}}};\n"
