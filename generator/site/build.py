"""Write the site: an index of every game, and per game its rulebook pages, card gallery and printables.

Layout of the output (every link relative, so it works from disk and from any static host)::

    index.html                      all games
    assets/                         CSS, JavaScript, fonts and their licences
    <game>/index.html               overview: check status, decks, examples, open questions
    <game>/rules/<page>.html        rulebook pages
    <game>/cards.html               card gallery, then the sheets and templates (a big game's continues on
                                    cards-2.html...: site/paging.py)
    <game>/readings.html            the readings register: where the source is unclear or contradicts itself
    <game>/odds.html                exact odds tables, when the game's rules module has an ``odds`` hook
    <game>/balance.html             the last `deckwright simulate` of the game, when there is one (balance.py)
    <game>/print-a4.html, print-letter.html   printable cards at their real size (a big game's in parts:
                                    print-a4-2.html...)
    <game>/tts/                     a copy of the game's Tabletop Simulator export, when the build wrote one
    <game>/rulebook.pdf, rulebook-booklet.pdf   the printable rulebook, when the build wrote it
"""
from __future__ import annotations

import functools
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from markupsafe import Markup

from deckwright.generator import TEMPLATES
from deckwright.generator.book.examples import ExampleView, results_by_line
from deckwright.generator.book.locations import in_game
from deckwright.generator.layout.fonts import FontBook, game_fonts, shipped_fonts
from deckwright.generator.layout.paper import PAPER_SIZES, is_page_sheet
from deckwright.generator.output import link_or_copy, staged_folder
from deckwright.rules.data.confine import MAX_IMAGE_BYTES, read_confined
from deckwright.rules.data.model import Card, Deck, Game, Sheet, Size, readings_summary
from deckwright.rules.data.values import Open

from .balance import BalanceView, balance_view
from .cards import IMAGES, CardArt, Picture, back_symbol_id, card_anchor, face_symbol_id, sheet_anchor
from .figures import card_figure, card_svg
from .fonts import write_game_fonts
from .odds import OddsPage, odds_page
from .pages import Links, RenderedPage, page_pictures, render_page
from .paging import LOOSE, Gallery, PrintPart, page_file, pager, plan_gallery, plan_print
from .readings import ReadingView, reading_anchor, reading_views, readings_on_page
from .search import GALLERY_INDEX, gallery_index, gallery_index_pieces
from .sheets import print_sheets, sheet_html
from .spool import Spool

HTML_TEMPLATES = TEMPLATES / "html"
Page = str | Iterable[str]  # a page's text, or its pieces in order
INDEX_TILE = ".index-tile"  # a game's entry on the index page (an HTML fragment), kept with its pages
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
class Download:
    """A printable rulebook the site offers: its file (beside the game's pages) and what it is."""

    href: str  # from the game's folder
    label: str
    detail: str


DOWNLOAD_LABELS = {  # file name -> (label, detail); the paper is the build's
    "rulebook.pdf": ("Rulebook", "full pages, with links and bookmarks"),
    "rulebook-booklet.pdf": ("Rulebook booklet", "half-size pages, two to a sheet: print double-sided, "
                                                 "flip on the short edge, fold and staple"),
}


@dataclass(frozen=True)
class PageLink:
    id: str
    title: str
    href: str  # from the game's folder


@dataclass(frozen=True)
class Failure:
    """A problem that failed the build, shown in the banner of a game built with ``--force``."""

    where: str  # file:line:col in the game folder
    message: str
    href: str = ""  # from the game's folder: the failing example's block


def failure_views(view: "GameView", failures) -> list[Failure]:
    """The build's failures (located problems), a failing example's linked to its block on its page."""
    blocks = {ex.loc: f"{link.href}#{ex.anchor}" for link, ex in view.examples if ex.verdict == "failing"}
    out = []
    for problem in failures:
        where = in_game(problem.loc, view.game)
        message = problem.message
        for root in {str(view.game.root), str(view.game.root.resolve())}:  # never the builder's own paths
            message = message.replace(root + "/", "")
        out.append(Failure(where, message, blocks.get(str(problem.loc), "")))
    return out


@dataclass
class GameView:
    game: Game
    art: CardArt
    status: CheckStatus
    decks: list[DeckView]
    loose_cards: list[Card]  # cards in no deck (printed on mats and sheets)
    pages: list[PageLink]
    sheets: list[SheetView] = field(default_factory=list)
    downloads: list[Download] = field(default_factory=list)
    pictures: dict[str, Picture] = field(default_factory=dict)  # symbol id -> picture
    rendered: dict[str, RenderedPage] = field(default_factory=dict)  # page id -> page
    readings: list[ReadingView] = field(default_factory=list)
    odds: OddsPage | None = None  # the rules' exact odds tables; None without an ``odds`` hook
    balance: BalanceView | None = None  # the last simulation's figures (site/balance.py)
    failures: list[Failure] = field(default_factory=list)  # what failed the build (built with --force)
    gallery: Gallery | None = None  # the gallery's pages and which card is on which (site/paging.py)
    card_types: list = field(default_factory=list)  # the card types that have cards, for the gallery's filter
    _order: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)  # of pictures

    def pictures_of(self, used: set[str], own: dict[str, Picture] | None = None) -> list[Picture]:
        """The pictures a page shows (``used``: their symbol ids) in the order of ``pictures``, then those of
        ``own``, pictures the page brings itself (which take the place of a game's picture of the same id).
        Looked up, not sought among the game's: a page of a 20,000-card game shows a hundred of them."""
        own = own or {}
        if len(self._order) != len(self.pictures):
            self._order = {key: index for index, key in enumerate(self.pictures)}
        shown = sorted((key for key in used if key in self._order), key=self._order.__getitem__)
        shown += [key for key in own if key in used and key not in self._order]
        return [own[key] if key in own else self.pictures[key] for key in shown]

    @property
    def readings_summary(self) -> str:
        return readings_summary(self.game.readings)

    @property
    def slug(self) -> str:
        return self.game.slug

    @property
    def fonts(self) -> FontBook:
        return self.art.faces.fonts

    @property
    def own_fonts(self) -> bool:
        """Whether the game brings fonts of its own: its pages then link ``<game>/fonts/fonts.css``."""
        return bool(self.fonts.game_files)

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


def check_status(report: Any, build_failures: int = 0) -> CheckStatus:
    """The game's status from its check report; ``build_failures``: problems that failed a forced build."""
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
    elif build_failures:
        state, label = "failing", f"{build_failures} build failure{'s' * (build_failures != 1)}"
    elif counts["erratum"]:
        state, label = "errata", "Passes, known errata"
    else:
        state, label = "passing", "All checks pass"
    return CheckStatus(state, label, counts["verified"], counts["erratum"], counts["failing"], warnings)


def _size_label(size: Size) -> str:
    if size.shape != "rect":  # "round 25 mm", "hex 40 mm across flats, flat top"
        return str(size)
    corners = f", corners rounded {size.radius:g} mm" if size.radius else ""
    return (f"{size.name}, {size.width:g} \u00d7 {size.height:g} mm" if size.name != "custom"
            else f"{size.width:g} \u00d7 {size.height:g} mm") + corners


def _sheet_view(art: CardArt, sheet: Sheet) -> SheetView:
    page = is_page_sheet(sheet)
    return SheetView(sheet, art.sheet(sheet), page, "full page, shown as printed on A4" if page else _size_label(sheet.size))


def game_view(game: Game, report: Any, fonts: FontBook, art: CardArt | None = None) -> GameView:
    """What the site shows of a game; ``art`` may be given to reuse pictures already drawn (``deckwright serve``)."""
    art = art or CardArt(game, fonts)
    decks = [DeckView(deck, tuple(game.cards_in(deck.id)), game.deck_total(deck.id), _size_label(deck.size))
             for deck in game.decks.values()]
    pages = [PageLink(page.id, page.title, f"rules/{page.id}.html") for page in game.pages]
    view = GameView(game, art, check_status(report), decks, [c for c in game.cards if c.deck not in game.decks], pages)
    view.sheets = [_sheet_view(art, sheet) for sheet in game.sheets.values()]
    view.odds = odds_page(game)
    for picture in [*(art.face(card) for card in game.cards), *(art.back(deck) for deck in game.decks.values()),
                    *(sheet.picture for sheet in view.sheets)]:
        view.pictures[picture.symbol_id] = picture
    sections = [(deck.deck.id, deck.cards) for deck in decks] + ([(LOOSE, view.loose_cards)] if view.loose_cards else [])
    typed = {card.type for card in game.cards}
    view.card_types = [card_type for card_type in game.card_types.values() if card_type.id in typed]
    view.gallery = plan_gallery(sections, lambda card: view.pictures[face_symbol_id(card.id)].length,
                                (len(view.sheets), sum(sheet.picture.length for sheet in view.sheets)))
    return view


def _environment():
    import jinja2

    from .template_cache import template_cache

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(HTML_TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(card_anchor=card_anchor, sheet_anchor=sheet_anchor, reading_anchor=reading_anchor,
                       sheet_html=sheet_html, card_svg=card_svg, card_figure=card_figure)
    env.filters["in_game"] = in_game
    env.filters["thousands"] = "{:,}".format  # 20,000 cards, as the rest of deckwright writes a count
    env.bytecode_cache = template_cache(env)
    return env


def copy_assets(folder: Path, fonts: FontBook) -> None:
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
    def __init__(self):
        self.env = _environment()
        self.common = {"papers": PRINT_PAPERS}
        self.partials = self.env.get_template("_partials.html").module

    def render(self, template: str, path: str, **context: Any) -> str:
        return "".join(self.pieces(template, path, **context))

    def pieces(self, template: str, path: str, **context: Any) -> Iterator[str]:
        """The page's text as the template makes it, piece by piece (``render`` joins them): written as they
        come, a big page's text is never held whole."""
        depth = path.count("/")
        context.setdefault("symbols", [])
        context.setdefault("current_page", None)
        return self.env.get_template(template).generate(root="../" * depth, game_root="../" * max(0, depth - 1),
                                                        here=path, **self.common, **context)


def render_rule_pages(view: GameView, report: Any, partials: Any) -> None:
    """Every rulebook page of the game as HTML, into ``view.rendered``."""
    game = view.game
    links = Links("../cards.html", view.gallery.card_files, view.gallery.section_files)
    for page in game.pages:
        results = results_by_line(page, report.examples if report is not None else ())
        view.rendered[page.id] = render_page(game, view.art, page, partials, links, results)


def game_page_makers(writer: _Writer, view: GameView, saved_objects: tuple[SavedObject, ...] = (),
                     streamed: bool = False) -> dict[str, Callable[[], Page]]:
    """Every page of one game: its path in the site -> what renders its HTML (its rulebook pages converted
    into ``view.rendered`` by then). ``deckwright serve`` renders the pages a browser shows first.
    ``saved_objects``: the game's Tabletop Simulator export, offered on its print pages. ``streamed``: each
    page is made in pieces as it is written (see write_pages), not as one text."""
    slug = view.slug
    makers: dict[str, Callable[[], Page]] = {}
    render = writer.pieces if streamed else writer.render

    def add(template: str, path: str, **context: Any) -> None:
        makers[path] = lambda: render(template, path, **context)

    def render_print(paper: str, sheets: list, part: int = 1, parts: tuple[PrintPart, ...] = ()) -> Page:
        used = {slot.symbol_id for sheet in sheets for slot in sheet.slots}
        own = {p.symbol_id: p for sheet in sheets for p in sheet.pictures}
        return render("print.html", f"{slug}/{page_file(f'print-{paper}', part)}", view=view, section="print",
                             paper=paper, paper_size=PAPER_SIZES[paper], sheets=sheets, saved_objects=saved_objects,
                             symbols=view.pictures_of(used, own), part=part, parts=parts,
                             parts_shown=[None if number is None else parts[number - 1]
                                          for number in pager(len(parts), part)])

    def add_print(paper: str) -> None:
        makers[f"{slug}/print-{paper}.html"] = lambda: render_print(paper, print_sheets(view.game, view.art, paper))

    held: dict[str, list[tuple[PrintPart, list]]] = {}  # one paper's parts at a time, while its pages are written

    def planned_print(paper: str) -> list[tuple[PrintPart, list]]:
        if paper not in held:
            held.clear()  # before planning the next: two papers' slots together are the worker's peak
            held[paper] = plan_print(print_sheets(view.game, view.art, paper), view.pictures, f"print-{paper}")
        return held[paper]

    def add_print_parts(paper: str) -> None:
        """A big game's printable cards, in parts (planned now, as their number names the files, and again as
        they are written)."""
        parts = tuple(part for part, _ in planned_print(paper))
        for part in parts:
            makers[f"{slug}/{part.file}"] = functools.partial(render_part, paper, part.number, parts)

    def render_part(paper: str, number: int, parts: tuple[PrintPart, ...]) -> Page:
        return render_print(paper, planned_print(paper)[number - 1][1], number, parts)

    def add_rule_page(number: int, link: PageLink) -> None:
        def make() -> Page:
            rendered = view.rendered[link.id]
            previous = view.pages[number - 1] if number else None
            following = view.pages[number + 1] if number + 1 < len(view.pages) else None
            return render("page.html", f"{slug}/{link.href}", view=view, section="rules",
                                 current_page=link.id, link=link, rendered=rendered, previous=previous,
                                 following=following, page_readings=readings_on_page(view.readings, link.id),
                                 symbols=[view.pictures[f"face-{card_id}"] for card_id in rendered.cards])
        makers[f"{slug}/{link.href}"] = make

    add("game.html", f"{slug}/index.html", view=view, section="overview")
    for number, link in enumerate(view.pages):
        add_rule_page(number, link)
    if view.readings:  # a register is the designer's record of the source's unclear places: only when kept
        add("readings.html", f"{slug}/readings.html", view=view, section="readings")
    if view.odds is not None:
        add("odds.html", f"{slug}/odds.html", view=view, section="odds")
    if view.balance is not None:
        add("balance.html", f"{slug}/balance.html", view=view, section="balance")
    alts = {card.id: view.art.alt(card) for card in view.game.cards}
    gallery = view.gallery
    for page in gallery.pages:
        makers[f"{slug}/{page.file}"] = functools.partial(
            render, "gallery.html", f"{slug}/{page.file}", view=view, section="cards", alts=alts, page=page,
            symbols=gallery_symbols(view, page) if gallery.paged else list(view.pictures.values()))
    if gallery.paged:
        index = gallery_index_pieces if streamed else gallery_index
        makers[f"{slug}/{GALLERY_INDEX}"] = lambda: index(view.game, gallery, alts)
    for paper in PRINT_PAPERS:
        (add_print_parts if gallery.paged else add_print)(paper)
    return makers


def gallery_symbols(view: GameView, page: Any) -> list[Picture]:
    """The pictures one page of a big gallery shows: its cards' faces, their decks' backs, the sheets on the last."""
    used = {face_symbol_id(card.id) for cards in page.sections.values() for card in cards}
    used |= {back_symbol_id(deck_id) for deck_id in page.sections}
    if page.sheets:
        used |= {sheet.picture.symbol_id for sheet in view.sheets}
    return view.pictures_of(used)


def game_pages(writer: _Writer, view: GameView, saved_objects: tuple[SavedObject, ...] = ()) -> dict[str, str]:
    """Every page of one game (path in the site -> HTML); its rulebook pages already rendered."""
    return {path: make() for path, make in game_page_makers(writer, view, saved_objects).items()}


def index_page(writer: _Writer, tiles: dict[str, str]) -> str:
    """The site's index: each game's tile (an HTML fragment rendered from its view), by slug."""
    return writer.render("index.html", "index.html", tiles=[Markup(tiles[slug]) for slug in sorted(tiles)])


def copy_images(view: GameView, folder: Path) -> None:
    """The card art the game's pictures link to, and the rulebook pages' pictures, into ``<game>/images/``."""
    for source, name in sorted({*view.art.images.items(), *page_pictures(view.game).items()}):
        (folder / view.slug / IMAGES).mkdir(parents=True, exist_ok=True)
        (folder / view.slug / IMAGES / name).write_bytes(read_confined(view.game.root, source, MAX_IMAGE_BYTES))


def write_pages(folder: Path, pages: dict[str, Page]) -> None:
    """Each page's text, or its pieces in turn, into its file under ``folder``."""
    for path, text in pages.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("w", encoding="utf-8") as file:
            file.writelines((text,) if isinstance(text, str) else _batched(text))


def _batched(pieces: Iterable[str], size: int = 1 << 16) -> Iterator[str]:
    """The pieces joined into texts of about ``size`` characters (a 5,000-card site's pieces written one by one
    spent 3.4 s of its 113 s profile in the writes)."""
    batch: list[str] = []
    length = 0
    for piece in pieces:
        batch.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(batch)
            batch, length = [], 0
    yield "".join(batch)


@dataclass(frozen=True)
class SavedObject:
    """A Tabletop Simulator saved object offered for download on the print page."""

    label: str
    href: str  # relative to the game's pages


def copy_tabletop(source: Path, target: Path, game: Game) -> tuple[SavedObject, ...]:
    """A game's Tabletop Simulator export copied beside its pages; its saved objects: the whole table, then
    the decks and the sheets in the game's order."""
    shutil.copytree(source, target, copy_function=link_or_copy)
    order = [game.slug, *(f"deck-{d}" for d in game.decks), *(f"sheet-{s}" for s in game.sheets)]
    found = []
    def place(path: Path) -> tuple[int, str]:
        return (order.index(path.stem) if path.stem in order else len(order), path.name)

    for path in sorted(target.glob("*.json"), key=place):
        name = str(json.loads(path.read_text(encoding="utf-8")).get("SaveName", path.stem))
        label = "Everything on the table" if name == game.title else name.removeprefix(f"{game.title}: ")
        found.append(SavedObject(label, f"{target.name}/{path.name}"))
    return tuple(found)


def _copy_downloads(view: GameView, files: list[Path], folder: Path) -> None:
    for source in files:
        label, detail = DOWNLOAD_LABELS.get(source.name, (source.stem, ""))
        target = folder / view.slug / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        view.downloads.append(Download(source.name, label, detail))


def keep_other_games(old_site: Path, folder: Path, rebuilt: set[str]) -> dict[str, str]:
    """The pages of games an earlier build put in ``old_site`` and this one does not rebuild, copied into
    ``folder``; returns their index tiles by slug. (``old_site`` is deckwright's: generator.output checked it.)"""
    kept = {}
    if not old_site.is_dir():
        return kept
    for game_folder in sorted(old_site.iterdir()):
        tile = game_folder / INDEX_TILE
        if game_folder.name in rebuilt or game_folder.is_symlink() or not tile.is_file() or tile.is_symlink():
            continue
        shutil.copytree(game_folder, folder / game_folder.name, symlinks=True)
        kept[game_folder.name] = tile.read_text(encoding="utf-8").rstrip("\n")
    return kept


def write_site(games: list[Game], folder: Path, reports: dict[str, Any] | None = None,
               downloads: dict[str, list[Path]] | None = None, tabletop: dict[str, Path] | None = None,
               keep_from: Path | None = None, balances: dict[str, dict] | None = None,
               failures: dict[str, list] | None = None, faces: dict[str, Any] | None = None) -> list[str]:
    """Write the whole site into ``folder`` (empty); returns the pages written, relative to it.
    ``downloads`` are files (the rulebook PDFs) to offer on each game's pages, by game slug; ``tabletop`` names
    the folders of the games' Tabletop Simulator exports, which the site copies and links; ``keep_from``: an
    earlier site whose other games stay listed and published (see keep_other_games); ``balances``: each game's
    last simulation (site/balance.py), by slug, for its Balance page; ``failures``: by game slug,
    the located problems that failed a build made with ``--force``, shown in a banner on the game's pages;
    ``faces``: by game slug, the layouts the build compiled (generator.layout.faces.Faces), drawn with again."""
    writer = _Writer()
    views = []
    spool = Spool()  # the pictures' markup, out of memory until the pages that show them are written
    for game in games:
        report = (reports or {}).get(game.slug)
        compiled = (faces or {}).get(game.slug)
        fonts = compiled.fonts if compiled is not None else game_fonts(game.root)
        view = game_view(game, report, fonts, CardArt(game, fonts, compiled, spool))
        render_rule_pages(view, report, writer.partials)
        view.readings = reading_views(game, view.pages, view.examples, view.gallery.card_href)
        if (balances or {}).get(game.slug):
            view.balance = balance_view(balances[game.slug])
        view.failures = failure_views(view, (failures or {}).get(game.slug, ()))
        if view.failures:
            view.status = check_status(report, len(view.failures))
        views.append(view)
    copy_assets(folder, shipped_fonts())
    tiles = {view.slug: str(writer.partials.game_tile(view)) for view in views}
    for slug, tile in tiles.items():
        (folder / slug).mkdir(parents=True, exist_ok=True)
        (folder / slug / INDEX_TILE).write_text(tile + "\n", encoding="utf-8")
    if keep_from is not None:
        tiles.update(keep_other_games(keep_from, folder, set(tiles)))
    pages = ["index.html"]
    write_pages(folder, {"index.html": index_page(writer, tiles)})
    for view in views:
        copy_images(view, folder)
        write_game_fonts(view.fonts, folder / view.slug)
        _copy_downloads(view, (downloads or {}).get(view.slug, []), folder)
        exported = (tabletop or {}).get(view.slug)
        saved_objects = copy_tabletop(exported, folder / view.slug / "tts", view.game) if exported else ()
        # written as made: a big game's pages together would hold tens of MB
        for path, make in game_page_makers(writer, view, saved_objects, streamed=True).items():
            write_pages(folder, {path: make()})
            pages.append(path)
    return pages


def build_site(games: list[Game], target: Path, reports: dict[str, Any] | None = None,
               downloads: dict[str, list[Path]] | None = None, tabletop: dict[str, Path] | None = None,
               lock=None, balances: dict[str, dict] | None = None, failures: dict[str, list] | None = None,
               faces: dict[str, Any] | None = None) -> list[str]:
    """Write the site atomically into ``target``; ``reports`` are check reports by game slug
    (computed here with ``rules.ci.check.check_game`` when not given); ``lock``: see generator.output."""
    if reports is None:
        from deckwright.rules.ci.check import check_game

        reports = {game.slug: check_game(game.root, run_code=game.run_code) for game in games}
    with staged_folder(target, lock=lock) as folder:
        return write_site(games, folder, reports, downloads, tabletop, keep_from=target, balances=balances,
                          failures=failures, faces=faces)


def site_step(games: list[Game], target: Path, reports: dict[str, Any] | None = None,
              downloads: dict[str, list[Path]] | None = None, tabletop: dict[str, Path] | None = None,
              lock=None, balances: dict[str, dict] | None = None, failures: dict[str, list] | None = None,
              faces: dict[str, Any] | None = None) -> int:
    """``deckwright build``'s last step: the site, or one line per problem and exit status 1 (``balances``,
    ``failures`` and ``faces``: see write_site)."""
    from deckwright.generator.layout.files import LayoutError

    try:
        build_site(games, target, reports, downloads, tabletop, lock, balances, failures, faces)
    except LayoutError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"site: not built: {len(exc.problems)} layout problem(s); earlier output left as it was")
        return 1
    from .summary import site_line

    print(site_line(len(games), target))
    return 0

