"""Gloombah! printed: faces show the source's numbers and '?' for open ones, the reference card's odds are the
rules' own, the player sheet holds the level track and card-sized slots on one page."""
from __future__ import annotations

import io

import pytest
from test_gloombah import game, test_game  # noqa: F401  (shared fixtures: the bundled game, the made-up one)

from deckwright.generator.layout.displaylist import Rect, texts, walk
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
from deckwright.rules.data.model import Card
from deckwright.rules.data.values import Open
from deckwright.rules.games import gloombah as g
from deckwright.rules.problems import Loc


@pytest.fixture(scope="module")
def faces(game):
    return Faces(game)


def test_item_faces_show_their_numbers_and_question_marks(game, faces):
    vial = texts(faces.front(game.card("exploding-vial")))
    assert "Exploding Vial" in " ".join(vial) and {"+4", "BONUS"} <= set(vial) and "BACKSTAB" not in vial
    assert {"2", "DURABILITY"} <= set(texts(faces.front(game.card("light-chainmail"))))
    plate = texts(faces.front(game.card("steel-plate")))
    assert "?" in plate and "DURABILITY" in plate
    assert {"×1.5", "?", "BACKSTAB"} <= set(texts(faces.front(game.card("attack-buff"))))  # backstab mark open
    assert "×?" in texts(faces.front(game.card("curse-of-weakness")))
    level_up = " ".join(texts(faces.front(game.card("level-up"))))
    assert "+1" in level_up and "level 12" in level_up


def test_backstab_cards_carry_the_mark(game, faces):
    for card in game.cards_of("consumable"):
        words = " ".join(texts(faces.front(card)))
        assert ("Backstab:" in words) == (card["backstab"] is True), card.id


def test_class_faces_leave_their_bonuses_open(game, faces):
    for card in game.cards_of("class"):
        words = texts(faces.front(card))
        assert card.name in " ".join(words) and "BONUSES AND DETRIMENTS" in words and "?" in words


def test_monster_face_and_its_blank_template(test_game):
    faces = Faces(test_game)
    wraith = texts(faces.front(test_game.card("test-wraith")))
    assert "Test Wraith" in " ".join(wraith) and {"7", "3", "PIERCING"} <= set(wraith)
    assert "2 XP" in " ".join(wraith) and "1 treasure" in " ".join(wraith)
    fields = {name: Open("blank template", Loc("x")) for name, _ in test_game.card_types["monster"].fields}
    blank = Card("blank", "monster", "monsters", "Monster", 1, fields, Loc("x"))
    words = texts(faces.front(blank))
    assert words.count("?") >= 2 and "? XP" in words and "? treasure" in words and "PIERCING?" in words


def test_reference_card_prints_the_odds_the_rules_compute(game, faces):
    words = texts(faces.sheet(game.sheets["reference"]))
    rows = [{"odds": "always" if r["free"] else f"{r['ways']} in {r['outcomes']}",
             "percent": f"{r['chance'] * 100:.0f}%"} for r in g.layout_data(game)["run_chances"]]
    for row in rows:
        assert row["odds"] in words and row["percent"] in words
    assert words.count("always") == 2 and "35 in 36" in words and "3 in 36" in words
    assert "2D6" in " ".join(words)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_player_sheet_fits_one_page_with_track_and_slots(game, faces, paper):
    from pypdf import PdfReader

    buffer = io.BytesIO()
    sheet = game.sheets["player-sheet"]
    pages = HomePrint(game, faces, PrintJob("sheets", (), (sheet,), paper, False)).write(buffer)
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    assert pages == len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for word in ("Level", "Gear", "Weapon", "Status effects", "Your turn", "Attack points", "Losing and death", "WIN"):
        assert word in text
    width, height = (197.9, 256.4) if paper == "letter" else (192.0, 274.0)
    display = faces.sheet(sheet, width, height)
    words = texts(display)
    assert all(str(level) in words for level in range(1, 13))
    slots = [r for r in walk(display.items) if isinstance(r, Rect) and r.stroke and r.w >= 63.5 and r.h >= 88.9]
    assert len(slots) == 2  # gear and weapon, each big enough for a poker card
    assert all(0 <= r.x and r.x + r.w <= width and 0 <= r.y and r.y + r.h <= height for r in slots)


@pytest.mark.parametrize("sheet, words", [("monster-template", {"ATTACK", "DAMAGE", "PIERCING?", "EFFECT"}),
                                          ("weapon-template", {"BONUS", "CIRCLE THE CLASSES", "ITEM · WEAPON"})])
def test_card_types_without_cards_print_as_marked_blanks(game, faces, sheet, words):
    assert not game.cards_of(sheet.split("-")[0])
    display = faces.sheet(game.sheets[sheet])
    assert (display.width, display.height) == (63.5, 88.9)
    shown = texts(display)
    assert words <= set(shown) and "BLANK TEMPLATE" in shown and "?" not in shown
    assert any("BLANK TEMPLATE" in word for word in shown if word != "BLANK TEMPLATE")  # the footer says so too
