"""What the site shows of a game's cards and sheets: their pictures as SVG symbols, their field texts, alt and search text.

Pictures and field texts come from the print layouts (``generator.faces``): the
same measured display list the PDF is drawn from, and the same wording.
"""
from __future__ import annotations

import hashlib
import re
import sys
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from deckwright.generator.book.tables import field_markup
from deckwright.generator.layout.cardtext import card_fields, field_label, plain_text
from deckwright.generator.layout.faces import Faces, plain_value
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.layout.paper import is_page_sheet, page_sheet_area
from deckwright.generator.layout.richtext import render
from deckwright.generator.layout.shapes import css_clip, shape_of
from deckwright.generator.render.svg import render as render_svg
from deckwright.rules.data.confine import MAX_IMAGE_BYTES, read_confined
from deckwright.rules.data.model import Card, Deck, Game, Sheet
from deckwright.rules.data.names import portable_file_name
from deckwright.rules.data.pictures import picture_suffix

from .spool import Spool, Spooled, SpooledText

_SVG_ID = re.compile(r'\bid="([^"]+)"')
_SVG_OPEN = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>]*>\s*)?<svg\b([^>]*)>", re.S)
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')
_TITLE = re.compile(r"<title>.*?</title>", re.S)
COMMON_FIELDS = ("name", "id", "copies")


def card_anchor(card_id: str) -> str:
    return f"card-{card_id}"


def face_symbol_id(card_id: str) -> str:
    return sys.intern(f"face-{card_id}")  # one string however many pages and pictures name it


def back_symbol_id(deck_id: str) -> str:
    return f"back-{deck_id}"


def sheet_anchor(sheet_id: str) -> str:
    return f"sheet-{sheet_id}"


def sheet_symbol_id(sheet_id: str) -> str:
    return f"sheet_{sheet_id}"  # "_" is never in an id: no clash with any anchor or other symbol


# Stands for the game's folder, relative to the page, in image links; pages sit at different depths.
GAME_ROOT = "@@game-root@@/"
IMAGES = "images"


def image_file_name(source: Path, digest: str, suffix: str) -> str:
    """A picture's name under ``<game>/images/``: ``digest`` (SHA-1, hex) makes the same picture the same name on
    every machine, and a changed one a new name; ``suffix`` is its format's (``rules.data.pictures.picture_suffix``),
    never the name's own, which a game folder chooses."""
    return f"{portable_file_name(source.stem)}-{digest[:8]}{suffix}"


@dataclass(frozen=True, slots=True)
class Picture:
    """One card face or back as an SVG symbol: inner markup plus its size in millimetres.

    The markup is kept compressed (a third of its size or less): a site holds every card's picture from planning
    its pages until it writes them, some 37 MB of markup for 20,000 poker cards. A build's site keeps it in a
    spool (site/spool.py), out of memory, and as it is: compressed, then read back for the gallery and both
    printable papers, it cost the site worker 0.08 s of processor time per 1,000 cards."""

    symbol_id: str
    view_box: str
    packed: bytes | Spooled  # the SVG markup without the outer <svg> element, ids prefixed to be unique: zlib'd
    # bytes, or spooled UTF-8
    length: int  # characters of that markup, what a page budgets
    width_mm: float
    height_mm: float
    clip: str = ""  # a CSS clip-path: a token's or tile's shape, rounded corners

    @property
    def inner(self) -> str:
        markup = zlib.decompress(self.packed) if isinstance(self.packed, bytes) else self.packed.read()
        return markup.decode("utf-8")

    def symbol(self, game_root: str = "") -> str:
        """The symbol for a page ``game_root`` (``""`` or ``"../"``) away from the game's folder."""
        inner = self.inner.replace(GAME_ROOT, game_root)
        return f'<symbol id="{self.symbol_id}" viewBox="{self.view_box}">{inner}</symbol>'


def as_picture(svg: str, symbol_id: str, width_mm: float, height_mm: float, spool: Spool | None = None) -> Picture:
    """Turn a standalone SVG document into a symbol whose ids cannot clash with other cards' (its markup kept in
    ``spool``, else compressed in memory)."""
    match = _SVG_OPEN.match(svg)
    if match is None:
        raise ValueError(f"{symbol_id}: not an SVG document")
    view_box = _VIEWBOX.search(match.group(1))
    inner = _TITLE.sub("", svg[match.end():svg.rindex("</svg>")], count=1)  # the page says what the card is
    prefix = symbol_id + "-"
    ids = set(_SVG_ID.findall(inner)) if 'id="' in inner else set()  # the search alone: 40% of this function
    if ids:
        inner = _SVG_ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', inner)
        inner = re.sub(r'(url\(#|href="#)([^)"]+)',
                       lambda m: m.group(1) + (prefix + m.group(2) if m.group(2) in ids else m.group(2)), inner)
    inner = inner.strip()
    markup = inner.encode("utf-8")
    # a view box or clip is one string however many cards share it
    return Picture(symbol_id, sys.intern(view_box.group(1) if view_box else f"0 0 {width_mm:g} {height_mm:g}"),
                   zlib.compress(markup, 1) if spool is None else spool.keep(markup), len(inner), width_mm, height_mm)


class CardArt:
    """One game's card pictures and texts, with its layouts read once."""

    def __init__(self, game: Game, fonts: FontBook | None = None, faces: Faces | None = None,
                 spool: Spool | None = None):
        """``spool``: where to keep the pictures' markup (else in memory)."""
        self.game = game
        self.spool = spool
        self.faces = faces or Faces(game, fonts)
        self._alts: dict[str, str | SpooledText] = {}
        self.images: dict[Path, str] = {}  # card art file -> its name under the game's images/ folder

    # -- texts -------------------------------------------------------------

    def size(self, card: Card) -> tuple[float, float]:
        """The card's trim size in millimetres, as its layout is measured (a card in no deck is poker sized)."""
        return self.faces.card_size(card)

    def markup(self, card: Card, key: str) -> str:
        """A field in the layouts' wording, with their markup (``**bold**``, ``:icon:``)."""
        return field_markup(self.game, self.faces, card, key)

    def text(self, card: Card, key: str) -> str:
        """A field as plain text (an icon reads as its name)."""
        return plain_text(self.faces, self.markup(card, key))

    def html(self, card: Card, key: str) -> Markup:
        """A field as HTML: markup to <strong>/<em>, icons as their names, everything else escaped."""
        return self.markup_html(self.markup(card, key))

    def markup_html(self, text: str) -> Markup:
        """Text in the layouts' markup as HTML."""
        def piece(p) -> str:
            html = escape(p.text or p.icon.replace("-", " "))
            if p.icon:
                html = Markup('<span class="icon-word">{}</span>').format(html)
            if p.italic:
                html = Markup("<em>{}</em>").format(html)
            if p.bold:
                html = Markup("<strong>{}</strong>").format(html)
            return str(html)

        return Markup(render(text, self.faces.icons, piece, " ", "<br>"))  # every piece escaped above

    def value_text(self, value: Any) -> str:
        return plain_value(value, self.game)

    def label(self, card: Card, key: str) -> str:
        return field_label(self.game, card, key)

    def alt(self, card: Card) -> str | SpooledText:
        """Name, type and every value on the card: the alt text and what the gallery searches (kept in the
        spool when there is one: ``str()`` of it is the text)."""
        if card.id not in self._alts:
            parts = [f"{card.name} ({self.game.card_types[card.type].name})"]
            parts.extend(f"{label}: {text}" for label, text in card_fields(self.faces, card))
            text = ". ".join(parts)
            self._alts[card.id] = text if self.spool is None else self.spool.keep_text(text)
        return self._alts[card.id]

    def back_alt(self, deck: Deck) -> str:
        back = deck.back
        return f"Back of the {deck.name} cards: {back.title}" + (f", {back.subtitle}" if back.subtitle else "")

    # -- pictures ------------------------------------------------------------

    def image_href(self, path: str) -> str:
        """Card art is copied once beside the pages (not inlined in each page that shows the card)."""
        source = Path(path)
        if source not in self.images:
            data = read_confined(self.game.root, source, MAX_IMAGE_BYTES)
            self.images[source] = image_file_name(source, hashlib.sha1(data).hexdigest(), picture_suffix(data))
        return f"{GAME_ROOT}{IMAGES}/{self.images[source]}"

    def picture(self, display, symbol_id: str) -> Picture:
        """A display list (trim only, no bleed) as a symbol of its own size."""
        svg = render_svg(display, image_href=self.image_href)
        return as_picture(svg, symbol_id, display.width, display.height, self.spool)

    def face(self, card: Card) -> Picture:
        picture = self.picture(self.faces.front(card), face_symbol_id(card.id))
        deck = self.game.decks.get(card.deck)
        return replace(picture, clip=sys.intern(css_clip(shape_of(deck.size)))) if deck is not None else picture

    def back(self, deck: Deck) -> Picture:
        return replace(self.picture(self.faces.back(deck), back_symbol_id(deck.id)), clip=css_clip(shape_of(deck.size)))

    def page_sheet(self, sheet: Sheet, paper: str) -> Picture:
        """A page-sized sheet as the print-and-play PDF on ``paper`` lays it out (on A4, the gallery's picture)."""
        if paper == "a4":
            return self.sheet(sheet)
        display = self.faces.sheet(sheet, *page_sheet_area(sheet, paper)[1])
        return self.picture(display, f"{sheet_symbol_id(sheet.id)}_{paper}")

    def sheet(self, sheet: Sheet) -> Picture:
        """A sheet as the A4 print-and-play PDF lays it out: a page-sized one fills the A4 page inside its margin,
        a smaller one has its own size."""
        display = self.faces.sheet(sheet, *page_sheet_area(sheet, "a4")[1]) if is_page_sheet(sheet) \
            else self.faces.sheet(sheet)
        return self.picture(display, sheet_symbol_id(sheet.id))
