"""The readings register as the site shows it: one page per game, and on every rulebook page the
readings that page relies on.

Each entry keeps its source places, the readings possible (the chosen one marked, and the one a
pending engine change is to play), why, and links to what depends on it: worked examples,
rulebook pages, cards and constants. Links are relative to the game's folder.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from deckwright.rules.data.model import Game, Reading

from .cards import card_anchor

KIND_LABELS = {"reading": "Reading", "contradiction": "Contradiction"}


@dataclass(frozen=True)
class Link:
    text: str
    href: str  # from the game's folder


@dataclass(frozen=True)
class Option:
    id: str
    text: str
    chosen: bool
    engine_today: bool  # the engine plays this one today, pending a change


@dataclass(frozen=True)
class ReadingView:
    reading: Reading
    anchor: str
    kind_label: str
    options: tuple[Option, ...]
    examples: tuple[Link, ...]
    pages: tuple[Link, ...]
    cards: tuple[Link, ...]
    constants: tuple[str, ...]  # "name = value"
    tests: tuple[str, ...]
    page_ids: frozenset[str]  # rulebook pages it concerns, directly or through its examples


def reading_anchor(reading_id: str) -> str:
    return f"reading-{reading_id}"


def reading_views(game: Game, pages: list[Any], examples: list[tuple[Any, Any]],
                  card_href: Callable[[str], str] | None = None) -> list[ReadingView]:
    """``pages`` are the site's page links (id, title, href); ``examples`` (page link, example view) pairs;
    ``card_href``: a card's place in the gallery, from the game's folder (a big gallery has several pages)."""
    card_href = card_href or (lambda card_id: f"cards.html#{card_anchor(card_id)}")
    page_by_id = {page.id: page for page in pages}
    example_by_name = {view.name: (page, view) for page, view in examples}
    cards = {card.id: card for card in game.cards}
    out = []
    for reading in game.readings:
        depends = reading.depends
        example_links, page_ids = [], set()
        for name in depends.examples:
            if name in example_by_name:
                page, view = example_by_name[name]
                example_links.append(Link(name, f"{page.href}#{view.anchor}"))
                page_ids.add(page.id)
        page_links = []
        for name in depends.pages:
            page = page_by_id.get(PurePosixPath(name).stem)
            if page is not None:
                page_links.append(Link(page.title, page.href))
                page_ids.add(page.id)
        card_links = tuple(Link(cards[card_id].name, card_href(card_id))
                           for card_id in depends.cards if card_id in cards)
        constants = tuple(f"{name} = {game.constants[name]}" for name in depends.constants if name in game.constants)
        today = reading.pending.plays if reading.pending else None
        options = tuple(Option(key, text, key == reading.chosen, key == today) for key, text in reading.options)
        out.append(ReadingView(reading, reading_anchor(reading.id), KIND_LABELS[reading.kind], options,
                               tuple(example_links), tuple(page_links), card_links, constants, depends.tests,
                               frozenset(page_ids)))
    return out


def readings_on_page(views: list[ReadingView], page_id: str) -> list[ReadingView]:
    return [view for view in views if page_id in view.page_ids]
