"""Layouts are compiled once, before drawing: drawing a whole game's print files opens no layout file."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob, write_printshop_pdf
from deckwright.rules.load import load_game

_OPENED: list[str] = []
_RECORDING: list[bool] = [False]


def _record(event: str, args: tuple) -> None:
    if _RECORDING[0] and event == "open" and isinstance(args[0], (str, Path)):
        _OPENED.append(str(args[0]))


sys.addaudithook(_record)  # an audit hook sees every open(), however it is called; it cannot be removed


@pytest.mark.parametrize("name", sorted(p.name for p in BUNDLED_GAMES.iterdir() if (p / "game.yaml").is_file()))
def test_print_step_reads_no_layout_file_after_drawing_starts(name, tmp_path):
    game = load_game(BUNDLED_GAMES / name)
    faces = Faces(game)
    job = PrintJob(game.title, tuple(game.decks.values()), tuple(game.sheets.values()), "a4", True)
    _OPENED.clear()
    _RECORDING[0] = True
    try:
        HomePrint(game, faces, job).write(str(tmp_path / "home.pdf"))
        for deck in game.decks.values():
            write_printshop_pdf(str(tmp_path / f"shop-{deck.id}.pdf"), game, faces, deck, True)
    finally:
        _RECORDING[0] = False
    layout_files = [p for p in _OPENED if p.endswith((".yaml", ".yml"))]
    assert layout_files == []
    assert any(p.endswith("home.pdf") for p in _OPENED), "the hook saw the PDF being written"
