"""What a layout's Jinja2 sees: a read-only view of the game made of plain values.

A game folder is untrusted, and so are its layouts. Their expressions run in a
sandbox (``generator.layout.sandbox``), and everything they can reach is built
here from the ``Game``: strings, numbers, lists, tuples and mappings, and small
frozen objects whose attributes are data (cards, decks, sheets, card types,
open values, references). No path, file, module, class or method with a side
effect is ever reachable; the few methods the views have (``game.card(id)``,
``game.cards_of(type)``, ``card.get(field)``) only look values up.
``tests/test_template_sandbox.py`` walks everything reachable to keep it so.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from deckwright.rules.data.model import Back, Card, CardType, Deck, Game, OpenQuestion, Sheet, Size
from deckwright.rules.data.schema import FieldDef, Ref
from deckwright.rules.data.values import Open, Range
from deckwright.rules.engine.dice import Dice, DiceGroup
from deckwright.rules.problems import Loc

# Frozen dataclasses of the model whose every attribute is already plain data: shown as they are.
DATA_CLASSES = (Back, CardType, Deck, DiceGroup, FieldDef, Loc, Open, OpenQuestion, Range, Ref, Sheet, Size)
SCALARS = (str, int, float, bool, type(None), Fraction)


@dataclass(frozen=True)
class DiceView:
    """A dice expression: prints as written canonically (``2D6+1``); ``dice`` are the sides rolled, largest first."""

    text: str
    groups: tuple[DiceGroup, ...]
    constant: int
    divisor: int
    dice: tuple[int, ...]

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class CardView:
    """A card: ``card.name``, ``card.copies``, and each field as ``card.health`` or ``card.get('health')``."""

    id: str
    type: str
    deck: str
    name: str
    copies: Any  # a whole number, or an Open
    count: int  # copies printed (an open count prints once)
    fields: dict[str, Any]
    # the field names its card type declares: what a missing value is told apart by (an optional field this card
    # leaves out, or a name its type does not have); hidden from layouts, as is every name starting with _
    _declared: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


@dataclass(frozen=True)
class PageView:
    id: str
    title: str


@dataclass(frozen=True)
class GameView:
    """The game as layouts see it: its settings and cards, without its folder."""

    slug: str
    title: str
    players: Any
    summary: str
    source: str
    mechanics: str | None
    constants: dict[str, Any]
    colors: dict[str, str]
    card_types: dict[str, CardType]
    decks: dict[str, Deck]
    cards: tuple[CardView, ...]
    sheets: dict[str, Sheet]
    pages: tuple[PageView, ...]
    open_questions: tuple[OpenQuestion, ...]
    _by_id: dict[str, CardView] = field(default_factory=dict, repr=False, compare=False)

    def card(self, card_id: str) -> CardView:
        return self._by_id[str(card_id)]

    def cards_in(self, deck_id: str) -> list[CardView]:
        return [card for card in self.cards if card.deck == deck_id]

    def cards_of(self, type_id: str) -> list[CardView]:
        return [card for card in self.cards if card.type == type_id]

    def deck_total(self, deck_id: str) -> int:
        return sum(card.count for card in self.cards_in(deck_id))


def plain(value: Any) -> Any:
    """A value as templates may see it; raises TypeError for anything that is not plain data."""
    if isinstance(value, SCALARS) or isinstance(value, DATA_CLASSES):
        return value
    if isinstance(value, Dice):
        return DiceView(str(value), value.groups, value.constant, value.divisor, tuple(value.dice))
    if isinstance(value, dict):
        shown = {key: plain(item) for key, item in value.items()}
        # the same dict when every value already was plain (a card's fields, mostly): templates cannot change it
        # (the sandbox is immutable), and a game of 20,000 cards does not hold its fields twice
        return value if type(value) is dict and all(shown[key] is item for key, item in value.items()) else shown
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(plain(item) for item in value)
    if isinstance(value, (CardView, DiceView, PageView, GameView)):
        return value
    if isinstance(value, Enum):
        return plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a record a rules module computed
        parts = {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if not value.__dataclass_params__.frozen:
            return parts  # a mutable record is shown as a mapping of its fields
        return dataclasses.replace(value, **parts) if any(parts[k] is not getattr(value, k) for k in parts) else value
    raise TypeError(f"a {type(value).__name__} is not plain data; templates see strings, numbers, lists and mappings")


def card_view(card: Card, card_type: CardType | None = None) -> CardView:
    declared = tuple(name for name, _ in card_type.fields) if card_type is not None else ()
    return CardView(card.id, card.type, card.deck, card.name, card.copies, card.count, plain(card.fields), declared)


def game_view(game: Game) -> GameView:
    cards = tuple(card_view(card, game.card_types.get(card.type)) for card in game.cards)
    return GameView(
        slug=game.slug, title=game.title, players=plain(game.players), summary=game.summary, source=game.source,
        mechanics=game.mechanics, constants=plain(game.constants), colors=dict(game.colors),
        card_types=dict(game.card_types), decks=dict(game.decks), cards=cards, sheets=dict(game.sheets),
        pages=tuple(PageView(page.id, page.title) for page in game.pages), open_questions=tuple(game.open_questions),
        _by_id={card.id: card for card in cards},
    )
