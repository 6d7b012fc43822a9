"""Parousia printed: every pickup card shows what it gives or does, the character sheet holds
ten D20-sized hexagons, the reference cards and blank templates carry the data."""
from __future__ import annotations

import io
import shutil

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.displaylist import Path, texts, walk
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
from deckwright.rules.load import load_game


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "parousia")


@pytest.fixture(scope="module")
def faces(game):
    return Faces(game)


def words(display) -> str:
    return " ".join(texts(display))


@pytest.mark.parametrize("card_id, shown", [
    ("7-of-clubs", ["Seven of Clubs", "7", "1", "BOMBS", "+1", "Bombs."]),
    ("2-of-spades", ["2", "KEYS", "+2"]),
    ("jack-of-diamonds", ["J", "5¢", "NICKEL", "+5", "Coins."]),
    ("king-of-diamonds", ["K", "25¢", "QUARTER", "+25"]),
    ("ace-of-hearts", ["A", "Play", "Red heart", "PLAYABLE"]),
])
def test_solitaire_cards_print_what_they_give(game, faces, card_id, shown):
    text = texts(faces.front(game.card(card_id)))
    joined = " ".join(text)
    for piece in shown:
        assert piece in text or piece in joined, (card_id, piece, text)


@pytest.mark.parametrize("card_id, shown", [
    ("the-high-priestess", ["II", "10", "DAMAGE"]),
    ("the-chariot", ["+2", "SPEED", "6", "TURNS"]),
    ("strength", ["+1", "CONTAINERS", "TEARS"]),
    ("the-tower", ["D20/2", "BOMB"]),
    ("temperance", ["D20/5", "coins"]),
    ("judgement", ["D20:", "item", "2–3", "nothing"]),
    ("the-moon", ["1–2", "3–20", "pickup"]),
    ("death", ["40", "DAMAGE"]),
])
def test_arcana_print_their_numbers(game, faces, card_id, shown):
    joined = words(faces.front(game.card(card_id)))
    for piece in shown:
        assert piece in joined, (card_id, piece, joined)


def test_open_values_print_a_question_mark(game, faces):
    assert "?" in texts(faces.front(game.card("the-magician")))
    assert "?" in texts(faces.front(game.card("void")))  # Void's charge
    assert "?" in words(faces.front(game.card("slot-machine")))  # the cost of a use


def test_joker_leads_to_the_devil_room(game, faces):
    assert "Devil room" in words(faces.front(game.card("joker")))


def _hexagons(display, color: str) -> list[tuple[float, float]]:
    sizes = []
    for item in walk(display.items):
        if isinstance(item, Path) and item.fill == color:
            xs = [c[i] for c in item.commands if c[0] != "Z" for i in range(1, len(c), 2)]
            ys = [c[i] for c in item.commands if c[0] != "Z" for i in range(2, len(c), 2)]
            sizes.append((max(xs) - min(xs), max(ys) - min(ys)))
    return sizes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_character_sheet_prints_ten_hexagons_on_one_page(game, faces, paper):
    from pypdf import PdfReader

    buffer = io.BytesIO()
    pages = HomePrint(game, faces, PrintJob("sheet", (), (game.sheets["character-sheet"],), paper, False)).write(buffer)
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    assert pages == len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for counter in game.cards_of("counter"):
        assert counter.name in text
    for area in ("HAND", "ACTIVATED ITEM", "ITEMS"):
        assert area in text
    width, height = (279.4 - 18, 215.9 - 23) if paper == "letter" else (297 - 18, 210 - 23)
    display = faces.sheet(game.sheets["character-sheet"], width, height)
    rings = _hexagons(display, "#8c7450")
    assert len(rings) == 10
    assert all(w >= 20 for w, _ in rings)  # a D20 lies inside


def test_character_sheet_prints_known_starting_values_and_leaves_the_rest_blank(game, faces, tmp_path):
    display = faces.sheet(game.sheets["character-sheet"], 279, 187)
    assert [f for f in display.fits if f.box == "value"] == []  # every start is open: ten empty hexagons
    folder = tmp_path / "parousia"
    shutil.copytree(BUNDLED_GAMES / "parousia", folder)
    counters = folder / "counters.yaml"
    text = counters.read_text()
    start = text.index("start:", text.index("id: keys"))
    counters.write_text(text[:start] + "start: 7\n" + text[text.index("\n", start) + 1:])
    known = load_game(folder)
    values = [t for t in texts(Faces(known).sheet(known.sheets["character-sheet"], 279, 187)) if t == "7"]
    assert values == ["7"]


@pytest.mark.parametrize("sheet_id, labels", [
    ("room-template", ["ENEMIES", "CHASER", "SPIKES", "ROCKS", "LOCK"]),
    ("enemy-template", ["RESILIENCE", "SPEED", "ACCURACY", "CHARGE", "NEXT FORM"]),
    ("boss-template", ["HP", "EVASIVENESS", "SPEED"]),
    ("item-template", ["ITEM"]),
    ("activated-item-template", ["CHARGE"]),
    ("devil-item-template", ["CONTAINERS"]),
])
def test_templates_are_marked_blanks(game, faces, sheet_id, labels):
    joined = words(faces.sheet(game.sheets[sheet_id]))
    assert "BLANK TEMPLATE" in joined
    for label in labels:
        assert label in joined, (sheet_id, label)


def test_reference_cards_cover_the_arcana_pickups_and_rooms(game, faces):
    arcana = " ".join(words(faces.sheet(game.sheets[f"arcana-reference-{n}"])) for n in (1, 2, 3))
    for card in game.cards_of("tarot"):
        assert card.name in arcana
    assert "10\u00a0damage." in arcana and "D20/5\u00a0coins." in arcana
    pickups = words(faces.sheet(game.sheets["pickup-reference"]))
    assert "Nickel 5¢" in pickups and "Quarter 25¢" in pickups and "20" in pickups
    rooms = words(faces.sheet(game.sheets["rooms-reference"]))
    for name in ("Shop", "Treasure room", "Arcade", "Boss room", "Devil room", "Spikes", "Beggar"):
        assert name in rooms
    assert "15¢" in rooms and "5¢" in rooms


def test_the_pickup_deck_prints_75_fronts_with_backs(game, faces):
    from pypdf import PdfReader

    buffer = io.BytesIO()
    pages = HomePrint(game, faces, PrintJob("deck", (game.decks["pickups"],), (), "a4", True)).write(buffer)
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    assert pages == len(reader.pages) == 2 * -(-75 // 9)
    fronts = " ".join(reader.pages[i].extract_text() for i in range(0, pages, 2))
    assert fronts.count("PICKUP DECK") == 75
