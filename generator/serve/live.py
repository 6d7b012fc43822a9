"""One game's site in a folder, rebuilt after each edit by redrawing and rewriting only what changed.

An edit is read whole (loading a game takes milliseconds), then:

- layouts are compiled again only when a layout, icon or font file changed; after a data edit the
  compiled ones are reused (``Faces.for_game``);
- a card, back or sheet is drawn again only when its key changed (``generator.serve.pictures``), and a
  rulebook page's Markdown is converted again only when its text, the cards it shows or its examples'
  results changed;
- every page is filled in, and only the pages whose HTML differs are written and named to the browser.

Replaying the worked examples is the slow part of a check, so it comes second: ``rebuild`` shows the
edit with the examples' last results, then ``recheck`` replays them and rewrites the pages whose
verdicts changed (usually none).

A broken edit (a data, layout or rules-module error) changes nothing on disk: the last good build
stays, and ``Update.errors`` holds the located lines to show over it.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from deckwright.generator.book.links import link_problems
from deckwright.generator.check.output import one_line
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.output import write_whole
from deckwright.generator.site import game_pages
from deckwright.generator.site.build import (
    GameView,
    _Writer,
    copy_assets,
    game_page_makers,
    game_view,
    index_page,
    results_by_line,
)
from deckwright.generator.site.cards import IMAGES
from deckwright.generator.site.fonts import write_game_fonts
from deckwright.generator.site.pages import Links, page_pictures, render_page
from deckwright.generator.site.readings import reading_views
from deckwright.rules.book.pages import REF_PATTERN
from deckwright.rules.book.tables import page_tables
from deckwright.rules.ci.check import GameReport, check_loaded
from deckwright.rules.data.confine import MAX_IMAGE_BYTES, read_confined
from deckwright.rules.data.model import Game
from deckwright.rules.load import load_game_with_warnings
from deckwright.rules.problems import Problem, Problems

from .patches import patch
from .pictures import CachedArt, PictureCache, canonical, referred


@dataclass(frozen=True)
class Update:
    """What one rebuild did: the pages it rewrote (paths in the site), or the errors that stopped it."""

    version: int
    changed: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()  # as the terminal shows them (paths as `deckwright check` prints them)
    redrawn: int = 0  # pictures drawn, not taken from the cache
    seconds: float = 0.0
    examples: bool = False  # the examples were replayed for this update
    # page -> {"from": the version it patches, "units": element id -> new HTML}, or None: fetch the page
    patches: dict[str, dict | None] = field(default_factory=dict)
    shown_errors: tuple[str, ...] = ()  # as the browser shows them: paths relative to the game folder
    # the worked examples that fail, as `deckwright check` prints them, when they were replayed for this update:
    # the build goes on (their pages show the failure) but the terminal says so too
    failing: tuple[str, ...] = ()
    shown_failing: tuple[str, ...] = ()  # the examples failing as the browser shows them, whenever last replayed


@dataclass
class LiveSite:
    """The site of the game in ``game_folder``, kept in ``folder``."""

    game_folder: Path
    folder: Path
    run_code: bool = True  # False: the game folder's own rules module is never imported (--no-code)
    version: int = 0
    pages: dict[str, str] = field(default_factory=dict)  # path -> HTML as last written
    page_versions: dict[str, int] = field(default_factory=dict)  # path -> version that last rewrote it
    errors: tuple[str, ...] = ()
    shown_errors: tuple[str, ...] = ()
    shown_failing: tuple[str, ...] = ()  # the worked examples failing when last replayed, as the browser shows them
    slug: str = ""

    def __post_init__(self):
        self.writer = _Writer()
        self.cache = PictureCache()
        self.rendered: dict[str, tuple[Any, Any]] = {}  # page id -> (key, RenderedPage)
        self.faces: Faces | None = None
        self.game: Game | None = None
        self.examples: list = []  # the last replayed results
        self.examples_current = False  # ... and whether they were replayed for self.game
        self.assets_copied = False
        self.layouts_stale = False  # a layout file changed since the last good build
        self.pending: dict = {}  # path -> what renders it: pages left for ``finish``
        self.deferred = False  # the last rebuild kept pictures that changed only through other cards
        self.report: GameReport | None = None
        self.pictures_read: dict = {}  # the rulebook's pictures as last checked: only changed ones are read again

    def rebuild(self, layouts_changed: bool = True, examples: bool = False, urgent: set[str] | None = None) -> Update:
        """Read the game again and bring the site up to date. ``layouts_changed`` compiles layouts afresh;
        ``examples`` replays the worked examples now (else their last results show until ``recheck``);
        ``urgent`` names the pages browsers show: only those are rendered now, and pictures that changed only
        through other cards keep their last version; ``finish`` does the rest."""
        start = time.perf_counter()
        self.version += 1
        self.layouts_stale |= layouts_changed  # until a build with them succeeds, they are compiled afresh
        game, problems = load_game_with_warnings(self.game_folder, run_code=self.run_code,
                                                 pictures=self.pictures_read)
        if game is None:
            return self._failed([p for p in problems.sorted() if p.severity == "error"], start)
        try:
            fresh = self.layouts_stale or self.faces is None or game.slug != self.slug
            faces = Faces(game) if fresh else self.faces.for_game(game)  # the game's fonts read afresh too
            report = check_loaded(self.game_folder, game, problems, examples=examples)
            if not report.problems.errors:  # as check and build do
                report.problems.extend(link_problems(game, game_pages(game)))
            if report.problems.errors:
                return self._failed(report.problems.errors, start)
            if not examples:
                report.examples = list(self.examples)
            if fresh:
                self.cache.clear()
                self.rendered.clear()
            return self._publish(game, faces, report, start, examples, urgent)
        except LayoutError as exc:
            return self._failed(exc.problems, start)

    def _publish(self, game: Game, faces: Faces, report: GameReport, start: float, examples: bool,
                 urgent: set[str] | None) -> Update:
        """Draw what changed and write the pages that did: the ``urgent`` ones now (None: all of them)."""
        art = CachedArt(game, faces, self.cache, defer=bool(urgent))
        view = game_view(game, report, faces.fonts, art=art)
        self._render_rule_pages(view, report)
        view.readings = _Readings(lambda: reading_views(game, view.pages, view.examples), len(game.readings))
        makers = {"index.html": lambda: index_page(self.writer, {view.slug: str(self.writer.partials.game_tile(view))}),
                  **game_page_makers(self.writer, view)}
        now = {path: make() for path, make in makers.items() if not urgent or path in urgent}
        fonts_changed = self.faces is None or faces.fonts is not self.faces.fonts
        self.faces, self.game, self.slug, self.errors, self.shown_errors = faces, game, game.slug, (), ()
        self.report, self.examples, self.layouts_stale = report, report.examples, False
        self.examples_current = examples
        self.pending = {path: make for path, make in makers.items() if path not in now}
        self.deferred = bool(art.deferred)
        if not self.assets_copied:
            copy_assets(self.folder, shipped_fonts())
            self.assets_copied = True
        if fonts_changed:
            write_game_fonts(faces.fonts, self.folder / game.slug)
        self._copy_images(view)
        changed, patches = self._write(now, set(makers))
        failing = [example for example in report.examples if example.verdict == "failing"]
        if examples:
            self.shown_failing = tuple(self._in_game(example.loc, f"{example.name}: failing: {example.message}")
                                       for example in failing)
        return Update(self.version, changed, (), len(art.drawn), time.perf_counter() - start, examples, patches,
                      failing=tuple(one_line(example) for example in failing) if examples else (),
                      shown_failing=self.shown_failing)

    def finish(self, interrupted: Callable[[], bool] = lambda: False) -> Update | None:
        """Draw the pictures the last rebuild deferred and render the pages it left for later, stopping early when
        ``interrupted()`` (a newer edit is waiting); an update when a page changed."""
        start = time.perf_counter()
        try:
            if self.deferred and self.game is not None:
                update = self._publish(self.game, self.faces, self.report, start, self.examples_current, None)
                return update if update.changed else None
            pages = {}
            while self.pending and not interrupted():
                path, make = next(iter(self.pending.items()))
                pages[path] = make()
                del self.pending[path]
        except LayoutError as exc:
            self.pending, self.deferred = {}, False
            return self._failed(exc.problems, start)
        changed, patches = self._write(pages, set(self.pages) | set(pages) | set(self.pending))
        return Update(self.version, changed, (), 0, time.perf_counter() - start, patches=patches,
                      shown_failing=self.shown_failing) if changed else None

    def recheck(self, urgent: set[str] | None = None) -> Update | None:
        """Replay the examples of the game last built; when a result changed, the pages brought up to date (the
        ``urgent`` ones, the rest left for ``finish``), else None."""
        if self.game is None or self.examples_current:
            return None
        start = time.perf_counter()
        report = check_loaded(self.game_folder, self.game, Problems())
        self.examples_current = True
        if [canonical(e) for e in report.examples] == [canonical(e) for e in self.examples]:
            return None
        self.version += 1
        try:
            return self._publish(self.game, self.faces, report, start, True, urgent)
        except LayoutError as exc:
            return self._failed(exc.problems, start)

    # -- pieces ------------------------------------------------------------------------

    def _render_rule_pages(self, view: GameView, report: GameReport) -> None:
        """Each rulebook page's Markdown converted when a page needs it, and again only when what it shows
        changed."""
        game = view.game
        links = Links("../cards.html", view.gallery.card_files, view.gallery.section_files)
        by_id = {card.id: card for card in game.cards}
        pages = {page.id: page for page in game.pages}

        def convert(page_id: str):
            page = pages[page_id]
            results = results_by_line(page, report.examples)
            shown = {match.group(2) for match in REF_PATTERN.finditer(page.text) if not match.group(1)}
            shown |= {card.id for table in page_tables(page, game).values() for card in table.cards}
            shown |= {ident for card_id in list(shown) if card_id in by_id for ident in referred(by_id[card_id].fields)}
            key = (page.text, page.pictures, canonical(game.constants),
                   tuple(canonical(by_id.get(i)) for i in sorted(shown)),
                   tuple((line, canonical(result)) for line, result in sorted(results.items())))
            known = self.rendered.get(page_id)
            if known is None or known[0] != key:
                known = self.rendered[page_id] = (key, render_page(game, view.art, page, self.writer.partials, links,
                                                                   results))
            return known[1]

        view.rendered = _OnDemand(convert)

    def _copy_images(self, view: GameView) -> None:
        """Card art and the rulebook pages' pictures into ``<game>/images/``: only files new or changed since the
        last copy (names hold a digest)."""
        for source, name in sorted({*view.art.images.items(), *page_pictures(view.game).items()}):
            target = self.folder / view.slug / IMAGES / name
            if not target.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(read_confined(view.game.root, source, MAX_IMAGE_BYTES))  # through the gate

    def _write(self, pages: dict[str, str], all_paths: set[str]) -> tuple[tuple[str, ...], dict]:
        """Write the pages whose HTML changed, each with its patch from the version before; remove the pages
        no longer in the site (a page left game.yaml)."""
        changed = tuple(path for path, html in pages.items() if self.pages.get(path) != html)
        patches = {}
        for path in changed:
            _write_atomically(self.folder / path, pages[path])
            units = patch(self.pages[path], pages[path]) if path in self.pages else None
            patches[path] = {"from": self.page_versions[path], "units": units} if units is not None else None
            self.page_versions[path] = self.version
            self.pages[path] = pages[path]
        for gone in set(self.pages) - all_paths:
            (self.folder / gone).unlink(missing_ok=True)
            self.page_versions.pop(gone, None)
            del self.pages[gone]
        return changed, patches

    def _failed(self, problems: list[Problem], start: float) -> Update:
        self.errors = tuple(str(p) for p in problems) or ("the game could not be read",)
        self.shown_errors = tuple(self._in_game(p.loc, p.message, p.severity) for p in problems) or self.errors
        return Update(self.version, (), self.errors, 0, time.perf_counter() - start, shown_errors=self.shown_errors)

    def unforeseen(self, message: str) -> Update:
        """An update showing an error no file is to blame for."""
        self.errors = self.shown_errors = (message,)
        return Update(self.version, (), self.errors, shown_errors=self.shown_errors)

    def _in_game(self, loc, message: str, severity: str = "error") -> str:
        """A located line as the browser shows it: its file relative to the game folder."""
        try:
            shown = Path(loc.file).resolve().relative_to(self.game_folder.resolve()).as_posix()
        except (OSError, ValueError):
            shown = loc.file
        return str(Problem(replace(loc, file=shown), message, severity))


class _Readings(Sequence):
    """The readings register's views, made when a page shows more of them than their number (the sidebar of
    every page shows that; making them converts every rulebook page, for their examples)."""

    def __init__(self, make, count: int):
        self.make, self.count, self.made = make, count, None

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):
        if self.made is None:
            self.made = self.make()
        return self.made[index]


class _OnDemand(dict):
    """A mapping whose values are made when first looked up."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


def _write_atomically(path: Path, text: str) -> None:
    """A browser reloading mid-write must never see half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, text.encode("utf-8"))
