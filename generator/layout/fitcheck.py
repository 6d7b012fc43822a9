"""``deckwright check``'s layout checks: every card, back and sheet laid out, small or overflowing text reported.

A warning names the card and field whose text would print below ``faces.READABLE_PT``, or art that prints
below ``faces.PRINT_DPI``, located at the card; text that does not fit its box even at its smallest size and
layout mistakes (a bad key, a missing field, an unknown icon, a missing picture) come back as located errors.
"""
from __future__ import annotations

from deckwright.generator.layout.paper import HOME_BLEED, is_page_sheet, page_sheet_area
from deckwright.rules.data.model import Game
from deckwright.rules.problems import Problem

from .faces import Faces
from .files import LayoutError
from .fonts import FontBook

PAPERS = ("a4", "letter")  # the papers --paper offers


def layout_warnings(game: Game, fonts: FontBook | None = None, faces: Faces | None = None,
                    drawn: frozenset[str] = frozenset(), backs_drawn: frozenset[str] = frozenset()) -> list[Problem]:
    """Every layout problem of the game, errors and warnings; ``faces``: the game's compiled layouts, when the
    caller has them (``deckwright build`` checks with the Faces it then draws with). ``drawn``: the ids of cards
    whose fronts those faces already laid out at HOME_BLEED (and ``backs_drawn``: the decks whose backs), whose
    problems they hold: those are not laid out again."""
    try:
        faces = faces or Faces(game, fonts)
    except LayoutError as exc:
        return exc.problems
    problems: list[Problem] = []
    for card in game.cards:
        if card.type not in game.card_types or card.id in drawn:
            continue
        try:
            faces.front(card, HOME_BLEED)
        except LayoutError as exc:
            problems.extend(exc.problems)
    for deck in game.decks.values():
        if deck.id in backs_drawn:
            continue
        try:
            faces.back(deck, HOME_BLEED)
        except LayoutError as exc:
            problems.extend(exc.problems)
    for sheet in game.sheets.values():
        # a page-sized sheet is laid out on the paper the user picks, so check it on each
        for paper_name in (PAPERS if is_page_sheet(sheet) else ("",)):
            try:
                if paper_name:
                    faces.sheet(sheet, *page_sheet_area(sheet, paper_name)[1], paper=paper_name)
                else:
                    faces.sheet(sheet, bleed=HOME_BLEED)
            except LayoutError as exc:
                problems.extend(exc.problems)
                break
    return sorted(set(problems) | faces.problems | set(faces.font_warnings))
