"""The print shop's 300 dpi PNGs, painted by forked workers while this process writes the print-shop PDFs.

Each worker takes every n-th face: it lays the face out itself (it starts with the game and its compiled
layouts in memory, as a fork does), paints it and writes its file, one face at a time, so nothing but a
file name crosses between processes and memory stays flat however large the deck. Which worker paints a
face does not change its bytes. Where forking is not safe (``generator.parallel.can_fork``) the faces are
painted in this process after the PDFs.

The workers collect garbage (a face's layout leaves some), but only of what they made: the objects they
inherit are frozen before the fork, so a collection neither walks nor copies the build's heap.
"""
from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckwright.generator.layout.displaylist import DisplayList
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.parallel import run_beside
from deckwright.generator.render.raster import Rasterizer


@dataclass(frozen=True)
class PngJob:
    """One PNG file and how to lay out the face it shows."""

    path: Path
    face: Callable[[], DisplayList]


def png_workers() -> int:
    return os.cpu_count() or 1


@contextmanager
def pngs_beside(jobs: list[PngJob], fonts: FontBook, dpi: float) -> Iterator[None]:
    """Writes every job's PNG while the block runs; a worker's error is raised when the block ends."""
    if not jobs:
        yield
        return
    workers = max(1, min(png_workers(), len(jobs)))
    paint = partial(_paint, font_files=fonts.files(), dpi=dpi)
    gc.freeze()
    try:
        with ExitStack() as stack:
            for share in range(workers):
                stack.enter_context(run_beside(partial(paint, jobs[share::workers]), "print-shop PNG worker"))
            yield
    finally:
        gc.unfreeze()


def _paint(jobs: list[PngJob], font_files: dict[str, Path | bytes], dpi: float) -> None:
    gc.enable()  # run_beside's worker starts without collections; this one lives for thousands of faces
    raster = Rasterizer(font_files)
    for job in jobs:
        raster.save_png(job.face(), job.path, dpi)
