"""The print shop's 300 dpi PNGs, painted by workers while this process writes the print-shop PDFs.

The faces are laid out here, once for both outputs: the PDFs lay each front and back out through
``SharedFaces``, which hands it to a worker as well (``PngPainter.laid_out``); a face no PDF lays out
(a card of no copies) is laid out when the PDFs are done. A worker is a fresh interpreter fed display
lists and file names (``generator.parallel.feed_beside``): it holds the painter's state only, not the build's
game and heap, so its memory stays small and flat however large the deck (a forked worker's peak counted the
73 MB of the build it started from). Which worker paints a face does not change its pixels. Where workers
cannot be started (``generator.parallel.can_fork``) the faces are painted in this process as they are laid out.
"""
from __future__ import annotations

import gc
import os
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckwright.generator.layout.displaylist import DisplayList
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.parallel import feed_beside
from deckwright.generator.render.raster import Rasterizer


@dataclass(frozen=True)
class PngJob:
    """One PNG file and how to lay out the face it shows; ``key`` names that face as ``SharedFaces`` lays it out
    for another output (``front_key``, ``back_key``), None if none does."""

    path: Path
    face: Callable[[], DisplayList]
    key: Hashable = None


def front_key(card_id: str, bleed: float) -> tuple:
    return ("front", card_id, bleed)


def back_key(deck_id: str, bleed: float) -> tuple:
    return ("back", deck_id, bleed)


class PngPainter:
    """Paints every job's face once: as it is laid out for another output (``laid_out``), or laid out for the
    PNG alone by ``finish``."""

    def __init__(self, jobs: list[PngJob], paint: Callable[[Path, DisplayList], None]):
        self._pending = {(("job", index) if job.key is None else job.key): job for index, job in enumerate(jobs)}
        self._paint = paint

    def laid_out(self, key: Hashable, display: DisplayList) -> None:
        job = self._pending.pop(key, None)
        if job is not None:
            self._paint(job.path, display)

    def finish(self) -> None:
        for key in list(self._pending):
            job = self._pending.pop(key)
            self._paint(job.path, job.face())


class SharedFaces:
    """A game's ``Faces`` whose fronts and backs are handed to ``painter`` as they are laid out, for the print-shop
    PDFs (which use nothing else of them but their ``sheet``s and ``fonts``)."""

    def __init__(self, faces, painter: PngPainter):
        self._faces = faces
        self._painter = painter

    def front(self, card, bleed: float = 0.0) -> DisplayList:
        display = self._faces.front(card, bleed)
        self._painter.laid_out(front_key(card.id, bleed), display)
        return display

    def back(self, deck, bleed: float = 0.0) -> DisplayList:
        display = self._faces.back(deck, bleed)
        self._painter.laid_out(back_key(deck.id, bleed), display)
        return display

    def __getattr__(self, name: str):
        return getattr(self._faces, name)


def png_workers() -> int:
    return os.cpu_count() or 1


@contextmanager
def pngs_beside(jobs: list[PngJob], fonts: FontBook, dpi: float) -> Iterator[PngPainter]:
    """Writes every job's PNG while the block runs, the faces the block lays out through ``SharedFaces(faces,
    painter)`` painted as they come, the rest after it; a worker's error is raised when the block ends."""
    if not jobs:
        yield PngPainter([], lambda path, display: None)
        return
    workers = max(1, min(png_workers(), len(jobs)))
    paint_fed = partial(paint_all, font_files=fonts.files(), dpi=dpi)
    with feed_beside(paint_fed, workers, "print-shop PNG worker") as send:
        if send is None:
            raster = Rasterizer(fonts)
            painter = PngPainter(jobs, lambda path, display: raster.save_png(display, path, dpi))
        else:
            painter = PngPainter(jobs, lambda path, display: send((path, display)))
        yield painter
        painter.finish()


def paint_all(faces: Iterable[tuple[Path, DisplayList]], font_files: dict[str, Path | bytes], dpi: float) -> None:
    """A worker's job: each (file, display list) it is sent, painted and written."""
    gc.enable()  # the worker starts without collections; this one lives for thousands of faces
    raster = Rasterizer(font_files)
    for path, display in faces:
        raster.save_png(display, path, dpi)
