"""A game's rulebook read once for every format it is printed in: each page's Markdown as the element tree
the site's HTML is written from (``generator.book.markdown``), its card tables and worked examples, the
headings the contents list, and the card pictures."""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

from deckwright.generator.book.examples import ExampleView, example_view, results_by_line
from deckwright.generator.book.markdown import (
    Hooks,
    PageUnreadable,
    page_tree,
    reading,
    rulebook_markdown,
    unreadable_tree,
    unstash,
)
from deckwright.generator.book.tables import TableView, table_view
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.rules.book.tables import page_tables
from deckwright.rules.data.model import Card, Game, Page
from deckwright.rules.data.yamlsrc import AliasBudget

# Elements the PDF's hooks put into the tree in place of deckwright's syntax.
CARDS_TABLE = "dw-cards"  # a ```cards block: attribute line
EXAMPLE = "dw-example"  # an ```example block: attribute line
CODE = "dw-code"  # any other fenced block: its text
REFERENCE = "dw-ref"  # [[...]]: attributes kind ("constant" or ""), id, path
PAGE_LINK = "#@"  # starts the href of a link to another page: "#@" + its destination


def destination(page_id: str, fragment: str = "") -> str:
    """The PDF destination of a page, or of a heading on it (heading ids are unique only within a page)."""
    return f"{page_id}--{fragment}" if fragment else page_id


def card_destination(card_id: str) -> str:
    return f"card--{card_id}"


@dataclass(frozen=True)
class Section:
    level: int  # 1: the page's title, 2: a section, 3 and below: not in the contents
    title: str
    key: str  # its destination


@dataclass
class ParsedPage:
    page: Page
    markdown: Any  # the markdown.Markdown that parsed it: its stash holds what placeholders stand for
    tree: Element
    tables: dict[int, TableView]  # by fence line
    examples: dict[int, ExampleView]  # by fence line
    sections: list[Section] = field(default_factory=list)
    title_id: str = ""  # the heading id Markdown gave the page's title
    title: Element | None = None  # the page's title heading: its first level-1 heading; any other is a section


def plain_text(markdown, element: Element, game: Game) -> str:
    """An element's words as a reader sees them: smart quotes as characters, a [[card]] as its name."""
    out: list[str] = []

    def text(value: str | None) -> None:
        for piece, stashed in unstash(markdown, value):
            if isinstance(piece, Element):
                walk(piece)
            else:
                out.append(html.unescape(piece) if stashed else piece)

    def walk(node: Element) -> None:
        if node.tag == REFERENCE and not node.get("kind") and not node.get("path"):
            out.append(game.card(node.get("id", "")).name)
        text(node.text)
        for child in node:
            walk(child)
            text(child.tail)

    walk(element)
    return " ".join("".join(out).split())


class ParsedBook:
    """Every rulebook page of a game, parsed, with what the pages show of its cards."""

    def __init__(self, game: Game, faces: Faces, results: list):
        self.game = game
        self.faces = faces
        self.results = results
        self.pages = [self._parse(page) for page in game.pages]
        # the headings, and the example panels (examples.example_key), which a link to the box's anchor reaches
        self.destinations = ({s.key for p in self.pages for s in p.sections}
                             | {destination(p.page.id, ex.anchor) for p in self.pages for ex in p.examples.values()})
        # A link to a page's title by its heading id goes to the page.
        self.aliases = {destination(p.page.id, p.title_id): destination(p.page.id) for p in self.pages if p.title_id}
        self._faces: dict[str, dl.DisplayList] = {}

    def _parse(self, page: Page) -> ParsedPage:
        tables = page_tables(page, self.game)
        results = results_by_line(page, self.results)
        examples: dict[int, ExampleView] = {}
        aliases = AliasBudget()  # the page's blocks share one alias limit

        def block(kind: str, line: int, body: str):
            if kind == "cards" and line in tables:
                return Element(CARDS_TABLE, line=str(line))
            if kind == "example":
                examples[line] = example_view(body, results.get(line), len(examples) + 1, aliases)
                return Element(EXAMPLE, line=str(line))
            code = Element(CODE)  # any other block, and a table the checker rejects: shown as written
            code.text = body
            return code

        def reference(kind, ident, path):
            return Element(REFERENCE, kind=kind or "", id=ident, path=path or "")

        hooks = Hooks(block=block, reference=reference,
                      page_link=lambda target, fragment: PAGE_LINK + destination(target.id, fragment),
                      picture=lambda found: str(found.path),  # the checked file, read through the gate (figures)
                      taken_ids=lambda: [box_id for view in examples.values() for box_id in view.ids])
        md = rulebook_markdown(self.game, page, hooks, toc={"toc_depth": "1-6"})
        try:
            with reading(page):
                tree = page_tree(md, page.text)
        except PageUnreadable as exc:  # (build --force) check reported it: the chapter says why it is empty
            tree, examples = unreadable_tree(exc.problem), {}
        parsed = ParsedPage(page, md, tree,
                            {line: table_view(self.game, self.faces, table) for line, table in tables.items()},
                            examples)
        titled = False
        for element in tree:
            if element.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                level = int(element.tag[1])
                if level == 1 and not titled:
                    titled = True
                    parsed.title, parsed.title_id = element, element.get("id", "")
                    parsed.sections.append(Section(1, plain_text(md, element, self.game), destination(page.id)))
                else:
                    parsed.sections.append(Section(max(level, 2), plain_text(md, element, self.game),
                                                   destination(page.id, element.get("id", ""))))
        if not titled:  # a page without a "# Title" line still opens its chapter under its title
            parsed.sections.insert(0, Section(1, page.title, destination(page.id)))
        return parsed

    def face(self, card: Card) -> dl.DisplayList:
        """The card's front without bleed: what the pictures in the book draw."""
        if card.id not in self._faces:
            self._faces[card.id] = self.faces.front(card)
        return self._faces[card.id]

    @property
    def examples(self) -> list[tuple[ParsedPage, ExampleView]]:
        return [(page, view) for page in self.pages for view in page.examples.values()]
