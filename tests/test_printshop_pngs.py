"""Print-shop PNGs painted by workers beside the PDFs: every file written, the same pixels whatever the number of
workers (none too), and on every build; a face the PDFs lay out is painted as they laid it out, not laid out again."""
from __future__ import annotations

from functools import partial
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


def test_a_face_that_cannot_be_laid_out_in_a_worker_is_raised_with_its_problem_when_the_pdfs_are_done(tmp_path):
    problem = Problem(Loc("cards/units.yaml", 3, 5), "no such field: 'power'")

    def broken():
        raise LayoutError([problem])

    jobs = [printshop_pngs.PngJob(tmp_path / "broken.png", broken)]
    with pytest.raises(LayoutError) as raised:
        with printshop_pngs.pngs_beside(jobs, shipped_fonts(), 300):
            (tmp_path / "done.txt").write_text("the block ran")
    assert raised.value.problems == [problem] and (tmp_path / "done.txt").is_file()


def test_without_workers_the_pngs_are_painted_here_with_the_same_pixels(tmp_path, monkeypatch):
    beside = write_pngs(tmp_path / "beside")
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    assert write_pngs(tmp_path / "here") == beside


def test_a_face_laid_out_for_another_output_is_painted_as_it_is_and_the_rest_laid_out_at_the_end(tmp_path):
    laid_out, painted = [], []

    def face(name: str):
        laid_out.append(name)
        return name

    jobs = [printshop_pngs.PngJob(tmp_path / f"{name}.png", partial(face, name), printshop_pngs.front_key(name, 3.0))
            for name in ("archer", "knight", "unprinted")]
    painter = printshop_pngs.PngPainter(jobs, lambda path, display: painted.append((path.name, display)))
    painter.laid_out(printshop_pngs.front_key("knight", 3.0), "knight as the PDF drew it")
    painter.laid_out(printshop_pngs.front_key("knight", 3.0), "knight again, the next copy")
    painter.laid_out(printshop_pngs.front_key("archer", 0.0), "archer without bleed")
    assert painted == [("knight.png", "knight as the PDF drew it")] and laid_out == []
    painter.finish()
    assert painted[1:] == [("archer.png", "archer"), ("unprinted.png", "unprinted")]
    assert laid_out == ["archer", "unprinted"]
