"""Micah's Game printed: card faces show the source's numbers and '?' for open ones; the mat and board fit the page."""
from __future__ import annotations

import io

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.displaylist import Rect, texts, walk
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
from deckwright.rules.load import load_game


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "micahs-game")


@pytest.fixture(scope="module")
def faces(game):
    return Faces(game)


def test_encounter_faces_show_known_numbers_and_question_marks(game, faces):
    yeti = texts(faces.front(game.card("yeti")))
    assert {"Yeti", "5", "D4+2", "6"} <= set(yeti)
    assert yeti.count("?") == 2  # charm and escape are open
    assert "Snowing." in yeti or "Snowing" in " ".join(yeti)
    goose = " ".join(texts(faces.front(game.card("grumpy-goose"))))
    assert "Silly Goose" in goose and goose.count("?") == 4


def test_class_faces_mark_the_class_die_on_the_ladder(game, faces):
    paladin = faces.front(game.card("paladin"))
    words = texts(paladin)
    assert {"D4", "D6", "D8", "D10", "D12", "D20"} <= set(words)
    assert words.count("?") == 3  # health, charisma, speed
    band = "#2f5d8a"
    filled = [r for r in walk(paladin.items) if isinstance(r, Rect) and r.fill == band and r.w < 7]
    assert len(filled) == 1  # only the Attack D10 rung is filled


def test_item_faces_show_price_and_sell_price(game, faces):
    boost = texts(faces.front(game.card("confidence-boost")))
    assert "12" in boost and "?" in boost
    remedy = texts(faces.front(game.card("suspicious-remedy")))
    assert "6" in remedy and remedy.count("?") == 2  # price and effect


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_mat_and_merchant_board_print_on_one_page_each(game, faces, paper):
    from pypdf import PdfReader

    buffer = io.BytesIO()
    pages = HomePrint(game, faces, PrintJob("sheets", (), tuple(game.sheets.values()), paper, False)).write(buffer)
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    assert pages == len(reader.pages) == 2
    mat, board = (page.extract_text() for page in reader.pages)
    for word in ("Health", "Coins", "Attack", "Charisma", "Speed", "Companion", "Creature dock", "Weapon", "Clothing"):
        assert word in mat
    assert "The Merchant" in board and "Always 6 items" in board and "Treasure deck" in board
    display = faces.sheet(game.sheets["merchant-board"], 279, 187)
    slots = [r for r in walk(display.items) if isinstance(r, Rect) and r.stroke and 55 < r.w < 64]
    assert len(slots) == 8  # the 6 item slots, the treasure deck and the used pile
    assert all(0 <= r.x and r.x + r.w <= 279 and 0 <= r.y and r.y + r.h <= 187 for r in slots)
