"""What ``game.yaml`` and card files may contain, as field definitions.

The same definitions validate the files and produce their JSON Schema.
"""
from __future__ import annotations

from .schema import FIELD_TYPES, FieldDef

F = FieldDef
MAX_COPIES = 999  # copies of one card: a build lays out every one, so an unbounded count never ends
TEXT = F("text")
OPT_TEXT = F("text", optional=True)

# A field definition inside card_types.<type>.fields; "of" and "fields" recurse
# and are read by loader.fielddef_from_node, so they are listed as extras there.
FIELD_DEF_OPTIONS: tuple[tuple[str, FieldDef], ...] = (
    ("type", F("choice", values=FIELD_TYPES, allow_open=False, doc="The kind of value")),
    ("optional", F("bool", optional=True, allow_open=False, doc="The field may be left out")),
    ("min", F("number", optional=True, allow_open=False)),
    ("max", F("number", optional=True, allow_open=False)),
    ("values", F("list", optional=True, of=TEXT, allow_open=False, doc="The allowed values of a choice")),
    ("to", F("list", optional=True, of=F("id"), allow_open=False, doc="Card types a ref may point at")),
    ("label", F("text", optional=True, allow_open=False, doc="How the field is named on cards and in tables")),
    ("doc", F("text", optional=True, allow_open=False)),
)

SIZE_RECORD = F("record", fields=(("width", F("text")), ("height", F("text"))))

BACK = F("record", fields=(
    ("title", TEXT),
    ("subtitle", OPT_TEXT),
    ("color", F("color", optional=True)),
    ("layout", F("text", optional=True, doc="Back layout name; default 'back'")),
), allow_open=False)

DECK_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("name", TEXT),
    ("size", F("text", doc="poker, bridge, tarot, mini, mini-euro, square, or WIDTHxHEIGHT such as 63.5mmx88.9mm")),
    ("back", BACK),
    ("count", F("int", optional=True, min=0, doc="Declared number of cards with copies; checked against the card files")),
    ("order", F("choice", optional=True, values=("shuffled", "fixed"), allow_open=False)),
    ("color", F("color", optional=True)),
    ("doc", OPT_TEXT),
    ("open", F("text", optional=True, allow_open=False, doc="The source names this deck but does not list its cards")),
)

SHEET_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("name", TEXT),
    ("layout", TEXT),
    ("size", F("text", doc="a4, letter, a3, a card size, or WIDTHxHEIGHT")),
)

OPEN_QUESTION = F("record", fields=(("about", TEXT), ("note", TEXT)), allow_open=False)

# Top-level game.yaml keys; card_types is read by loader.card_types_from_node.
GAME_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("title", TEXT),
    ("slug", F("id", allow_open=False)),
    ("players", F("range", doc="Player count: 1, or a range such as 2-6")),
    ("summary", TEXT),
    ("source", OPT_TEXT),
    ("mechanics", F("id", optional=True, allow_open=False, doc="The rules-engine module for this game, if any")),
    ("colors", F("map", optional=True, of=F("color"), allow_open=False)),
    ("constants", F("map", optional=True, of=F("scalar"), doc="Named game-wide numbers (starting stats, limits)")),
    ("decks", F("map", of=F("record", fields=DECK_FIELDS, allow_open=False), allow_open=False)),
    ("sheets", F("map", optional=True, of=F("record", fields=SHEET_FIELDS, allow_open=False), allow_open=False)),
    ("rulebook", F("list", optional=True, of=TEXT, allow_open=False, doc="Rulebook pages (Markdown), in reading order")),
    ("open_questions", F("list", optional=True, of=OPEN_QUESTION, allow_open=False)),
)
GAME_EXTRA_KEYS = ("card_types",)

CARD_TYPE_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("name", TEXT),
    ("layout", F("text", optional=True, doc="Face layout name; default: the type id")),
    ("doc", OPT_TEXT),
)

# Keys every card may have besides its type's fields.
CARD_COMMON_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("id", F("id", allow_open=False)),
    ("name", F("text", allow_open=False)),
    ("type", F("id", optional=True, allow_open=False)),
    ("deck", F("id", optional=True, allow_open=False)),
    ("copies", F("int", optional=True, min=1, max=MAX_COPIES,
                 doc=f"How many of this card print (1 to {MAX_COPIES}; a build lays out every copy)")),
)

CARD_FILE_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("type", F("id", optional=True, allow_open=False, doc="Card type of every card in this file unless a card says otherwise")),
    ("deck", F("id", optional=True, allow_open=False, doc="Deck of every card in this file unless a card says otherwise")),
)
