"""Card tables in rulebook pages: a ```` ```cards ```` block's spec, checked, and its rows.

A spec is YAML::

    type: prey                 # or  deck: level-1
    where: {level: forgotten-forest}   # optional equality filters; a ref compares by id
    columns: [name, health, fast]      # field names, plus name, copies, id, type, deck

The rows are the matching cards' raw values in file order; formatting them is
the caller's job, so the same table reads the same in every output.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from deckwright.rules.data.model import Card, CardType, Deck
from deckwright.rules.data.schema import FieldDef, Ref, did_you_mean
from deckwright.rules.data.values import Open
from deckwright.rules.data.yamlsrc import AliasBudget, YNode, parse_yaml
from deckwright.rules.problems import Loc, Problems

from .pages import Block, fenced_blocks

TABLE_KIND = "cards"
SPEC_KEYS = ("type", "deck", "where", "columns")
# columns a printed page holds: at 16, an A5 booklet's column is 21 pt wide, two or three letters of table text
MAX_COLUMNS = 16
# Keys every card has besides its type's fields, with their column headings.
COMMON_COLUMNS = {"name": "Name", "copies": "Copies", "id": "Id", "type": "Type", "deck": "Deck"}


class Missing:
    """The cell of a card whose type has no such field (a deck can mix card types)."""

    def __repr__(self) -> str:
        return "MISSING"

    def __str__(self) -> str:
        return ""


MISSING = Missing()


@dataclass(frozen=True)
class Column:
    key: str  # a field name or one of COMMON_COLUMNS
    label: str


@dataclass(frozen=True)
class TableSpec:
    source: str  # "type" or "deck"
    source_id: str
    where: tuple[tuple[str, Any], ...]
    columns: tuple[Column, ...]
    loc: Loc


@dataclass(frozen=True)
class Table:
    spec: TableSpec
    cards: tuple[Card, ...]
    rows: tuple[tuple[Any, ...], ...]  # one raw value per column, MISSING where a card lacks the field


def column_label(key: str, fdef: FieldDef | None) -> str:
    if key in COMMON_COLUMNS:
        return COMMON_COLUMNS[key]
    if fdef is not None and fdef.label:
        return fdef.label
    return key.replace("_", " ").capitalize()


def card_value(card: Card, key: str) -> Any:
    if key in COMMON_COLUMNS:
        return getattr(card, key)
    return card.fields.get(key, MISSING)


def _matches(value: Any, wanted: Any) -> bool:
    if isinstance(value, Open) or value is MISSING:
        return False
    if isinstance(value, Ref):
        return value.id == wanted
    if isinstance(value, bool) or isinstance(wanted, bool):
        return value is wanted
    if isinstance(value, (int, float, str)):
        return value == wanted
    return str(value) == str(wanted)


def select_cards(cards: Iterable[Card], spec: TableSpec) -> list[Card]:
    chosen = []
    for card in cards:
        if (card.type if spec.source == "type" else card.deck) != spec.source_id:
            continue
        if all(_matches(card_value(card, key), wanted) for key, wanted in spec.where):
            chosen.append(card)
    return chosen


def build_table(cards: Iterable[Card], spec: TableSpec) -> Table:
    chosen = select_cards(cards, spec)
    rows = tuple(tuple(card_value(card, column.key) for column in spec.columns) for card in chosen)
    return Table(spec, tuple(chosen), rows)


# -- parsing and checking ----------------------------------------------------


def _field_defs(spec_source: str, source_id: str, card_types: dict[str, CardType],
                cards: list[Card]) -> dict[str, FieldDef]:
    """The fields a table over this type or deck may show."""
    if spec_source == "type":
        type_ids = [source_id]
    else:
        type_ids = sorted({card.type for card in cards if card.deck == source_id}) or list(card_types)
    fields: dict[str, FieldDef] = {}
    for type_id in type_ids:
        for name, fdef in card_types[type_id].fields:
            fields.setdefault(name, fdef)
    return fields


def _check_where_value(key: YNode, value: YNode, fdef: FieldDef | None, cards: list[Card],
                       problems: Problems) -> Any:
    if value.kind != "scalar" or value.scalar_type == "null":
        problems.error(value.loc, f"cards table: where.{key.value}: expected one value to compare with, got {value.describe()}")
        return None
    wanted = value.value
    if fdef is not None and fdef.type == "choice" and str(wanted) not in fdef.values:
        problems.error(value.loc, f"cards table: where.{key.value}: '{wanted}' is not one of {', '.join(fdef.values)}"
                                  f"{did_you_mean(str(wanted), list(fdef.values))}")
    if fdef is not None and fdef.type == "ref" and str(wanted) not in {c.id for c in cards}:
        problems.error(value.loc, f"cards table: where.{key.value}: no card with id '{wanted}'"
                                  f"{did_you_mean(str(wanted), [c.id for c in cards])}")
    return wanted


def parse_table_spec(block: Block, card_types: dict[str, CardType], decks: dict[str, Deck],
                     cards: list[Card], problems: Problems, aliases: AliasBudget | None = None) -> TableSpec | None:
    """The block's spec, or None after reporting why it cannot make a table. ``aliases``: the alias limit its
    page's blocks share."""
    # Blank lines before the body keep YAML's line numbers equal to the page's.
    node, yaml_problems = parse_yaml("\n" * (block.body_line - 1) + block.body, block.loc.file, aliases)
    problems.extend(yaml_problems)
    if yaml_problems:
        return None
    if node is None or node.kind != "map":
        where = node.loc if node is not None else block.loc
        problems.error(where, "cards table: expected a mapping such as {type: prey, columns: [name, health]}")
        return None
    ok = True
    for key, _ in node.value:
        if key.value not in SPEC_KEYS:
            problems.error(key.loc, f"cards table: unknown key '{key.value}'{did_you_mean(key.value, list(SPEC_KEYS))} "
                                    f"(a table has {', '.join(SPEC_KEYS)})")
            ok = False
    type_node, deck_node = node.get("type"), node.get("deck")
    if (type_node is None) == (deck_node is None):
        problems.error(node.loc, "cards table: give exactly one of 'type:' (a card type) or 'deck:' (a deck id)")
        return None
    source, source_node = ("type", type_node) if type_node is not None else ("deck", deck_node)
    known = card_types if source == "type" else decks
    source_id = source_node.value if source_node.kind == "scalar" else None
    if source_id not in known:
        noun = "card type" if source == "type" else "deck"
        hint = did_you_mean(str(source_id), list(known)) if source_id is not None else ""
        problems.error(source_node.loc, f"cards table: unknown {noun} {source_node.describe()}{hint} "
                                        f"(known: {', '.join(known) or 'none'})")
        return None
    fields = _field_defs(source, source_id, card_types, cards)
    allowed = [*fields, *COMMON_COLUMNS]

    columns: list[Column] = []
    columns_node = node.get("columns")
    if columns_node is None:
        problems.error(node.loc, "cards table: missing 'columns:', the list of fields to show, such as [name, health]")
        ok = False
    elif columns_node.kind != "seq" or not columns_node.value:
        problems.error(columns_node.loc, f"cards table: columns: expected a list of field names, got {columns_node.describe()}")
        ok = False
    elif len(columns_node.value) > MAX_COLUMNS:
        problems.error(columns_node.loc, f"cards table: {len(columns_node.value)} columns; a printed page holds at "
                                         f"most {MAX_COLUMNS}: split it into two tables")
        ok = False
    else:
        for item in columns_node.value:
            if item.kind != "scalar" or str(item.value) not in allowed:
                name = str(item.value) if item.kind == "scalar" else ""
                problems.error(item.loc, f"cards table: unknown column {item.describe()} for {source} '{source_id}'"
                                         f"{did_you_mean(name, allowed)} (columns: {', '.join(allowed)})")
                ok = False
                continue
            columns.append(Column(str(item.value), column_label(str(item.value), fields.get(str(item.value)))))

    where: list[tuple[str, Any]] = []
    where_node = node.get("where")
    if where_node is not None:
        if where_node.kind != "map":
            problems.error(where_node.loc, f"cards table: where: expected field: value pairs, got {where_node.describe()}")
            ok = False
        else:
            for key, value in where_node.value:
                if key.value not in allowed:
                    problems.error(key.loc, f"cards table: where: unknown field '{key.value}' for {source} '{source_id}'"
                                            f"{did_you_mean(key.value, allowed)}")
                    ok = False
                    continue
                before = len(problems.errors)
                wanted = _check_where_value(key, value, fields.get(key.value), cards, problems)
                ok &= len(problems.errors) == before
                where.append((key.value, wanted))
    if not ok:
        return None
    return TableSpec(source, source_id, tuple(where), tuple(columns), block.loc)


def check_page_tables(page, card_types: dict[str, CardType], decks: dict[str, Deck], cards: list[Card],
                      problems: Problems) -> None:
    """Report every bad ```cards block of a rulebook page; warn about tables that match no card."""
    aliases = AliasBudget()
    for block in fenced_blocks(page.text, page.shown):
        if block.kind != TABLE_KIND:
            continue
        spec = parse_table_spec(block, card_types, decks, cards, problems, aliases)
        if spec is not None and not select_cards(cards, spec):
            problems.warning(block.loc, f"cards table: no card of {spec.source} '{spec.source_id}' matches; the table is empty")


def page_tables(page, game) -> dict[int, Table]:
    """The tables of a page of a loaded (valid) game, by the line of their opening fence."""
    cards = list(game.cards)
    tables = {}
    aliases = AliasBudget()
    for block in fenced_blocks(page.text, page.shown):
        if block.kind == TABLE_KIND:
            spec = parse_table_spec(block, game.card_types, game.decks, cards, Problems(), aliases)
            if spec is not None:
                tables[block.loc.line] = build_table(cards, spec)
    return tables
