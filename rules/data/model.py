"""The validated, immutable game model that every other part reads.

The loader builds it from a game folder; nothing downstream re-reads YAML.
Every value that came from a file keeps its location for later messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator, Mapping

from deckwright.rules.engine.openvalues import known
from deckwright.rules.problems import Loc

from .pictures import ImageFile
from .schema import FieldDef
from .values import Open, Range

SHAPES = ("rect", "round", "hex-flat", "hex-pointy")


@dataclass(frozen=True)
class Size:
    name: str  # "poker", "custom", "round", "hex", ...
    width: float  # millimetres: the bounding box of a shaped piece
    height: float
    shape: str = "rect"  # one of SHAPES
    radius: float = 0.0  # a rectangle's rounded corners

    def __str__(self) -> str:
        if self.shape == "round":
            return f"round {self.width:g} mm"
        if self.shape.startswith("hex"):
            across = self.height if self.shape == "hex-flat" else self.width
            return f"hex {across:g} mm across flats, {self.shape[4:]} top"
        corners = f", corners rounded {self.radius:g} mm" if self.radius else ""
        return f"{self.name} {self.width:g} x {self.height:g} mm{corners}"


@dataclass(frozen=True)
class CardType:
    id: str
    name: str
    fields: tuple[tuple[str, FieldDef], ...]
    layout: str
    doc: str = ""
    loc: Loc | None = field(default=None, compare=False)  # its key in game.yaml
    layout_loc: Loc | None = field(default=None, compare=False)  # its `layout:` (its key, when that is left out)

    def field(self, name: str) -> FieldDef | None:
        return dict(self.fields).get(name)


@dataclass(frozen=True)
class Back:
    layout: str
    title: str
    subtitle: str = ""
    color: str = ""
    layout_loc: Loc | None = field(default=None, compare=False)  # its `layout:` (its deck's key, when left out)


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    size: Size
    back: Back
    count: int | Open | None  # declared number of cards with copies; None when not declared
    order: str  # "shuffled" or "fixed" (fixed decks keep file order, e.g. a boss at the bottom)
    color: str
    doc: str
    loc: Loc
    open: Open | None = None  # the deck's card list itself is left open by the source
    size_loc: Loc | None = field(default=None, compare=False)  # its `size:`


@dataclass(frozen=True, slots=True)  # slots: a game may hold tens of thousands
class Card:
    id: str
    type: str
    deck: str
    name: str
    copies: int | Open
    fields: dict[str, Any]
    loc: Loc
    field_locs: Mapping[str, Loc] = field(default_factory=dict)  # a dict, or a compact rules.data.fieldlocs.FieldLocs

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    @property
    def count(self) -> int:
        """Copies printed; an open count prints once so the card can be seen. Rules never use it:
        ``Game.deck_cards`` is the deck as the rules deal it."""
        return self.copies if isinstance(self.copies, int) else 1


@dataclass(frozen=True)
class Sheet:
    id: str
    name: str
    layout: str
    size: Size
    loc: Loc
    copies: int = 1  # printed this many times (a player mat for each player)
    layout_loc: Loc | None = field(default=None, compare=False)  # its `layout:`
    size_loc: Loc | None = field(default=None, compare=False)  # its `size:`


@dataclass(frozen=True)
class Page:
    """A rulebook page: Markdown source, read once by the loader."""

    id: str
    title: str
    path: Path
    shown: str  # the path as shown in messages
    text: str
    # Each picture the page shows that passed the check, by its source as Markdown reads it (``../art/map.png``);
    # an output shows no other (rules.book.pictures).
    pictures: tuple[tuple[str, ImageFile], ...] = ()

    def picture(self, src: str) -> ImageFile | None:
        return next((found for source, found in self.pictures if source == src), None)


@dataclass(frozen=True)
class OpenQuestion:
    subject: str  # "prey.yeti.health", "deck treasure", ...
    note: str
    loc: Loc

    def __str__(self) -> str:
        return f"{self.loc}: {self.subject}: {self.note}"


@dataclass(frozen=True)
class SourcePlace:
    """A place in the game's source document: its section, line(s) and what it says there."""

    section: str
    lines: Range
    says: str

    def __str__(self) -> str:
        return f"{self.section}, line{'s' if self.lines.low != self.lines.high else ''} {self.lines}"


@dataclass(frozen=True)
class Depends:
    """What relies on a reading: worked examples (by name), rulebook pages, cards, constants, tests."""

    examples: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    constants: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any((self.examples, self.pages, self.cards, self.constants, self.tests))


@dataclass(frozen=True)
class Pending:
    """The rules engine does not play a reading yet: the reading it plays today (if another one) and the change."""

    plays: str | None
    change: str


@dataclass(frozen=True)
class Reading:
    """One entry of the readings register (readings.yaml).

    A ``reading`` is what was chosen where the source is unclear; a ``contradiction`` is a place
    where the source says two things, each of ``places`` naming one side. ``options`` are the
    possible readings by id; ``chosen`` is the one the game follows. ``pending`` is set when the
    rules engine does not play it yet: what the engine plays today and the change needed.
    """

    id: str
    kind: str  # "reading" or "contradiction"
    title: str
    places: tuple[SourcePlace, ...]
    options: tuple[tuple[str, str], ...]  # (id, text), in the file's order
    chosen: str
    why: str
    depends: Depends
    loc: Loc
    pending: Pending | None = None

    @property
    def chosen_text(self) -> str:
        return dict(self.options)[self.chosen]

    def option(self, reading_id: str) -> str:
        return dict(self.options)[reading_id]

    def __str__(self) -> str:
        return f"{self.loc}: {self.id} ({self.kind}): {self.title}"


def readings_summary(readings: "tuple[Reading, ...] | list[Reading]") -> str:
    """``9 readings, 3 contradictions``: a register's entries by kind."""
    counts = [(sum(1 for r in readings if r.kind == kind), kind) for kind in ("reading", "contradiction")]
    return ", ".join(f"{n} {kind}{'s' * (n != 1)}" for n, kind in counts)


@dataclass(frozen=True)
class Game:
    slug: str
    title: str
    players: Any
    summary: str
    root: Path
    card_types: dict[str, CardType]
    decks: dict[str, Deck]
    cards: tuple[Card, ...]
    sheets: dict[str, Sheet]
    pages: tuple[Page, ...]
    constants: dict[str, Any]
    open_questions: tuple[OpenQuestion, ...]
    mechanics: str | None
    source: str
    colors: dict[str, str]
    loc: Loc
    readings: tuple[Reading, ...] = ()
    constant_locs: dict[str, Loc] = field(default_factory=dict)  # where each constant is written
    # Whether deckwright may import and run the game folder's own rules module (false under --no-code:
    # the folder is not trusted); a bundled rules module is deckwright's own code and always runs.
    run_code: bool = True

    def constant_loc(self, name: str) -> Loc:
        return self.constant_locs.get(name, self.loc)

    def card(self, card_id: str) -> Card:
        return self._cards_by_id[card_id]  # a KeyError for an id no card has

    @cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        """Each card by its id (the first, should two share one), made once: a rulebook table of 20,000 cards
        looked each up by going through the list."""
        by_id: dict[str, Card] = {}
        for card in self.cards:
            by_id.setdefault(card.id, card)
        return by_id

    def cards_in(self, deck_id: str) -> list[Card]:
        return [card for card in self.cards if card.deck == deck_id]

    def cards_of(self, type_id: str) -> list[Card]:
        return [card for card in self.cards if card.type == type_id]

    def deck_total(self, deck_id: str) -> int:
        return sum(card.count for card in self.cards_in(deck_id))

    def deck_cards(self, deck_id: str) -> tuple[str, ...]:
        """The deck as the rules deal it: every card id, copies repeated, in file order.

        Raises OpenRuleError when the source leaves a card's count open: a rules
        deck is never built from the once-printed stand-in.
        """
        ids: list[str] = []
        for card in self.cards_in(deck_id):
            copies = known(card.copies, f"the number of {card.name} cards in the deck '{self.decks[deck_id].name}'"
                           if deck_id in self.decks else f"the number of {card.name} cards")
            ids.extend([card.id] * copies)
        return tuple(ids)

    def printed_cards(self, deck_id: str) -> Iterator[Card]:
        """Every physical card of a deck, copies repeated, in deck order."""
        for card in self.cards_in(deck_id):
            for _ in range(card.count):
                yield card
