"""PNG files written straight from an image's pixels, for the print shop's PNGs and the online-play sheet images.

Pillow's PNG writer tries the five row filters on every row and keeps the best; on flat card art that
search costs more than the compression itself and saves little: at zlib level 3 the 10 x 7 tarot sheet is
0.78 MB with it and 0.81 MB without, all five bundled games' sheet images 5.9 MB with it and 5.8 MB
without, written in about half the time. Here every row is stored unfiltered and the whole image deflated
as one stream, straight from the pixels Pillow packs (no row copied in Python: a print-shop card's PNG in
1.7-2.2 ms instead of 3.7-4.5 with ISA-L).

The deflating is zlib's at level 3, or, with the ``png`` extra installed, ISA-L's (``isal``) at its level
2: a print-shop poker card at 300 dpi in 2.4 ms instead of 10.4, 83 KB instead of 77. The pixels are the
same on every run. The bytes are too with zlib; ISA-L has once in many test runs deflated the same rows to
a stream two bytes shorter (the cause was not found: repeated in a loop, it gives the same bytes), so the
tests compare the pixels of PNG files, not their bytes.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOR_TYPES = {"L": 0, "RGB": 2, "RGBA": 6}  # 8 bits a sample


@dataclass(frozen=True)
class Deflate:
    """A zlib-format compressor and the level it is used at."""

    name: str
    compressobj: Callable[[int], object]  # as zlib.compressobj(level)
    level: int


ZLIB = Deflate("zlib, level 3", zlib.compressobj, 3)


@cache
def fastest_deflate() -> Deflate:
    """ISA-L's deflate when the ``isal`` package is installed, otherwise zlib's."""
    try:
        from isal import isal_zlib
    except ImportError:
        return ZLIB
    return Deflate("ISA-L, level 2", isal_zlib.compressobj, 2)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(image, dpi: float | None = None, deflate: Deflate | None = None) -> bytes:
    """``image`` (a Pillow image in mode L, RGB or RGBA) as a PNG file; ``dpi`` is recorded as Pillow does.
    ``deflate``: ``fastest_deflate()`` unless given."""
    if image.mode not in COLOR_TYPES:
        raise ValueError(f"no PNG writer for mode {image.mode}")
    deflate = deflate or fastest_deflate()
    width, height = image.size
    stride = width * len(image.mode)
    # Pillow's raw encoder pads each row to the stride it is given with a zero byte: after one more zero first,
    # that is each row after its filter-type byte (0, none), less the last row's padding
    padded = memoryview(image.tobytes("raw", image.mode, stride + 1))
    stream = deflate.compressobj(deflate.level)
    deflated = stream.compress(b"\0") + stream.compress(padded[:-1]) + stream.flush()
    chunks = [_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, COLOR_TYPES[image.mode], 0, 0, 0))]
    if dpi:
        per_metre = int(dpi / 0.0254 + 0.5)
        chunks.append(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
    chunks += [_chunk(b"IDAT", deflated), _chunk(b"IEND", b"")]
    return SIGNATURE + b"".join(chunks)


def save_png(image, path: Path, dpi: float | None = None, deflate: Deflate | None = None) -> None:
    Path(path).write_bytes(png_bytes(image, dpi, deflate))
