"""proof.pdf drawn in runs of pages joined into one file (as home print is), so a big game's proof never holds
all its pages: the joined file has the same pages, with the same text, as the proof drawn whole."""
from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.proof import write_proof
from deckwright.rules.load import load_game


def page_texts(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf).pages]


def test_a_proof_drawn_in_runs_has_the_pages_of_the_proof_drawn_whole(tmp_path):
    game = load_game(BUNDLED_GAMES / "rt0-combat")
    faces = Faces(game)
    (tmp_path / "whole").mkdir()
    (tmp_path / "runs").mkdir()
    pages = write_proof(str(tmp_path / "whole" / "proof.pdf"), game, faces, "a4")
    assert pages >= 5
    assert write_proof(str(tmp_path / "runs" / "proof.pdf"), game, faces, "a4", run_pages=2) == pages
    whole, joined = page_texts(tmp_path / "whole" / "proof.pdf"), page_texts(tmp_path / "runs" / "proof.pdf")
    assert len(joined) == pages and joined == whole
    assert f"{game.title}: proof" in joined[0] and f"page {pages}" in joined[-1]
    assert [path.name for path in (tmp_path / "runs").iterdir()] == ["proof.pdf"]  # the runs' files are gone
    info = PdfReader(tmp_path / "runs" / "proof.pdf").metadata
    assert info.title == f"{game.title}: proof" and info.subject.startswith("every card small")
