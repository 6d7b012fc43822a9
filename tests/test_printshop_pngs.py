"""Print-shop PNGs drawn a batch at a time: every file written, the same pixels whatever the batch, and the
same bytes on every build."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs import print_step
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"


def write_pngs(out: Path) -> dict[str, bytes]:
    game = load_game(FIXTURE)
    print_step._printshop(game, Faces(game), tuple(game.decks.values()), (), out, True)
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*.png"))}


def test_batches_write_every_png_with_the_same_pixels(tmp_path, monkeypatch):
    whole = write_pngs(tmp_path / "whole")
    monkeypatch.setattr(print_step, "PNG_BATCH", 2)
    batched = write_pngs(tmp_path / "batched")
    # 5 unit cards and 2 tokens, and each deck's back
    assert sorted(whole) == sorted(batched) and len(whole) == 5 + 2 + 2
    assert "units/01-archer.png" in whole and "tokens/back.png" in whole
    assert whole == batched
    with Image.open(tmp_path / "batched" / "units" / "01-archer.png") as image:
        assert image.size == (825, 1125) and round(image.info["dpi"][0]) == 300
        assert image.getpixel((2, 500)) == pytest.approx((0x33, 0x55, 0x77), abs=2)  # the bleed: the card's colour


def test_two_builds_write_the_same_bytes(tmp_path):
    assert write_pngs(tmp_path / "a") == write_pngs(tmp_path / "b")
