"""Pictures kept between rebuilds: a card is drawn again only when something it is drawn from changed.

A picture's key holds everything its display list can depend on, as plain
values without source locations (a card that only moved down its file is not
redrawn): the card, its deck and type, the game's settings, the contents of
its layout files, and what its layout reads of other cards. That is found in
the compiled layout: a value reading ``referring``, ``game`` or ``data`` (or
looking a card up by a literal id) may read any card, so every card is in the
key; one using the ``card_of`` or ``card_name`` filters reads the cards this
card refers to, so those are. Card art files are checked by size and
modification time. Fonts and icons are not in the key: when they change, the
cache is emptied (see ``generator.serve.live``).
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Callable

from deckwright.generator.layout.files import Box, Layout, Value, file_root
from deckwright.generator.site.cards import CardArt, Picture, back_symbol_id, face_symbol_id, sheet_symbol_id
from deckwright.rules.data.confine import FileRefused, read_confined
from deckwright.rules.data.model import Card, Deck, Game, Sheet
from deckwright.rules.data.schema import Ref

_UNKEYED = frozenset({"loc", "field_locs", "path", "root"})  # where a value was written, not what it is
_READS_EVERY_CARD = frozenset({"referring", "game", "data"})
_LOOKS_UP_CARDS = re.compile(r"\bcard_(of|name)\b")
_LOOKS_UP_LITERAL = re.compile(r"""['"][a-z0-9-]+['"]\s*\|\s*card_(of|name)\b""")
EVERY_CARD, REFERRED_CARDS, NO_OTHER_CARD = "every", "referred", "none"


_ATOMS = (str, int, float, bool, type(None))
_KEYED_FIELDS: dict[type, tuple[str, ...]] = {}


def canonical(value: Any) -> Any:
    """A hashable, location-free form of a model value, equal for equal content."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return ("dict", tuple((key, canonical(item)) for key, item in value.items()))
    if kind is tuple or kind is list:
        return tuple(canonical(item) for item in value)
    names = _KEYED_FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value):
            return str(value) if isinstance(value, Path) else value
        names = _KEYED_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value) if f.name not in _UNKEYED)
    return (kind.__name__, tuple(canonical(getattr(value, name)) for name in names))


def game_settings(game: Game) -> Any:
    """Everything of the game a face may show except its cards and rulebook."""
    skipped = {"cards", "pages", "open_questions"} | _UNKEYED
    return tuple((f.name, canonical(getattr(game, f.name))) for f in dataclasses.fields(game) if f.name not in skipped)


@dataclasses.dataclass
class _Entry:
    key: Any
    picture: Picture
    images: dict[Path, tuple[str, tuple[int, int]]]  # art file -> (its name in images/, (size, mtime) when drawn)


def _values(item: Any):
    """Every Value in a compiled layout (boxes, vars, formats, colours, text styles)."""
    if isinstance(item, Value):
        yield item
    elif isinstance(item, Box):
        yield from _values(item.props)
        yield from _values(item.children)
    elif isinstance(item, dict):
        for value in item.values():
            yield from _values(value)
    elif isinstance(item, (list, tuple)):
        for value in item:
            yield from _values(value)


def other_cards_read(layout: Layout) -> str:
    """What a layout reads of cards besides the one it draws: EVERY_CARD, REFERRED_CARDS or NO_OTHER_CARD."""
    reads = NO_OTHER_CARD
    parts = (layout.colors, layout.text_styles, layout.vars, layout.boxes, layout.formats)
    for value in _values(parts):
        source = value.raw if isinstance(value.raw, str) else ""
        if value.names & _READS_EVERY_CARD or _LOOKS_UP_LITERAL.search(source):
            return EVERY_CARD
        if _LOOKS_UP_CARDS.search(source):
            reads = REFERRED_CARDS
    return reads


def referred(value: Any) -> list[str]:
    """The ids of the cards a field value refers to."""
    if isinstance(value, Ref):
        return [value.id]
    if isinstance(value, dict):
        return [ident for item in value.values() for ident in referred(item)]
    if isinstance(value, (list, tuple)):
        return [ident for item in value for ident in referred(item)]
    return []


def _stamp(path: Path) -> tuple[int, int]:
    try:
        info = path.stat()
        return info.st_size, info.st_mtime_ns
    except OSError:
        return -1, -1


class PictureCache:
    """Pictures and alt texts of one game across rebuilds, by symbol id."""

    def __init__(self):
        self.entries: dict[str, _Entry] = {}
        self.alts: dict[str, tuple[Any, str]] = {}

    def clear(self) -> None:
        self.entries.clear()
        self.alts.clear()


class CachedArt(CardArt):
    """CardArt drawing only what its cache does not hold for the same key; ``drawn`` names what it drew.

    With ``defer``, a picture whose own inputs are unchanged keeps its cached version even when cards it looks
    up changed (``deferred`` names them): the edited card shows at once, those follow in a second pass."""

    def __init__(self, game: Game, faces, cache: PictureCache, defer: bool = False):
        super().__init__(game, faces=faces)
        self.cache = cache
        self.defer = defer
        self.drawn: list[str] = []
        self.deferred: list[str] = []
        self._settings = game_settings(game)
        self._all_cards: Any = None
        self._layout_keys: dict[str, tuple[Any, str]] = {}
        self._by_id: dict[str, Card] | None = None
        self._card_keys: dict[str, Any] = {}
        self._used_images: dict[Path, tuple[str, tuple[int, int]]] | None = None

    # -- keys ------------------------------------------------------------------------

    def _layout_key(self, name: str) -> tuple[Any, str]:
        """The text of a layout's files, and what it reads of other cards."""
        if name not in self._layout_keys:
            layout = self.faces.files.layout(name)
            texts = tuple(_layout_text(self.game, Path(file)) for file in layout.files)
            self._layout_keys[name] = (texts, other_cards_read(layout))
        return self._layout_keys[name]

    def _others(self, name: str, card: Card | None = None) -> Any:
        reads = self._layout_key(name)[1]
        if reads == EVERY_CARD or (reads == REFERRED_CARDS and card is None):
            if self._all_cards is None:
                self._all_cards = canonical(self.game.cards)
            return self._all_cards
        if reads == REFERRED_CARDS:
            by_id = {c.id: c for c in self.game.cards} if self._by_id is None else self._by_id
            self._by_id = by_id
            return tuple(canonical(by_id.get(ident)) for ident in referred(card.fields))
        return None

    def card_key(self, card: Card) -> Any:
        key = self._card_keys.get(card.id)
        if key is None:
            layout = self.game.card_types[card.type].layout
            key = self._card_keys[card.id] = (canonical(card), card.deck, card.type, self._settings,
                                              self._layout_key(layout)[0], self._others(layout, card))
        return key

    # -- pictures ----------------------------------------------------------------------

    def image_href(self, path: str) -> str:
        href = super().image_href(path)
        if self._used_images is not None:
            source = Path(path)
            self._used_images[source] = (self.images[source], _stamp(source))
        return href

    def _cached(self, symbol_id: str, key: Any, draw: Callable[[], Picture]) -> Picture:
        entry = self.cache.entries.get(symbol_id)
        if entry is not None and all(_stamp(p) == s for p, (_, s) in entry.images.items()) and (
                entry.key == key or self.defer and entry.key[:-1] == key[:-1]):  # a key ends with the other cards
            for source, (name, _) in entry.images.items():
                self.images[source] = name
            if entry.key != key:
                self.deferred.append(symbol_id)
            return entry.picture
        self._used_images = {}
        try:
            picture = draw()
        finally:
            used, self._used_images = self._used_images, None
        self.cache.entries[symbol_id] = _Entry(key, picture, used)
        self.drawn.append(symbol_id)
        return picture

    def face(self, card: Card) -> Picture:
        return self._cached(face_symbol_id(card.id), self.card_key(card), lambda: super(CachedArt, self).face(card))

    def back(self, deck: Deck) -> Picture:
        key = (canonical(deck), self._settings, self._layout_key(deck.back.layout)[0], self._others(deck.back.layout))
        return self._cached(back_symbol_id(deck.id), key, lambda: super(CachedArt, self).back(deck))

    def sheet(self, sheet: Sheet) -> Picture:
        key = (canonical(sheet), self._settings, self._layout_key(sheet.layout)[0], self._others(sheet.layout))
        return self._cached(sheet_symbol_id(sheet.id), key, lambda: super(CachedArt, self).sheet(sheet))

    def page_sheet(self, sheet: Sheet, paper: str) -> Picture:
        if paper == "a4":
            return self.sheet(sheet)
        key = (canonical(sheet), paper, self._settings, self._layout_key(sheet.layout)[0], self._others(sheet.layout))
        return self._cached(f"{sheet_symbol_id(sheet.id)}_{paper}", key,
                            lambda: super(CachedArt, self).page_sheet(sheet, paper))

    def alt(self, card: Card) -> str:
        key = self.card_key(card)
        known = self.cache.alts.get(card.id)
        if known is not None and known[0] == key:
            return known[1]
        text = super().alt(card)
        self.cache.alts[card.id] = (key, text)
        return text


def _layout_text(game, path: Path) -> str:
    """A layout file's text, read through the gate (rules.data.confine), as part of a cache key."""
    try:
        return read_confined(file_root(game, path), path).decode("utf-8", errors="replace")
    except FileRefused as exc:
        return f"(unreadable: {exc.message})"
