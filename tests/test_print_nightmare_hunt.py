"""Nightmare Hunt's printed cards and player mat show the numbers a player needs."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
from deckwright.rules.load import load_game


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "nightmare-hunt")


@pytest.fixture(scope="module")
def faces(game):
    return Faces(game)


def test_every_deck_prints_with_its_backs(game, faces):
    for deck in game.decks.values():
        buffer = io.BytesIO()
        pages = HomePrint(game, faces, PrintJob(deck.name, (deck,), (), "a4", True)).write(buffer)
        fronts = -(-game.deck_total(deck.id) // 9)
        assert pages == 2 * fronts == len(PdfReader(buffer).pages), deck.id


def test_prey_cards_show_health_fast_and_every_ability(game, faces):
    texts = dl.texts(faces.front(game.card("rabid-dog")))
    assert texts[:2] == ["Rabid Dog", "PREY · LEVEL 1 · FORGOTTEN FOREST"]
    for number in ("5", "3", "2", "6", "8"):  # health, Fast, each ability's energy
        assert number in texts
    assert "8 Power 3 , then Power 3 ; skip your turn" in " ".join(" ".join(texts).split())
    boss = dl.texts(faces.front(game.card("flaming-heart")))
    words = " ".join(" ".join(boss).split())
    assert "1" in boss and "5 summons Ember ; skip your turn" in words
    assert "Arrives with 2 × Ember" in words and "While an Ember is in the encounter" in words


def test_armour_cards_show_track_critical_and_slow(game, faces):
    texts = dl.texts(faces.front(game.card("leather")))
    assert [t for t in texts if t.endswith("+")] == ["2+", "4+", "6+", "8+"]
    assert "Slow 2" in texts


def test_the_player_mat(game, faces):
    buffer = io.BytesIO()
    HomePrint(game, faces, PrintJob("mat", (), (game.sheets["mat"],), "letter", False)).write(buffer)
    page = PdfReader(buffer).pages[0]
    width, height = (float(v) * 25.4 / 72 for v in (page.mediabox.width, page.mediabox.height))
    assert (round(width, 1), round(height, 1)) == (279.4, 215.9)  # landscape on the chosen paper
    text = page.extract_text()
    for word in ("MIND", "BODY", "Robes", "Leather", "Plate", "ENEMY 1", "ENEMY 2", "ENEMY 3",
                 "Pass", "Punch", "Sprint", "Rest", "ARMOUR", "ACTION DECK", "ACTION DISCARD"):
        assert word in text, word
    display = faces.sheet(game.sheets["mat"], 261.4, 192.9)
    cells = [t for t in dl.walk(display.items) if isinstance(t, dl.Text) and re.fullmatch(r"\d+", t.text)
             and t.font == "Open Sans:bold" and t.size == 8]
    # energy 0 .. the dearest enemy ability (8) plus the slowest action (7), once per enemy row
    assert sorted({int(c.text) for c in cells}) == list(range(16))
    assert max(c.x + c.width for c in dl.walk(display.items) if isinstance(c, dl.Text)) < 261.4
