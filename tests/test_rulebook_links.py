"""Links and anchors in rulebook pages: every id on a page is unique, and ``check`` reports a link that would
point nowhere on the site or in the printed rulebook."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from deckwright.generator.site import build_site
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"


def copied(tmp_path: Path) -> Path:
    game = tmp_path / "site-demo"
    shutil.copytree(FIXTURE, game)
    return game


def test_a_heading_named_as_an_example_does_not_take_the_example_boxs_id(tmp_path):
    game = copied(tmp_path)
    play = game / "rulebook" / "play.md"
    play.write_text(play.read_text().replace("## Fighting", "## A moth bites the scout"))
    site = tmp_path / "site"
    build_site([load_game(game)], site, reports={})
    page = (site / "site-demo" / "rules" / "play.html").read_text()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    assert '<section class="example example-unchecked" id="example-a-moth-bites-the-scout"' in page
    assert '<h2 id="a-moth-bites-the-scout">' in page  # no clash without the "Example:" the box's id starts with
    play.write_text(play.read_text().replace("## A moth bites the scout", "## Example: a moth bites the scout"))
    shutil.rmtree(site)
    build_site([load_game(game)], site, reports={})
    page = (site / "site-demo" / "rules" / "play.html").read_text()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert '<h2 id="example-a-moth-bites-the-scout_1">' in page
    assert '<section class="example example-unchecked" id="example-a-moth-bites-the-scout"' in page
    assert 'href="#example-a-moth-bites-the-scout_1"' in page  # the page's contents go to the heading
    home = (site / "site-demo" / "index.html").read_text()
    assert 'href="rules/play.html#example-a-moth-bites-the-scout"' in home  # the examples index, to the box


def test_the_printed_rulebooks_heading_named_as_an_example_has_its_own_destination(tmp_path):
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.outputs.rulebook import ParsedBook
    from deckwright.generator.outputs.rulebook.examples import example_key

    game = copied(tmp_path)
    play = game / "rulebook" / "play.md"
    play.write_text(play.read_text().replace("## Fighting", "## Example: a moth bites the scout"))
    loaded = load_game(game)
    book = ParsedBook(loaded, Faces(loaded), [])
    page = next(p for p in book.pages if p.page.id == "play")
    headings = [section.key for section in page.sections]
    boxes = [example_key("play", view) for view in page.examples.values()]
    assert "play--example-a-moth-bites-the-scout_1" in headings
    assert "play--example-a-moth-bites-the-scout" in boxes and not set(headings) & set(boxes)


LINKS_PAGE = """# Links

[a](play.md) [b][ref] and [[moth]], ![p](../art/p.png) and [![q](../art/q.png)](play.md#fighting).
`[in code](no.md)` \\[not a link](no.md) <https://example.org/auto>

- [in a list](<my page.md> "titled") [c]

[ref]: intro.md#the-heroes "t"
[c]: https://example.org
"""


def test_the_links_found_are_those_markdown_makes():
    import markdown

    from deckwright.generator.book.markdown import EXTENSIONS, page_tree
    from deckwright.rules.book.pictures import page_links

    md = markdown.Markdown(extensions=list(EXTENSIONS))
    made = [a.get("href") for a in page_tree(md, LINKS_PAGE).iter("a") if not a.get("href").startswith("https://example.org/auto")]
    found = page_links(LINKS_PAGE, "links.md")
    assert [link.src for link in found] == made == ["play.md", "intro.md#the-heroes", "play.md#fighting", "my page.md",
                                                     "https://example.org"]
    assert [(link.loc.line, link.loc.col) for link in found] == [(3, 1), (3, 14), (3, 60), (6, 3), (6, 38)]


BROKEN = ("Broken: [a](nonexistent.md), [b](intro.md#no-such-heading), [d](../art/missing.pdf), [e](#nowhere-here).\n"
          "Download [the table picture](../art/moth.png) or [the sheet](../heroes.yaml).\n"
          "[js](javascript:alert(1)) [data](data:text/html,x) [gallery](../cards.html#card-moth)\n"
          "Fine: [web](https://example.org) [mail](mailto:a@b.c) [intro](intro.md#the-heroes) [here](#fighting) "
          "[box](play.md#example-a-moth-bites-the-scout) "
          "[readings](../readings.html) [gallery](../cards.html) [self](play.md)\n")


def test_check_reports_each_link_that_points_nowhere_at_the_link(tmp_path):
    from deckwright.generator.check.run import CheckOptions, check_one

    game = copied(tmp_path)
    play = game / "rulebook" / "play.md"
    (game / "art" / "moth.png").write_bytes(b"")
    line = play.read_text().count("\n") + 2
    play.write_text(play.read_text() + "\n" + BROKEN)
    output = check_one(game, CheckOptions(cache=False))
    assert output.failed
    errors = [entry.text.split(": ", 1)[1] for entry in output.lines if entry.to_stderr]
    where = [entry.text.split(": ", 1)[0] for entry in output.lines if entry.to_stderr]
    assert where == [f"{play}:{line}:{col}" for col in (9, 30, 61, 86)] + [
        f"{play}:{line + 1}:{col}" for col in (10, 50)] + [f"{play}:{line + 2}:{col}" for col in (1, 27, 52)] + [
        f"{play}:{line + 3}:{BROKEN.splitlines()[3].index('[readings]') + 1}"]
    also = "link a page (turn.md), a card with [[card-id]] or a web address (https://...)"
    allowed = ("a rulebook link may be a web address (https://..., mailto:...), another page (turn.md), a heading or "
               "example of it (turn.md#setup) or of this page (#setup)")
    assert errors == [
        "link: no page 'nonexistent.md' in the rulebook; the pages are game.yaml's rulebook list",
        "link: 'intro.md#no-such-heading': page intro.md has no heading or example with the id 'no-such-heading'",
        f"link: '../art/missing.pdf' names no page and no file of the game folder: {also}",
        "link: '#nowhere-here': this page has no heading or example with the id 'nowhere-here'",
        "link: '../art/moth.png' is a file of the game folder, which the site and the printed rulebook do not "
        f"publish: {also}, or show it as a picture: ![what it shows](../art/moth.png)",
        "link: '../heroes.yaml' is a file of the game folder, which the site and the printed rulebook do not "
        f"publish: {also}",
        f"link: 'javascript:alert(1)' is removed from the site and the printed rulebook: {allowed}",
        f"link: 'data:text/html,x' is removed from the site and the printed rulebook: {allowed}",
        "link: '../cards.html#card-moth': link a card with [[card-id]] (a big game's gallery spans several pages, "
        "and the printed rulebook has none)",
        # the demo keeps no readings register: its site has no such page (a bundled game's has)
        "link: '../readings.html': the game keeps no readings register (a readings.yaml beside its game.yaml), so "
        "its site has no readings page",
    ]


def test_a_build_fails_on_a_link_that_points_nowhere_and_builds_without_one(tmp_path):
    from deckwright.generator.build import start_check

    game = copied(tmp_path)
    play = game / "rulebook" / "play.md"
    original = play.read_text()
    play.write_text(original + "\nSee [nothing](nonexistent.md).\n")
    verdict = start_check(load_game(game))
    links = [problem.message for problem in verdict.failures if problem.message.startswith("link:")]
    assert links == ["link: no page 'nonexistent.md' in the rulebook; the pages are game.yaml's rulebook list"]
    play.write_text(original + "\nSee [fighting](#fighting).\n")
    assert not [problem for problem in start_check(load_game(game)).failures if problem.message.startswith("link:")]


def test_no_bundled_game_links_nowhere():
    from deckwright.generator import BUNDLED_GAMES
    from deckwright.generator.book.links import link_problems
    from deckwright.generator.site import game_pages
    from deckwright.rules.load import bundled_games

    for folder in bundled_games(BUNDLED_GAMES):
        game = load_game(folder)
        assert link_problems(game, game_pages(game)) == [], folder.name


def test_the_printed_rulebook_links_a_words_example_anchor_to_its_panel(tmp_path):
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.outputs.rulebook import ParsedBook

    loaded = load_game(FIXTURE)
    book = ParsedBook(loaded, Faces(loaded), [])
    assert "play--example-a-moth-bites-the-scout" in book.destinations


def test_a_link_with_no_scheme_is_told_to_name_one(tmp_path):
    """``//evil.example/x`` is an outside link on a hosted site, but a site opened from disk (file:///) would look
    for a file under that name: check asks for the scheme."""
    from deckwright.generator.check.run import CheckOptions, check_one

    game = copied(tmp_path)
    play = game / "rulebook" / "play.md"
    play.write_text(play.read_text() + "\nSee [the forum](//forum.example/x).\n")
    output = check_one(game, CheckOptions(cache=False))
    errors = [entry.text.split(": ", 1)[1] for entry in output.lines if entry.to_stderr]
    assert output.failed and errors == ["link: '//forum.example/x' names no scheme, so on pages opened from disk it "
                                        "points at a file: write 'https://forum.example/x'"]
