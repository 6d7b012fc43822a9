"""The images ``deck_sheets`` plans, drawn by the PNG painter from the same display lists as the print.

Each image is one job: its faces drawn, pasted into their slots and encoded by one worker, biggest
images first, so the cores share the work and no pixels travel between processes. A job's faces are laid
out (in this process, which holds the compiled layouts) only as the job is handed to a worker, so the
next image is laid out while the workers draw the ones before it. A deck's back image
comes with its first sheet, whose hidden card's slot shows the same face: drawn once, written twice.
A job hands back a small picture of the first face of each file, for the saved objects' thumbnails.

A face is drawn with a sliver of bleed and cut at the trim: a card 572.6 px tall fills 573 px with its
own background rather than fading into white along its last row.

Faces are drawn here even when the same build writes the print shop's 300 dpi PNGs: measured on the
bundled games, drawing a poker face at 409 x 573 px takes about 13 ms, resizing its 825 x 1125 px print
PNG to that size (LANCZOS) about 14 ms, and reading that PNG back another 15 ms.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckwright.generator.layout.displaylist import DisplayList
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.parallel import process_map
from deckwright.generator.render.png import save_png
from deckwright.generator.render.raster import Rasterizer

from .deck_sheets import DeckImages, Pixels, SheetImage

FORMATS = ("png", "jpeg")
EXTENSIONS = {"png": "png", "jpeg": "jpg"}
JPEG_QUALITY = 95  # with full-resolution colour (no 4:2:0 subsampling), so small coloured text stays sharp
THUMBNAIL = 256  # px, the longer side of a saved object's picture


EDGE = 2  # px of bleed drawn around each face, then cut off


@dataclass(frozen=True)
class ImageJob:
    """One image file: faces of one size placed at pixel offsets on a white canvas."""

    file: str
    size: tuple[int, int]
    face: Pixels  # the size and resolution every face on it is drawn at
    tiles: tuple[tuple[tuple[int, int], DisplayList], ...]
    alone: tuple[tuple[str, int], ...] = ()  # (file, tile index): a face also written as an image of its own


def edge_bleed(pixels: Pixels) -> float:
    """The bleed, in millimetres, that is ``EDGE`` px at the face's resolution."""
    return EDGE * 25.4 / pixels.dpi


def face_image(raster: Rasterizer, display: DisplayList, pixels: Pixels):
    """A face measured with ``edge_bleed`` drawn at ``pixels``: exactly ``pixels.width`` x ``pixels.height``."""
    image = raster.image(display, pixels.dpi, bleed=True)
    return image.crop((EDGE, EDGE, EDGE + pixels.width, EDGE + pixels.height))


@dataclass(frozen=True)
class PlannedJob:
    """An image job before its faces are laid out: its file and size, and how to lay it out."""

    file: str
    size: tuple[int, int]
    lay_out: Callable[[], ImageJob]


class LaidOutInTurn(Sequence):
    """Planned jobs, each laid out when it is taken (once: the workers' pool takes each job once)."""

    def __init__(self, planned: list[PlannedJob]):
        self.planned = planned

    def __len__(self) -> int:
        return len(self.planned)

    def __getitem__(self, index: int) -> ImageJob:
        return self.planned[index].lay_out()


def image_jobs(faces: Faces, decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...]) -> list[PlannedJob]:
    """Every deck's face sheets (its back in the hidden card's slot) and back, and every sheet, to be laid out."""
    jobs = []
    for plan in decks:
        for number, sheet in enumerate(plan.sheets):
            jobs.append(PlannedJob(sheet.file, sheet.size, partial(_deck_sheet_job, faces, plan, number)))
    for item in sheets:
        jobs.append(PlannedJob(item.file, (item.pixels.width, item.pixels.height), partial(_sheet_job, faces, item)))
    return jobs


def _deck_sheet_job(faces: Faces, plan: DeckImages, number: int) -> ImageJob:
    bleed = edge_bleed(plan.card)
    sheet = plan.sheets[number]
    tiles = [(sheet.box(slot)[:2], faces.front(card, bleed)) for slot, card in enumerate(sheet.cards)]
    tiles.append((sheet.box(sheet.hidden_slot)[:2], faces.back(plan.deck, bleed)))
    # the back image is the hidden card's slot of the first sheet, not drawn again
    alone = ((plan.back_file, len(tiles) - 1),) if number == 0 else ()
    return ImageJob(sheet.file, sheet.size, plan.card, tuple(tiles), alone)


def _sheet_job(faces: Faces, item: SheetImage) -> ImageJob:
    display = faces.sheet(item.sheet, bleed=edge_bleed(item.pixels))
    return ImageJob(item.file, (item.pixels.width, item.pixels.height), item.pixels, (((0, 0), display),))


def draw_images(jobs: list[PlannedJob], folder: Path, image_format: str, fonts: FontBook) -> dict[str, object]:
    """Writes every job's images into ``folder`` with the game's ``fonts``; returns each file's thumbnail (of its
    first face), by name."""
    folder.mkdir(parents=True, exist_ok=True)
    biggest_first = LaidOutInTurn(sorted(jobs, key=lambda job: -job.size[0] * job.size[1]))
    pictures: dict[str, object] = {}
    for drawn in process_map(partial(_draw, folder=folder, image_format=image_format, font_files=fonts.files()),
                             biggest_first):
        pictures.update(drawn)
    return pictures


def thumbnail(image):
    """A small copy, at most ``THUMBNAIL`` px each way: e.g. the picture Tabletop Simulator shows for a saved object."""
    from PIL import Image

    scale = min(1.0, THUMBNAIL / max(image.size))
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.LANCZOS, reducing_gap=2.0)


def _draw(job: ImageJob, folder: Path, image_format: str, font_files: dict[str, Path | bytes]) -> dict[str, object]:
    """Draws and writes one job's images; returns their thumbnails, by file name."""
    from PIL import Image

    raster = Rasterizer(font_files)
    drawn: dict[int, object] = {}  # a face used twice (the back) is drawn once
    pictures = []  # the face of each tile
    for _, display in job.tiles:
        if id(display) not in drawn:
            drawn[id(display)] = face_image(raster, display, job.face)
        pictures.append(drawn[id(display)])
    if len(job.tiles) == 1 and pictures[0].size == job.size:
        canvas = pictures[0]
    else:
        canvas = Image.new("RGB", job.size, "#ffffff")
        for (offset, _), picture in zip(job.tiles, pictures):
            canvas.paste(picture, offset)
    images = [(job.file, canvas, pictures[0]), *((file, pictures[tile], pictures[tile]) for file, tile in job.alone)]
    for file, image, _ in images:
        _save(image, folder / file, image_format, job.face.dpi)
    return {file: thumbnail(first) for file, _, first in images}


def _save(image, path: Path, image_format: str, dpi: float) -> None:
    if image_format == "jpeg":
        image.save(path, "JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=(dpi, dpi))
    else:
        save_png(image, path, dpi)
