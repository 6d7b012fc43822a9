"""What ``game.yaml``, card files and ``readings.yaml`` may contain, as field definitions.

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
    ("size", F("text", doc="poker, bridge, tarot, mini, mini-euro, square, or WIDTHxHEIGHT such as 63.5x88.9mm or "
                            "2.5x3.5in (without a unit: millimetres); with a shape: round 25mm (tokens), hex 40mm or "
                            "hex 40mm pointy (tiles, across the flats), poker rounded 3mm (rounded corners)")),
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
    ("copies", F("int", optional=True, min=1, max=MAX_COPIES, allow_open=False, doc="How many to print (default 1)")),
)

# A spreadsheet of cards (CSV, TSV or XLSX), in game.yaml's `spreadsheets:` or in a card file.
SPREADSHEET_SOURCE: tuple[tuple[str, FieldDef], ...] = (
    ("sheet", F("text", optional=True, allow_open=False, doc="The workbook's sheet holding the cards "
                                                             "(not needed when it has one sheet)")),
    ("delimiter", F("choice", optional=True, values=(",", ";", "|", "tab"), allow_open=False,
                    doc="What separates a CSV file's columns; by default sniffed from the header row (tab for .tsv)")),
)
SPREADSHEET_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("file", F("text", allow_open=False, doc="A .csv, .tsv or .xlsx file in the game folder: a header row, then a row a card")),
    *SPREADSHEET_SOURCE,
    ("type", F("id", optional=True, allow_open=False, doc="Card type of every row unless a `type` column says otherwise")),
    ("deck", F("id", optional=True, allow_open=False, doc="Deck of every row unless a `deck` column says otherwise")),
)

OPEN_QUESTION = F("record", fields=(("about", TEXT), ("note", TEXT)), allow_open=False)

# Top-level game.yaml keys; card_types is read by loader.card_types_from_node.
GAME_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("title", TEXT),
    ("slug", F("id", allow_open=False)),
    ("players", F("range", min=1, doc="Player count: 1, or a range such as 2-6")),
    ("summary", TEXT),
    ("source", OPT_TEXT),
    ("mechanics", F("text", optional=True, allow_open=False,
                    doc="The game's rules module, if any: a bundled one's id (nightmare-hunt), or a Python file "
                        "or package folder in the game folder (rules.py, rules/)")),
    ("colors", F("map", optional=True, of=F("color"), allow_open=False)),
    ("constants", F("map", optional=True, of=F("scalar"), doc="Named game-wide numbers (starting stats, limits)")),
    ("decks", F("map", of=F("record", fields=DECK_FIELDS, allow_open=False), allow_open=False)),
    ("sheets", F("map", optional=True, of=F("record", fields=SHEET_FIELDS, allow_open=False), allow_open=False)),
    ("rulebook", F("list", optional=True, of=TEXT, allow_open=False, doc="Rulebook pages (Markdown), in reading order")),
    ("open_questions", F("list", optional=True, of=OPEN_QUESTION, allow_open=False)),
    ("spreadsheets", F("list", optional=True, of=F("record", fields=SPREADSHEET_FIELDS, allow_open=False),
                       allow_open=False, doc="Card files kept as spreadsheets (CSV, TSV, XLSX)")),
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
    ("spreadsheet", F("text", optional=True, allow_open=False,
                      doc="A .csv, .tsv or .xlsx file beside this one whose rows are more cards of this file")),
    *SPREADSHEET_SOURCE,
)

# readings.yaml: the register of places where the source is unclear or contradicts itself.
SOURCE_PLACE = F("record", allow_open=False, fields=(
    ("section", F("text", allow_open=False, doc="The source's heading or part, in the source's own words")),
    ("line", F("range", allow_open=False, doc="The line of the source document, or lines such as 145-147")),
    ("says", F("text", allow_open=False, doc="What the source says there, quoted")),
))

READING_KINDS = ("reading", "contradiction")

DEPENDS = F("record", optional=True, allow_open=False, doc="What relies on the chosen reading", fields=(
    ("examples", F("list", optional=True, of=F("text", allow_open=False), allow_open=False, doc="Names of worked examples in the rulebook")),
    ("pages", F("list", optional=True, of=F("text", allow_open=False), allow_open=False, doc="Rulebook pages, as listed in game.yaml")),
    ("cards", F("list", optional=True, of=F("ref", allow_open=False), allow_open=False, doc="Ids of cards whose data or text carries it")),
    ("constants", F("list", optional=True, of=F("text", allow_open=False), allow_open=False, doc="Names of game constants set by it")),
    ("tests", F("list", optional=True, of=F("text", allow_open=False), allow_open=False,
                doc="Tests of the rules module that rely on it (file::test), outside the game folder")),
))

PENDING = F("record", optional=True, allow_open=False,
            doc="The rules engine does not play the chosen reading yet: what it does today and the change to make", fields=(
    ("plays", F("id", optional=True, allow_open=False, doc="The reading the engine plays today, when it is another one")),
    ("change", F("text", allow_open=False, doc="What in the rules module has to change")),
))

READING_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("id", F("id", allow_open=False, doc="Unique within the game")),
    ("kind", F("choice", values=READING_KINDS, allow_open=False,
               doc="reading: the source is unclear and one meaning was chosen; "
                   "contradiction: the source says two things (name both places)")),
    ("title", F("text", allow_open=False, doc="What the question is about, in a few words")),
    ("source", F("list", min=1, of=SOURCE_PLACE, allow_open=False,
                 doc="Where in the source; a contradiction names at least two places")),
    ("readings", F("map", of=F("text", allow_open=False), allow_open=False,
                   doc="The possible readings, each under a short id (at least two)")),
    ("chosen", F("id", allow_open=False, doc="The reading this game follows: its rulebook, its examples and its rules engine "
                                              "(unless 'pending' says the engine does not yet)")),
    ("why", F("text", allow_open=False, doc="Why that one")),
    ("pending", PENDING),
    ("depends", DEPENDS),
)

READINGS_FILE_FIELDS: tuple[tuple[str, FieldDef], ...] = (
    ("readings", F("list", of=F("record", fields=READING_FIELDS, allow_open=False), allow_open=False)),
)
