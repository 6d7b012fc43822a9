"""Big galleries and printable pages cut into several files, so that every page stays light to open.

A page carries the card pictures it shows as inline SVG symbols: inline, because a picture drawn inside the
page uses the site's fonts and the game's art files, which an SVG loaded through ``<img>`` could not load. A
game within ``ONE_PAGE`` keeps one gallery page and one printable page per paper, exactly as before; past it,
the gallery continues on ``cards-2.html``, ``cards-3.html`` and so on, in deck order, and the printable cards
on ``print-a4-2.html``..., never parting a fronts sheet from its backs, each page within its budget (cards,
and bytes of picture markup). Every card has one page: links to a card or a deck go there (``Gallery.card_href``).

The budgets come from bench/bench_site.py: the time until a page's first screen of cards is drawn grows with
the page (its pictures are symbols at the end of the page), about 0.8 s for 120 poker cards of forty words on a
busy two-core machine, 2 s for 250, 30 s for 5,000.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from deckwright.rules.data.model import Card

from .cards import Picture, card_anchor
from .sheets import PrintSheet

Item = TypeVar("Item")
LOOSE = "-"  # the section of the cards in no deck, whose anchor is #deck-none


@dataclass(frozen=True)
class PageBudget:
    cards: int  # pictures on one page (cards, sheets; a print page's fronts and sheets)
    picture_bytes: int  # their SVG markup


ONE_PAGE = PageBudget(cards=300, picture_bytes=1_500_000)  # a game within it keeps one page: every bundled game
GALLERY_BUDGET = PageBudget(cards=120, picture_bytes=500_000)
PRINT_BUDGET = PageBudget(cards=120, picture_bytes=500_000)  # 13 sheets of 9 poker cards, and their backs


def split(items: Sequence[Item], cost: Callable[[Item], tuple[int, int]], budget: PageBudget) -> list[list[Item]]:
    """``items`` in order, cut into runs each within ``budget`` (``cost``: an item's pictures and bytes); an item
    over the budget alone gets a page of its own. All of them on one page when they fit."""
    pages: list[list[Item]] = [[]]
    cards = size = 0
    for item in items:
        item_cards, item_bytes = cost(item)
        if pages[-1] and (cards + item_cards > budget.cards or size + item_bytes > budget.picture_bytes):
            pages.append([])
            cards = size = 0
        pages[-1].append(item)
        cards += item_cards
        size += item_bytes
    return pages


def page_file(stem: str, number: int) -> str:
    """``cards.html``, ``cards-2.html``...: the first page keeps the name every link used before."""
    return f"{stem}.html" if number == 1 else f"{stem}-{number}.html"


@dataclass(frozen=True)
class GalleryPage:
    number: int  # 1-based
    file: str  # in the game's folder
    sections: dict[str, tuple[Card, ...]]  # deck id (LOOSE: no deck) -> its cards on this page, in deck order
    sheets: bool  # the game's sheets are shown on this page (the last)
    first: int  # 1-based position of its first card in the whole gallery (0: no card)
    last: int

    def cards(self, section: str) -> tuple[Card, ...]:
        return self.sections.get(section, ())


@dataclass(frozen=True)
class Gallery:
    pages: tuple[GalleryPage, ...]
    card_files: dict[str, str]  # card id -> the file of the page showing it
    section_files: dict[str, str]  # deck id (or LOOSE) -> the file of the page its section starts on

    @property
    def paged(self) -> bool:
        return len(self.pages) > 1

    def card_href(self, card_id: str) -> str:
        """The card's figure, from the game's folder."""
        return f"{self.card_files.get(card_id, page_file('cards', 1))}#{card_anchor(card_id)}"

    def deck_href(self, deck_id: str) -> str:
        anchor = "deck-none" if deck_id == LOOSE else f"deck-{deck_id}"
        return f"{self.section_files.get(deck_id, page_file('cards', 1))}#{anchor}"

    def pager(self, page: GalleryPage) -> list[GalleryPage | None]:
        return [None if number is None else self.pages[number - 1] for number in pager(len(self.pages), page.number)]

    @property
    def sheets_file(self) -> str:
        return next(page.file for page in self.pages if page.sheets)


def fits(costs: Sequence[tuple[int, int]], budget: PageBudget) -> bool:
    return sum(c for c, _ in costs) <= budget.cards and sum(b for _, b in costs) <= budget.picture_bytes


def pager(count: int, current: int, ends: int = 2, around: int = 3) -> list[int | None]:
    """The page numbers a pager shows: the first and last ``ends``, those ``around`` the current one, and None
    for each gap; every page when there are few."""
    shown = [n for n in range(1, count + 1) if n <= ends or n > count - ends or abs(n - current) <= around]
    out: list[int | None] = []
    for number in shown:
        if out and number - (out[-1] or 0) > 1:
            out.append(None)
        out.append(number)
    return out


def plan_gallery(sections: Sequence[tuple[str, Sequence[Card]]], card_bytes: Callable[[Card], int],
                 sheet_cost: tuple[int, int], budget: PageBudget = GALLERY_BUDGET,
                 one_page: PageBudget = ONE_PAGE) -> Gallery:
    """The gallery's pages: ``sections`` are (deck id or LOOSE, its cards) in the order shown; ``card_bytes``
    the size of a card's picture; ``sheet_cost`` the pictures and bytes of the game's sheets (shown last).
    All on one page when the whole fits ``one_page``, else pages within ``budget``. A deck with no cards keeps
    its section (its header) on the page where the previous one ends."""
    entries: list[tuple[str, Card | None]] = [(key, card) for key, cards in sections for card in (cards or [None])]
    costs = [(0, 0) if card is None else (1, card_bytes(card)) for _, card in entries]
    if fits([*costs, sheet_cost], one_page):
        runs = [entries]
    else:
        runs = [[entries[i] for i in run] for run in split(range(len(entries)), costs.__getitem__, budget)]
    if len(runs) > 1 and sheet_cost[0]:  # the sheets go on the last page when they fit there, else on one more
        last = [(1, card_bytes(card)) for _, card in runs[-1] if card is not None]
        if not fits([*last, sheet_cost], budget):
            runs.append([])
    pages, card_files, section_files = [], {}, {}
    position = 0
    for number, run in enumerate(runs, start=1):
        file = page_file("cards", number)
        shown: dict[str, list[Card]] = {}
        for key, card in run:
            shown.setdefault(key, [])
            section_files.setdefault(key, file)
            if card is not None:
                shown[key].append(card)
                card_files[card.id] = file
        count = sum(len(cards) for cards in shown.values())
        pages.append(GalleryPage(number, file, {key: tuple(cards) for key, cards in shown.items()},
                                 number == len(runs), position + 1 if count else 0, position + count))
        position += count
    return Gallery(tuple(pages), card_files, section_files)


@dataclass(frozen=True)
class PrintPart:
    """One file of a big game's printable cards."""

    number: int  # 1-based
    file: str  # in the game's folder
    sheets: int  # paper pages in it
    first: int  # the number of its first paper page in the whole print


def plan_print(sheets: Sequence[PrintSheet], pictures: dict[str, Picture],
               stem: str) -> list[tuple[PrintPart, list[PrintSheet]]]:
    """The printable sheets in parts within PRINT_BUDGET, each fronts sheet kept with its backs sheet; each part
    with its sheets. ``pictures``: the game's, by symbol id (a sheet brings the ones only it uses)."""
    groups: list[list[PrintSheet]] = []
    for sheet in sheets:
        if sheet.side == "back" and groups:
            groups[-1].append(sheet)
        else:
            groups.append([sheet])

    def cost(group: list[PrintSheet]) -> tuple[int, int]:
        own = {picture.symbol_id: picture for sheet in group for picture in sheet.pictures}
        slots = [slot for sheet in group if sheet.side != "back" for slot in sheet.slots]
        return len(slots), sum((own.get(slot.symbol_id) or pictures[slot.symbol_id]).length for slot in slots)

    planned, first = [], 1
    for number, run in enumerate(split(groups, cost, PRINT_BUDGET), start=1):
        part_sheets = [sheet for group in run for sheet in group]
        planned.append((PrintPart(number, page_file(stem, number), len(part_sheets), first), part_sheets))
        first += len(part_sheets)
    return planned
