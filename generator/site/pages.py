"""A rulebook page's Markdown as HTML, with deckwright's own syntax rendered.

Python-Markdown does the prose (tables, heading anchors, table of contents,
admonitions). Around it: ``[[card-id]]`` becomes a link to the gallery with a
preview of the card, ``[[card-id.field]]`` and ``[[constant:name]]`` print
values from the data, a ```` ```cards ```` block becomes a table generated from
the data and a ```` ```example ```` block becomes an example box with the
engine's verdict. The HTML of those pieces comes from Jinja macros in
``templates/html/_partials.html``, so everything card data puts on a page is escaped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from deckwright.rules.book.pages import REF_PATTERN, fenced_blocks, resolve_field
from deckwright.rules.book.tables import MISSING, Table, page_tables
from deckwright.rules.data.model import Card, Game, Page
from deckwright.rules.data.schema import Ref
from deckwright.rules.data.values import Open

from .cards import CardArt, card_anchor, face_symbol_id
from .examples import ExampleView, example_view

MARKDOWN_EXTENSIONS = ("tables", "toc", "admonition", "fenced_code", "attr_list", "sane_lists", "smarty")


@dataclass(frozen=True)
class Cell:
    text: str
    card: Card | None = None  # a ref cell links to this card
    open_note: str = ""  # a value the source leaves open
    numeric: bool = False


@dataclass(frozen=True)
class TableView:
    headers: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str


@dataclass
class RenderedPage:
    html: str
    toc: list[dict]  # Python-Markdown's toc_tokens below the page title
    cards: list[str] = field(default_factory=list)  # ids of cards shown in previews, in first-use order
    examples: list[ExampleView] = field(default_factory=list)


@dataclass(frozen=True)
class Links:
    """Where a rule page points: the gallery, relative to the page."""

    gallery: str

    def card(self, card_id: str) -> str:
        return f"{self.gallery}#{card_anchor(card_id)}"


def _is_number_column(values: list) -> bool:
    present = [v for v in values if v is not MISSING and not isinstance(v, Open)]
    return bool(present) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present)


def table_view(game: Game, art: CardArt, table: Table) -> TableView:
    spec = table.spec
    numeric = tuple(_is_number_column([row[i] for row in table.rows]) for i in range(len(spec.columns)))
    rows = []
    for card, values in zip(table.cards, table.rows):
        cells = []
        for column, value, is_number in zip(spec.columns, values, numeric):
            if isinstance(value, Ref) and value.id in {c.id for c in game.cards}:
                cells.append(Cell(game.card(value.id).name, card=game.card(value.id)))
            elif column.key == "name":
                cells.append(Cell(card.name, card=card))
            elif isinstance(value, Open):
                cells.append(Cell("?", open_note=value.note, numeric=is_number))
            elif value is MISSING:
                cells.append(Cell("\u2014", numeric=is_number))
            else:
                cells.append(Cell(art.html(card, column.key), numeric=is_number))
        rows.append(tuple(cells))
    source = game.card_types[spec.source_id].name if spec.source == "type" else game.decks[spec.source_id].name
    return TableView(tuple(c.label for c in spec.columns), numeric, tuple(rows), source)


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

    def use_card(self, card: Card) -> None:
        if card.id not in self.cards:
            self.cards.append(card.id)

    def cardref(self, card: Card, text: str | None = None) -> str:
        self.use_card(card)
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
        if kind == "cards" and line in self.tables:
            view = table_view(self.game, self.art, self.tables[line])
            for row in view.rows:
                for cell in row:
                    if cell.card is not None:
                        self.use_card(cell.card)
            return str(self.partials.cards_table(view, self.links))
        if kind == "example":
            view = example_view(body, self.results.get(line), len(self.examples) + 1)
            self.examples.append(view)
            return str(self.partials.example(view))
        return None


def render_page(game: Game, art: CardArt, page: Page, partials: Any, links: Links,
                results: dict[int, Any]) -> RenderedPage:
    """The page as HTML; ``results`` are the replayed examples of this page by their fence line."""
    import markdown
    from markdown.extensions import Extension
    from markdown.inlinepatterns import InlineProcessor
    from markdown.preprocessors import Preprocessor
    from markdown.treeprocessors import Treeprocessor

    renderer = _Renderer(game, art, page, partials, links, results)
    pages_by_path = {other.path.resolve(): other for other in game.pages}

    class Blocks(Preprocessor):
        """Replaces ```cards and ```example fences by their rendered HTML before fenced_code sees them."""

        def run(self, lines: list[str]) -> list[str]:
            out: list[str] = []
            index = 0
            for block in fenced_blocks("\n".join(lines), page.shown):
                html = renderer.block(block.kind, block.loc.line, block.body)
                if html is None:
                    continue
                out.extend(lines[index:block.loc.line - 1])
                # a block indented inside a list item stays in it
                out.extend(["", " " * block.indent + self.md.htmlStash.store(html), ""])
                index = block.end_line
            out.extend(lines[index:])
            return out

    class References(InlineProcessor):
        def handleMatch(self, match, data):  # noqa: N802 (Markdown's API)
            html = renderer.reference(match.group(1), match.group(2), match.group(3))
            return self.md.htmlStash.store(html), match.start(0), match.end(0)

    class PageLinks(Treeprocessor):
        """A link to another rulebook page's Markdown file (``turn.md#setup``) points at its HTML page."""

        def run(self, root):
            for link in root.iter("a"):
                href = link.get("href", "")
                path, _, fragment = href.partition("#")
                if not path.endswith(".md") or re.match(r"^[a-z][a-z0-9+.-]*:", path, re.I):
                    continue
                target = pages_by_path.get((page.path.parent / path).resolve())
                if target is not None:
                    link.set("href", f"{target.id}.html" + (f"#{fragment}" if fragment else ""))

    class Deckwright(Extension):
        def extendMarkdown(self, md):  # noqa: N802
            md.preprocessors.register(Blocks(md), "deckwright-blocks", 29)  # after whitespace, before fences
            md.inlinePatterns.register(References(REF_PATTERN.pattern, md), "deckwright-refs", 175)
            md.treeprocessors.register(PageLinks(md), "deckwright-page-links", 1)
            # Raw HTML in a page shows as text: a game folder from elsewhere cannot put script on the site.
            md.preprocessors.deregister("html_block")
            md.inlinePatterns.deregister("html")

    md = markdown.Markdown(
        extensions=[*MARKDOWN_EXTENSIONS, Deckwright()],
        extension_configs={"toc": {"permalink": "#", "permalink_title": "Link to this section", "toc_depth": "2-3"}},
        output_format="html",
    )
    html = md.convert(page.text)
    return RenderedPage(html, list(getattr(md, "toc_tokens", [])), renderer.cards, renderer.examples)

