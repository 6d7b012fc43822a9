"""The print shop's 300 dpi PNGs, painted by workers while this process writes the print-shop PDFs.

The faces are laid out here, once for both outputs: the PDFs lay each front and back out through
``SharedFaces``, which hands it to a worker as well (``PngPainter``); a face no PDF lays out (a card of no
copies) is laid out when the PDFs are done. A worker is a fresh interpreter fed display lists and file names
(``generator.parallel.feed_beside``): it holds the painter's state only, not the build's game and heap, so its
memory stays small and flat however large the deck (a forked worker's peak counted the 71 MB of the 10,000-card
build it started from). Which worker paints a face does not change its pixels. Where workers cannot be started
(``generator.parallel.can_fork``) the faces are painted in this process as they are laid out.

What is still to paint is kept as a card id and its number: a file name and a path for each of 10,000 cards,
made up front, held 10 MB of the build's memory while the PDFs were written.
"""
from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckwright.generator.layout.displaylist import DisplayList
from deckwright.generator.parallel import feed_beside
from deckwright.generator.render.raster import Rasterizer


@dataclass(frozen=True)
class DeckPngs:
    """A deck's PNG files in ``folder``: one per card (``front_name``) and, with ``back``, ``back.png``."""

    folder: Path
    deck: object  # rules.data.model.Deck
    cards: tuple  # its Cards, in deck order
    back: bool

    def files(self) -> Iterator[tuple[str, object | None]]:
        """Each file's name and its card (None: the back)."""
        for number, card in enumerate(self.cards, start=1):
            yield front_name(number, card.id), card
        if self.back:
            yield BACK, None


BACK = "back.png"


def front_name(number: int, card_id: str) -> str:
    return f"{number:02d}-{card_id}.png"


class PngPainter:
    """Paints each deck's faces at ``bleed`` once: as they are laid out for the PDFs (``front``, ``back``), or laid
    out for the PNGs alone by ``finish``."""

    def __init__(self, decks: list[DeckPngs], faces, bleed: float, paint: Callable[[Path, DisplayList], None]):
        self._decks = {pngs.deck.id: pngs for pngs in decks}
        self._faces, self._bleed, self._paint = faces, bleed, paint
        self._fronts = {card.id: number for pngs in decks for number, card in enumerate(pngs.cards, start=1)}
        self._backs = {pngs.deck.id for pngs in decks if pngs.back}

    def front(self, card, bleed: float, display: DisplayList) -> None:
        number = self._fronts.pop(card.id, None) if bleed == self._bleed else None
        if number is not None:
            self._paint(self._decks[card.deck].folder / front_name(number, card.id), display)

    def back(self, deck, bleed: float, display: DisplayList) -> None:
        if bleed == self._bleed and deck.id in self._backs:
            self._backs.discard(deck.id)
            self._paint(self._decks[deck.id].folder / BACK, display)

    def finish(self) -> None:
        """The faces no PDF laid out, laid out and painted."""
        for pngs in self._decks.values():
            for card in pngs.cards:
                if card.id in self._fronts:
                    self.front(card, self._bleed, self._faces.front(card, self._bleed))
            if pngs.deck.id in self._backs:
                self.back(pngs.deck, self._bleed, self._faces.back(pngs.deck, self._bleed))


class SharedFaces:
    """A game's ``Faces`` whose fronts and backs are handed to ``painter`` as they are laid out, for the print-shop
    PDFs (which use nothing else of them but their ``sheet``s and ``fonts``)."""

    def __init__(self, faces, painter: PngPainter):
        self._faces = faces
        self._painter = painter

    def front(self, card, bleed: float = 0.0) -> DisplayList:
        display = self._faces.front(card, bleed)
        self._painter.front(card, bleed, display)
        return display

    def back(self, deck, bleed: float = 0.0) -> DisplayList:
        display = self._faces.back(deck, bleed)
        self._painter.back(deck, bleed, display)
        return display

    def __getattr__(self, name: str):
        return getattr(self._faces, name)


def png_workers() -> int:
    return os.cpu_count() or 1


@contextmanager
def pngs_beside(decks: list[DeckPngs], faces, bleed: float, dpi: float) -> Iterator[PngPainter]:
    """Writes every deck's PNGs of its faces at ``bleed`` while the block runs: those the block lays out through
    ``SharedFaces(faces, painter)`` as they come, the rest after it; a worker's error is raised when the block
    ends."""
    count = sum(len(pngs.cards) + pngs.back for pngs in decks)
    if not count:
        yield PngPainter([], faces, bleed, lambda path, display: None)
        return
    paint_fed = partial(paint_all, font_files=faces.fonts.files(), dpi=dpi)
    with feed_beside(paint_fed, max(1, min(png_workers(), count)), "print-shop PNG worker") as send:
        if send is None:
            raster = Rasterizer(faces.fonts)
            painter = PngPainter(decks, faces, bleed, lambda path, display: raster.save_png(display, path, dpi))
        else:
            painter = PngPainter(decks, faces, bleed, lambda path, display: send((path, display)))
        yield painter
        painter.finish()


def paint_all(faces: Iterable[tuple[Path, DisplayList]], font_files: dict[str, Path | bytes], dpi: float) -> None:
    """A worker's job: each (file, display list) it is sent, painted and written."""
    gc.enable()  # the worker starts without collections; this one lives for thousands of faces
    raster = Rasterizer(font_files)
    for path, display in faces:
        raster.save_png(display, path, dpi)
