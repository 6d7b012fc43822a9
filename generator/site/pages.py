"""A rulebook page's Markdown as HTML, with deckwright's own syntax rendered.

Python-Markdown does the prose (tables, heading anchors, table of contents,
admonitions), configured once for every output in ``generator.book.markdown``.
Around it: ``[[card-id]]`` becomes a link to the gallery with a preview of the card, ``[[card-id.field]]`` and ``[[constant:name]]`` print
values from the data, a ```` ```cards ```` block becomes a table generated from
the data and a ```` ```example ```` block becomes an example box with the
engine's verdict; a picture (``![alt](../art/map.png)``, checked by ``rules.book.pictures``) is copied once into
``<game>/images/`` and shown from there, with its size. The HTML of those pieces comes from Jinja macros in
``templates/html/_partials.html``, so everything card data puts on a page is escaped.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote
from xml.etree.ElementTree import tostring

from deckwright.generator.book.examples import ExampleView, example_view
from deckwright.generator.book.markdown import Hooks, PageUnreadable, reading, rulebook_markdown, unreadable_tree
from deckwright.generator.book.tables import TableView
from deckwright.generator.book.tables import table_view as book_table_view
from deckwright.rules.book.pages import resolve_field
from deckwright.rules.book.tables import Table, page_tables
from deckwright.rules.data.model import Card, Game, Page
from deckwright.rules.data.schema import Ref
from deckwright.rules.data.values import Open
from deckwright.rules.data.yamlsrc import AliasBudget

from .cards import IMAGES, CardArt, card_anchor, face_symbol_id, image_file_name


@dataclass
class RenderedPage:
    html: str
    toc: list[dict]  # Python-Markdown's toc_tokens below the page title
    cards: list[str] = field(default_factory=list)  # ids of cards shown in previews, in first-use order
    examples: list[ExampleView] = field(default_factory=list)


@dataclass(frozen=True)
class Links:
    """Where a rule page points: the gallery, relative to the page; a big game's gallery has several pages
    (site/paging.py): ``card_files`` names the one showing each card, a sibling of ``gallery``."""

    gallery: str
    card_files: dict[str, str] = field(default_factory=dict)
    section_files: dict[str, str] = field(default_factory=dict)  # deck id -> the page its section starts on

    def card(self, card_id: str) -> str:
        folder, slash, default = self.gallery.rpartition("/")
        return f"{folder}{slash}{self.card_files.get(card_id, default)}#{card_anchor(card_id)}"

    def cards_of(self, source: tuple[str, str]) -> str:
        """The gallery filtered to a table's deck (on the page its section starts) or card type."""
        kind, ident = source
        folder, slash, default = self.gallery.rpartition("/")
        if kind == "deck":
            return f"{folder}{slash}{self.section_files.get(ident, default)}?deck={quote(ident)}#deck-{quote(ident)}"
        return f"{folder}{slash}{default}?type={quote(ident)}"


# A card table on a site page shows at most this many rows, then links the gallery: 20,000 rows made a 4.4 MB
# page. (The printed rulebook lists every row.)
SITE_TABLE_ROWS = 500


def table_view(game: Game, art: CardArt, table: Table) -> TableView:
    """The table with each value's markup as HTML, its first ``SITE_TABLE_ROWS`` rows."""
    view = book_table_view(game, art.faces, table, SITE_TABLE_ROWS)
    rows = tuple(tuple(replace(cell, text=art.markup_html(cell.text), markup=False) if cell.markup else cell
                       for cell in row) for row in view.rows)
    return replace(view, rows=rows)


class _Renderer:
    """State for one page: which cards it previews, which examples it shows."""

    def __init__(self, game: Game, art: CardArt, page: Page, partials: Any, links: Links, results: dict[int, Any]):
        self.game = game
        self.art = art
        self.page = page
        self.partials = partials
        self.links = links
        self.results = results
        self.tables = page_tables(page, game)
        self.cards: list[str] = []
        self.examples: list[ExampleView] = []
        self.aliases = AliasBudget()  # the page's example blocks share one alias limit

    def cardref(self, card: Card, text: str | None = None) -> str:
        if card.id not in self.cards:
            self.cards.append(card.id)
        width, height = self.art.size(card)
        return str(self.partials.cardref(text or card.name, self.links.card(card.id), face_symbol_id(card.id),
                                         width, height))

    def reference(self, kind: str | None, ident: str, path: str | None) -> str:
        if kind == "constant":
            value = self.game.constants.get(ident)
            return str(self.partials.value(self.art.value_text(value), f"game constant {ident}",
                                           value.note if isinstance(value, Open) else ""))
        card = self.game.card(ident)
        if not path:
            return self.cardref(card)
        value = resolve_field(card, path)
        top = path.split(".")[0]
        text = self.art.html(card, top) if "." not in path else self.art.value_text(value)
        if isinstance(value, Ref):
            return self.cardref(self.game.card(value.id))
        return str(self.partials.value(text, f"{card.name}: {self.art.label(card, top)}",
                                       value.note if isinstance(value, Open) else ""))

    def block(self, kind: str, line: int, body: str) -> str | None:
        if kind == "cards" and line in self.tables:  # (its cards are links without previews: no picture needed)
            return str(self.partials.cards_table(table_view(self.game, self.art, self.tables[line]), self.links))
        if kind == "example":
            view = example_view(body, self.results.get(line), len(self.examples) + 1, self.aliases)
            self.examples.append(view)
            return str(self.partials.example(view))
        return None


def page_pictures(game: Game) -> dict[Path, str]:
    """Every picture the game's rulebook pages show -> its name under ``<game>/images/`` (where the rule pages,
    in ``<game>/rules/``, find it as ``../images/<name>``), copied there beside the card art."""
    return {found.path: image_file_name(found.path, found.digest, found.suffix)
            for page in game.pages for _, found in page.pictures}


def render_page(game: Game, art: CardArt, page: Page, partials: Any, links: Links,
                results: dict[int, Any]) -> RenderedPage:
    """The page as HTML; ``results`` are the replayed examples of this page by their fence line."""
    renderer = _Renderer(game, art, page, partials, links, results)
    hooks = Hooks(block=renderer.block, reference=renderer.reference,
                  page_link=lambda target, fragment: f"{target.id}.html" + (f"#{fragment}" if fragment else ""),
                  picture=lambda found: f"../{IMAGES}/{image_file_name(found.path, found.digest, found.suffix)}",
                  taken_ids=lambda: [box_id for view in renderer.examples for box_id in view.ids])
    md = rulebook_markdown(game, page, hooks,
                           toc={"permalink": "#", "permalink_title": "Link to this section", "toc_depth": "2-3"})
    try:
        with reading(page):
            html = md.convert(page.text)
    except PageUnreadable as exc:  # (build --force) check reported it: the page says why it is empty
        return RenderedPage(tostring(unreadable_tree(exc.problem), encoding="unicode", method="html"), [])
    return RenderedPage(html, list(getattr(md, "toc_tokens", [])), renderer.cards, renderer.examples)
