"""Write the site: an index of every game, and per game its rulebook pages, card gallery and printables.

Layout of the output (every link relative, so it works from disk and from any static host)::

    index.html                      all games
    assets/                         CSS, JavaScript, fonts and their licences
    <game>/index.html               overview: check status, decks, examples, open questions
    <game>/rules/<page>.html        rulebook pages
    <game>/cards.html               card gallery, then the sheets and templates
    <game>/print-a4.html, print-letter.html   printable cards at their real size
"""
from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckwright.generator import TEMPLATES
from deckwright.generator.layout.fonts import FontBook, shipped_fonts
from deckwright.generator.layout.paper import PAPER_SIZES, is_page_sheet
from deckwright.generator.output import staged_folder
from deckwright.rules.data.model import Card, Deck, Game, Sheet, Size
from deckwright.rules.data.values import Open

from .cards import IMAGES, CardArt, Picture, card_anchor, sheet_anchor
from .examples import ExampleView
from .pages import Links, RenderedPage, render_page
from .sheets import print_sheets

HTML_TEMPLATES = TEMPLATES / "html"
FONTS = TEMPLATES / "fonts"
PRINT_PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class CheckStatus:
    state: str  # "passing", "errata" (passing, with known errata) or "failing"
    label: str
    verified: int
    errata: int
    failing: int
    warnings: tuple[Any, ...]  # rules.problems.Problem

    @property
    def counts(self) -> str:
        """``3 verified · 1 known erratum``: the replayed examples, nothing when there are none."""
        parts = [f"{self.verified} verified" if self.verified else "",
                 f"{self.errata} known errat{'um' if self.errata == 1 else 'a'}" if self.errata else "",
                 f"{self.failing} failing" if self.failing else ""]
        return " \u00b7 ".join(part for part in parts if part)


@dataclass(frozen=True)
class DeckView:
    deck: Deck
    cards: tuple[Card, ...]
    total: int  # printed cards, copies counted
    size: str


@dataclass(frozen=True)
class SheetView:
    sheet: Sheet
    picture: Picture
    page: bool  # page-sized: shown as laid out on A4, as wide as the page's text
    size: str

    @property
    def alt(self) -> str:
        return f"Sheet: {self.sheet.name}, {self.size}"


@dataclass(frozen=True)
class PageLink:
    id: str
    title: str
    href: str  # from the game's folder


@dataclass
class GameView:
    game: Game
    art: CardArt
    status: CheckStatus
    decks: list[DeckView]
    loose_cards: list[Card]  # cards in no deck (printed on mats and sheets)
    pages: list[PageLink]
    sheets: list[SheetView] = field(default_factory=list)
    pictures: dict[str, Picture] = field(default_factory=dict)  # symbol id -> picture
    rendered: dict[str, RenderedPage] = field(default_factory=dict)  # page id -> page

    @property
    def slug(self) -> str:
        return self.game.slug

    @property
    def players(self) -> str:
        players = self.game.players
        if isinstance(players, Open):
            return "player count open"
        return f"{players} player{'s' if str(players) != '1' else ''}"

    @property
    def card_total(self) -> int:
        return sum(d.total for d in self.decks)

    @property
    def style(self) -> str:
        """The game's own colours for the site's accents."""
        colors = self.game.colors
        accent = colors.get("accent") or next(iter(colors.values()), "")
        return f"--accent: {accent};" if accent else ""

    @property
    def examples(self) -> list[tuple[PageLink, ExampleView]]:
        return [(link, view) for link in self.pages for view in self.rendered[link.id].examples]


def check_status(report: Any) -> CheckStatus:
    examples = list(report.examples) if report is not None else []
    counts = {v: sum(1 for e in examples if e.verdict == v) for v in ("verified", "erratum", "failing")}
    warnings = tuple(report.problems.warnings) if report is not None else ()
    errors = len(report.problems.errors) if report is not None else 0
    if report is None:
        state, label = "unchecked", "Not checked"
    elif errors or counts["failing"]:
        state = "failing"
        label = f"{counts['failing']} failing example{'s' * (counts['failing'] != 1)}" if counts["failing"] else \
            f"{errors} error{'s' * (errors != 1)}"
    elif counts["erratum"]:
        state, label = "errata", "Passes, known errata"
    else:
        state, label = "passing", "All checks pass"
    return CheckStatus(state, label, counts["verified"], counts["erratum"], counts["failing"], warnings)


def _size_label(size: Size) -> str:
    return f"{size.name}, {size.width:g} \u00d7 {size.height:g} mm" if size.name != "custom" \
        else f"{size.width:g} \u00d7 {size.height:g} mm"


def _sheet_view(art: CardArt, sheet: Sheet) -> SheetView:
    page = is_page_sheet(sheet)
    return SheetView(sheet, art.sheet(sheet), page, "full page, shown as printed on A4" if page else _size_label(sheet.size))


def game_view(game: Game, report: Any, fonts: FontBook) -> GameView:
    art = CardArt(game, fonts)
    decks = [DeckView(deck, tuple(game.cards_in(deck.id)), game.deck_total(deck.id), _size_label(deck.size))
             for deck in game.decks.values()]
    pages = [PageLink(page.id, page.title, f"rules/{page.id}.html") for page in game.pages]
    view = GameView(game, art, check_status(report), decks, [c for c in game.cards if c.deck not in game.decks], pages)
    view.sheets = [_sheet_view(art, sheet) for sheet in game.sheets.values()]
    for picture in [*(art.face(card) for card in game.cards), *(art.back(deck) for deck in game.decks.values()),
                    *(sheet.picture for sheet in view.sheets)]:
        view.pictures[picture.symbol_id] = picture
    return view


def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(HTML_TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(card_anchor=card_anchor, sheet_anchor=sheet_anchor)
    env.filters["in_game"] = in_game
    return env


def in_game(loc: Any, game: Game) -> str:
    """A location as ``file:line:col`` relative to the game folder: the site never shows the builder's own paths."""
    path = Path(loc.file)
    try:
        shown = path.resolve().relative_to(game.root).as_posix()
    except ValueError:
        shown = path.name
    return f"{shown}:{loc.line}:{loc.col}"


def _results_by_line(page, examples) -> dict[int, Any]:
    """Each replayed example of the page by its block's fence line (a result's loc is inside the block)."""
    from deckwright.rules.book.pages import fenced_blocks

    out = {}
    blocks = [b for b in fenced_blocks(page.text, page.shown) if b.kind == "example"]
    for result in examples:
        loc = result.loc
        for block in blocks:
            if getattr(loc, "file", None) == page.shown and block.loc.line <= loc.line <= block.end_line:
                out[block.loc.line] = result
    return out


def _copy_assets(folder: Path, fonts: FontBook) -> None:
    """CSS, JavaScript, and every shipped font with its licence; fonts.css declares each face under its
    family, weight and style, the names the card SVGs and the site's CSS use."""
    shutil.copytree(HTML_TEMPLATES / "assets", folder / "assets")
    target = folder / "assets" / "fonts"
    target.mkdir()
    rules = []
    for face in fonts.faces():
        shutil.copyfile(face.path, target / face.path.name)
        rules.append(f'@font-face {{ font-family: "{face.family}"; font-weight: {face.weight}; '
                     f'font-style: {"italic" if face.italic else "normal"}; '
                     f'src: url("fonts/{face.path.name}") format("truetype"); font-display: block; }}\n')
    for licence in sorted(fonts.folder.glob("*/*")):
        if licence.name.upper().startswith(("LICENSE", "OFL")):
            shutil.copyfile(licence, target / f"{licence.parent.name}-{licence.name}")
    (folder / "assets" / "fonts.css").write_text("/* The shipped fonts (templates/fonts/fonts.yaml). */\n" + "".join(rules),
                                                 encoding="utf-8")


class _Writer:
    def __init__(self, folder: Path):
        self.folder = folder
        self.env = _environment()
        self.common = {"papers": PRINT_PAPERS}

    def page(self, template: str, path: str, **context: Any) -> None:
        depth = path.count("/")
        context.setdefault("symbols", [])
        context.setdefault("current_page", None)
        html = self.env.get_template(template).render(root="../" * depth, game_root="../" * max(0, depth - 1),
                                                      here=path, **self.common, **context)
        target = self.folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")


def write_site(games: list[Game], folder: Path, reports: dict[str, Any] | None = None) -> list[str]:
    """Write the whole site into ``folder`` (empty); returns the pages written, relative to it."""
    writer = _Writer(folder)
    partials = writer.env.get_template("_partials.html").module
    fonts = shipped_fonts()
    views = []
    written: list[str] = []
    for game in games:
        report = (reports or {}).get(game.slug)
        view = game_view(game, report, fonts)
        links = Links(gallery="../cards.html")
        for page in game.pages:
            results = _results_by_line(page, report.examples if report is not None else ())
            view.rendered[page.id] = render_page(game, view.art, page, partials, links, results)
        views.append(view)
    _copy_assets(folder, fonts)

    def write(template: str, path: str, **context: Any) -> None:
        writer.page(template, path, **context)
        written.append(path)

    write("index.html", "index.html", games=views)
    for view in views:
        slug = view.slug
        for source, name in sorted(view.art.images.items()):
            (folder / slug / IMAGES).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, folder / slug / IMAGES / name)
        write("game.html", f"{slug}/index.html", view=view, section="overview")
        for number, link in enumerate(view.pages):
            rendered = view.rendered[link.id]
            previous = view.pages[number - 1] if number else None
            following = view.pages[number + 1] if number + 1 < len(view.pages) else None
            write("page.html", f"{slug}/{link.href}", view=view, section="rules", current_page=link.id, link=link, rendered=rendered,
                  previous=previous, following=following,
                  symbols=[view.pictures[f"face-{card_id}"] for card_id in rendered.cards])
        write("gallery.html", f"{slug}/cards.html", view=view, section="cards",
              alts={card.id: view.art.alt(card) for card in view.game.cards},
              symbols=list(view.pictures.values()))
        for paper in PRINT_PAPERS:
            sheets = print_sheets(view.game, view.art, paper)
            used = {slot.symbol_id for sheet in sheets for slot in sheet.slots}
            write("print.html", f"{slug}/print-{paper}.html", view=view, section="print", paper=paper,
                  paper_size=PAPER_SIZES[paper], sheets=sheets,
                  symbols=[p for key, p in view.pictures.items() if key in used])
    return written


def build_site(games: list[Game], target: Path, reports: dict[str, Any] | None = None) -> list[str]:
    """Write the site atomically into ``target``; ``reports`` are check reports by game slug
    (computed here with ``rules.ci.check.check_game`` when not given)."""
    if reports is None:
        from deckwright.rules.ci.check import check_game

        reports = {game.slug: check_game(game.root) for game in games}
    with staged_folder(target) as folder:
        return write_site(games, folder, reports)


def site_step(games: list[Game], target: Path) -> int:
    """``deckwright build``'s last step: the site, or one line per problem and exit status 1."""
    from deckwright.generator.layout.files import LayoutError

    try:
        build_site(games, target)
    except LayoutError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"site: not built: {len(exc.problems)} layout problem(s); earlier output left as it was")
        return 1
    print(f"site: {len(games)} game(s) in {target}/index.html")
    return 0
