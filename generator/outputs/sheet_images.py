"""The images ``deck_sheets`` plans, drawn by the PNG painter from the same display lists as the print.

Each image is one job: its faces drawn, pasted into their slots and encoded by one worker, biggest
images first, so the cores share the work and no pixels travel between processes. A job hands back
a small picture of its first face, for the saved objects' thumbnails.

A face is drawn with a sliver of bleed and cut at the trim: a card 572.6 px tall fills 573 px with its
own background rather than fading into white along its last row.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckwright.generator.layout.displaylist import DisplayList
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.parallel import process_map
from deckwright.generator.render.raster import Rasterizer

from .deck_sheets import DeckImages, Pixels, SheetImage

FORMATS = ("png", "jpeg")
EXTENSIONS = {"png": "png", "jpeg": "jpg"}
PNG_LEVEL = 3  # zlib level: half the time of the default 6 for a quarter more bytes (a 10 x 7 sheet: 0.3 s, 0.8 MB)
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


def edge_bleed(pixels: Pixels) -> float:
    """The bleed, in millimetres, that is ``EDGE`` px at the face's resolution."""
    return EDGE * 25.4 / pixels.dpi


def face_image(raster: Rasterizer, display: DisplayList, pixels: Pixels):
    """A face measured with ``edge_bleed`` drawn at ``pixels``: exactly ``pixels.width`` x ``pixels.height``."""
    image = raster.image(display, pixels.dpi, bleed=True)
    return image.crop((EDGE, EDGE, EDGE + pixels.width, EDGE + pixels.height))


def image_jobs(faces: Faces, decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...]) -> list[ImageJob]:
    """Every deck's face sheets (its back in the hidden card's slot) and back, and every sheet, laid out."""
    jobs = []
    for plan in decks:
        bleed = edge_bleed(plan.card)
        back = faces.back(plan.deck, bleed)
        for sheet in plan.sheets:
            tiles = [(sheet.box(slot)[:2], faces.front(card, bleed)) for slot, card in enumerate(sheet.cards)]
            tiles.append((sheet.box(sheet.hidden_slot)[:2], back))
            jobs.append(ImageJob(sheet.file, sheet.size, plan.card, tuple(tiles)))
        jobs.append(ImageJob(plan.back_file, (plan.card.width, plan.card.height), plan.card, (((0, 0), back),)))
    for item in sheets:
        display = faces.sheet(item.sheet, bleed=edge_bleed(item.pixels))
        jobs.append(ImageJob(item.file, (item.pixels.width, item.pixels.height), item.pixels, (((0, 0), display),)))
    return jobs


def draw_images(jobs: list[ImageJob], folder: Path, image_format: str, fonts: FontBook) -> dict[str, object]:
    """Writes every job's image into ``folder`` with the game's ``fonts``; returns each file's thumbnail (of its
    first face), by name."""
    folder.mkdir(parents=True, exist_ok=True)
    biggest_first = sorted(jobs, key=lambda job: -job.size[0] * job.size[1])
    pictures = process_map(partial(_draw, folder=folder, image_format=image_format, font_files=fonts.files()),
                           biggest_first)
    return {job.file: picture for job, picture in zip(biggest_first, pictures)}


def thumbnail(image):
    """A small copy, at most ``THUMBNAIL`` px each way: e.g. the picture Tabletop Simulator shows for a saved object."""
    from PIL import Image

    scale = min(1.0, THUMBNAIL / max(image.size))
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.LANCZOS, reducing_gap=2.0)


def _draw(job: ImageJob, folder: Path, image_format: str, font_files: dict[str, Path | bytes]):
    from PIL import Image

    raster = Rasterizer(font_files)
    drawn: dict[int, object] = {}  # a face used twice (the back) is drawn once
    canvas = None
    first = None
    for offset, display in job.tiles:
        if id(display) not in drawn:
            drawn[id(display)] = face_image(raster, display, job.face)
        picture = drawn[id(display)]
        if first is None:
            first = picture
        if len(job.tiles) == 1 and picture.size == job.size:
            canvas = picture
            break
        if canvas is None:
            canvas = Image.new("RGB", job.size, "#ffffff")
        canvas.paste(picture, offset)
    path = folder / job.file
    if image_format == "jpeg":
        canvas.save(path, "JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=(job.face.dpi, job.face.dpi))
    else:
        canvas.save(path, "PNG", compress_level=PNG_LEVEL, dpi=(job.face.dpi, job.face.dpi))
    return thumbnail(first)
