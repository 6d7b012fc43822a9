"""The site of a big game stays light: a 5,000-card gallery and its printable cards cut into pages of under 2 MB,
which open at once in Chromium and keep their search and filters across the pages.

The game is made up here (two decks, two card types, about forty words of text a card, a rulebook page that
links cards on the first and the last gallery page). The figures the bench prints (bench/bench_site.py
--cards 5000) are the real measure; the first-paint bound here is generous, so a busy machine cannot fail it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from deckwright.generator.layout.fonts import game_fonts
from deckwright.generator.site import build_site
from deckwright.generator.site.build import _Writer, game_pages, game_view, render_rule_pages
from deckwright.generator.site.paging import PageBudget, page_file, pager, plan_gallery, split
from deckwright.generator.site.readings import reading_views
from deckwright.generator.site.spool import Spool
from deckwright.rules.ci.check import check_game
from deckwright.rules.load import load_game

CARDS = 5000
MB = 1_000_000
WORDS = ("lantern", "ember", "moth", "raven", "silver", "ash", "tide", "hollow", "thorn", "vigil", "oath", "marrow",
         "cinder", "gale", "frost", "pale", "draw", "discard", "gain", "lose", "shield", "ally", "enemy", "heal",
         "strike", "wound", "rest", "move", "search", "hide")
GAME_YAML = """title: Big Box
slug: big-box
players: 2
summary: A made-up game of five thousand cards for the site's scale tests.
card_types:
  hero:
    name: Hero
    fields:
      power: {type: int, label: Power}
      text: {type: text, label: Ability}
  foe:
    name: Foe
    fields:
      power: {type: int, label: Power}
      text: {type: text, label: Effect}
decks:
  heroes:
    name: Heroes
    size: poker
    back: {title: Heroes, color: "#35506b"}
  foes:
    name: Foes
    size: poker
    back: {title: Foes, color: "#8c1c13"}
rulebook:
  - rulebook/playing.md
"""
LAYOUT = """boxes:
  paper: {kind: rect, fill: "#fbf7ef", bleed: true}
  band: {kind: rect, left: 3, right: 3, top: 3, height: 10, fill: "#35506b"}
  title: {kind: text, text: "{{ card.name }}", font: Vollkorn, font_style: bold, size: 12, color: "#ffffff",
          left: 5, right: 5, top: 3, height: 10, align: center, valign: middle}
  power: {kind: text, text: "{{ card.power }}", font: Open Sans, font_style: bold, size: 12, left: 5, top: 15,
          width: 10, height: 8}
  text: {kind: text, text: "{{ card.text }}", font: Open Sans, size: 8, left: 6, right: 6, top: 26, bottom: 6}
"""
RULEBOOK = """# Playing

Every game opens with [[hero-0]] on the table and ends when [[foe-{last}]] is beaten.
"""


def card_name(number: int) -> str:
    return f"{WORDS[number % len(WORDS)].title()} {WORDS[number * 7 % len(WORDS)].title()} {number}"


def make_big_game(folder: Path, count: int) -> Path:
    """``count`` made-up cards, half heroes and half foes, 500 to a file (under the loader's file size limit)."""
    (folder / "layouts").mkdir(parents=True)
    (folder / "rulebook").mkdir()
    (folder / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    for kind in ("hero", "foe"):
        (folder / "layouts" / f"{kind}.yaml").write_text(LAYOUT, encoding="utf-8")
    half = count // 2
    for kind, deck in (("hero", "heroes"), ("foe", "foes")):
        for start in range(0, half, 500):
            lines = [f"type: {kind}", f"deck: {deck}", "cards:"]
            for number in range(start, min(half, start + 500)):
                text = " ".join(WORDS[(number * 13 + k * 5) % len(WORDS)] for k in range(40)).capitalize() + "."
                lines += [f"  - id: {kind}-{number}", f"    name: {card_name(number)}",
                          f"    power: {number % 10}", f"    text: {text}"]
            (folder / f"{deck}-{start:05d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "rulebook" / "playing.md").write_text(RULEBOOK.format(last=half - 1), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """The made-up game and its site."""
    root = tmp_path_factory.mktemp("big")
    game = load_game(make_big_game(root / "big-box", CARDS))
    build_site([game], root / "site", {game.slug: check_game(game.root)})
    return game, root / "site"


def _figure_ids(html: str) -> list[str]:
    return re.findall(r'<figure class="card" id="([^"]+)" data-card', html)


# -- the plan, without a site ------------------------------------------------------


def test_split_keeps_everything_in_order_within_the_budget():
    budget = PageBudget(cards=3, picture_bytes=100)
    items = [(1, 10), (1, 10), (1, 90), (1, 10), (0, 0), (1, 150), (1, 10)]
    pages = split(items, lambda item: item, budget)
    assert [item for page in pages for item in page] == items
    assert pages == [[(1, 10), (1, 10)], [(1, 90), (1, 10), (0, 0)], [(1, 150)], [(1, 10)]]  # too big alone: alone
    assert split([(1, 1)] * 3, lambda item: item, budget) == [[(1, 1)] * 3]  # all fit: one page


def test_a_small_gallery_keeps_one_page_with_every_deck_even_an_empty_one():
    class Card:
        def __init__(self, ident):
            self.id = ident

    gallery = plan_gallery([("a", [Card("x"), Card("y")]), ("empty", []), ("-", [Card("z")])], lambda card: 100, (2, 50))
    assert not gallery.paged and gallery.pages[0].file == "cards.html" and gallery.pages[0].sheets
    assert list(gallery.pages[0].sections) == ["a", "empty", "-"]
    assert gallery.card_href("z") == "cards.html#card-z" and gallery.deck_href("-") == "cards.html#deck-none"
    paged = plan_gallery([("a", [Card(str(n)) for n in range(5)]), ("empty", [])], lambda card: 100, (1, 50),
                         PageBudget(cards=2, picture_bytes=10_000), one_page=PageBudget(cards=5, picture_bytes=10_000))
    assert [page.file for page in paged.pages] == ["cards.html", "cards-2.html", "cards-3.html"]
    assert [(page.first, page.last) for page in paged.pages] == [(1, 2), (3, 4), (5, 5)]
    assert paged.card_href("4") == "cards-3.html#card-4" and paged.deck_href("empty") == "cards-3.html#deck-empty"
    assert [page.sheets for page in paged.pages] == [False, False, True]
    assert page_file("print-a4", 1) == "print-a4.html" and page_file("print-a4", 12) == "print-a4-12.html"


def test_the_pager_of_many_pages_shows_the_ends_and_the_neighbourhood():
    assert pager(5, 3) == [1, 2, 3, 4, 5]
    assert pager(42, 1) == [1, 2, 3, 4, None, 41, 42]
    assert pager(42, 20) == [1, 2, None, 17, 18, 19, 20, 21, 22, 23, None, 41, 42]
    assert pager(42, 39) == [1, 2, None, 36, 37, 38, 39, 40, 41, 42]


# -- the site of 5,000 cards, without a browser ---------------------------------------


def test_no_page_is_over_2_mb(big):
    _, site = big
    sizes = {str(p.relative_to(site)): p.stat().st_size for p in site.rglob("*.html")}
    assert max(sizes.values()) < 2 * MB, max(sizes.items(), key=lambda item: item[1])
    gallery = [p for p in sizes if re.fullmatch(r"big-box/cards(-\d+)?\.html", p)]
    print(f"\n{len(gallery)} gallery pages, largest {max(sizes[p] for p in gallery) / MB:.2f} MB; "
          f"largest page of all {max(sizes.values()) / MB:.2f} MB")
    assert len(gallery) > 1


def test_every_card_is_shown_once_across_the_gallery_pages_with_its_picture(big):
    game, site = big
    seen = []
    for number in range(1, 100):
        path = site / game.slug / page_file("cards", number)
        if not path.is_file():
            break
        html = path.read_text(encoding="utf-8")
        ids = _figure_ids(html)
        symbols = set(re.findall(r'<symbol id="([^"]+)"', html))
        assert {f"face-{i.removeprefix('card-')}" for i in ids} <= symbols, path.name  # every picture it uses
        assert len(symbols) <= len(ids) + len(game.decks) + len(game.sheets), path.name  # and no other card's
        seen += ids
    assert sorted(seen) == sorted(f"card-{card.id}" for card in game.cards)


def test_printable_parts_hold_every_card_once_each_fronts_sheet_followed_by_its_backs(big):
    game, site = big
    fronts, parts = [], 0
    for number in range(1, 100):
        path = site / game.slug / page_file("print-a4", number)
        if not path.is_file():
            break
        parts += 1
        html = path.read_text(encoding="utf-8")
        sides = re.findall(r'<section class="sheet sheet-(front|back)', html)
        assert sides == ["front", "back"] * (len(sides) // 2), path.name
        fronts += re.findall(r'aria-label="([^"]+) \(', html)
        assert f"Part {number} " in html and 'aria-current="page">Part' in html
    assert parts > 1
    assert sorted(fronts) == sorted(card.name for card in game.cards)  # one copy each


def test_a_printable_part_links_the_first_the_last_and_the_nearby_parts_not_every_part(big):
    game, site = big
    count = len(list((site / game.slug).glob("print-a4*.html")))
    nav = re.search(r'<nav class="print-parts".*?</nav>', (site / game.slug / page_file("print-a4", 10)).read_text(),
                    re.S).group(0)
    linked = [int(number) for number in re.findall(r">Part (\d+) <", nav)]
    assert linked == [number for number in pager(count, 10) if number is not None]
    assert linked[0] == 1 and linked[-1] == count > len(linked) and nav.count('<li class="gap"') == 2


def test_rulebook_and_index_link_each_card_on_its_gallery_page(big):
    game, site = big
    rule_page = (site / game.slug / "rules" / "playing.html").read_text(encoding="utf-8")
    last_page = max(int(n) for n in re.findall(r"cards-(\d+)\.html", rule_page))
    assert 'href="../cards.html#card-hero-0"' in rule_page
    assert f'href="../cards-{last_page}.html#card-foe-{CARDS // 2 - 1}"' in rule_page
    assert f"card-foe-{CARDS // 2 - 1}" in _figure_ids((site / game.slug / f"cards-{last_page}.html").read_text())
    overview = (site / game.slug / "index.html").read_text(encoding="utf-8")
    foes_page = re.search(r'href="(cards[-\d]*\.html)#deck-foes"', overview).group(1)
    assert 'id="deck-foes"' in (site / game.slug / foes_page).read_text(encoding="utf-8")
    index = (site / game.slug / "cards-index.js").read_text(encoding="utf-8")
    assert index.count('"card-') == CARDS and "<" not in index  # data only, ASCII, nothing that reads as markup


HOSTILE = "<img src=x onerror=window.__xss=1>\"</script><script>window.__xss=2</script>"


@pytest.fixture(scope="module")
def paged(tmp_path_factory):
    """A smaller game still past one page, one of its cards named with markup, and its site built twice."""
    root = tmp_path_factory.mktemp("paged")
    folder = make_big_game(root / "big-box", 600)
    hostile = (folder / "foes-00000.yaml").read_text(encoding="utf-8").replace(
        f"name: {card_name(299)}", f"name: '{HOSTILE}'")
    (folder / "foes-00000.yaml").write_text(hostile, encoding="utf-8")
    game = load_game(folder)
    reports = {game.slug: check_game(game.root)}
    build_site([game], root / "first", reports)
    build_site([game], root / "second", reports)
    return game, root / "first", root / "second"


def test_a_paged_site_rebuilds_byte_for_byte(paged):
    _, first, second = paged
    files = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    assert "big-box/cards-3.html" in {str(p) for p in files} and Path("big-box/print-a4-2.html") in files
    assert files == {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}


# -- in Chromium ----------------------------------------------------------------------

# The paint entries may be recorded after the load event (seen on a loaded CI machine), so wait for them.
PAINTED = """() => new Promise(resolve => {
    const entries = () => Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
    if ('first-contentful-paint' in entries()) return resolve(entries());
    new PerformanceObserver(() => { if ('first-contentful-paint' in entries()) resolve(entries()); })
        .observe({type: 'paint', buffered: true});
    setTimeout(() => resolve(entries()), 10000);
})"""
FIRST_SCREEN_DRAWN = """() => [...document.querySelectorAll('svg.card-img, svg.print-card')]
    .filter(s => { const r = s.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })
    .map(s => { const u = s.querySelector('use'); return !!document.getElementById(u.getAttribute('href').slice(1))
                && u.getBBox().width > 0; })"""


@pytest.mark.usefixtures("chromium")
def test_big_gallery_paints_at_once_and_its_pictures_draw(big, browser):
    game, site = big
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems = []
    page = context.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    for rel in (f"{game.slug}/cards.html", f"{game.slug}/print-a4.html"):
        page.goto((site / rel).as_uri())
        page.wait_for_load_state("load")
        painted = page.evaluate(PAINTED)
        print(f"\n{rel}: first paint {painted.get('first-paint', -1):.0f} ms, "
              f"first contentful paint {painted.get('first-contentful-paint', -1):.0f} ms")
        assert 0 < painted["first-contentful-paint"] < 10_000  # generous: the bench prints the real figure
        drawn = page.evaluate(FIRST_SCREEN_DRAWN)
        assert drawn and all(drawn), rel
    assert problems == []
    context.close()


def wait_for_count(page, text: str) -> None:
    """Until the gallery's count reads ``text`` (a paged gallery's waits for its index to load)."""
    page.wait_for_function("text => document.querySelector('[data-filter-count]').textContent === text", arg=text,
                           timeout=10_000)


@pytest.mark.usefixtures("chromium")
def test_big_gallery_searches_and_filters_every_page(big, browser):
    game, site = big
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    index_requests = []
    page.on("request", lambda request: request.url.endswith("/cards-index.js") and index_requests.append(request))
    page.goto((site / game.slug / "cards.html").as_uri())
    page.wait_for_load_state("load")
    count = page.locator("[data-filter-count]")
    assert count.inner_text() == f"{CARDS:,} cards"
    assert index_requests == []  # the search index loads when the filters are first used, not with the page
    last = f"foe-{CARDS // 2 - 1}"
    page.fill("[data-filter-search]", card_name(CARDS // 2 - 1).lower())  # a foe on the last page
    wait_for_count(page, "2 of 5,000 cards")  # the hero and the foe of that number
    assert len(index_requests) == 1
    pager_line = page.locator(".gallery-pager p").first
    pages = int(page.locator(".gallery-pager").first.locator("a:not([rel])").last.inner_text())
    assert pager_line.inner_text() == f"Page 1 of {pages} of the whole gallery"  # not "Cards 1-120 of 5,000"
    visible = page.eval_on_selector_all("figure[data-card]", "items => items.filter(i => i.offsetParent).map(i => i.id)")
    assert visible == []  # both on later pages
    links = page.locator("[data-other-matches] a")
    assert links.count() == 2 and links.nth(1).inner_text() == card_name(CARDS // 2 - 1)
    with page.expect_navigation():
        links.nth(1).click()
    assert re.search(r"/cards-\d+\.html\?q=", page.url)
    wait_for_count(page, "2 of 5,000 cards")  # the search in the address, run on the page it opened
    shown = page.eval_on_selector_all("figure[data-card]", "items => items.filter(i => i.offsetParent).map(i => i.id)")
    assert f"card-{last}" in shown and page.locator("[data-filter-search]").input_value() != ""
    page.fill("[data-filter-search]", "")
    assert re.fullmatch(r"Cards [\d,]+\W[\d,]+ of 5,000, page \d+ of \d+", page.locator(".gallery-pager p").first.inner_text())
    page.select_option("[data-filter-deck]", "heroes")
    wait_for_count(page, f"{CARDS // 2:,} of {CARDS:,} cards")
    assert page.locator("#deck-foes").is_hidden() or page.locator("#deck-foes").count() == 0
    context.close()


@pytest.mark.usefixtures("chromium")
def test_big_gallery_without_javascript_pages_through_every_card(big, browser):
    """Next, the last page, a deck's first page: the pager and the deck links (every card once across the pages:
    test_every_card_is_shown_once_across_the_gallery_pages_with_its_picture)."""
    game, site = big
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto((site / game.slug / "cards.html").as_uri())
    assert page.locator("[data-filters]").is_hidden()
    assert page.locator("figure[data-card]:visible").count() == page.locator("figure[data-card]").count() > 0
    foes = page.locator(".deck-nav a", has_text="Foes").get_attribute("href")
    pager = page.locator(".gallery-pager").first
    last = pager.locator("a:not([rel])").last
    last_file, last_number = last.get_attribute("href"), last.inner_text()
    pager.locator("a[rel=next]").click()
    assert page.url.endswith("/cards-2.html")
    assert page.locator(".gallery-pager").first.locator("a[aria-current=page]").inner_text() == "2"
    page.goto(f"{(site / game.slug).as_uri()}/{last_file}")
    assert page.locator(".gallery-pager").first.locator("a[rel=next]").count() == 0
    assert last_file == f"cards-{last_number}.html" and page.locator(f"#card-foe-{CARDS // 2 - 1}").is_visible()
    page.goto(f"{(site / game.slug).as_uri()}/{foes}")
    assert page.locator("#deck-foes figure[data-card]").first.get_attribute("id") == "card-foe-0"
    context.close()


@pytest.mark.usefixtures("chromium")
def test_a_card_name_of_markup_found_on_another_page_stays_text(paged, browser):
    game, site, _ = paged
    page = browser.new_page()
    page.goto((site / game.slug / "cards.html").as_uri())  # the hostile foe is on a later page
    page.wait_for_load_state("load")
    page.fill("[data-filter-search]", "onerror")
    link = page.locator("[data-other-matches] a")
    link.first.wait_for()
    assert link.count() == 1 and link.inner_text() == HOSTILE
    page.wait_for_timeout(200)
    assert page.evaluate("window.__xss") is None and page.locator("main img").count() == 0
    page.close()


def test_the_written_site_holds_what_its_pages_render_whole(paged):
    """A build's site keeps its pictures and alt texts in a spool file and writes each page in pieces as it is
    made (site/spool.py); the files hold what the same pages render to in memory, as ``deckwright serve`` has
    them, the card named with markup escaped alike."""
    game, first, _ = paged
    report = check_game(game.root)
    writer = _Writer()
    view = game_view(game, report, game_fonts(game.root))
    render_rule_pages(view, report, writer.partials)
    view.readings = reading_views(game, view.pages, view.examples, view.gallery.card_href)
    whole = game_pages(writer, view)
    assert view.art.spool is None and {"big-box/cards-index.js", "big-box/print-letter-2.html"} <= set(whole)
    assert HOSTILE not in whole[f"big-box/{view.gallery.card_files['foe-299']}"]
    for path, text in whole.items():
        assert (first / path).read_text(encoding="utf-8") == text, path


def test_a_spool_gives_back_what_it_keeps():
    spool = Spool()
    kept = [spool.keep(data) for data in (b"\x00first", b"", "caf\u00e9".encode())]
    text = spool.keep_text("Raven <b> & \u00e9")
    assert [entry.read() for entry in kept] == [b"\x00first", b"", "caf\u00e9".encode()]
    assert str(text) == "Raven <b> & \u00e9" and str(escape(text)) == "Raven &lt;b&gt; &amp; \u00e9"
