"""What a spreadsheet's cells mean: a table (``rules.data.spreadsheets``) turned into the card mappings a
YAML card file holds, as located YNodes, so the one validator checks both alike.

One row is a card and each column a field, named in the header row. A cell is
read the way its field's type asks:

==================  ====================================================================
field               cell
==================  ====================================================================
text, id, ref,      the text as typed (a number typed into a text field stays text)
choice, colour, die
int, number         ``4``, ``-1``, ``2.5``
range, dice         ``2-6``, ``3``; ``D6+1``, ``2d4``
bool                ``true``/``false`` or ``yes``/``no`` (any case); a workbook's TRUE/FALSE
list                items separated by ``;`` (``Fast; Slow``), or inline YAML ``[Fast, "A; B"]``
record, map         inline YAML: ``{power: 3, range: 2}``
any field           ``{open: "what the source leaves open"}``, as in YAML
==================  ====================================================================

An empty cell is a field left out (an error only for a required field). ``id``
may be left out, column or cell: it is then made from the name (``Rabid Dog``
-> ``rabid-dog``). ``copies``, ``type`` and ``deck`` are columns like any other.
A column the card type does not have is reported once, at its header cell.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Callable

from deckwright.rules.numbers import whole_number
from deckwright.rules.problems import Loc, Problem, display_path

from .confine import long_name_problem
from .gamefile import CARD_COMMON_FIELDS
from .schema import FieldDef, closest, hint
from .spreadsheets import EXTENSIONS, Column, Table, read_table
from .yamlsrc import AliasBudget, YNode, parse_yaml

_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")
_BOOLS = {"true": True, "false": False, "yes": True, "no": False}
_INLINE_YAML = ("list", "record", "map", "any")  # field types whose cells may be written as inline YAML
_NUMBERISH = ("int", "number", "range", "dice", "scalar", "any")
COMMON = dict(CARD_COMMON_FIELDS)

FieldsOf = Callable[[str], "dict[str, FieldDef] | None"]  # a card type's fields, None for an unknown type


def derive_id(name: str) -> str:
    """The id a card gets from its name: ``Zoë's Dagger`` -> ``zoe-s-dagger``."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")


def csv_template(fields: tuple[tuple[str, FieldDef], ...]) -> str:
    """A card type's header row: the columns a spreadsheet of its cards has."""
    names = ["id", "name", "copies", *(name for name, _ in fields)]
    return ",".join(names) + "\n"


def _scalar(loc: Loc, value, kind: str, raw: str) -> YNode:
    return YNode("scalar", loc, value, kind, raw)


def _text(loc: Loc, text: str) -> YNode:
    return _scalar(loc, text, "str", text)


def _relocated(node: YNode, loc: Loc) -> YNode:
    """A parsed inline value with every part placed at its cell (a cell has no finer address)."""
    if node.kind == "map":
        return YNode("map", loc, tuple((_relocated(k, loc), _relocated(v, loc)) for k, v in node.value))
    if node.kind == "seq":
        return YNode("seq", loc, tuple(_relocated(item, loc) for item in node.value))
    return YNode("scalar", loc, node.value, node.scalar_type, node.raw)


def _inline(text: str, loc: Loc, problems: list[Problem], aliases: AliasBudget | None) -> YNode | None:
    node, found = parse_yaml(text, str(loc), aliases)
    for problem in found:
        message = problem.message.replace("YAML syntax error: ", "")
        problems.append(Problem(loc, f"cell syntax: {message} (the cell is read as inline YAML because it starts "
                                     f"with '{text[0]}')"))
    return _relocated(node, loc) if node is not None and not found else None


def _number(text: str, loc: Loc, floats: bool) -> YNode:
    if _INT.match(text):
        number = whole_number(text)  # None for thousands of digits: kept as text, as YAML keeps it
        return _text(loc, text) if number is None else _scalar(loc, number, "int", text)
    if floats and _FLOAT.match(text):
        return _scalar(loc, float(text), "float", text)
    return _text(loc, text)


def cell_node(value, fdef: FieldDef | None, loc: Loc, problems: list[Problem],
              aliases: AliasBudget | None = None) -> YNode | None:
    """One cell as the YNode a YAML file would give for the field; None for an empty cell or one that could not
    be read (reported). ``aliases``: the budget of the cell's file, which YAML aliases in its cells share."""
    if not isinstance(value, str):
        if isinstance(value, bool):
            return _scalar(loc, value, "bool", str(value).lower())
        if isinstance(value, int):
            return _scalar(loc, value, "int", str(value))
        return _scalar(loc, value, "float", repr(value))
    text = value.strip()
    if not text:
        return None
    kind = fdef.type if fdef is not None else "text"
    if text.startswith("{open:") or (text[0] in "[{" and kind in _INLINE_YAML):
        return _inline(text, loc, problems, aliases)
    if kind == "list":
        items = [item.strip() for item in text.split(";")]
        nodes = [cell_node(item, fdef.of, loc, problems, aliases) for item in items if item]
        return YNode("seq", loc, tuple(node for node in nodes if node is not None))
    if kind in _NUMBERISH:
        node = _number(text, loc, floats=kind in ("number", "scalar", "any"))
        if node.scalar_type == "str" and kind in ("scalar", "any") and text.lower() in ("true", "false"):
            return _scalar(loc, text.lower() == "true", "bool", text)
        return node
    if kind == "bool" and text.lower() in _BOOLS:
        return _scalar(loc, _BOOLS[text.lower()], "bool", text)
    return _text(loc, text)


def card_nodes(table: Table, fields_of: FieldsOf, default_type: str | None) -> tuple[list[YNode], list[Problem], bool]:
    """The rows as card mappings, the problems found, and whether any row was dropped for a problem in it.

    A problem in the header row (a column the card type does not have, one it needs and lacks) is reported
    once, and then no row is read: each would repeat it."""
    problems: list[Problem] = []
    names = _column_names(table, problems)
    type_index = next((i for i, name in names.items() if name == "type"), None)
    row_types = [_row_type(row, type_index, default_type) for row in table.rows]
    _check_header(table, names, set(row_types) if row_types else {default_type}, fields_of, type_index is None,
                  problems)
    if problems:
        return [], problems, True
    nodes = []
    type_fields: dict[str | None, dict[str, FieldDef]] = {}  # made once per card type, not once per row
    aliases = AliasBudget()  # YAML aliases in all the cells, as in one YAML file
    for row, type_id in zip(table.rows, row_types):
        fields = type_fields.get(type_id)
        if fields is None:
            fields = type_fields[type_id] = {**COMMON, **(fields_of(type_id) or {})} if type_id else dict(COMMON)
        before = len(problems)
        pairs = []
        for index, (value, loc) in row.cells:
            name = names[index]
            node = cell_node(value, fields.get(name), loc, problems, aliases)
            if node is not None:
                pairs.append((_text(loc, name), node))
        if pairs:
            pairs = _with_id(pairs, row.loc, type_id or "card", problems)
        if pairs and len(problems) == before:
            nodes.append(YNode("map", row.loc, tuple(pairs)))
    return nodes, problems, bool(problems)


def _with_id(pairs: list[tuple[YNode, YNode]], row: Loc, type_id: str, problems: list[Problem]) -> list:
    """The row's fields, with an id made from the name when the row gives none."""
    given = {key.value: value for key, value in pairs}
    name = given.get("name")
    if "id" in given:
        return pairs
    if name is None:
        problems.append(Problem(row, f"{type_id}: this row has neither an id nor a name"))
        return pairs
    derived = derive_id(str(name.value))
    if not derived:
        problems.append(Problem(name.loc, f"{type_id}: the row has no id and its name {name.describe()} makes none "
                                          "(an id is lowercase letters, digits and hyphens); fill in the id"))
        return pairs
    return [(_text(name.loc, "id"), _text(name.loc, derived)), *pairs]


def _check_header(table: Table, names: dict[int, str], row_types: set[str | None], fields_of: FieldsOf,
                  one_type: bool, problems: list[Problem]) -> None:
    """Columns no card type of the rows has, and (when every row has the file's type) the fields it needs that
    have no column."""
    known = _known_columns(row_types, fields_of)
    if known is None:
        return
    types = " or ".join(sorted(t for t in row_types if t)) or "card"
    suggested = set()
    for index, name in names.items():
        if name not in known:
            close = closest(name, sorted(known))
            suggested.add(close)
            problems.append(Problem(table.columns[index].loc, f"{types}: unknown column '{name}'{hint(close)}"))
    if not one_type or len(row_types) != 1:
        return
    wanted = {**COMMON, **(fields_of(next(iter(row_types))) or {})}
    present = set(names.values())
    for field, fdef in wanted.items():
        if not fdef.optional and field != "id" and field not in present and field not in suggested:
            problems.append(Problem(table.header, f"{types}: no column '{field}', which every {types} card needs"))


def _column_names(table: Table, problems: list[Problem]) -> dict[int, str]:
    """Column index -> name of every named column; a nameless column holding values and a repeated name are
    reported."""
    names: dict[int, str] = {}
    first: dict[str, Column] = {}
    used = {index for row in table.rows for index, _ in row.cells}
    for index, column in enumerate(table.columns):
        if not column.name:
            if index in used:
                problems.append(Problem(column.loc, "this column holds values but has no name in the header row"))
            continue
        if column.name in first:
            problems.append(Problem(column.loc, f"column '{column.name}' appears twice in the header "
                                                f"(first at {first[column.name].loc.position})"))
            continue
        first[column.name] = column
        names[index] = column.name
    return names


def _row_type(row, type_index: int | None, default_type: str | None) -> str | None:
    for index, cell in row.cells:
        if index == type_index and isinstance(cell.value, str) and cell.value.strip():
            return cell.value.strip()
    return default_type


def _known_columns(row_types: set[str | None], fields_of: FieldsOf) -> set[str] | None:
    """Every column some row's card type has; None when a row's type is missing or unknown (the loader says so,
    and columns cannot be judged without it)."""
    known = set(COMMON)
    for type_id in row_types:
        fields = fields_of(type_id) if type_id else None
        if fields is None:
            return None
        known.update(fields)
    return known


def spreadsheet_cards(base: Path, root: Path, declaration: YNode, source: dict, fields_of: FieldsOf,
                      declared: dict[tuple[Path, str | None], Loc]
                      ) -> tuple[list[YNode], list[Problem], bool, Table | None]:
    """The cards of a declared spreadsheet, the problems found, whether cards were lost to them, and the table
    read (for ``short_row_hints`` once the cards are checked).

    ``source`` is the validated declaration (file, sheet, delimiter, type), ``declaration`` its mapping in
    game.yaml or a card file, ``base`` the folder the file name is relative to. ``declared`` collects every
    file and sheet read, so a second declaration of one is reported."""
    name = source["file"]
    shown_decl = (declaration.get("file") or declaration.get("spreadsheet") or declaration).loc
    sheet_loc = declaration.get("sheet").loc if declaration.get("sheet") is not None else shown_decl
    path = base / name
    too_long = long_name_problem(path)
    if too_long:
        return [], [Problem(shown_decl, f"spreadsheet: {too_long}")], True, None
    try:
        resolved = path.resolve()
        inside = resolved.is_relative_to(root)
    except (OSError, ValueError):
        resolved, inside = path, False
    if not inside:
        return [], [Problem(shown_decl, f"spreadsheet '{name}' is outside the game folder")], True, None
    if path.suffix.lower() not in EXTENSIONS:
        return [], [Problem(shown_decl, f"spreadsheet '{name}': deckwright reads .csv, .tsv and .xlsx files")], True, None
    if not path.is_file():
        return [], [Problem(shown_decl, f"no spreadsheet '{name}' in the game folder")], True, None
    misplaced = _misplaced_option(declaration, path.suffix.lower() == ".xlsx")
    if misplaced:
        return [], [misplaced], True, None
    key = (resolved, source.get("sheet"))
    if key in declared:
        return [], [Problem(shown_decl, f"spreadsheet '{name}' is already read (declared at {declared[key]})")], False, None
    declared[key] = shown_decl
    table, problems = read_table(path, display_path(path), root, source.get("sheet"), source.get("delimiter"),
                                  sheet_loc)
    if table is None:
        return [], problems, True, None
    nodes, more, dropped = card_nodes(table, fields_of, source.get("type"))
    return nodes, problems + more, dropped or bool(problems), table


def _misplaced_option(declaration: YNode, workbook: bool) -> Problem | None:
    """``sheet:`` for a CSV file, or ``delimiter:`` for a workbook: an option the file cannot have, which would be
    ignored (the cards then read from another sheet than meant)."""
    key, kind = ("delimiter", "a workbook (.xlsx) has sheets, not a delimiter") if workbook else \
        ("sheet", "a CSV file is one table, without sheets")
    node = declaration.get(key)
    return Problem(node.loc, f"{key}: {kind}; remove this line") if node is not None else None
