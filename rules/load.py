"""Load a game folder into a validated Game, reporting every problem at once.

A game folder holds ``game.yaml``, card files (every other ``*.yaml`` except
under ``layouts/``) and the rulebook pages that ``game.yaml`` lists.
"""
from __future__ import annotations

import contextlib
import gc
import re
from pathlib import Path

from .book import pages as rulebook
from .book import tables
from .book.examples import example_names
from .book.pictures import check_page_pictures
from .data.cells import spreadsheet_cards
from .data.confine import MAX_CARD_FILE_BYTES, FileRefused, is_confined, long_name_problem, read_confined
from .data.fieldlocs import FieldLocsMaker
from .data.gamefile import (
    CARD_COMMON_FIELDS,
    CARD_FILE_FIELDS,
    CARD_TYPE_FIELDS,
    FIELD_DEF_OPTIONS,
    GAME_EXTRA_KEYS,
    GAME_FIELDS,
)
from .data.model import Back, Card, CardType, Deck, Game, OpenQuestion, Page, Reading, Sheet, Size
from .data.names import page_name_problem, slug_problem, type_id_problem
from .data.readings import READINGS_FILE, check_depends, read_readings
from .data.schema import FIELD_NAME_PATTERN, ID_PATTERN, FieldDef, Validator, check_refs, did_you_mean
from .data.spreadsheets import short_row_hints
from .data.units import CARD_SIZES, PAGE_SIZES, parse_length, parse_shape
from .data.values import Open
from .data.walk import walk
from .data.yamlsrc import YNode, load_yaml_file, read_text
from .gamefolders import GAME_FILE, bundled_games, find_game_folder  # noqa: F401  (the last two re-exported)
from .games import known_mechanics, module_named
from .games.gamecode import RulesCodeError, is_own_module, load_own_module, own_module_path
from .problems import InvalidGame, Loc, Problem, Problems, clip, display_path

CARD_TYPE_REF = FieldDef("id", allow_open=False)
COMMON_FIELD_NAMES = tuple(name for name, _ in CARD_COMMON_FIELDS)
UNCHECKED = FieldDef("any", optional=True)  # stands in for a broken field definition
MAX_FOLDER_ENTRIES = 10_000
SKIPPED_FOLDERS = {"layouts", "fonts", "schema", "node_modules"}  # layouts and fonts: read by the generator
_PATH_LIKE = re.compile(r"^(\.{1,2}[/\\]|[/\\~])|^\S*([/\\]\S*|\.[A-Za-z0-9]{1,5})$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
_SIZE_PAIR = re.compile(r"^\s*([\d.]+)\s*([a-z]*)\s*[xX\u00d7]\s*([\d.]+)\s*([a-z]*)\s*$")
MIN_UNITLESS_SIDE = 10.0  # mm: a size written without a unit whose side is smaller meant inches or centimetres
MIN_SIDE = 5.0  # mm: the smallest side of a card, token or sheet
MAX_SIDE = 2000.0  # mm: the largest (an A0 poster, the biggest a print shop prints, is 841 x 1189 mm)


def load_game(folder: Path, run_code: bool = True) -> Game:
    """The validated game; raises InvalidGame with every problem found."""
    game, problems = load_game_with_warnings(folder, run_code)
    if problems or game is None:
        raise InvalidGame(problems.items)
    return game


def load_game_with_warnings(folder: Path, run_code: bool = True,
                            pictures: dict | None = None) -> tuple[Game | None, Problems]:
    """The game (None when it has errors) and every problem found. Without ``run_code`` the game folder's own
    rules module is not imported (``--no-code``): its constants are read as written, untyped. ``pictures``: the
    rulebook pictures checked by an earlier reading of this game folder, kept by the caller to read again only
    those changed since (``rules.book.pictures.check_page_pictures``); it gets this reading's."""
    with collector_paused():
        return _Loader(folder, run_code, pictures).load()


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off meanwhile, as it was before afterwards. Loading makes millions of
    small objects that all stay alive, and the collector would walk them again and again: at 20,000 cards its
    passes took three times as long as the loading itself."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _written_at(node: YNode | None, key: str, fallback: Loc) -> Loc:
    """Where ``key`` of the mapping ``node`` is written, its value's place; ``fallback`` when it is not."""
    value = node.get(key) if node is not None and node.kind == "map" else None
    return value.loc if value is not None else fallback


def parse_size(text: str, named: dict[str, tuple[float, float]]) -> Size:
    """A named size or ``WIDTHxHEIGHT`` (a unit written once, ``2.5x3.5in``, is both sides'; none is millimetres),
    or a shaped one (``round 25mm``, ``hex 40mm``, ``poker rounded 3mm``: see ``rules.data.units.parse_shape``);
    raises ValueError."""
    shaped = parse_shape(text)
    if shaped is not None:
        shape, width, height, radius, base = shaped
        if base is None:
            return _big_enough(Size(shape.split("-")[0], width, height, shape), text)
        size = parse_size(base, named)
        if size.shape != "rect":
            raise ValueError(f'"{text}": only a rectangle has rounded corners')
        if radius * 2 > min(size.width, size.height):
            raise ValueError(f'"{text}": a corner radius of {radius:g} mm is more than half the card\'s side')
        return Size(size.name, size.width, size.height, "rect", radius)
    key = text.strip().lower()
    if key in named:
        return Size(key, *named[key])
    match = _SIZE_PAIR.match(text)
    if not match:
        raise ValueError(f'"{text}" is not a size; use one of {", ".join(named)} or WIDTHxHEIGHT such as 63.5x88.9mm '
                         'or 2.5x3.5in')
    width_number, width_unit, height_number, height_unit = match.groups()
    # one unit written, at either end, is both sides' (2.5x3.5in); none written is millimetres
    width = parse_length(width_number + (width_unit or height_unit))
    height = parse_length(height_number + (height_unit or width_unit))
    if width <= 0 or height <= 0:
        raise ValueError(f'"{text}" has a zero or negative side')
    if not (width_unit or height_unit) and min(width, height) < MIN_UNITLESS_SIDE:
        pair = f"{width_number}x{height_number}"
        raise ValueError(f'"{text.strip()}" without a unit is millimetres, {width:g} x {height:g} mm; write the '
                         f'unit: {pair}in, {pair}cm or {pair}mm')
    return _big_enough(Size("custom", width, height), text)


def _big_enough(size: Size, text: str) -> Size:
    """``size``, if a piece of that size can be printed and cut; raises ValueError when it is smaller or larger. Its
    pictures for the site and Tabletop Simulator are a few hundred pixels across whatever its size: a card of a
    thousandth of a millimetre made every box of a layout millions of pixels wide."""
    if min(size.width, size.height) < MIN_SIDE:
        raise ValueError(f'"{text.strip()}" is {size.width:g} x {size.height:g} mm; a piece is at least {MIN_SIDE:g} '
                         "mm a side")
    if max(size.width, size.height) > MAX_SIDE:  # (a side of hundreds of digits reads as infinity)
        raise ValueError(f'"{clip(text.strip(), 40)}" is larger than any printed piece; a piece is at most '
                         f"{MAX_SIDE:g} mm a side")
    return size


class _Loader:
    def __init__(self, folder: Path, run_code: bool = True, pictures: dict | None = None):
        self.root = folder.resolve()
        self.folder = folder
        self.run_code = run_code
        self.pictures = {} if pictures is None else pictures  # the rulebook pictures read (rules.book.pictures)
        self.problems = Problems()
        self.validator = Validator(self.problems)
        self.ref_targets: list[tuple[str, YNode]] = []  # (field path, the `to:` list node), checked once types are known
        self.count_locs: dict[str, Loc] = {}  # deck id -> where its `count:` is written
        # Every deck and card type game.yaml names, valid or not; None when the whole section is broken.
        # Cards are checked against these, so a broken definition is reported once, not once per card.
        self.deck_ids: set[str] | None = set()
        self.type_ids: set[str] | None = set()
        # Checks that need every card (dangling references, deck counts, rulebook references) would blame
        # the wrong thing when a card is lost (unreadable file, no valid id or type) or broken (a bad field);
        # they are skipped then, and report on the next run once those are fixed.
        self.cards_lost = False
        self.cards_broken = False
        self.declared_spreadsheets: list[tuple[YNode, dict]] = []  # game.yaml's `spreadsheets:` items
        self.spreadsheets_read: dict = {}  # (file, sheet) -> where it is declared
        self.tables_read: list = []  # every rules.data.spreadsheets.Table read, for its short rows' hints
        self.field_locs = FieldLocsMaker()
        self.type_field_names: dict[str, tuple[str, ...]] = {}

    def shown(self, path: Path) -> str:
        return display_path(path)

    def inside(self, path: Path) -> bool:
        """Whether the path, links followed, stays inside the game folder."""
        return is_confined(self.root, path)

    # -- game.yaml -------------------------------------------------------

    def load(self) -> tuple[Game | None, Problems]:
        game_path = self.folder / GAME_FILE
        shown = self.shown(game_path)
        node, problems = load_yaml_file(game_path, shown, self.root)
        self.problems.extend(problems)
        if node is None:
            if not problems:
                self.problems.error(Loc(shown), "file is empty; expected the game's title, slug, decks and card types")
            return None, self.problems
        if node.kind != "map":
            self.problems.error(node.loc, f"game: expected a mapping of settings (title, slug, decks, ...), got {node.describe()}")
            return None, self.problems
        module = self.rules_module(node.get("mechanics"))
        # Constants are typed by the rules module's CONSTANTS; without one (none, not run, or lacking it, which the
        # conformance check reports) they are read as written.
        typed = module is not None and isinstance(getattr(module, "CONSTANTS", None), FieldDef)
        extra = GAME_EXTRA_KEYS + (("constants",) if typed else ())
        data = self.validator.record_fields(node, GAME_FIELDS, "game", extra=extra)
        if isinstance(data.get("slug"), str) and (problem := slug_problem(data["slug"])):
            self.problems.error(node.get("slug").loc, f"game.slug: {problem}")
        constants = self.constants(node, module) if typed else data.get("constants") or {}
        card_types = self.card_types(node.get("card_types"), node.loc)
        decks = self.decks(node.get("decks"), data.get("decks", {}))
        sheets = self.sheets(node.get("sheets"), data.get("sheets") or {})
        self.declared_spreadsheets = self.spreadsheet_items(node.get("spreadsheets"), data.get("spreadsheets"))
        cards = self.cards(card_types, decks)
        for table in self.tables_read:
            self.problems.extend(short_row_hints(table, self.problems.items))
        readings_node, readings = self.readings()
        self.check_references(cards, card_types)
        self.check_deck_counts(decks, cards)
        self.check_mechanics(node.get("mechanics"), data.get("mechanics"))
        self.check_source(node.get("source"), data.get("source"))
        pages = self.pages(node.get("rulebook"), data.get("rulebook") or ())
        constant_names = {**self.constant_locs(node.get("constants")), **constants}  # an invalid one is reported once
        for page in pages if not (self.cards_lost or self.cards_broken) else ():
            rulebook.check_page_refs(page, {c.id: c for c in cards}, self.problems, constant_names)
            tables.check_page_tables(page, card_types, decks, cards, self.problems)
        if readings_node is not None:
            check_depends(readings_node, self.problems, pages=[n for n in data.get("rulebook") or () if n],
                          examples=example_names(pages), constants=constant_names.keys())
        if self.problems or "title" not in data:
            return None, self.problems
        game = Game(
            slug=data["slug"], title=data["title"], players=data["players"], summary=data["summary"],
            root=self.root, card_types=card_types, decks=decks, cards=tuple(cards), sheets=sheets,
            pages=tuple(pages), constants=constants,
            open_questions=tuple(self.open_questions(node, data, decks)),
            mechanics=data.get("mechanics"), source=data.get("source", ""), colors=data.get("colors") or {},
            loc=node.loc, readings=tuple(readings), constant_locs=self.constant_locs(node.get("constants")),
            run_code=self.run_code,
        )
        return game, self.problems

    def card_types(self, node: YNode | None, game_loc: Loc) -> dict[str, CardType]:
        if node is None:
            self.problems.error(game_loc, "game: missing required field 'card_types'")
            self.type_ids = None
            return {}
        if node.kind != "map":
            self.validator.fail(node, "game.card_types", "a mapping of card types")
            self.type_ids = None
            return {}
        types: dict[str, CardType] = {}
        for key, value in node.value:
            path = f"card_types.{key.value}"
            self.type_ids.add(key.value)
            if not ID_PATTERN.match(key.value):
                self.problems.error(key.loc, f"{path}: a card type id is lowercase-kebab-case")
                continue
            unusable = type_id_problem(key.value)
            if unusable:
                self.problems.error(key.loc, f"{path}: {unusable}")
                continue
            if value.kind != "map":
                self.validator.fail(value, path, "a mapping with name and fields")
                continue
            data = self.validator.record_fields(value, CARD_TYPE_FIELDS, path, extra=("fields",))
            fields_node = value.get("fields")
            if fields_node is not None and fields_node.kind != "map":
                self.validator.fail(fields_node, f"{path}.fields", "a mapping of field definitions")
                continue
            fields = self.field_defs(fields_node, f"{path}.fields") if fields_node is not None else ()
            types[key.value] = CardType(key.value, data.get("name", key.value), fields,
                                        data.get("layout", key.value), data.get("doc", ""), key.loc,
                                        _written_at(value, "layout", key.loc))
        self.check_ref_targets(types)
        return types

    def check_ref_targets(self, types: dict[str, CardType]) -> None:
        for path, to_node in self.ref_targets:
            for item in to_node.value:
                if item.kind == "scalar" and item.value not in types:
                    self.problems.error(item.loc, f"{path}: no card type '{item.value}'{did_you_mean(str(item.value), list(types))}")

    def field_defs(self, node: YNode, path: str) -> tuple[tuple[str, FieldDef], ...]:
        if node.kind != "map":
            self.validator.fail(node, path, "a mapping of field definitions")
            return ()
        reserved = {name for name, _ in CARD_COMMON_FIELDS}
        out = []
        for key, value in node.value:
            name = key.value
            if not FIELD_NAME_PATTERN.match(name):
                self.problems.error(key.loc, f"{path}.{name}: a field name is lowercase_with_underscores")
                continue
            if name in reserved:
                self.problems.error(key.loc, f"{path}.{name}: '{name}' is a field every card has; choose another name")
                continue
            out.append((name, self.field_def(value, f"{path}.{name}")))
        return tuple(out)

    def field_def(self, node: YNode, path: str) -> FieldDef:
        """The definition; UNCHECKED when it is broken (reported), so cards are not blamed for it."""
        if node.kind == "scalar" and node.scalar_type == "str":  # shorthand: `health: int`
            node = YNode("map", node.loc, ((YNode("scalar", node.loc, "type", "str", "type"), node),))
        if node.kind != "map":
            self.validator.fail(node, path, "a field definition such as {type: int, min: 0}")
            return UNCHECKED
        errors_before = self.problems.error_count
        opts = self.validator.record_fields(node, FIELD_DEF_OPTIONS, path, extra=("of", "fields"))
        kind = opts.get("type")
        of = None
        if kind in ("list", "map"):
            of_node = node.get("of")
            if of_node is None:
                self.problems.error(node.loc, f"{path}: a {kind} needs 'of', the definition of its items")
            else:
                of = self.field_def(of_node, f"{path}.of")
        fields: tuple = ()
        if kind == "record":
            fields_node = node.get("fields")
            if fields_node is None:
                self.problems.error(node.loc, f"{path}: a record needs 'fields'")
            else:
                fields = self.field_defs(fields_node, f"{path}.fields")
        values = tuple(v for v in opts.get("values") or () if v is not None)
        to = tuple(t for t in opts.get("to") or () if t is not None)
        def absent(key: str) -> bool:  # not written, or an empty list (a list that is not valid is reported)
            return node.get(key) is None or opts.get(key) == ()

        if kind == "choice" and absent("values"):
            self.problems.error(node.loc, f"{path}: a choice needs 'values'")
        if kind == "ref" and absent("to"):
            self.problems.error(node.loc, f"{path}: a ref needs 'to', the card types it may point at")
        elif kind == "ref" and "to" in opts:
            self.ref_targets.append((f"{path}.to", node.get("to")))
        if kind is None or self.problems.error_count > errors_before:
            return UNCHECKED
        return FieldDef(kind, optional=opts.get("optional", False), min=opts.get("min"), max=opts.get("max"),
                        values=values, of=of, fields=fields, to=to,
                        label=opts.get("label", ""), doc=opts.get("doc", ""))

    def size(self, node: YNode | None, text: str | None, named: dict, path: str) -> Size | None:
        if text is None:
            return None
        try:
            return parse_size(text, named)
        except ValueError as exc:
            self.problems.error(node.loc if node else Loc(""), f"{path}: {exc}")
            return None

    def decks(self, node: YNode | None, data: dict) -> dict[str, Deck]:
        decks: dict[str, Deck] = {}
        if node is None or node.kind != "map":
            self.deck_ids = None  # missing or broken, and reported: cards cannot name a deck wrongly
            return decks
        for key, value in node.value:
            self.deck_ids.add(key.value)
            fields = data.get(key.value)
            if not fields or value.kind != "map":
                continue
            size = self.size(value.get("size"), fields.get("size"), CARD_SIZES, f"decks.{key.value}.size")
            back = fields.get("back") or {}
            if size is None or not back:
                continue
            if value.get("count") is not None:
                self.count_locs[key.value] = value.get("count").loc
            open_note = fields.get("open")
            decks[key.value] = Deck(
                id=key.value, name=fields.get("name", key.value), size=size,
                back=Back(back.get("layout", "back"), back.get("title", ""), back.get("subtitle", ""), back.get("color", ""),
                          _written_at(value.get("back"), "layout", value.loc)),
                count=fields.get("count"), order=fields.get("order", "shuffled"), color=fields.get("color", ""),
                doc=fields.get("doc", ""), loc=value.loc,
                open=Open(open_note, value.get("open").loc) if open_note else None,
                size_loc=_written_at(value, "size", value.loc),
            )
        return decks

    def sheets(self, node: YNode | None, data: dict) -> dict[str, Sheet]:
        sheets: dict[str, Sheet] = {}
        if node is None or node.kind != "map":
            return sheets
        for key, value in node.value:
            fields = data.get(key.value)
            if not fields or value.kind != "map":
                continue
            size = self.size(value.get("size"), fields.get("size"), {**PAGE_SIZES, **CARD_SIZES}, f"sheets.{key.value}.size")
            if size is not None and "name" in fields and "layout" in fields:
                sheets[key.value] = Sheet(key.value, fields["name"], fields["layout"], size, value.loc,
                                          fields.get("copies", 1), _written_at(value, "layout", value.loc),
                                          _written_at(value, "size", value.loc))
        return sheets

    # -- card files ------------------------------------------------------

    def card_files(self) -> list[Path]:
        """Every ``*.yaml`` under the game folder but game.yaml and the skipped folders, in sorted order.

        Linked folders are not entered (a link to ``/`` would walk the whole disk) and at most MAX_FOLDER_ENTRIES
        names are looked at; a linked file is refused when it is read (rules.data.confine)."""
        files = []
        entered = lambda name: not name.startswith(".") and name not in SKIPPED_FOLDERS  # noqa: E731
        for seen, (entry, rel) in enumerate(walk(self.folder, enter=entered), start=1):
            if seen > MAX_FOLDER_ENTRIES:
                self.problems.error(Loc(self.shown(self.folder)), f"the game folder holds more than {MAX_FOLDER_ENTRIES:,} "
                                                                  "files and folders; deckwright reads at most that many")
                self.cards_lost = True
                return []
            name = entry.name
            if name.endswith(".yml") and not name.startswith(".") and not entry.is_dir():
                self.yml_warning(self.folder / rel)
            if not name.endswith(".yaml") or name.startswith(".") or rel in (GAME_FILE, READINGS_FILE):
                continue
            if entry.is_dir():  # links followed, as Path.is_dir: a link to a folder named like a card file
                continue
            files.append(self.folder / rel)
        return sorted(files)

    def yml_warning(self, path: Path) -> None:
        """A ``.yml`` file meant as game.yaml, readings.yaml or a card file (it has a ``cards:`` line) is not
        read: a warning says so (another, such as a tool's settings, is none of deckwright's business)."""
        meant = {"game.yml": GAME_FILE, "readings.yml": READINGS_FILE}.get(path.name)
        if meant is None:
            try:
                head = read_confined(self.root, path, MAX_CARD_FILE_BYTES)[:65536].decode("utf-8", "replace")
            except (FileRefused, OSError):
                return
            if not re.search(r"^cards:", head, re.M):
                return
        rename = meant or f"{path.stem}.yaml"
        self.problems.warning(Loc(self.shown(path)), f"not read: deckwright reads *.yaml files; rename it {rename}")

    def cards(self, card_types: dict[str, CardType], decks: dict[str, Deck]) -> list[Card]:
        cards: list[Card] = []
        seen: dict[str, Loc] = {}

        def add(card_nodes, defaults: dict, file_has_type: bool) -> None:
            for card_node in card_nodes:
                card = self.card(card_node, defaults, card_types, decks, file_has_type=file_has_type)
                if card is None:
                    self.cards_lost = True
                    continue
                where = card.field_locs.get("id", card.loc)  # the id's cell or line (in a spreadsheet, maybe its name's)
                if card.id in seen:
                    self.problems.error(where, f"{card.type}.{card.id}: duplicate id (first defined at {seen[card.id]})")
                    self.cards_broken = True  # the deck counts would miss the card left out
                    continue
                seen[card.id] = where
                cards.append(card)

        for path in self.card_files():
            shown = self.shown(path)
            node, problems = load_yaml_file(path, shown, self.root, MAX_CARD_FILE_BYTES)
            self.problems.extend(problems)
            if node is None:
                if not problems:
                    self.problems.error(Loc(shown), "file is empty; expected 'cards:' with a list of cards")
                self.cards_lost = True
                continue
            if node.kind == "seq":
                self.problems.error(node.loc, "a card file starts with 'cards:'; put a 'cards:' line above this list "
                                              "and indent the list under it")
                self.cards_lost = True
                continue
            if node.kind != "map":
                self.problems.error(node.loc, f"expected a mapping with 'cards:' (a list of cards), got {node.describe()}")
                self.cards_lost = True
                continue
            defaults = self.file_defaults(node)
            cards_node = node.get("cards")
            for key in ("sheet", "delimiter") if node.get("spreadsheet") is None else ():
                if node.get(key) is not None:  # (else ignored: the cards would come from nowhere it says)
                    self.problems.error(node.get(key).loc, f"{key}: this file names no spreadsheet; add "
                                                           "'spreadsheet: <file>' or remove this line")
                    self.cards_lost = True  # the cards meant to come from it
            if node.get("spreadsheet") is not None:  # the rows of a spreadsheet beside this file are cards too
                source = {"file": defaults.get("spreadsheet"), **defaults}
                add(self.spreadsheet_rows(node, source, path.parent, card_types), defaults, node.get("type") is not None)
                if cards_node is None:
                    continue
            if cards_node is None:
                self.problems.error(node.loc, "missing 'cards:', the list of cards in this file")
                self.cards_lost = True
                continue
            if cards_node.kind == "scalar" and cards_node.scalar_type == "null":
                continue  # `cards:` with nothing under it: a file with no cards yet
            if cards_node.kind != "seq":
                self.validator.fail(cards_node, "cards", "a list of cards (each item starting with '- id: ...')")
                self.cards_lost = True
                continue
            add(cards_node.value, defaults, node.get("type") is not None)
        for node, defaults in self.declared_spreadsheets:
            add(self.spreadsheet_rows(node, defaults, self.folder, card_types), defaults, node.get("type") is not None)
        return cards

    def unknown(self, kind: str, ident: str, declared: set[str] | None) -> str | None:
        """The message for a card type or deck game.yaml does not declare; None when it does (even if broken)."""
        if declared is None or ident in declared:
            return None
        return f"unknown {kind} '{ident}'{did_you_mean(str(ident), sorted(declared))}"

    def file_defaults(self, node: YNode) -> dict:
        """A card file's `type:` and `deck:`; an unknown one is reported here once, not on every card."""
        defaults = self.validator.record_fields(node, CARD_FILE_FIELDS, "file", extra=("cards",))
        return self.check_defaults(node, defaults, "file")

    def check_defaults(self, node: YNode, defaults: dict, path: str) -> dict:
        for key, kind, declared in (("type", "card type", self.type_ids), ("deck", "deck", self.deck_ids)):
            given = node.get(key) if node.kind == "map" else None
            if key not in defaults and given is not None and given.kind == "scalar" and given.scalar_type == "null":
                # an empty `type:` would leave every card of the file without one, and each unreported
                choices = f" ({', '.join(sorted(declared))})" if declared else ""
                self.problems.error(given.loc, f"{path}.{key}: empty; name a {kind}{choices} or remove the line")
                self.cards_broken = True
                continue
            message = self.unknown(kind, defaults[key], declared) if key in defaults else None
            if message:
                self.problems.error(node.get(key).loc, f"{path}.{key}: {message}")
                self.cards_broken = True
        return defaults

    # -- spreadsheets (rules.data.spreadsheets reads them, rules.data.cells says what their cells mean) ---

    def spreadsheet_items(self, node: YNode | None, items) -> list[tuple[YNode, dict]]:
        """game.yaml's `spreadsheets:` entries that name a file, each with its node."""
        nodes = node.value if node is not None and node.kind == "seq" else ()
        return [(item_node, self.check_defaults(item_node, item, "spreadsheets"))
                for item_node, item in zip(nodes, items or ()) if item and "file" in item]

    def spreadsheet_rows(self, node: YNode, source: dict, base: Path, card_types: dict[str, CardType]) -> list[YNode]:
        """The rows of a declared spreadsheet as card mappings, as a YAML card file's `cards:` holds them."""
        if source.get("file") is None:
            return []

        def fields_of(type_id: str):
            return dict(card_types[type_id].fields) if type_id in card_types else None

        nodes, problems, lost, table = spreadsheet_cards(base, self.root, node, source, fields_of,
                                                         self.spreadsheets_read)
        self.problems.extend(problems)
        self.cards_lost |= lost
        if table is not None and table.short_rows:
            self.tables_read.append(table)
        return nodes

    def card(self, node: YNode, defaults: dict, card_types: dict[str, CardType], decks: dict[str, Deck],
             file_has_type: bool = False) -> Card | None:
        if node.kind != "map":
            self.validator.fail(node, "cards", "a card (a mapping starting with 'id:')")
            return None
        id_node = node.get("id")
        card_id = id_node.value if id_node is not None and id_node.kind == "scalar" else "?"
        if len(str(card_id)) > 40:  # named in every message about the card: a long one would hide the message
            card_id = f"{str(card_id)[:30]}..."
        type_node = node.get("type")
        if type_node is not None:
            type_id = self.validator.value(type_node, CARD_TYPE_REF, f"card {card_id}.type")
            if type_id is None:
                return None
        elif "type" in defaults:
            type_id = defaults["type"]
        else:
            if not file_has_type:  # else the file's broken `type:` line is already reported
                self.problems.error(node.loc, f"card {card_id}: no card type; give the card 'type:' or the file a 'type:' line")
            return None
        card_type = card_types.get(type_id)
        if card_type is None:  # unknown (reported here, or on the file's `type:` line) or its definition is broken
            message = self.unknown("card type", type_id, self.type_ids) if type_node is not None else None
            if message:
                self.problems.error(type_node.loc, f"card {card_id}: {message}")
            return None
        path = f"{type_id}.{card_id}"
        errors_before = self.problems.error_count
        common = self.validator.record_fields(node, CARD_COMMON_FIELDS, path, extra=self.field_names(card_type))
        fields = self.validator.record_fields(node, card_type.fields, path, extra=COMMON_FIELD_NAMES)
        deck_id = common.get("deck", defaults.get("deck"))
        message = self.unknown("deck", common["deck"], self.deck_ids) if "deck" in common else None
        if message:
            self.problems.error(node.get("deck").loc, f"{path}.deck: {message}")
        if "id" not in common or "name" not in common:
            return None  # already reported: missing or not valid
        if not common["name"].strip():
            self.problems.error(node.get("name").loc, f"{path}.name: empty; a card's name is printed on it and "
                                                      "names it in the gallery and in messages")
            return None
        if self.problems.error_count > errors_before:
            self.cards_broken = True
        field_locs = self.field_locs([(key.value, value.loc) for key, value in node.value])
        return Card(id=common["id"], type=type_id, deck=deck_id or "", name=common["name"],
                    copies=common.get("copies", 1), fields=fields, loc=node.loc, field_locs=field_locs)

    def field_names(self, card_type: CardType) -> tuple[str, ...]:
        """The names of a card type's own fields, made once per type rather than once per card."""
        names = self.type_field_names.get(card_type.id)
        if names is None:
            names = self.type_field_names[card_type.id] = tuple(name for name, _ in card_type.fields)
        return names

    def check_references(self, cards: list[Card], card_types: dict[str, CardType]) -> None:
        by_id = {card.id: card for card in cards}
        refs = self.validator.refs
        if self.cards_lost:  # a missing card may be in the file that could not be read
            refs = [ref for ref in refs if ref.id in by_id]
        check_refs(refs, by_id, self.problems, card_types)

    def check_deck_counts(self, decks: dict[str, Deck], cards: list[Card]) -> None:
        if self.cards_lost or self.cards_broken:
            return
        for deck in decks.values():
            members = [c for c in cards if c.deck == deck.id]
            if not isinstance(deck.count, int) or any(isinstance(c.copies, Open) for c in members):
                continue
            actual = sum(c.copies for c in members)
            if actual != deck.count:
                self.problems.error(self.count_locs.get(deck.id, deck.loc),
                                    f"decks.{deck.id}.count: declared {deck.count} cards, the card files give {actual}")

    def check_source(self, node: YNode | None, text: str | None) -> None:
        """``source:`` names the document a game is built from; a file path would point at something
        that is neither shipped with the game nor checked."""
        if text and _PATH_LIKE.search(text.strip()) and not _URL.match(text.strip()):
            self.problems.error(node.loc, f"game.source: '{text}' looks like a file path; name the source document "
                                          "in words (title, designer, version), as a reader would look for it")

    def rules_module(self, node: YNode | None):
        """The module ``mechanics:`` names, when it is a known one or the game folder's own and may run (an
        unknown one is reported by check_mechanics); a game folder's module that fails to load is reported
        at the line of its own code that failed."""
        if node is None or node.kind != "scalar":
            return None
        name = str(node.value)
        if is_own_module(name):
            if not self.run_code:
                return None
            try:
                return load_own_module(self.root, name)
            except FileRefused:  # reported by check_mechanics
                return None
            except RulesCodeError as exc:
                failure = exc.failure
                self.problems.items.append(Problem(failure.loc or node.loc, f"the rules module ({name}) cannot be "
                                                   f"loaded: {failure.message}", detail=failure.trace))
                return None
        return module_named(name) if name in known_mechanics() else None

    def constants(self, game_node: YNode, module) -> dict:
        """``constants:`` read through the rules module's field definitions: typed, each problem at its own line."""
        fields = module.CONSTANTS.fields
        node = game_node.get("constants")
        if node is None:
            needed = [name for name, fdef in fields if not fdef.optional]
            if needed:
                self.problems.error(game_node.loc, f"game: missing 'constants:'; the rules need {', '.join(needed)}")
            return {}
        if node.kind != "map":
            self.validator.fail(node, "game.constants", "a mapping of the constants the rules read")
            return {}
        return self.validator.record_fields(node, fields, "game.constants")

    @staticmethod
    def constant_locs(node: YNode | None) -> dict[str, Loc]:
        return {key.value: value.loc for key, value in node.value} if node is not None and node.kind == "map" else {}

    def check_mechanics(self, node: YNode | None, name: str | None) -> None:
        if name is None:
            return
        if is_own_module(name):
            try:
                own_module_path(self.root, name)
            except FileRefused as exc:
                self.problems.error(node.loc, f"game.mechanics: {exc.message}")
            return
        known = known_mechanics()
        if name not in known:
            self.problems.error(node.loc, f"game.mechanics: no rules module '{name}'{did_you_mean(name, known)} "
                                          f"(known: {', '.join(known) or 'none'}; or a file in the game folder "
                                          "such as rules.py)")

    # -- the readings register ------------------------------------------

    def readings(self) -> tuple[YNode | None, list[Reading]]:
        """readings.yaml beside game.yaml, if the game has one."""
        path = self.folder / READINGS_FILE
        if not path.exists() and not path.is_symlink():
            return None, []
        shown = self.shown(path)
        if not self.inside(path):
            self.problems.error(Loc(shown), "file links outside the game folder; deckwright reads only files inside it")
            return None, []
        node, problems = load_yaml_file(path, shown, self.root)
        self.problems.extend(problems)
        if node is None:
            if not problems:
                self.problems.error(Loc(shown), "file is empty; expected 'readings:' with a list of entries")
            return None, []
        return node, read_readings(node, self.validator, self.problems)

    # -- rulebook --------------------------------------------------------

    def pages(self, node: YNode | None, names: tuple) -> list[Page]:
        pages = []
        ids: dict[str, Loc] = {}  # a page's id names its web page (rules/<id>.html) and its golden logs
        for item, name in zip(node.value if node is not None and node.kind == "seq" else (), names):
            if name is None:  # not text: already reported
                continue
            page_id = Path(name).stem
            said = repr(clip(name, 60))  # a name of hundreds of characters would crowd out the reason
            problem = page_name_problem(page_id)
            if problem:
                self.problems.error(item.loc, f"rulebook: {said}: {problem}")
                continue
            if page_id.lower() in ids:
                self.problems.error(item.loc, f"rulebook: {said} has the same name as the page at {ids[page_id.lower()]}, "
                                              f"so both would be rules/{page_id}.html; rename one")
                continue
            ids[page_id.lower()] = item.loc
            path = (self.folder / name)
            too_long = long_name_problem(path)
            if too_long or not self.inside(path):
                self.problems.error(item.loc, f"rulebook: {too_long or said + ' is outside the game folder'}")
                continue
            if not path.is_file():
                self.problems.error(item.loc, f"rulebook: no page {said} in the game folder")
                continue
            text, problems = read_text(path, self.shown(path), self.root)
            self.problems.extend(problems)
            if text is None:
                continue
            shown = self.shown(path)
            rulebook.check_page_nesting(text, shown, self.problems)
            pictures = check_page_pictures(self.root, path, text, shown, self.problems, self.pictures)
            pages.append(Page(id=Path(name).stem, title=rulebook.page_title(text, Path(name).stem), path=path,
                              shown=shown, text=text, pictures=pictures))
        return pages

    def open_questions(self, node: YNode, data: dict, decks: dict[str, Deck]) -> list[OpenQuestion]:
        questions = [OpenQuestion(path, value.note, value.loc) for path, value in self.validator.opens]
        questions += [OpenQuestion(f"deck {deck.id}", deck.open.note, deck.open.loc) for deck in decks.values() if deck.open]
        oq_node = node.get("open_questions")
        for item_node, item in zip(oq_node.value if oq_node is not None and oq_node.kind == "seq" else (),
                                   data.get("open_questions") or ()):
            questions.append(OpenQuestion(item["about"], item["note"], item_node.loc))
        return sorted(questions, key=lambda q: (q.loc.file, q.loc.line, q.loc.col))
