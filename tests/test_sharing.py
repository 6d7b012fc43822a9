"""Faces laid out once for more than one output (generator.layout.sharing): the spool a build hands the fronts
it lays out for the home PDFs through to the site worker, and the site's pictures as the home print cuts them."""
from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import threading
from pathlib import Path

import pytest

from deckwright.generator import cli
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.paper import HOME_BLEED
from deckwright.generator.layout.sharing import FaceSpool, SharedFaces, SpooledFaces, SpoolWriter
from deckwright.generator.outputs.print_step import home_fronts
from deckwright.rules.load import load_game


class Counted:
    """A ``Faces`` that counts the fronts it lays out."""

    def __init__(self, faces):
        self.faces, self.laid_out = faces, []

    def front(self, card, bleed=0.0):
        self.laid_out.append((card.id, bleed))
        return self.faces.front(card, bleed)


def spooled(tiny, tmp_path: Path, expected=None):
    game = load_game(tiny())
    faces = Faces(game)
    spool = FaceSpool.create(tmp_path / "faces", HOME_BLEED,
                             expected if expected is not None else [card.id for card in game.cards])
    return game, faces, spool


def test_a_front_written_to_the_spool_is_read_back_as_it_was_laid_out(tiny, tmp_path):
    game, faces, spool = spooled(tiny, tmp_path)
    writer = SpoolWriter(spool)
    drawn = {card.id: SharedFaces(faces, writer).front(card, HOME_BLEED) for card in game.cards}
    writer.close()
    reader = Counted(faces)
    spooled_faces = SpooledFaces(reader, spool)
    for card in reversed(game.cards):  # in another order than written
        assert spooled_faces.front(card, HOME_BLEED) == drawn[card.id]
    assert reader.laid_out == []  # none laid out again
    assert spooled_faces._passed == {}  # what was passed over is held as places in the file only, and let go
    spooled_faces.close()


def test_a_face_the_writer_will_not_lay_out_is_laid_out_by_the_reader_without_waiting(tiny, tmp_path, monkeypatch):
    game, faces, spool = spooled(tiny, tmp_path, expected=[])
    writer = SpoolWriter(spool)  # open, and never written: a wait would never end
    monkeypatch.setattr(SpooledFaces, "_wait", lambda self: pytest.fail("waited for a face never coming"))
    reader = Counted(faces)
    card = game.cards[0]
    assert SpooledFaces(reader, spool).front(card, HOME_BLEED) == faces.front(card, HOME_BLEED)
    assert SpooledFaces(reader, spool).front(card, 0.0) == faces.front(card, 0.0)  # another bleed
    assert reader.laid_out == [(card.id, HOME_BLEED), (card.id, 0.0)]
    writer.close()


def test_once_the_writer_closes_the_reader_lays_out_what_it_did_not_write(tiny, tmp_path):
    game, faces, spool = spooled(tiny, tmp_path)
    first, second = game.cards[0], game.cards[1]
    writer = SpoolWriter(spool)
    SharedFaces(faces, writer).front(first, HOME_BLEED)
    writer.close()  # the build stopped early (a face failed): the second is never written
    reader = Counted(faces)
    spooled_faces = SpooledFaces(reader, spool)
    assert spooled_faces.front(second, HOME_BLEED) == faces.front(second, HOME_BLEED)
    assert spooled_faces.front(first, HOME_BLEED) == faces.front(first, HOME_BLEED)
    assert reader.laid_out == [(second.id, HOME_BLEED)]


def test_the_reader_waits_for_a_front_still_being_written(tiny, tmp_path, monkeypatch):
    game, faces, spool = spooled(tiny, tmp_path)
    card = game.cards[0]
    display = faces.front(card, HOME_BLEED)
    frame = io.BytesIO()
    monkeypatch.setattr(os, "write", lambda fd, data: frame.write(data))
    writer = SpoolWriter(spool)
    writer.front(card, HOME_BLEED, display)
    writer.close()
    monkeypatch.undo()
    whole = frame.getvalue()
    pieces = [whole[:5], whole[5:40], whole[40:]]  # a header, then a frame, arriving in parts
    waits = []

    def arrive(self):
        waits.append(len(pieces))
        with open(spool.path, "ab") as handle:
            handle.write(pieces.pop(0))

    monkeypatch.setattr(SpooledFaces, "_wait", arrive)
    reader = Counted(faces)
    assert SpooledFaces(reader, spool).front(card, HOME_BLEED) == display
    assert waits == [3, 2, 1] and reader.laid_out == []


def test_a_reader_whose_writer_is_gone_stops_waiting(tiny, tmp_path):
    game, faces, spool = spooled(tiny, tmp_path)
    gone = FaceSpool(spool.path, spool.bleed, spool.expected, writer_pid=-1)  # neither this process nor its parent
    reader = Counted(faces)
    card = game.cards[0]
    assert SpooledFaces(reader, gone).front(card, HOME_BLEED) == faces.front(card, HOME_BLEED)
    assert reader.laid_out == [(card.id, HOME_BLEED)]


def test_a_front_written_by_another_thread_while_the_reader_waits_arrives(tiny, tmp_path):
    game, faces, spool = spooled(tiny, tmp_path)
    card = game.cards[-1]
    display = faces.front(card, HOME_BLEED)
    writer = SpoolWriter(spool)
    reader = Counted(faces)
    spooled_faces = SpooledFaces(reader, spool)
    later = threading.Timer(0.05, lambda: (writer.front(card, HOME_BLEED, display), writer.close()))
    later.start()
    assert spooled_faces.front(card, HOME_BLEED) == display
    later.join()
    assert reader.laid_out == []


def test_home_fronts_are_the_fronts_the_home_pdfs_draw(tiny, tmp_path):
    from deckwright.generator.outputs.print_step import draw_home, printed_decks

    game = load_game(tiny())
    (tmp_path / "home").mkdir()
    draft = draw_home(game, Faces(game), printed_decks(game), (), tmp_path / "home", "a4", False)
    assert home_fronts(game) == draft.fronts == {card.id for card in game.cards}


@pytest.mark.skipif(sys.platform != "linux", reason="the site worker is forked on Linux only")
def test_a_home_build_lays_each_front_out_once_for_its_pdfs_and_its_site(tiny, tmp_path, monkeypatch):
    """The site worker reads every front the home PDFs laid out from the spool instead of laying it out again."""
    log = tmp_path / "laid-out"
    front = Faces.front

    def logged(self, card, bleed=0.0):
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {card.id} {bleed}\n")
        return front(self, card, bleed)

    monkeypatch.setattr(Faces, "front", logged)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        status = cli.main(["build", str(tiny()), "--target", "home", "--out", str(tmp_path / "out")])
    assert status == 0, printed.getvalue()
    lines = [line.split() for line in log.read_text().splitlines()]
    ids = {card.id for card in load_game(tiny(name="again")).cards}
    at_home_bleed = [(pid, card) for pid, card, bleed in lines if float(bleed) == HOME_BLEED]
    assert sorted(card for _, card in at_home_bleed) == sorted(ids)  # each once, all in one process
    assert {pid for pid, _ in at_home_bleed} == {str(os.getpid())}


def test_the_site_shows_a_card_as_the_home_print_cuts_it(tiny, tmp_path):
    """The gallery's picture is the face laid out with the home print's bleed, cut at the trim: a ground
    that runs into the bleed starts 3 mm outside the picture's view box."""
    status = cli.main(["build", str(tiny()), "--target", "proof", "--out", str(tmp_path / "out")])
    assert status == 0
    gallery = (tmp_path / "out" / "site" / "tiny" / "cards.html").read_text(encoding="utf-8")
    symbol = re.search(r'<symbol id="[^"]*"[^>]*viewBox="([^"]+)"[^>]*>(.*?)</symbol>', gallery, re.S)
    assert symbol.group(1) == "0 0 63.5 88.9"  # the trim
    assert '<rect x="-3" y="-3" width="69.5" height="94.9"' in symbol.group(2)  # the paper ground, over the bleed
