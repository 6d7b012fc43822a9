"""The HTML site, driven in a real headless Chromium (the system one from Debian's ``chromium`` package).

The site is built once from the made-up ``site-demo`` fixture (two card sizes,
copies, an open value, card text holding ``<script>``) and every bundled game.
The fixture has no rules module, so its check report is made here: one example
verified, one a known erratum, which shows both badges.
"""
from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest

from deckwright.generator import BUNDLED_GAMES, PROJECT_ROOT
from deckwright.generator.layout.paper import is_page_sheet
from deckwright.generator.site import build_site
from deckwright.generator.site import pages as site_pages
from deckwright.rules.book.examples import ExampleResult
from deckwright.rules.ci.check import GameReport, check_game
from deckwright.rules.load import bundled_games, load_game
from deckwright.rules.problems import Loc, Problems

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"
SCREENSHOTS = PROJECT_ROOT / "output" / "screenshots"
PX_PER_MM = 96 / 25.4

needs_chromium = pytest.mark.usefixtures("chromium")  # skipped without Chromium, failing when CI is set (conftest.py)


def fixture_report(game) -> GameReport:
    page = next(p for p in game.pages if p.id == "play")
    lines = page.text.splitlines()
    name_lines = [n for n, line in enumerate(lines, start=1) if line.startswith("name: ")]
    examples = [
        ExampleResult(game.slug, "A moth bites the scout", Loc(page.shown, name_lines[0], 7), "verified", "",
                      ("shuffle: monsters: Giant Moth on top", "roll: D4 rolls 3",
                       "attack: Giant Moth bites the Scout for 3", "health: Scout 8 -> 5")),
        ExampleResult(game.slug, "The warden shrugs it off", Loc(page.shown, name_lines[1], 7), "erratum",
                      "the made-up source forgets to subtract the bite (hero.health: expected 12, got 8)",
                      ("roll: D4 rolls 4", "attack: Giant Moth bites the Warden for 4", "health: Warden 12 -> 8")),
    ]
    return GameReport(game.root, game, Problems(), examples)


@pytest.fixture(scope="module")
def games():
    return [load_game(FIXTURE), *(load_game(folder) for folder in bundled_games(BUNDLED_GAMES))]


@pytest.fixture(scope="module")
def site(tmp_path_factory, games) -> Path:
    folder = tmp_path_factory.mktemp("out") / "site"
    reports = {game.slug: check_game(game.root) for game in games[1:]}
    reports["site-demo"] = fixture_report(games[0])
    build_site(games, folder, reports)
    return folder


def html_pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))


# -- without a browser -------------------------------------------------------------


def test_site_has_every_page_type(site, games):
    pages = html_pages(site)
    assert "index.html" in pages
    for game in games:
        for name in ("index.html", "cards.html", "print-a4.html", "print-letter.html"):
            assert f"{game.slug}/{name}" in pages
        assert (f"{game.slug}/readings.html" in pages) == bool(game.readings)
        for page in game.pages:
            assert f"{game.slug}/rules/{page.id}.html" in pages
    assert (site / "assets" / "fonts" / "Vollkorn-Regular.ttf").is_file()
    assert (site / "assets" / "fonts" / "vollkorn-OFL.txt").is_file()
    # Card art is copied once and linked from each page relative to where the page sits.
    (art,) = (site / "site-demo" / "images").iterdir()
    assert art.read_bytes() == (FIXTURE / "art" / "lantern.png").read_bytes()
    assert f'href="images/{art.name}"' in (site / "site-demo" / "cards.html").read_text(encoding="utf-8")
    # a cards table links its cards without previews: its page carries none of their pictures
    play = (site / "site-demo" / "rules" / "play.html").read_text(encoding="utf-8")
    assert 'class="cardlink" href="../cards.html#card-lantern"' in play and "images/" not in play


def test_a_rule_pages_card_preview_links_its_art_from_where_the_page_sits(tmp_path):
    game_folder = tmp_path / "site-demo"
    shutil.copytree(FIXTURE, game_folder)
    play = game_folder / "rulebook" / "play.md"
    play.write_text(play.read_text(encoding="utf-8") + "\nCarry a [[lantern]] into the dark.\n", encoding="utf-8")
    game = load_game(game_folder)
    build_site([game], tmp_path / "site", {game.slug: fixture_report(game)})
    (art,) = (tmp_path / "site" / "site-demo" / "images").iterdir()
    assert f'href="../images/{art.name}"' in (tmp_path / "site" / "site-demo" / "rules" / "play.html").read_text(
        encoding="utf-8")


def test_no_external_urls(site):
    for path in site.rglob("*"):
        if path.suffix in (".html", ".css", ".js"):
            text = path.read_text(encoding="utf-8")
            urls = re.findall(r'(?:href|src)\s*=\s*"([^"]*)"|url\(\s*"?([^")]*)', text)
            for url in (a or b for a, b in urls):
                assert not re.match(r"^(?:[a-z]+:)?//", url, re.I), f"{path.name}: external URL {url}"
            # SVG's namespace URI is an identifier, never fetched; nothing else may name a host.
            assert not re.search(r"https?://(?!www\.w3\.org/2000/svg[\"'])", text), path.name


def test_tables_and_values_come_from_the_data(site):
    html = (site / "site-demo" / "rules" / "intro.html").read_text(encoding="utf-8")
    heroes = html[html.index('<table class="cards-table">'):html.index("</table>")]
    assert re.findall(r'<a class="cardlink" href="../cards.html#card-(\w+)">', heroes) == ["warden", "scout", "lamplighter"]
    assert '<td class="num">12</td>' in heroes and "<td>D10</td>" in heroes
    assert 'title="Left open: the made-up source gives no health for the Lamplighter">?</abbr>' in heroes
    assert '<span class="value" title="Warden: Health">12</span>' in html
    assert '<span class="value" title="game constant hand_size">5</span>' in html
    assert '<a href="play.html">Playing a turn</a>, fights in <a href="play.html#fighting">Fighting</a>' in html


def test_a_long_card_table_lists_its_first_rows_and_links_the_gallery(tmp_path, monkeypatch, games):
    """A site page holds at most SITE_TABLE_ROWS rows of a table (20,000 made a 4.4 MB page); the caption still
    counts them all, and a line under the table says where the rest are."""
    monkeypatch.setattr(site_pages, "SITE_TABLE_ROWS", 2)
    build_site(games[:1], tmp_path / "site", {"site-demo": fixture_report(games[0])})
    html = (tmp_path / "site" / "site-demo" / "rules" / "intro.html").read_text(encoding="utf-8")
    heroes = html[html.index('<table class="cards-table">'):html.index("<h2", html.index('<table class="cards-table">'))]
    assert re.findall(r'<a class="cardlink" href="../cards.html#card-(\w+)">', heroes) == ["warden", "scout"]
    assert "&middot; 3 cards, from the card data</caption>" in heroes
    assert ('<p class="table-cut">The first 2 of these 3 cards are listed here; the '
            '<a href="../cards.html?type=hero">card gallery</a> shows every one of them.</p>') in heroes
    paged = site_pages.Links("../cards.html", {}, {"monsters": "cards-3.html"})
    assert paged.cards_of(("deck", "monsters")) == "../cards-3.html?deck=monsters#deck-monsters"


def test_a_short_card_table_is_whole(site):
    html = (site / "site-demo" / "rules" / "intro.html").read_text(encoding="utf-8")
    assert 'class="table-cut"' not in html


def test_example_boxes_show_script_narration_and_verdict(site):
    html = (site / "site-demo" / "rules" / "play.html").read_text(encoding="utf-8")
    first = html[html.index('id="example-a-moth-bites-the-scout"'):html.index('id="example-the-warden-shrugs-it-off"')]
    assert '<span class="badge badge-verified">Verified</span>' in first
    assert "<h5>Setup</h5>" in first and "<dt>hero</dt><dd>scout</dd><dt>monster</dt><dd>moth</dd>" in first
    assert '<li class="die"><span class="die-face">3</span><span class="die-kind">D4</span></li>' in first
    assert "<dt>monsters</dt><dd>moth, shade</dd>" in first
    assert '<span class="event event-attack">attack</span> Giant Moth bites the Scout for 3' in first
    assert "<code>hero.health</code> = 5" in first
    second = html[html.index('id="example-the-warden-shrugs-it-off"'):]
    assert '<span class="badge badge-erratum">Known erratum</span>' in second
    assert "<strong>Known erratum:</strong> the made-up source forgets to subtract the bite" in second
    assert "The engine finds: hero.health: expected 12, got 8" in second
    # Prose around the blocks stays prose.
    assert "<p>For instance, a Giant Moth attacks the Scout:</p>" in html


def test_readings_page_quotes_the_source_and_links_what_depends_on_it(site, games):
    gloombah = next(game for game in games if game.slug == "gloombah")
    html = (site / "gloombah" / "readings.html").read_text(encoding="utf-8")
    assert f"Source:</span> {gloombah.source}" in html
    for reading in gloombah.readings:
        assert f'id="reading-{reading.id}"' in html
    entry = html[html.index('id="reading-level-12-by-helping"'):html.index('id="reading-exploding-vial-bonus"')]
    assert '<span class="place">Game Over, lines 144\u2013146</span>' in entry
    assert "<blockquote>The Level 10 must wait until a 2XP monster is drawn on their turn for play.</blockquote>" in entry
    assert ('<li class="option option-chosen"><code>refused</code>' in entry
            and '<span class="badge badge-verified">this game\'s reading</span>' in entry)
    assert "option-today" not in entry and "Engine change pending" not in entry  # the engine plays it (test_readings)
    assert '<a href="rules/fighting.html#example-level-12-only-on-your-own-turn">Level 12 only on your own turn</a>' in entry
    assert '<a href="cards.html#card-level-up">Level Up</a>' in entry
    # Each page that relies on a reading says so and links to it; so do the overview and the index.
    page = (site / "gloombah" / "rules" / "fighting.html").read_text(encoding="utf-8")
    assert '<a href="../readings.html#reading-level-12-by-helping">A level 10 who helps for two levels</a>' in page
    overview = (site / "gloombah" / "index.html").read_text(encoding="utf-8")
    assert '<a href="readings.html#reading-death-threshold">How much damage kills</a>' in overview
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'<a href="gloombah/readings.html">{len(gloombah.readings)} registered</a>' in index
    # A game without a register (a designer's own, mostly) shows no readings page, link or heading to playtesters.
    demo = [path.read_text(encoding="utf-8") for path in (site / "site-demo").rglob("*.html")]
    assert demo and not (site / "site-demo" / "readings.html").exists()
    assert not any("readings.html" in page or ">Readings<" in page for page in demo)
    assert "site-demo/readings.html" not in index


def test_card_text_is_escaped(site):
    gallery = (site / "site-demo" / "cards.html").read_text(encoding="utf-8")
    assert "<script>window" not in gallery and "<img src=x" not in gallery
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in gallery
    page = (site / "site-demo" / "rules" / "play.html").read_text(encoding="utf-8")
    assert "Markup such as &lt;script&gt;window.__pwned = 3&lt;/script&gt; or &lt;b&gt;this&lt;/b&gt; in a page" in page


def test_build_is_atomic_and_repeatable(tmp_path, games, site):
    target = tmp_path / "site"
    reports = {"site-demo": fixture_report(games[0])}
    build_site(games[:2], target, reports)
    first = {p.relative_to(target): p.read_bytes() for p in target.rglob("*") if p.is_file()}
    build_site(games[:2], target, reports)
    assert first == {p.relative_to(target): p.read_bytes() for p in target.rglob("*") if p.is_file()}
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no staging folder left behind


# -- in Chromium ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Watched:
    """A page with every console error, page error, failed request and off-site request recorded."""

    def __init__(self, browser, base: str, **options):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
        self.page = self.context.new_page()
        self.base = base
        self.problems: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        self.page.on("request", self._check_origin)

    def _check_origin(self, request):
        if not (request.url.startswith(self.base) or request.url.startswith("data:")):
            self.problems.append(f"request outside the site: {request.url}")

    def open(self, path: str):
        self.page.goto(self.base + path)
        self.page.wait_for_load_state("load")
        self.page.evaluate("document.fonts.ready.then(() => true)")
        return self.page

    def close(self):
        self.context.close()


@pytest.fixture
def watched(browser, server):
    opened = []

    def make(base: str | None = None, **options) -> Watched:
        w = Watched(browser, base or server, **options)
        opened.append(w)
        return w

    yield make
    for w in opened:
        w.close()


def _element_ids(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))


@needs_chromium
@pytest.mark.parametrize("origin", ["file", "http"])
def test_every_page_loads_cleanly_and_every_internal_link_resolves(site, watched, server, origin):
    """No console error or failed request, links and #fragments resolve, every picture is labelled."""
    base = site.as_uri() + "/" if origin == "file" else server
    w = watched(base)
    ids: dict[Path, set[str]] = {}
    checked = 0
    # Every page from disk; from the static server, the fixture's pages (the same templates) and the index.
    pages = html_pages(site) if origin == "file" else [p for p in html_pages(site) if p.startswith(("site-demo/", "index"))]
    for rel in pages:
        page = w.open(rel)
        assert page.evaluate("document.querySelectorAll('link[rel=stylesheet]').length") == 2
        assert page.evaluate("[...document.fonts].some(f => f.family.includes('Vollkorn') && f.status === 'loaded')"), rel
        hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        for href in hrefs:
            assert href.startswith(base), f"{rel}: link leaves the site: {href}"
            url, fragment = urldefrag(href)
            target = site / unquote(urlparse(url).path)[len(unquote(urlparse(base).path)):]
            assert target.is_file(), f"{rel}: broken link {href}"
            if fragment:
                known = ids.setdefault(target, _element_ids(target))
                assert fragment in known, f"{rel}: no #{fragment} in {target.name}"
            checked += 1
        dangling = page.evaluate("[...document.querySelectorAll('use')].map(u => u.getAttribute('href'))"
                                 ".filter(href => !document.getElementById(href.slice(1)))")
        assert dangling == [], rel
        # Every image has alt text; the only unlabelled SVGs are hidden (the symbol sprite, link previews).
        unlabelled = page.evaluate("""() => [
            ...[...document.querySelectorAll('img')].filter(i => !i.alt.trim()).map(i => i.outerHTML),
            ...[...document.querySelectorAll('svg')].filter(s => !s.closest('[aria-hidden=true]') &&
                !(s.getAttribute('role') === 'img' && (s.getAttribute('aria-label') || '').trim()))
                .map(s => s.outerHTML.slice(0, 80)),
        ]""")
        assert unlabelled == [], rel
    assert checked > 50
    assert w.problems == []


def _visible_ids(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "items => items.filter(i => i.offsetParent).map(i => i.id)")


@needs_chromium
def test_gallery_shows_every_card_once(games, watched):
    w = watched()
    for game in games:
        page = w.open(f"{game.slug}/cards.html")
        assert sorted(_visible_ids(page, "figure[data-card]")) == sorted(f"card-{card.id}" for card in game.cards)
        sheets = f" \u00b7 {len(game.sheets)} sheet{'s' * (len(game.sheets) != 1)}" if game.sheets else ""
        assert page.locator("[data-filter-count]").inner_text() == f"{len(game.cards)} cards{sheets}"
    assert w.problems == []


@needs_chromium
def test_gallery_shows_every_sheet_once_after_the_decks(games, watched):
    """Each game's sheets, in their own group of the filters, found by name, each a labelled picture."""
    w = watched()
    for game in games:
        page = w.open(f"{game.slug}/cards.html")
        # Exactly the game's sheets: page-sized ones first, each kind in the game's order.
        expected = sorted(game.sheets.values(), key=lambda sheet: not is_page_sheet(sheet))
        assert _visible_ids(page, "figure[data-sheet]") == [f"sheet-{sheet.id}" for sheet in expected], game.slug
        if not game.sheets:
            assert page.locator("#sheets").count() == 0
            continue
        # After the decks: the sections end with the sheets.
        assert page.eval_on_selector_all("[data-deck-section]", "s => s.at(-1).id") == "sheets"
        for sheet in game.sheets.values():
            figure = page.locator(f"#sheet-{sheet.id}")
            assert figure.locator("figcaption .card-name").inner_text() == sheet.name
            assert sheet.name in figure.locator("svg").get_attribute("aria-label")
        page.select_option("[data-filter-deck]", "@sheets")
        assert page.locator("figure[data-sheet]:visible").count() == len(game.sheets)
        assert page.locator("figure[data-card]:visible").count() == 0
        assert page.locator("[data-filter-count]").inner_text().startswith(f"0 of {len(game.cards)} cards")
        page.select_option("[data-filter-deck]", "")
        page.select_option("[data-filter-type]", "@sheets")
        assert page.locator("figure[data-sheet]:visible").count() == len(game.sheets)
        page.select_option("[data-filter-type]", "")
        last = list(game.sheets.values())[-1]
        page.fill("[data-filter-search]", last.name.upper())
        assert last.name in page.locator("figure[data-sheet]:visible").all_inner_texts()[0]
    assert w.problems == []


@needs_chromium
def test_gloombah_gallery_shows_the_monster_template_as_a_marked_blank(games, watched, tmp_path):
    """The source names no monster: the gallery shows the monster template with its BLANK TEMPLATE band."""
    from PIL import Image

    from deckwright.generator.layout.displaylist import Rect, Text, walk
    from deckwright.generator.layout.faces import Faces

    game = next(g for g in games if g.slug == "gloombah")
    sheet = game.sheets["monster-template"]
    display = Faces(game).sheet(sheet)
    items = list(walk(display.items))
    mark = next(i for i, item in enumerate(items) if isinstance(item, Text) and item.text == "BLANK TEMPLATE")
    band = next(item for item in reversed(items[:mark]) if isinstance(item, Rect) and item.fill
                and item.x <= items[mark].x <= item.x + item.w and item.y <= items[mark].y <= item.y + item.h)
    w = watched()
    page = w.open("gloombah/cards.html")
    figure = page.locator("#sheet-monster-template")
    assert figure.is_visible()
    assert "(blank)" in figure.locator("figcaption").inner_text()
    assert ">BLANK TEMPLATE</text>" in page.inner_html("#sheet_monster-template")
    picture = figure.locator("svg")
    box = picture.bounding_box()
    # Shown like a card: at the cards' scale (3.4 px per mm), its own proportions.
    assert abs(box["width"] - sheet.size.width * 3.4) < 1 and abs(box["height"] / box["width"] - 88.9 / 63.5) < 0.01
    picture.screenshot(path=str(tmp_path / "template.png"))
    image = Image.open(tmp_path / "template.png").convert("RGB")
    scale = image.width / display.width
    # Left of the centred words, inside the band: the band's colour, drawn in the browser.
    x, y = (band.x + 1.5) * scale, (band.y + band.h / 2) * scale
    want = tuple(int(band.fill[i:i + 2], 16) for i in (1, 3, 5))
    got = image.getpixel((int(x), int(y)))
    assert max(abs(a - b) for a, b in zip(got, want)) <= 8, (got, want)
    assert w.problems == []


@needs_chromium
def test_gallery_search_and_filters(watched):
    w = watched()
    page = w.open("site-demo/cards.html")
    visible = "() => [...document.querySelectorAll('figure[data-card]')].filter(c => c.offsetParent).map(c => c.id)"
    page.fill("[data-filter-search]", "moth")
    assert page.evaluate(visible) == ["card-moth"]
    assert page.locator("[data-filter-count]").inner_text() == "1 of 8 cards"
    page.fill("[data-filter-search]", "lantern")  # by card text too: Lamplighter, Moth, Shade and the Lantern
    assert page.evaluate(visible) == ["card-lamplighter", "card-moth", "card-shade", "card-lantern"]
    page.fill("[data-filter-search]", "")
    page.select_option("[data-filter-deck]", "monsters")
    assert page.evaluate(visible) == ["card-moth", "card-gremlin", "card-shade"]
    assert page.locator("#deck-heroes").is_hidden()
    page.select_option("[data-filter-deck]", "")
    page.select_option("[data-filter-type]", "item")
    assert page.evaluate(visible) == ["card-lantern", "card-rope"]
    page.fill("[data-filter-search]", "no such card")
    assert page.evaluate(visible) == [] and page.locator("[data-filter-empty]").is_visible()
    assert w.problems == []


@needs_chromium
def test_gallery_without_javascript_shows_everything(watched):
    w = watched(java_script_enabled=False)
    page = w.open("site-demo/cards.html")
    assert page.locator("[data-filters]").is_hidden()
    assert page.locator("figure[data-card]:visible").count() == 8
    assert page.locator(".deck-nav a").all_inner_texts() == ["Heroes 3", "Monsters 3", "Items 2"]
    assert w.problems == []


@needs_chromium
def test_gremlin_alt_text_is_its_card_text(watched):
    page = watched().open("site-demo/cards.html")
    label = page.get_attribute("#card-gremlin svg", "aria-label")
    assert label.startswith("Script Gremlin (Monster). Health: 5. Attack: 2D6. Effect: <script>")


@needs_chromium
def test_printable_cards_have_their_physical_size(watched):
    w = watched()
    page = w.open("site-demo/print-a4.html")
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        poker = page.locator("svg.print-card[aria-label^='Warden']").bounding_box()
        assert (round(poker["width"], 2), round(poker["height"], 2)) == (240.0, 336.0)
        tarot = page.locator("svg.print-card[aria-label^='Rope']").bounding_box()
        assert (round(tarot["width"], 1), round(tarot["height"], 1)) == (round(70 * PX_PER_MM, 1), round(120 * PX_PER_MM, 1))
    sheet = page.locator("section.sheet").first.bounding_box()
    assert (round(sheet["width"]), round(sheet["height"])) == (round(210 * PX_PER_MM), round(297 * PX_PER_MM))
    assert w.problems == []


@needs_chromium
def test_printing_gives_one_paper_page_per_sheet(tmp_path, watched):
    from pypdf import PdfReader

    w = watched()
    for paper, size_pt in (("a4", (595.3, 841.9)), ("letter", (612.0, 792.0))):
        page = w.open(f"site-demo/print-{paper}.html")
        sheets = page.locator("section.sheet").count()
        pdf = tmp_path / f"{paper}.pdf"
        page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
        reader = PdfReader(pdf)
        assert len(reader.pages) == sheets
        box = reader.pages[0].mediabox
        # Chromium rounds the page to whole pixels: within half a point of the paper.
        assert abs(float(box.width) - size_pt[0]) < 0.5 and abs(float(box.height) - size_pt[1]) < 0.5


@needs_chromium
def test_script_in_card_text_is_not_run(watched):
    w = watched()
    for rel in ("site-demo/cards.html", "site-demo/rules/intro.html", "site-demo/rules/play.html",
                "site-demo/print-a4.html"):
        page = w.open(rel)
        assert page.evaluate("window.__pwned") is None
        scripts = page.evaluate("[...document.scripts].map(s => s.getAttribute('src'))")
        assert len(scripts) == 1 and scripts[0].endswith("assets/site.js")
    page = w.open("site-demo/cards.html")
    assert "<script>window.__pwned = 1</script>" in page.get_attribute("#card-gremlin", "data-search")
    assert w.problems == []


@needs_chromium
def test_card_reference_previews_on_hover_and_focus(watched):
    w = watched()
    page = w.open("site-demo/rules/intro.html")
    link = page.locator("a.cardref", has_text="Warden").first
    preview = link.locator(".cardref-preview")
    assert link.get_attribute("href") == "../cards.html#card-warden"
    assert not preview.is_visible()
    link.hover()
    page.wait_for_timeout(200)
    assert preview.is_visible() and preview.bounding_box()["width"] > 150
    page.mouse.move(0, 0)
    link.focus()
    page.wait_for_timeout(200)
    assert preview.is_visible()
    assert w.problems == []


@needs_chromium
def test_screenshots_of_each_page_type(site, watched):
    """Written for people to look at: output/screenshots/<page type>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    w = watched()
    shots = {"index": "index.html", "game": "site-demo/index.html", "rules": "site-demo/rules/play.html",
             "gallery": "site-demo/cards.html", "print": "site-demo/print-a4.html",
             "nightmare-hunt-game": "nightmare-hunt/index.html", "nightmare-hunt-gallery": "nightmare-hunt/cards.html",
             "nightmare-hunt-print": "nightmare-hunt/print-letter.html",
             "gloombah-gallery": "gloombah/cards.html", "parousia-gallery": "parousia/cards.html",
             "gloombah-readings": "gloombah/readings.html"}
    with_example = [p for p in html_pages(site) if p.startswith("nightmare-hunt/rules/")
                    and 'class="example example-' in (site / p).read_text(encoding="utf-8")]
    if with_example:
        shots["nightmare-hunt-rules"] = with_example[0]
    for name, rel in shots.items():
        page = w.open(rel)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        assert (SCREENSHOTS / f"{name}.png").stat().st_size > 10_000
    page = w.open("site-demo/rules/intro.html")
    page.locator("a.cardref", has_text="Warden").first.hover()
    page.wait_for_timeout(200)
    page.screenshot(path=str(SCREENSHOTS / "card-preview.png"))
    assert w.problems == []


@needs_chromium
def test_card_text_in_the_browser_is_as_wide_as_measured_for_the_pdf(games, watched):
    """The gallery sets each text run in the shipped font at the width the display list measured."""
    from deckwright.generator.layout.displaylist import Text, walk
    from deckwright.generator.layout.faces import Faces

    game = games[0]
    faces = Faces(game)
    w = watched()
    page = w.open(f"{game.slug}/cards.html")
    for card in game.cards:
        expected = [item.width for item in walk(faces.front(card).items) if isinstance(item, Text)]
        measured = page.evaluate("""(id) => {
            const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
            for (const node of document.getElementById(id).childNodes) svg.appendChild(node.cloneNode(true));
            svg.setAttribute('viewBox', document.getElementById(id).getAttribute('viewBox'));
            svg.style.width = '300px';
            // Text inside a <use> inherits from it: copy what the site's CSS gives the gallery's <use>.
            const given = getComputedStyle(document.querySelector('figure[data-card] use'));
            for (const name of ['font-weight', 'font-style', 'font-kerning', 'font-variant-ligatures', 'font-feature-settings',
                                'font-variant-numeric', 'letter-spacing', 'word-spacing']) {
                svg.style.setProperty(name, given.getPropertyValue(name));
            }
            document.body.appendChild(svg);
            const widths = [...svg.querySelectorAll('text')].map(t => t.getComputedTextLength());
            svg.remove();
            return widths;
        }""", f"face-{card.id}")
        assert len(measured) == len(expected) > 0, card.id
        for got, want in zip(measured, expected):
            assert abs(got - want) <= max(0.05, want * 0.005), (card.id, got, want)
    assert w.problems == []


@needs_chromium
def test_card_pictures_inherit_nothing_from_the_page(site, watched):
    """Text inside a <use> inherits from it; a bold link or old-style figures must not reach the card."""
    w = watched()
    expected = {"font-weight": "400", "font-style": "normal", "font-kerning": "none", "font-variant-numeric": "normal",
                "font-variant-ligatures": "none", "letter-spacing": "normal", "word-spacing": "0px"}
    for rel in ("site-demo/cards.html", "site-demo/rules/intro.html", "site-demo/print-a4.html"):
        page = w.open(rel)
        styles = page.evaluate("""(names) => [...document.querySelectorAll('use')].map(u => {
            const style = getComputedStyle(u);
            return Object.fromEntries(names.map(n => [n, style.getPropertyValue(n)]));
        })""", list(expected))
        assert styles and all(style == expected for style in styles), (rel, styles[0])


@needs_chromium
def test_card_previews_stay_inside_the_window(watched):
    w = watched()
    page = w.open("site-demo/rules/intro.html")
    for name in ("Warden", "Script Gremlin"):
        link = page.locator("a.cardref", has_text=name).first
        link.scroll_into_view_if_needed()
        link.hover()
        page.wait_for_timeout(250)
        box = link.locator(".cardref-preview").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 900 and box["x"] >= 0 and box["x"] + box["width"] <= 1280
    assert w.problems == []


def test_the_sites_text_colours_read_on_its_backgrounds():
    """WCAG AA: 4.5:1 for the small text the site sets in each colour on each background it is set on."""
    from deckwright.generator import TEMPLATES

    css = (TEMPLATES / "html" / "assets" / "style.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", css.split("}", 1)[0]))

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    def contrast(a: str, b: str) -> float:
        light, dark = sorted((luminance(colours[a]), luminance(colours[b])), reverse=True)
        return (light + 0.05) / (dark + 0.05)

    for text in ("ink", "ink-soft", "muted", "accent", "good", "warn", "bad"):
        for ground in ("paper", "paper-deep", "panel"):
            assert contrast(text, ground) >= 4.5, (text, ground, round(contrast(text, ground), 2))
    for text, ground in (("good", "good-bg"), ("warn", "warn-bg"), ("bad", "bad-bg")):
        assert contrast(text, ground) >= 4.5, (text, ground, round(contrast(text, ground), 2))
