"""A build lays each card out once for its check and its home PDFs together: the check draws the deck and sheet
files as it goes, and the build moves them in."""
from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path

from pypdf import PdfReader

from deckwright.generator.build import BuildOptions, build_games
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.paper import HOME_BLEED
from deckwright.rules.load import load_game_with_warnings

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"


def build(out: Path, monkeypatch, target: str = "home") -> tuple[int, Counter, str]:
    laid_out: Counter = Counter()
    front, back = Faces.front, Faces.back

    def counted_front(self, card, bleed=0.0):
        laid_out[("front", card.id, bleed)] += 1
        return front(self, card, bleed)

    def counted_back(self, deck, bleed=0.0):
        laid_out[("back", deck.id, bleed)] += 1
        return back(self, deck, bleed)

    monkeypatch.setattr(Faces, "front", counted_front)
    monkeypatch.setattr(Faces, "back", counted_back)
    game, problems = load_game_with_warnings(FIXTURE)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        status = build_games([game], BuildOptions(out=out, target=target), {game.slug: problems})
    return status, laid_out, printed.getvalue()


def test_each_card_is_laid_out_once_for_the_check_and_the_home_pdfs(tmp_path, monkeypatch):
    status, laid_out, printed = build(tmp_path, monkeypatch)
    assert status == 0, printed
    at_home_bleed = {key: count for key, count in laid_out.items() if key[2] == HOME_BLEED}
    assert at_home_bleed and set(at_home_bleed.values()) == {1}, at_home_bleed
    assert ("front", "archer", HOME_BLEED) in at_home_bleed and ("back", "units", HOME_BLEED) in at_home_bleed
    folder = tmp_path / "print-sample" / "print"
    assert sorted(path.name for path in folder.glob("*.pdf")) == ["deck-tokens.pdf", "deck-units.pdf",
                                                                  "everything.pdf", "sheets.pdf"]
    assert len(PdfReader(folder / "everything.pdf").pages) == 4 + 2 + 2
    assert "Archer" in PdfReader(folder / "deck-units.pdf").pages[0].extract_text()


def test_other_targets_draw_no_home_pdfs_while_checking(tmp_path, monkeypatch):
    status, laid_out, printed = build(tmp_path, monkeypatch, target="proof")
    assert status == 0, printed
    assert laid_out[("front", "archer", HOME_BLEED)] == 1  # the check alone
    assert not list((tmp_path / "print-sample" / "print").glob("deck-*.pdf"))
