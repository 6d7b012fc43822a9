"""A card's picture and its gallery figure as HTML, made here in one pass.

They were template macros: a 20,000-card site calls them 20,000 times for the gallery, and the macro calls and
their escaping were a tenth of its processor time. The templates call these as they called the macros, with
the same output; every value is escaped here.
"""
from __future__ import annotations

from numbers import Number
from typing import Any

from markupsafe import Markup, escape

from .cards import Picture, card_anchor, face_symbol_id


def card_svg(picture: Picture, alt: Any, css_class: str = "card-img") -> Markup:
    """The picture at its size, drawn from its symbol (which the page holds once): ``alt`` is what it shows."""
    width, height = escape(picture.width_mm), escape(picture.height_mm)
    shaped, clip = (" shaped", f"; clip-path: {escape(picture.clip)}") if picture.clip else ("", "")
    return Markup(f'<svg class="{escape(css_class)}{shaped}" role="img" aria-label="{escape(alt)}" viewBox="0 0 '
                  f'{width} {height}" style="--card-w: {width}; --card-h: {height}{clip}"><use '
                  f'href="#{escape(picture.symbol_id)}" width="{width}" height="{height}"/></svg>')


def card_figure(card: Any, view: Any, alt: Any) -> Markup:
    """A card in the gallery (``view``: the game's site/build.GameView; ``alt``: the card's alt text, which
    the gallery's search reads too): its picture, name, type and copies."""
    game = view.game
    alt = str(alt)  # once: a build's alt texts are read back from its spool
    anchor = escape(card_anchor(card.id))
    copies = card.copies
    if not isinstance(copies, Number):  # left open
        count = f' &middot; <abbr class="value open" title="Left open: {escape(copies.note)}">&times;?</abbr>'
    else:
        count = f" &middot; &times;{escape(copies)}" if copies > 1 else ""
    deck = card.deck if card.deck in game.decks else "-"
    picture = card_svg(view.pictures[face_symbol_id(card.id)], alt)
    return Markup(f'<figure class="card" id="{anchor}" data-card data-deck="{escape(deck)}" '
                  f'data-type="{escape(card.type)}" data-search="{escape(alt.lower())}">\n'
                  f'  <a class="card-link" href="#{anchor}">{picture}</a>\n'
                  f"  <figcaption>\n"
                  f'    <span class="card-name">{escape(card.name)}</span>\n'
                  f'    <span class="card-meta">{escape(game.card_types[card.type].name)}{count}</span>\n'
                  f"  </figcaption>\n"
                  f"</figure>")
