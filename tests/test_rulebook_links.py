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
