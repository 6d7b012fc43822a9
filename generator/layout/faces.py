"""Card faces, backs and sheets of a game as display lists, and card fields as text.

This is the interface the PDF, PNG, SVG and HTML outputs share:

    faces = Faces(game)                  # reads the game's layouts once
    faces.front(card, bleed=3.0)         # -> DisplayList
    faces.back(deck, bleed=3.0)
    faces.sheet(sheet)                   # a play aid, character sheet or mat
    faces.format_field(card, "abilities")  # the text a layout's `formats:` gives

``card_face``, ``card_back``, ``sheet_page`` and ``format_field`` do the same
for a single call. Layout problems raise ``LayoutError`` (located problems).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from deckwright.rules.data.model import Card, Deck, Game, Sheet
from deckwright.rules.data.schema import Ref
from deckwright.rules.data.units import CARD_SIZES
from deckwright.rules.data.values import Open
from deckwright.rules.data.yamlsrc import load_yaml_file
from deckwright.rules.problems import Problem

from .displaylist import DisplayList, Path, Rect
from .files import LayoutError, LayoutFiles, file_root, search_folders
from .fonts import FontBook, game_fonts
from .icons import Icon, IconError, icon_from_data
from .measure import Measurer, ValueFailure, resolve
from .richtext import parse
from .sandbox import LayoutSandbox, as_text
from .textfit import TextSpec
from .viewmodel import CardView, GameView, card_view, game_view, plain

_MISSING = object()


def mix(color: str, other: str, amount: float = 0.5) -> str:
    """``amount`` of the way from one ``#rrggbb`` colour to another."""
    a = [int(str(color)[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(str(other)[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * float(amount)):02x}" for x, y in zip(a, b))


def plain_value(value: Any, game: Game) -> str:
    """A field value as text when the layouts give no format for it."""
    if value is None:
        return ""
    if isinstance(value, Open):
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Ref):
        try:
            return game.card(value.id).name
        except KeyError:
            return value.id
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain_value(v, game) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {plain_value(v, game)}" for k, v in value.items())
    return str(value)


def make_environment(game: Game | GameView):
    """The sandboxed Jinja2 environment layouts are compiled in (strict: a missing value is an error;
    bounded: see generator.layout.sandbox). Its filters hand out views of cards, never the model itself."""
    view = game if isinstance(game, GameView) else game_view(game)
    env = LayoutSandbox(autoescape=False, keep_trailing_newline=False, finalize=lambda v: "" if v is None else v)
    env.add_filters(_filters(view))
    env.tests["open"] = lambda value: isinstance(value, Open)
    return env


def _filters(view: GameView) -> dict:
    def card_of(ref) -> CardView:
        return view.card(as_text(ref))

    return {
        "card_name": lambda ref: card_of(ref).name,
        "card_of": card_of,
        "mix": mix,
        "plus": lambda value: f"{as_text(value)}+",
    }


def load_icons(game: Game) -> dict[str, Icon]:
    """Icons from every ``icons.yaml`` on the layout search path; a game's own win over shared ones."""
    icons: dict[str, Icon] = {}
    problems: list[Problem] = []
    for folder in reversed(search_folders(game)):
        path = folder / "icons.yaml"
        if not (path.exists() or path.is_symlink()):
            continue
        from deckwright.rules.problems import display_path

        node, found = load_yaml_file(path, display_path(path), file_root(game, path))
        problems.extend(found)
        if node is None:
            continue
        if node.kind != "map":
            problems.append(Problem(node.loc, "icons.yaml: expected a mapping of icon names to path data"))
            continue
        for key, value in node.value:
            try:
                icons[key.value] = icon_from_data(key.value, value.plain(), icons)
            except IconError as exc:
                problems.append(Problem(value.loc, f"icon '{key.value}': {exc}"))
    if problems:
        raise LayoutError(problems)
    return icons


def layout_data(game: Game) -> dict:
    """Values the game's rules compute for its faces (e.g. odds on a reference card): ``data`` in layouts.

    A mechanics module may define ``layout_data(game) -> dict``; one with an ``odds(rules)`` hook also gives
    ``data.odds``, its tables by name as plain values (``rules.engine.odds.plain_table``: each cell's ``text``,
    and a probability's ``chance``, ``ways`` and ``outcomes``). Without either, ``data`` is empty.
    """
    from deckwright.rules.engine.errors import RuleError
    from deckwright.rules.engine.odds import plain_table, tables_problems
    from deckwright.rules.engine.timelimit import time_limit
    from deckwright.rules.games import rules_module
    from deckwright.rules.games.gamecode import definition_loc, module_failure

    module = rules_module(game)

    def designers(call: str, exc: Exception) -> LayoutError:  # the designer's bug, at their own line
        failure = module_failure(exc, module)
        return LayoutError([Problem(failure.loc or game.loc, f"the rules module's {call} {failure.said_at_loc}",
                                    detail=failure.trace)])

    hook = getattr(module, "layout_data", None)
    try:
        with time_limit():
            data = dict(hook(game)) if hook is not None else {}
    except Exception as exc:
        raise designers("layout_data(game)", exc) from None
    if getattr(module, "odds", None) is not None and "odds" not in data:
        try:
            with time_limit():
                tables = module.odds(module.prepare(game))
        except RuleError:  # the odds need a value the source leaves open: a layout using them says it lacks them
            return data
        except Exception as exc:
            raise designers("odds(rules)", exc) from None
        wrong = tables_problems(tables)
        if wrong:  # a layout shows the tables only as OddsTables: the designer's bug, at their odds()
            at = definition_loc(module, "odds") or game.loc
            raise LayoutError([Problem(at, f"the rules module's {problem}") for problem in wrong])
        data["odds"] = {name: plain_table(table) for name, table in tables.items()}
    return data


def layout_uses(game: Game):
    """Every layout name the game's cards, backs and sheets use, with where it is first used."""
    for card in game.cards:
        card_type = game.card_types[card.type]
        yield card_type.layout, card_type.layout_loc or card_type.loc or card.loc
    for deck in game.decks.values():
        yield deck.back.layout, deck.back.layout_loc or deck.loc
    for sheet in game.sheets.values():
        yield sheet.layout, sheet.layout_loc or sheet.loc


class Faces:
    """Display lists for one game's cards, backs and sheets, with its layouts, icons and fonts read once."""

    def __init__(self, game: Game, fonts: FontBook | None = None, keep_going: bool = False):
        """``fonts``: the game's (``game_fonts``), read from its folder when not given; an error in them is a
        LayoutError, like one in a layout. ``keep_going``: a face that cannot be laid out is drawn as a marked
        blank and its problems are kept in ``problems`` (what ``build --force`` needs), instead of raising."""
        self.fonts = fonts or game_fonts(game.root)
        font_errors = [problem for problem in self.fonts.problems if problem.severity == "error"]
        if font_errors:
            raise LayoutError(font_errors)
        self.game = game
        self.keep_going = keep_going
        self.view = game_view(game)
        self._cards = {card.id: card for card in game.cards}
        self.env = make_environment(self.view)
        self.files = LayoutFiles(game, self.env)
        self.files.compile(layout_uses(game))
        self.icons = load_icons(game)
        self.icon_names = frozenset(self.icons)
        self.measurer = Measurer(self.env, self.fonts, self.icons, game.root)
        self.data = plain(layout_data(game))
        # what drawing found, from every face drawn: text too small (warning) or too long (error), art under
        # PRINT_DPI (warning), card types drawn with the default layout (warning), and with keep_going the faces
        # that could not be drawn (errors)
        self.problems: set[Problem] = set(self.files.warnings)
        self.font_warnings: list[Problem] = list(self.fonts.problems)  # a font without its licence, a shadowed family
        self._shared = self._shared_context()

    def for_game(self, game: Game) -> "Faces":
        """These compiled layouts, icons and fonts for an edited version of the same game (its data changed, not
        its layout files): what ``deckwright serve`` redraws with, as compiling layouts takes far longer than
        drawing a card. Jinja2 looks filters up as it renders, so rebinding them here rebinds every layout;
        this Faces must not be used afterwards."""
        import copy

        faces = copy.copy(self)
        faces.game = game
        faces.view = game_view(game)
        faces._cards = {card.id: card for card in game.cards}
        faces.files = copy.copy(self.files)
        faces.files.game = game
        faces.data = plain(layout_data(game))
        faces.problems = set(self.files.warnings)
        self.env.add_filters(_filters(faces.view))
        return faces

    # -- contexts: what a layout sees (generator.layout.viewmodel) ----------

    def _base(self) -> dict:
        return {**self._shared, "colors": dict(self.game.colors)}

    def _shared_context(self) -> dict:
        """What every context shares: read-only views, and functions that look values up."""
        view = self.view

        def referring(target, field: str) -> list[CardView]:
            return [view.card(card.id) for card in self.referring(target, field)]

        def field_text(card, field: str) -> str:
            return self.format_field(self.game.card(card.id) if isinstance(card, CardView) else card, field)

        return {"game": view, "constants": plain(self.game.constants), "referring": referring,
                "field_text": field_text, "icon_names": self.icon_names, "data": self.data}

    def referring(self, target, field: str) -> list[Card]:
        """The cards whose ``field`` refers to ``target`` (a card, a Ref or an id), in game order."""
        ident = target.id if isinstance(target, (Card, CardView, Ref)) else str(target)
        out = []
        for card in self.game.cards:
            value = card.get(field)
            values = value if isinstance(value, (list, tuple)) else (value,)
            if any(isinstance(v, Ref) and v.id == ident for v in values):
                out.append(card)
        return out

    def _card_view(self, card: Card) -> CardView:
        """The game's view of one of its cards; a card made elsewhere (a blank template) gets its own."""
        return (self.view.card(card.id) if self._cards.get(card.id) is card
                else card_view(card, self.game.card_types.get(card.type)))

    def _deck_palette(self, ctx: dict, deck: Deck | None) -> None:
        if deck is not None:
            ink = ctx["colors"].get("ink", "#000000")
            ctx["colors"]["deck"] = deck.color or deck.back.color or ink
            ctx["colors"]["back"] = deck.back.color or deck.color or ink

    def card_context(self, card: Card) -> dict:
        deck = self.game.decks.get(card.deck)
        ctx = self._base()
        ctx.update(card=self._card_view(card), deck=deck, type=self.game.card_types[card.type])
        self._deck_palette(ctx, deck)
        try:
            layout = self.files.layout(self.game.card_types[card.type].layout, card.loc)
        except LayoutError as exc:
            if not self.keep_going:
                raise
            self.problems.update(exc.problems)
            layout = None  # its fields read as plain values

        def fmt(name: str, value: Any = _MISSING) -> str:
            if value is _MISSING:
                value = getattr(card, name) if name in ("name", "id", "copies") else card.get(name)
            return self._format(layout, ctx, name, value)

        ctx["fmt"] = fmt
        ctx["labelled_fields"] = lambda: labelled_fields(self.game, card, fmt)
        return ctx

    def _format(self, layout, ctx: dict, name: str, value: Any) -> str:
        template = layout.formats.get(name) if layout is not None else None
        if template is None:
            return plain_value(value, self.game)
        try:
            return resolve(template, dict(ctx, value=plain(value)), "text")
        except ValueFailure as exc:
            card = ctx.get("card")
            problem = Problem(template.loc, f"formats.{name}: {exc.message} (formatting {card.type} '{card.id}')")
            if not self.keep_going:
                raise LayoutError([problem])
            self.problems.add(problem)
            return plain_value(value, self.game)

    # -- display lists ---------------------------------------------------

    def card_size(self, card: Card) -> tuple[float, float]:
        deck = self.game.decks.get(card.deck)
        return (deck.size.width, deck.size.height) if deck else CARD_SIZES["poker"]

    def front(self, card: Card, bleed: float = 0.0) -> DisplayList:
        width, height = self.card_size(card)
        name = f"{card.type} {card.id}"
        with self._drawing(name, width, height, bleed) as drawn:
            layout = self.files.layout(self.game.card_types[card.type].layout, card.loc)
            drawn.display = self.measurer.measure(layout, self.card_context(card), width, height, bleed, name,
                                                  f"{card.type} '{card.id}'")
            self.problems.update(face_problems(drawn.display, card.loc, f"{card.type} '{card.id}'"))
        return drawn.display

    @contextmanager
    def _drawing(self, name: str, width: float, height: float, bleed: float):
        """Draws one face; with keep_going a LayoutError becomes a marked blank face and problems kept."""
        drawn = _Drawn()
        try:
            yield drawn
        except LayoutError as exc:
            if not self.keep_going:
                raise
            self.problems.update(exc.problems)
            drawn.display = self.failed_face(name, width, height, bleed)

    def failed_face(self, name: str, width: float, height: float, bleed: float) -> DisplayList:
        """A face that could not be laid out: pale red, crossed, saying so (``build --force``)."""
        red = "#b3261e"
        inset = min(width, height) * 0.06
        cross = Path((("M", inset, inset), ("L", width - inset, height - inset),
                      ("M", width - inset, inset), ("L", inset, height - inset)), None, "#e8b4b0", 0.4)
        spec = TextSpec(self.fonts.face("Open Sans", "bold"), 9.0, 4.0, 1.2, "center", "middle", red)
        words = self.measurer.setter.fit(parse(f"{name}\nnot drawn: see the build's errors"), spec, inset * 2,
                                         height / 2 - 10, width - inset * 4, 20)
        items = (Rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, "#fbeceb"),
                 Rect(inset, inset, width - 2 * inset, height - 2 * inset, None, red, 0.6), cross,
                 Rect(inset * 2, height / 2 - 10, width - inset * 4, 20, "#fbeceb"), *words.items)
        return DisplayList(name, width, height, bleed, items)

    def back_context(self, deck: Deck) -> dict:
        ctx = self._base()
        ctx.update(deck=deck, back=deck.back)
        self._deck_palette(ctx, deck)
        return ctx

    def sheet_context(self, sheet: Sheet) -> dict:
        ctx = self._base()
        ctx.update(sheet=sheet)
        return ctx

    def back(self, deck: Deck, bleed: float = 0.0) -> DisplayList:
        name = f"back of {deck.id}"
        with self._drawing(name, deck.size.width, deck.size.height, bleed) as drawn:
            layout = self.files.layout(deck.back.layout, deck.loc)
            drawn.display = self.measurer.measure(layout, self.back_context(deck), deck.size.width, deck.size.height,
                                                  bleed, name, f"the back of deck '{deck.id}'")
            self.problems.update(face_problems(drawn.display, deck.loc, f"the back of deck '{deck.id}'"))
        return drawn.display

    def sheet(self, sheet: Sheet, width: float | None = None, height: float | None = None,
              bleed: float = 0.0, paper: str = "") -> DisplayList:
        """A sheet measured at its own size, or at ``width`` x ``height`` (the printable area of ``paper``)."""
        width, height = width or sheet.size.width, height or sheet.size.height
        with self._drawing(f"sheet {sheet.id}", width, height, bleed) as drawn:
            layout = self.files.layout(sheet.layout, sheet.loc)
            drawn.display = self.measurer.measure(layout, self.sheet_context(sheet), width, height, bleed,
                                                  f"sheet {sheet.id}", f"sheet '{sheet.id}'")
            where = f"sheet '{sheet.id}'" + (f" on {paper}" if paper else "")
            self.problems.update(face_problems(drawn.display, sheet.loc, where))
        return drawn.display

    def format_field(self, card: Card, field: str) -> str:
        """A field as the layouts word it (markup included: see generator.layout.richtext), e.g. for rulebook tables."""
        return self.card_context(card)["fmt"](field)


READABLE_PT = 6.0  # text below this size is hard to read on a printed card
PRINT_DPI = 200  # art below this resolution at its printed size looks soft or blocky


@dataclass
class _Drawn:
    display: DisplayList | None = None


def face_problems(display: DisplayList, loc, who: str) -> list[Problem]:
    """What one face's drawing says, at ``loc``: an error for text that does not fit even at its smallest size
    (unless its box says ``fit: overflow-ok``); warnings for text printing below READABLE_PT and for art
    printing below PRINT_DPI; and what laying it out found (a box drawn past the face's edge: see
    ``generator.layout.bounds``), at the layout's line."""
    out = list(display.problems)
    for fit in display.fits:
        what = f"field '{fit.field}' (box '{fit.box}')" if fit.field else f"box '{fit.box}'"
        if not fit.fits and not fit.overflow_ok:
            out.append(Problem(loc, f"{who}: {what} does not fit even at {fit.size:g} pt (layout {fit.loc}); "
                                    f"shorten the text, enlarge the box or lower its min_size, or let it overflow "
                                    f"with fit: overflow-ok"))
        elif fit.fits and fit.size < READABLE_PT:
            out.append(Problem(loc, f"{who}: {what} prints at {fit.size:g} pt, below {READABLE_PT:g} pt "
                                    f"(layout {fit.loc}); shorten the text or enlarge the box", "warning"))
    for art in display.art:
        if art.dpi < PRINT_DPI:
            out.append(Problem(loc, f"{who}: art '{art.src}' prints at {art.dpi:.0f} dpi in box '{art.box}' "
                                    f"({art.width:.0f} x {art.height:.0f} mm); {PRINT_DPI} dpi or more prints sharp",
                               "warning"))
    return out


SHORT_FIELD = 16  # characters: a value this short, on one line, reads as a stat ("Health 3")


def labelled_fields(game: Game, card: Card, fmt) -> list[dict]:
    """Every field the card has a value for, in its type's order: ``key``, ``label`` (the field's label, or its
    key in words), ``text`` (as ``fmt`` words it) and ``short`` (at most SHORT_FIELD characters on one line)."""
    rows = []
    card_type = game.card_types[card.type]
    for key, _ in card_type.fields:
        if card.get(key) is None:
            continue
        text = fmt(key)
        if text.strip():
            rows.append({"key": key, "label": type_field_label(card_type, key), "text": text,
                         "short": len(text) <= SHORT_FIELD and "\n" not in text})
    return rows


def type_field_label(card_type, key: str) -> str:
    """A field's label from its card type, or its key in words."""
    fdef = card_type.field(key)
    return fdef.label if fdef is not None and fdef.label else key.replace("_", " ").capitalize()


def card_face(game: Game, card: Card, bleed: float = 0.0) -> DisplayList:
    return Faces(game).front(card, bleed)


def card_back(game: Game, deck: Deck, bleed: float = 0.0) -> DisplayList:
    return Faces(game).back(deck, bleed)


def sheet_page(game: Game, sheet: Sheet, bleed: float = 0.0) -> DisplayList:
    return Faces(game).sheet(sheet, bleed=bleed)


def format_field(game: Game, card: Card, field: str) -> str:
    return Faces(game).format_field(card, field)
