"""A ```` ```cards ```` table as the outputs show it: headings, and per card a row of cells in the
layouts' wording (the same words the printed card uses)."""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.generator.layout.faces import Faces
from deckwright.rules.book.tables import MISSING, Table
from deckwright.rules.data.model import Card, Game
from deckwright.rules.data.schema import Ref
from deckwright.rules.data.values import Open


@dataclass(frozen=True)
class Cell:
    text: str  # plain text, or with ``markup`` the layouts' markup (``**bold**``, ``:icon:``)
    card: Card | None = None  # the cell names this card (its name, or a ref to it)
    open_note: str = ""  # a value the source leaves open
    numeric: bool = False
    markup: bool = False


@dataclass(frozen=True)
class TableView:
    headers: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str  # the card type's or deck's name
    printed: int  # the copies of its cards printed (the deck's count), which may be more than its rows
    different: int  # the table's cards, one row each; ``rows`` may hold only the first of them (``shown``)
    source: tuple[str, str]  # ("type" or "deck", its id): what the table lists

    @property
    def counted(self) -> str:
        """``3 cards``, or ``3 different cards, 6 to print`` when some are printed more than once."""
        cards = f"{self.different:,} card{'s' if self.different != 1 else ''}"
        return cards if self.printed == self.different else f"{self.different:,} different, {self.printed:,} to print"

    @property
    def cut(self) -> bool:
        """Whether only the first of the table's rows are shown."""
        return len(self.rows) < self.different


def field_markup(game: Game, faces: Faces, card: Card, key: str) -> str:
    """A field in the layouts' wording, with their markup; ``type`` and ``deck`` read as names."""
    if key == "type":
        return game.card_types[card.type].name
    if key == "deck":
        return game.decks[card.deck].name if card.deck in game.decks else ""
    return faces.format_field(card, key)


def _is_number_column(values: list) -> bool:
    present = [v for v in values if v is not MISSING and not isinstance(v, Open)]
    return bool(present) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present)


def table_view(game: Game, faces: Faces, table: Table, shown: int | None = None) -> TableView:
    """``shown``: how many rows to make, from the first (all when None); the counts are the whole table's."""
    spec = table.spec
    numeric = tuple(_is_number_column([row[i] for row in table.rows]) for i in range(len(spec.columns)))
    ids = {c.id for c in game.cards}
    rows = []
    for card, values in zip(table.cards[:shown], table.rows[:shown]):
        cells = []
        for column, value, is_number in zip(spec.columns, values, numeric):
            if isinstance(value, Ref) and value.id in ids:
                cells.append(Cell(game.card(value.id).name, card=game.card(value.id)))
            elif column.key == "name":
                cells.append(Cell(card.name, card=card))
            elif isinstance(value, Open):
                cells.append(Cell("?", open_note=value.note, numeric=is_number))
            elif value is MISSING:
                cells.append(Cell("\u2014", numeric=is_number))
            else:
                cells.append(Cell(field_markup(game, faces, card, column.key), numeric=is_number, markup=True))
        rows.append(tuple(cells))
    source = game.card_types[spec.source_id].name if spec.source == "type" else game.decks[spec.source_id].name
    return TableView(tuple(c.label for c in spec.columns), numeric, tuple(rows), source,
                     sum(card.count for card in table.cards), len(table.cards), (spec.source, spec.source_id))
