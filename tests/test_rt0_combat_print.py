"""RT:0 combat in print: the tarot deck with its values large, the mats, trackers, reference cards and templates."""
import shutil
import subprocess
import sys

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.rules.load import load_game

FOLDER = BUNDLED_GAMES / "rt0-combat"


def _flat(items):
    for item in items:
        if isinstance(item, (dl.Group, dl.Clip)):
            yield from _flat(item.items)
        else:
            yield item


def _texts(display):
    return [item for item in _flat(display.items) if isinstance(item, dl.Text)]


@pytest.fixture(scope="module")
def faces():
    return Faces(load_game(FOLDER))


@pytest.fixture(scope="module")
def home_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("rt0-build")
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", "build", "rt0-combat", "--out", str(out),
                             "--target", "home"], capture_output=True, text=True, cwd=BUNDLED_GAMES.parent)
    assert result.returncode == 0, result.stderr
    return out / "rt0-combat" / "print"


def _pdf_pages(path):
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(str(path)).pages]


def test_tarot_card_shows_its_value_large_in_the_centre_and_four_corners(faces):
    game = faces.game
    for card_id in ("queen-of-cups", "death", "the-fool"):
        card = game.card(card_id)
        display = faces.front(card, bleed=3.0)
        values = [t for t in _texts(display) if t.text == str(card["value"]) and t.font.endswith("extrabold")]
        assert len(values) == 5, card_id  # four corner indices and the medallion
        assert max(t.size for t in values) >= 40
        assert all(t.size >= 12 for t in values)
        assert (display.width, display.height) == (70.0, 120.0)
        assert all(fit.fits for fit in display.fits)


def test_the_tower_reminds_of_catastrophe(faces):
    words = " ".join(t.text for t in _texts(faces.front(faces.game.card("the-tower"))))
    assert "catastrophe" in words
    assert "catastrophe" not in " ".join(t.text for t in _texts(faces.front(faces.game.card("the-star"))))


def test_the_medallion_takes_the_suit_colour(faces):
    from deckwright.generator.render.raster import Rasterizer

    game = faces.game
    image = Rasterizer(faces.fonts).image(faces.front(game.card("ace-of-cups")), dpi=60, bleed=False)
    # a point inside the medallion, left of the big "1"
    pixel = image.getpixel((round(22 / 25.4 * 60), round(46 / 25.4 * 60)))
    want = tuple(int(game.colors["cups"][i:i + 2], 16) for i in (1, 3, 5))
    assert all(abs(a - b) <= 3 for a, b in zip(pixel, want)), (pixel, want)


def test_the_deck_prints_four_up_with_backs(home_build):
    pages = _pdf_pages(home_build / "deck-tarot.pdf")
    assert len(pages) == 40  # 78 cards, 4 to an A4 page: 20 front pages, each followed by its backs
    assert "The Fool" in pages[0] and "The High Priestess" in pages[0]
    assert "RT:0" in pages[1] and "The Fool" not in pages[1]
    assert "King of Pentacles" in pages[38]


def test_sheets_hold_every_aid(home_build):
    text = "\n".join(_pdf_pages(home_build / "sheets.pdf"))
    for words in ("COMMON ROOM", "LARGE ROOM", "CRAMPED ROOM", "E5", "HP and shield", "buy-back",
                  "Supremacy worksheet", "Add nothing. Stop.", "A round, a turn", "Tarot values", "Judgement",
                  "BLANK TEMPLATE", "ADVERSARY", "COMBAT ABILITY", "ARCANA ABILITY", "INJURY", "CATASTROPHE"):
        assert words in text, words


def test_mat_grid_comes_from_the_room_card(faces):
    game = faces.game
    for sheet_id, side in (("mat-common", 3), ("mat-large", 5), ("mat-cramped", 1)):
        labels = {t.text for t in _texts(faces.sheet(game.sheets[sheet_id], 279.0, 187.0))}
        letters = "ABCDE"[:side]
        assert {f"{c}{r}" for c in letters for r in range(1, side + 1)} <= labels
        assert f"{letters[-1]}{side + 1}" not in labels and f"{'ABCDEF'[side]}1" not in labels


def test_hp_track_runs_from_the_starting_hp(faces):
    game = faces.game
    texts = [t.text for t in _texts(faces.sheet(game.sheets["hp-tracker"], 192.0, 274.0))]
    start = game.constants["starting_hp"]
    for hp in range(start + 1):
        assert texts.count(str(hp)) >= 4, hp  # four player tracks
    assert str(start + 1) not in texts


def test_templates_print_a_card_from_data(tmp_path):
    folder = tmp_path / "rt0-combat"
    shutil.copytree(FOLDER, folder)
    (folder / "test-cards.yaml").write_text(
        "# made-up cards: the bundled game has none of these\n"
        "cards:\n"
        "  - {id: test-brute, name: Test Brute, type: adversary, deck: adversaries, hp: 9, targeting: strategic,\n"
        "     intents: face-down, reach: ranged, intent_table: Any card deals 2.}\n"
        "  - {id: test-gift, name: Test Gift, type: arcana-ability, deck: arcana-abilities, arcana: the-star,\n"
        "     effect: Gain 1 shield., upgrades: [One more.]}\n")
    game = load_game(folder)
    faces = Faces(game)
    brute = faces.front(game.card("test-brute"))
    words = [t.text for t in _texts(brute)]
    assert "Test Brute" in words and "9" in words and "BLANK" not in " ".join(words)
    filled = [i for i in _flat(brute.items) if isinstance(i, dl.Rect) and i.fill and i.w < 3 and i.h < 3]
    assert len(filled) == 3  # strategic, face-down, ranged ticked
    gift = " ".join(t.text for t in _texts(faces.front(game.card("test-gift"))))
    assert "The Star" in gift and "Gain 1 shield." in gift
