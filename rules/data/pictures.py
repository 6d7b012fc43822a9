"""The one check of a picture a game folder holds (card art a layout names, a picture in a rulebook page):
inside the game folder (links followed), a regular file of at most ``MAX_IMAGE_BYTES``, a PNG or JPEG that
Pillow reads whole (so a truncated file fails ``check``, not only ``build``), of at most ``MAX_IMAGE_PIXELS``."""
from __future__ import annotations

import errno
import hashlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

from deckwright.rules.problems import clip, did_you_mean

from .confine import MAX_IMAGE_BYTES, FileRefused, confined, read_confined

MAX_IMAGE_PIXELS = 40_000_000  # about 6300 x 6300: an A3 poster at 400 dpi; decoded, 160 MB
IMAGE_FORMATS = ("PNG", "JPEG")
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")


@dataclass(frozen=True)
class ImageFile:
    """A picture that passed the check."""

    path: Path  # resolved: inside the game folder
    width: int  # pixels
    height: int
    digest: str  # SHA-1 of its bytes, hex: the same picture has the same name on every machine
    suffix: str = ".png"  # its format's (.png or .jpg), whatever its file is named: a copy is named by what it is


class _TooManyPixels(Exception):
    pass


def missing(path: Path) -> bool:
    """Whether nothing is at ``path``, not even a broken link; a name no file can have (too long, a NUL byte) is
    missing too, where ``Path.exists`` would raise."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return True
    except OSError as exc:
        return exc.errno == errno.ENAMETOOLONG
    return False


def read_image(root: Path, path: Path, shown: str) -> ImageFile | str:
    """The picture at ``path`` (``shown``: as the game folder names it, for messages), or why it cannot be used."""
    import warnings

    from PIL import Image

    try:
        resolved = confined(root, path)
        data = read_confined(root, resolved, MAX_IMAGE_BYTES)
    except FileRefused as exc:
        if "links outside" in exc.message:
            return f"'{shown}' is outside the game folder"
        if not missing(path):
            return f"'{shown}': {exc.message}"
        return f"no image '{shown}' in the game folder{did_you_mean(shown, pictures_beside(root, path, shown))}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the limit below is lower
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width * height > MAX_IMAGE_PIXELS:
                    raise _TooManyPixels(width, height)
                if image.format not in IMAGE_FORMATS:
                    return f"'{shown}' is a {image.format} image; deckwright reads PNG and JPEG"
                image.load()
    except _TooManyPixels as exc:
        return (f"'{shown}' is {exc.args[0]} x {exc.args[1]} pixels ({exc.args[0] * exc.args[1] / 1e6:.0f} "
                f"megapixels); a picture may have at most {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels")
    except Image.DecompressionBombError as exc:  # far above the limit: Pillow refuses it before saying its size
        pixels = re.search(r"\((\d+) pixels\)", str(exc))
        many = f"{int(pixels.group(1)) / 1e6:.0f} megapixels" if pixels else "more megapixels than Pillow opens"
        return f"'{shown}' has {many}; a picture may have at most {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels"
    except Image.UnidentifiedImageError:  # its message names the in-memory file object, at an address
        return f"'{shown}' is not a PNG or JPEG image deckwright can read (not a picture file)"
    except Exception as exc:  # PIL raises many kinds for broken files (OSError, SyntaxError, ValueError, ...)
        return f"'{shown}' is not a PNG or JPEG image deckwright can read ({clip(str(exc), 80) or type(exc).__name__})"
    return ImageFile(resolved, width, height, hashlib.sha1(data).hexdigest(), picture_suffix(data))


def picture_suffix(data: bytes) -> str:
    """The file name ending of a checked picture's format, from its bytes: ``.png`` or ``.jpg``. A picture
    copied into a site is named by it, not by its own name: a PNG named ``board.html`` must not become a page."""
    return ".png" if data[:8] == b"\x89PNG\r\n\x1a\n" else ".jpg"


def names_a_picture(text: str, root: Path) -> bool:
    """Whether a card's text value is a picture's file name (``art/knight.png``), which a layout draws, rather
    than words to read: it ends as a picture's name does, and has no space or names a picture of the game folder
    ``root``."""
    if not text.lower().endswith(PICTURE_SUFFIXES):
        return False
    if not any(c.isspace() for c in text):
        return True
    try:
        return confined(root, root / text).is_file()
    except (FileRefused, OSError):
        return False


def pictures_beside(root: Path, path: Path, shown: str) -> list[str]:
    """The PNG and JPEG files in the folder of ``path``, named as ``shown`` names its picture (for a
    did-you-mean); none when that folder is not the game's."""
    try:
        folder = confined(root, path.parent)
        names = sorted(entry.name for entry in os.scandir(folder)
                       if entry.name.lower().endswith(PICTURE_SUFFIXES))
    except (FileRefused, OSError):
        return []
    return [(Path(shown).parent / name).as_posix() for name in names]


def check_image(root: Path, src: str) -> tuple[Path, tuple[int, int]] | str:
    """A picture a layout names (relative to the game folder): its resolved path and size in pixels, or why it
    cannot be used."""
    found = read_image(root, root / src, src)
    return found if isinstance(found, str) else (found.path, (found.width, found.height))
