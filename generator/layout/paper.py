"""Paper and bleed: the sizes a printed page has, and the area a page-sized sheet fills on it (millimetres)."""
from __future__ import annotations

from deckwright.rules.data.model import Sheet
from deckwright.rules.data.units import PAGE_SIZES

# The papers a home print and the site's printable pages are laid out on (the page formats a game may also
# name as a sheet's size).
PAPERS = ("a4", "letter", "a3", "tabloid")
PAPER_SIZES: dict[str, tuple[float, float]] = {name: PAGE_SIZES[name] for name in PAPERS}

HOME_BLEED = 3.0
SHOP_BLEED = 25.4 / 8  # 1/8 inch, what DriveThruCards and The Game Crafter ask for
PAGE_MARGIN = 9.0  # around a full-page sheet
PAGE_FOOT = 14.0  # below it, for the ruler

def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    width, height = PAPER_SIZES[paper]
    return (height, width) if landscape else (width, height)


def is_page_sheet(sheet: Sheet) -> bool:
    """A sheet the size of a paper page (either way round): printed on whichever paper the user picks."""
    sides = sorted((sheet.size.width, sheet.size.height))
    return sheet.size.name in PAPER_SIZES or any(
        abs(sides[0] - min(p)) < 1.0 and abs(sides[1] - max(p)) < 1.0 for p in PAPER_SIZES.values())


def page_sheet_area(sheet: Sheet, paper: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """A page-sized sheet on ``paper``: the page, turned the sheet's way round, and the area its layout fills
    (inside the margin, above the ruler)."""
    page = paper_size(paper, sheet.size.width > sheet.size.height)
    return page, (page[0] - 2 * PAGE_MARGIN, page[1] - PAGE_MARGIN - PAGE_FOOT)
