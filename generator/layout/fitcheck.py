"""``deckwright check``'s layout checks: every card, back and sheet laid out, small or overflowing text reported,
and decks and sheets too big for the paper (``homefit``).

A warning names the card and field whose text would print below ``faces.READABLE_PT``, or art that prints
below ``faces.PRINT_DPI``, located at the card; text that does not fit its box even at its smallest size and
layout mistakes (a bad key, a missing field, an unknown icon, a missing picture) come back as located errors;
an inline icon misspelt in card data (``:hart:``) is a warning at the card's value (``icontypos``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from deckwright.generator.layout.paper import HOME_BLEED, is_page_sheet, page_sheet_area
from deckwright.rules.data.model import Game, Sheet
from deckwright.rules.problems import Loc, Problem

from .faces import Faces
from .files import LAYOUT_DIR, LayoutError
from .fonts import FontBook
from .homefit import paper_problems
from .icontypos import icon_typos

PAPERS = ("a4", "letter")  # the papers --paper offers


def layout_warnings(game: Game, fonts: FontBook | None = None, faces: Faces | None = None,
                    drawn: frozenset[str] = frozenset(), backs_drawn: frozenset[str] = frozenset(),
                    share: tuple[int, int] = (0, 1)) -> list[Problem]:
    """Every layout problem of the game, errors and warnings; ``faces``: the game's compiled layouts, when the
    caller has them (``deckwright build`` checks with the Faces it then draws with). ``drawn``: the ids of cards
    whose fronts those faces already laid out at HOME_BLEED (and ``backs_drawn``: the decks whose backs), whose
    problems they hold: those are not laid out again. ``share`` (k, n): only every n-th of the faces to lay out,
    from the k-th, so that n workers can share a big game; the problems of the n shares, together, are the
    problems of the whole game."""
    try:
        faces = faces or Faces(game, fonts)
    except LayoutError as exc:
        return exc.problems
    part, parts = share
    problems: list[Problem] = paper_problems(game) + icon_typos(game, faces.icon_names) if part == 0 else []
    for number, lay_out in enumerate(_to_lay_out(game, faces, drawn, backs_drawn)):
        if number % parts == part:
            try:
                lay_out()
            except LayoutError as exc:
                problems.extend(exc.problems)
    found = set(problems) | faces.problems | set(faces.font_warnings)
    return sorted(found | set(shared_layout_notes(game, found)))


def shared_layout_notes(game: Game, problems) -> list[Problem]:
    """A line for each of deckwright's shared layouts (``templates/layouts/back.yaml``) an error is in: a file the
    designer does not edit, so the line says what to do instead."""
    shared = {problem.loc.file for problem in problems if problem.severity == "error" and _is_shared(problem.loc.file)}
    notes = []
    for file in sorted(shared):
        name, stem = Path(file).name, Path(file).stem
        if (game.root / "layouts" / name).is_file():
            fix = (f"the game's layouts/{name} extends it, so give the boxes named below again there with what "
                   f"fits (only the keys given change), or hide them with show: \"false\"")
        else:
            fix = (f"give the game a layouts/{name} of its own (it may begin with `extends: {stem}` and change only "
                   f"what does not fit)")
        notes.append(Problem(Loc(file), f"the errors in this file are in deckwright's shared {name}, made for cards "
                                        f"about the size of a poker card; {fix}", "warning"))
    return notes


def _is_shared(file: str) -> bool:
    try:
        return Path(file).resolve().parent == LAYOUT_DIR.resolve()
    except (OSError, RuntimeError):
        return False


def _to_lay_out(game: Game, faces: Faces, drawn: frozenset[str], backs_drawn: frozenset[str]) -> Iterator[Callable]:
    """Each face to lay out, in order, as a function that lays it out: every card's front, every deck's back,
    every sheet."""
    for card in game.cards:
        if card.type in game.card_types and card.id not in drawn:
            yield partial(faces.front, card, HOME_BLEED)
    for deck in game.decks.values():
        if deck.id not in backs_drawn:
            yield partial(faces.back, deck, HOME_BLEED)
    for sheet in game.sheets.values():
        yield partial(_lay_out_sheet, faces, sheet)


def _lay_out_sheet(faces: Faces, sheet: Sheet) -> None:
    """A page-sized sheet is laid out on the paper the user picks, so it is checked on each (until one fails)."""
    if not is_page_sheet(sheet):
        faces.sheet(sheet, bleed=HOME_BLEED)
        return
    for paper_name in PAPERS:
        faces.sheet(sheet, *page_sheet_area(sheet, paper_name)[1], paper=paper_name)
