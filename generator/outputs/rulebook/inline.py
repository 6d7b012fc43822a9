"""Text inside a block (emphasis, code, links, ``[[references]]``) as ReportLab paragraph markup.

Everything from the page or the card data is escaped: a page can only ask for what this module writes.
A ``[[card]]`` prints the card's name, links to its entry in the index of cards and records the page it
is drawn on (the index lists those pages). Links leave the book only for http(s) and mailto addresses;
any other scheme prints as plain text.
"""
from __future__ import annotations

import html
import re
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from deckwright.generator.book.markdown import unstash
from deckwright.generator.book.tables import field_markup
from deckwright.generator.layout.faces import plain_value
from deckwright.generator.layout.richtext import render
from deckwright.rules.book.pages import resolve_field
from deckwright.rules.data.schema import Ref
from deckwright.rules.data.values import Open

from .document import MENTION
from .parsed import PAGE_LINK, REFERENCE, ParsedBook, ParsedPage, card_destination, destination
from .theme import SANS, Theme

_EXTERNAL = re.compile(r"^(https?://|mailto:)", re.I)


def attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def markup_xml(text: str, icons) -> str:
    """Card text in the layouts' markup (``**bold**``, ``*italic*``, ``:icon:``) as paragraph markup;
    an icon reads as its name."""
    def piece(p) -> str:
        part = escape(p.text or p.icon.replace("-", " "))
        part = f"<i>{part}</i>" if p.italic else part
        return f"<b>{part}</b>" if p.bold else part

    return render(text, icons, piece, " ", "<br/>")


class InlineWriter:
    """Paragraph markup for the inline content of one page's elements."""

    def __init__(self, book: ParsedBook, theme: Theme, page: ParsedPage):
        self.book = book
        self.theme = theme
        self.page = page
        self.accent = theme.palette.accent

    def markup(self, element: Element, cards: list[str] | None = None) -> str:
        """The element's text and children (not its tail); ids of the cards it names are added to ``cards``."""
        out: list[str] = []
        self._content(element, out, cards if cards is not None else [])
        return "".join(out).strip()

    def runs(self, element: Element, blocks: frozenset[str], cards: list[str]) -> list["str | Element"]:
        """The element's content as runs of paragraph markup between the child elements whose tag is in
        ``blocks`` (a list item holding paragraphs or a nested list)."""
        runs: list[str | Element] = []
        out: list[str] = []
        self._text(element.text, out, cards)
        for child in element:
            if child.tag in blocks:
                runs.append("".join(out).strip())
                runs.append(child)
                out = []
            else:
                self._element(child, out, cards)
            self._text(child.tail, out, cards)
        runs.append("".join(out).strip())
        return [run for run in runs if not isinstance(run, str) or run]

    def block_of(self, element: Element) -> Element | None:
        """The element a hook made, when a paragraph holds nothing else (a fenced block's stand-in)."""
        if len(element):
            return None
        pieces = [piece for piece, _ in unstash(self.page.markdown, element.text) if not
                  (isinstance(piece, str) and not piece.strip())]
        return pieces[0] if len(pieces) == 1 and isinstance(pieces[0], Element) and pieces[0].tag != REFERENCE \
            else None

    def _content(self, element: Element, out: list[str], cards: list[str]) -> None:
        self._text(element.text, out, cards)
        for child in element:
            self._element(child, out, cards)
            self._text(child.tail, out, cards)

    def _text(self, text: str | None, out: list[str], cards: list[str]) -> None:
        for piece, stashed in unstash(self.page.markdown, text):
            if isinstance(piece, Element):
                self._element(piece, out, cards)
            elif stashed:  # an entity Markdown wrote (smart quotes, dashes)
                out.append(escape(html.unescape(piece)))
            else:
                out.append(escape(piece.replace("\n", " ")))

    def _element(self, element: Element, out: list[str], cards: list[str]) -> None:
        tag = element.tag
        if tag in ("strong", "b"):
            out.append("<b>")
            self._content(element, out, cards)
            out.append("</b>")
        elif tag in ("em", "i"):
            out.append("<i>")
            self._content(element, out, cards)
            out.append("</i>")
        elif tag == "code":
            size = self.theme.size * 0.86
            out.append(f'<font face="{attr(self.theme.face(SANS))}" size="{size:.2f}" '
                       f'backColor="{self.theme.palette.tint}">')
            out.append(escape(html.unescape("".join(element.itertext()))))
            out.append("</font>")
        elif tag == "br":
            out.append("<br/>")
        elif tag == "a":
            self._link(element, out, cards)
        elif tag == "img":
            out.append(f"<i>{escape(element.get('alt', ''))}</i>")
        elif tag == REFERENCE:
            self._reference(element, out, cards)
        else:
            self._content(element, out, cards)

    def _link(self, element: Element, out: list[str], cards: list[str]) -> None:
        href = element.get("href", "")
        target = None
        if href.startswith(PAGE_LINK):
            target = "#" + self.book.aliases.get(href[len(PAGE_LINK):], href[len(PAGE_LINK):])
        elif href.startswith("#"):
            key = destination(self.page.page.id, href[1:])
            target = "#" + self.book.aliases.get(key, key)
        elif _EXTERNAL.match(href):
            target = href
        if target is not None and target.startswith("#") and target[1:] not in self.book.destinations:
            target = None  # a heading that does not exist: the words stay, the link goes
        if target is None:
            self._content(element, out, cards)
            return
        out.append(f'<a href="{attr(target)}" color="{self.accent}">')
        self._content(element, out, cards)
        out.append("</a>")

    def card_name(self, card_id: str) -> str:
        """A card's name, linked to its index entry, recording the page it is drawn on."""
        card = self.book.game.card(card_id)
        return (f'<a href="#{card_destination(card.id)}" color="{self.accent}">{escape(card.name)}</a>'
                f'<onDraw name="{MENTION}" label="{attr(card.id)}"/>')

    def _reference(self, element: Element, out: list[str], cards: list[str]) -> None:
        game = self.book.game
        kind, ident, path = element.get("kind"), element.get("id", ""), element.get("path", "")
        if kind == "constant":
            out.append(self._value(game.constants.get(ident)))
            return
        card = game.card(ident)
        if not path:
            cards.append(card.id)
            out.append(self.card_name(card.id))
            return
        value = resolve_field(card, path)
        if isinstance(value, Ref):
            out.append(self.card_name(value.id))
        elif isinstance(value, Open):
            out.append(self._value(value))
        elif "." in path:
            out.append(self._value(value))
        else:
            out.append(markup_xml(field_markup(game, self.book.faces, card, path), self.book.faces.icons))

    def _value(self, value) -> str:
        if isinstance(value, Open):
            return f'<font color="{self.accent}"><b>?</b></font>'
        return escape(plain_value(value, self.book.game))
