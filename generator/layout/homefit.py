"""Where a deck or sheet goes on a home print's paper, portrait or landscape, and which of the papers
``--paper`` offers it fits on: ``deckwright check`` reports one that fits on neither (an error) or on one only
(a warning naming it) before a build refuses it."""
from __future__ import annotations

from deckwright.rules.data.model import Game, Size
from deckwright.rules.problems import Loc, Problem

from .impose import Grid, plan_grid, rounded_grid
from .paper import HOME_BLEED, is_page_sheet, paper_size
from .shapes import Packing, Shape, pack, shape_of

HOME_PAPERS = {"a4": "A4", "letter": "Letter"}  # what --paper offers, as the messages name them
EDGE = 6.0  # kept clear around packed pieces at the paper's sides and top: what home printers cannot reach
FOOT = 13.0  # at the bottom, for the ruler


def card_grid(paper: str, size: tuple[float, float], rounded: bool) -> tuple[Grid, tuple[float, float]] | None:
    """Cards (or small sheets) in a grid with crop marks, on the paper upright if they fit, else turned."""
    for landscape in (False, True):
        page = paper_size(paper, landscape)
        grid = rounded_grid(page, size) if rounded else plan_grid(page, size, HOME_BLEED)
        if grid is not None:
            return grid, page
    return None


def piece_packing(paper: str, shape: Shape) -> tuple[Packing, tuple[float, float]] | None:
    """Round or hex pieces packed on the paper, upright or turned, whichever holds more."""
    best = None
    for landscape in (False, True):
        page = paper_size(paper, landscape)
        packing = pack(page, shape, HOME_BLEED, (EDGE, EDGE, page[0] - 2 * EDGE, page[1] - EDGE - FOOT))
        if packing is not None and (best is None or packing.per_page > best[0].per_page):
            best = (packing, page)
    return best


def fits(size: Size, paper: str) -> bool:
    shape = shape_of(size)
    if shape.packed:
        return piece_packing(paper, shape) is not None
    return card_grid(paper, (size.width, size.height), shape.outlined) is not None


def margins(size: Size) -> str:
    """What a piece of this size is printed with around it."""
    return "bleed" if shape_of(size).packed else "bleed and crop marks"


def paper_problems(game: Game) -> list[Problem]:
    """Each deck, and each sheet smaller than a page, that fits on none of the home papers (an error) or on
    some only (a warning naming them), located at its size."""
    pieces: list[tuple[str, Size, Loc]] = [(f"decks.{deck.id}.size", deck.size, deck.size_loc or deck.loc)
                                           for deck in game.decks.values()]
    pieces += [(f"sheets.{sheet.id}.size", sheet.size, sheet.size_loc or sheet.loc)
               for sheet in game.sheets.values() if not is_page_sheet(sheet)]
    problems = []
    for path, size, loc in pieces:
        fitting = [paper for paper in HOME_PAPERS if fits(size, paper)]
        if not fitting:
            problems.append(Problem(loc, f"{path}: {size} does not fit on {' or '.join(HOME_PAPERS.values())} paper "
                                         f"with {margins(size)}"))
        elif len(fitting) < len(HOME_PAPERS):
            others = " or ".join(HOME_PAPERS[paper] for paper in HOME_PAPERS if paper not in fitting)
            problems.append(Problem(loc, f"{path}: {size} fits on {' and '.join(HOME_PAPERS[p] for p in fitting)} "
                                         f"paper only, not on {others}, with {margins(size)}: build with "
                                         f"--paper {fitting[0]}", "warning"))
    return problems
