"""Print-shop PNGs painted by workers beside the PDFs: every file written, the same pixels whatever the number of
workers (none too), and on every build; a face the PDFs lay out is painted as they laid it out, not laid out again."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import output_contents
from PIL import Image

from deckwright.generator import parallel
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.outputs import print_step, printshop_pngs
from deckwright.rules.load import load_game
from deckwright.rules.problems import Loc, Problem

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"


def write_pngs(out: Path) -> dict[str, object]:
    game = load_game(FIXTURE)
    print_step._printshop(game, Faces(game), tuple(game.decks.values()), (), out, True)
    return {name: pixels for name, pixels in output_contents(out).items() if name.endswith(".png")}


def test_any_number_of_workers_writes_every_png_with_the_same_pixels(tmp_path, monkeypatch):
    monkeypatch.setattr(printshop_pngs, "png_workers", lambda: 1)
    whole = write_pngs(tmp_path / "whole")
    monkeypatch.setattr(printshop_pngs, "png_workers", lambda: 3)
    shared = write_pngs(tmp_path / "shared")
    # 5 unit cards and 2 tokens, and each deck's back
    assert sorted(whole) == sorted(shared) and len(whole) == 5 + 2 + 2
    assert "units/01-archer.png" in whole and "tokens/back.png" in whole
    assert whole == shared
    with Image.open(tmp_path / "shared" / "units" / "01-archer.png") as image:
        assert image.size == (825, 1125) and round(image.info["dpi"][0]) == 300
        assert image.getpixel((2, 500)) == pytest.approx((0x33, 0x55, 0x77), abs=2)  # the bleed: the card's colour


def test_two_builds_write_the_same_pixels(tmp_path):
    assert write_pngs(tmp_path / "a") == write_pngs(tmp_path / "b")


@dataclass(frozen=True)
class Card:
    id: str
    deck: str = "units"


@dataclass(frozen=True)
class Deck:
    id: str = "units"


class FakeFaces:
    """Faces that log what they lay out (a display list stand-in: a string) or, for ``broken``, raise its problem."""

    def __init__(self, broken: Problem | None = None):
        self.fonts = shipped_fonts()
        self.broken = broken
        self.laid_out: list[str] = []

    def front(self, card: Card, bleed: float = 0.0):
        if self.broken:
            raise LayoutError([self.broken])
        self.laid_out.append(card.id)
        return f"{card.id} laid out for the PNG"

    def back(self, deck: Deck, bleed: float = 0.0):
        self.laid_out.append(f"back of {deck.id}")
        return f"back of {deck.id} laid out for the PNG"


def test_a_face_that_cannot_be_laid_out_is_raised_with_its_problem_when_the_pdfs_are_done(tmp_path):
    problem = Problem(Loc("cards/units.yaml", 3, 5), "no such field: 'power'")
    decks = [printshop_pngs.DeckPngs(tmp_path, Deck(), (Card("broken"),), False)]
    with pytest.raises(LayoutError) as raised:
        with printshop_pngs.pngs_beside(decks, FakeFaces(problem), 3.0, 300):
            (tmp_path / "done.txt").write_text("the block ran")
    assert raised.value.problems == [problem] and (tmp_path / "done.txt").is_file()


def test_without_workers_the_pngs_are_painted_here_with_the_same_pixels(tmp_path, monkeypatch):
    beside = write_pngs(tmp_path / "beside")
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    assert write_pngs(tmp_path / "here") == beside


def test_a_face_laid_out_for_the_pdfs_is_painted_as_they_laid_it_out_and_the_rest_laid_out_at_the_end(tmp_path):
    cards = (Card("archer"), Card("knight"), Card("unprinted"))
    faces, painted = FakeFaces(), []
    painter = printshop_pngs.PngPainter([printshop_pngs.DeckPngs(tmp_path, Deck(), cards, True)], faces, 3.0,
                                        lambda path, display: painted.append((path.name, display)))
    shared = printshop_pngs.SharedFaces(faces, painter)
    painter.front(cards[1], 3.0, "knight as the PDF drew it")
    painter.front(cards[1], 3.0, "knight again, the next copy")
    painter.front(cards[0], 0.0, "archer without bleed")
    assert shared.back(Deck(), 3.0) == "back of units laid out for the PNG"
    assert painted == [("02-knight.png", "knight as the PDF drew it"),
                       ("back.png", "back of units laid out for the PNG")]
    painter.finish()
    assert painted[2:] == [("01-archer.png", "archer laid out for the PNG"),
                           ("03-unprinted.png", "unprinted laid out for the PNG")]
    assert faces.laid_out == ["back of units", "archer", "unprinted"]  # each once
