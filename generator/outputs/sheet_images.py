"""The images ``deck_sheets`` plans, drawn by the PNG painter from the same display lists as the print.

Every face, back and sheet is drawn once (cut at the trim, no bleed), then pasted into its slots;
drawing and encoding are both spread over the cores.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deckwright.generator.layout.faces import Faces
from deckwright.generator.parallel import process_map
from deckwright.generator.render.raster import draw_images

from .deck_sheets import DeckImages, SheetImage

FORMATS = ("png", "jpeg")
EXTENSIONS = {"png": "png", "jpeg": "jpg"}
JPEG_QUALITY = 95  # with full-resolution colour (no 4:2:0 subsampling), so small coloured text stays sharp
THUMBNAIL = 256  # px, the longer side of a saved object's picture


@dataclass
class DrawnImages:
    """Every image of a game's export, by file name, in the order written."""

    images: dict[str, object]  # file name -> Pillow image
    dpi: dict[str, float]  # file name -> the resolution it is drawn at
    first_faces: dict[str, object]  # deck id -> its first card's face, for pictures of the deck


def thumbnail(image):
    """A small copy (at most ``THUMBNAIL`` px each way), e.g. the picture Tabletop Simulator shows for a saved object."""
    from PIL import Image

    scale = THUMBNAIL / max(image.size)
    return image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.LANCZOS)


def draw(faces: Faces, decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...]) -> DrawnImages:
    """Every deck's face sheets and back, and every sheet, as Pillow images named by their files."""
    from PIL import Image

    jobs = []  # (display list, dpi), each face drawn once
    for plan in decks:
        jobs.append((faces.back(plan.deck), plan.card.dpi))
        jobs.extend((faces.front(card), plan.card.dpi) for sheet in plan.sheets for card in sheet.cards)
    jobs.extend((faces.sheet(item.sheet), item.pixels.dpi) for item in sheets)
    drawn = iter(draw_images(jobs))
    images: dict[str, object] = {}
    dpi: dict[str, float] = {}
    first_faces: dict[str, object] = {}
    for plan in decks:
        back = next(drawn)
        images[plan.back_file] = back
        dpi[plan.back_file] = plan.card.dpi
        for sheet in plan.sheets:
            canvas = Image.new("RGB", sheet.size, "#ffffff")
            for slot, _ in enumerate(sheet.cards):
                face = next(drawn)
                first_faces.setdefault(plan.deck.id, face)
                canvas.paste(face, sheet.box(slot)[:2])
            canvas.paste(back, sheet.box(sheet.hidden_slot)[:2])
            images[sheet.file] = canvas
            dpi[sheet.file] = plan.card.dpi
    for item in sheets:
        images[item.file] = next(drawn)
        dpi[item.file] = item.pixels.dpi
    return DrawnImages(images, dpi, first_faces)


def save_images(drawn: DrawnImages, folder: Path, image_format: str) -> None:
    """Writes each image into ``folder`` under its name (PNG or JPEG), side by side over the cores."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(image, folder / name, drawn.dpi[name]) for name, image in drawn.images.items()]
    process_map(partial(_save, image_format=image_format), jobs)


def _save(job, image_format: str) -> None:
    image, path, dpi = job
    if image_format == "jpeg":
        image.save(path, "JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=(dpi, dpi))
    else:
        image.save(path, "PNG", dpi=(dpi, dpi))
