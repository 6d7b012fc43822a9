"""The odds as users see them: the "Odds" page of a game's site, read back as text and compared with the
rules' own numbers, and a card layout printing its odds from ``data.odds``.

Pages are rendered in-process through the site's own page makers (no browser, no whole-site build)."""
from __future__ import annotations

import re
import shutil
from fractions import Fraction
from html import unescape
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.displaylist import texts
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.site import odds as site_odds
from deckwright.generator.site.build import _Writer, game_page_makers, game_view, render_rule_pages
from deckwright.rules.engine.odds import percent_text
from deckwright.rules.engine.openvalues import Open
from deckwright.rules.games import rules_module
from deckwright.rules.load import load_game

MINI_HUNT = Path(__file__).parent / "fixtures" / "engine" / "mini-hunt"


def rendered_pages(game) -> dict[str, str]:
    writer = _Writer()
    view = game_view(game, None, shipped_fonts())
    render_rule_pages(view, None, writer.partials)
    return {path: make() for path, make in game_page_makers(writer, view).items()
            if path.endswith(("odds.html", "/index.html"))}


def table_text(html: str, anchor: str) -> list[list[str]]:
    """The rows of the table in the section ``anchor`` as the reader sees them: one list of cell texts a row."""
    section = re.search(rf'<section class="odds-section" id="{anchor}".*?</section>', html, re.S).group(0)
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", section, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([unescape(re.sub(r"<[^>]+>", "", cell)).replace("\u200b", "").strip() for cell in cells])
    return rows


@pytest.fixture(scope="module")
def micah():
    game = load_game(BUNDLED_GAMES / "micahs-game")
    module = rules_module(game)
    return game, module.odds(module.prepare(game)), rendered_pages(game)


def test_the_odds_page_shows_the_rules_numbers_as_the_reader_sees_them(micah):
    game, tables, pages = micah
    html = pages["micahs-game/odds.html"]
    name = "Die steps against the encounters"
    table = tables[name]
    rows = table_text(html, site_odds.anchor(name))
    assert rows[0] == [table.corner, *table.columns]
    shown = {row[0]: row[1:] for row in rows[1:]}
    assert list(shown) == [row.label for row in table.rows]
    for row in table.rows:
        if isinstance(row.cells[0], Open):  # open throughout: one cell that says so, with the source's note
            assert shown[row.label] == [f"open: {row.cells[0].note}"]
        else:
            assert shown[row.label] == [percent_text(cell) for cell in row.cells]
    assert shown["Yeti: attack (Defense 5)"][:6] == ["0%", "33.3%", "50%", "60%", "66.7%", "80%"]
    # The exact value is there on hover.
    assert 'title="599 in 600">99.8%<' in html  # D20+D20+D4 against 5: 4 of 1,600 rolls fall short


def test_every_page_of_a_game_with_odds_links_to_them(micah):
    _, _, pages = micah
    for path, html in pages.items():
        assert 'href="../micahs-game/odds.html"' in html or 'href="odds.html"' in html, path
    assert 'aria-current="page">Odds</a>' in pages["micahs-game/odds.html"]


def test_a_game_without_an_odds_hook_has_no_odds_page():
    game = load_game(Path(__file__).parent / "fixtures" / "site-demo")
    pages = rendered_pages(game)
    assert not any(path.endswith("odds.html") for path in pages)
    assert "odds.html" not in pages[f"{game.slug}/index.html"]


def test_odds_the_rules_cannot_work_out_are_said_on_the_page(monkeypatch):
    game = load_game(BUNDLED_GAMES / "gloombah")
    module = rules_module(game)

    def needs_open(rules):
        from deckwright.rules.engine.openvalues import OpenRuleError
        raise OpenRuleError("the monster deck is open (no monster cards)")

    monkeypatch.setattr(module, "odds", needs_open)
    page = site_odds.odds_page(game)
    assert page.tables == () and "the monster deck is open" in page.problem


def test_a_card_layout_prints_its_own_odds(tmp_path):
    """A made-up armour card whose layout prints, for its own column, the chance an attack at each Power wounds."""
    folder = tmp_path / "mini-hunt"
    shutil.copytree(MINI_HUNT, folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text.replace("  armor:\n    name: Armour\n    layout: card\n",
                                      "  armor:\n    name: Armour\n    layout: armor-odds\n"))
    (folder / "layouts" / "armor-odds.yaml").write_text(
        "boxes:\n"
        "  odds:\n"
        "    kind: text\n"
        "    left: 4\n    top: 4\n    right: 4\n    bottom: 4\n"
        "    font: Open Sans\n    size: 7\n"
        "    text: >-\n"
        "      {% set t = data.odds['The chance an attack wounds'] %}"
        "{% for r in t.rows %}{% set c = t.at[r.label][card.name] %}{{ r.label }}: {{ c.text }} ({{ c.ways }} in "
        "{{ c.outcomes }}){{ '\\n' if not loop.last }}{% endfor %}\n")
    game = load_game(folder)
    module = rules_module(game)
    table = module.odds(module.prepare(game))["The chance an attack wounds"]
    words = " ".join(texts(Faces(game).front(game.card("vest"))))
    for row in table.rows:
        p = table.cell(row.label, "Vest")
        assert f"{row.label}: {percent_text(p)} ({p.numerator} in {p.denominator})" in words
    assert [row.label for row in table.rows] == ["Power 2", "Power 4"]  # the fixture's Straw Rat and Straw King
    assert all(isinstance(table.cell(row.label, "Vest"), Fraction) and 0 < table.cell(row.label, "Vest") < 1
               for row in table.rows)


def test_every_bundled_game_has_its_odds_page():
    from deckwright.rules.load import bundled_games

    for folder in bundled_games(BUNDLED_GAMES):
        page = site_odds.odds_page(load_game(folder))
        assert page is not None and page.problem == "" and page.tables, folder.name
        for table in page.tables:
            assert table.rows and all(row.cells for row in table.rows), (folder.name, table.name)
