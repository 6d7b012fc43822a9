"""What kind of font file a game supplies, and whether its licence bits let deckwright embed it.

Read straight from the sfnt table directory (the OpenType spec's "Organization of an OpenType Font"):
a 12-byte header (version tag, table count) then 16 bytes a table (tag, checksum, offset, length).
Checksums are not verified: deckwright reads the bytes it needs and ReportLab reads the rest, and
neither trusts a checksum to make a broken file safe.
"""
from __future__ import annotations

import struct

from .charmap import cmap_problem

# OS/2 fsType (https://learn.microsoft.com/typography/opentype/spec/os2#fstype)
RESTRICTED = 0x0002  # "Restricted License embedding": must not be embedded without the owner's permission
NO_SUBSETTING = 0x0100  # may be embedded only whole; deckwright embeds subsets
BITMAP_ONLY = 0x0200  # only the font's bitmaps may be embedded, not its outlines
_USAGE_BITS = 0x000F  # the usage permissions; where several are set (before OS/2 version 3), the least strict applies

_WHAT = "use the TrueType (.ttf) version of the font, with glyf outlines"


def tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    """The sfnt table directory: tag -> (offset, length); ValueError when it is cut short."""
    if len(data) < 12:
        raise ValueError("too short to be a font file")
    count = struct.unpack_from(">H", data, 4)[0]
    if len(data) < 12 + 16 * count:
        raise ValueError("its table directory is cut short")
    out = {}
    for index in range(count):
        tag, _checksum, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        if offset + length > len(data):
            raise ValueError(f"its '{tag.decode('latin-1').strip()}' table runs past the end of the file")
        out[tag] = (offset, length)
    return out


def fs_type(data: bytes, directory: dict[bytes, tuple[int, int]]) -> int:
    """The OS/2 table's fsType (0, installable, for a font without an OS/2 table)."""
    where = directory.get(b"OS/2")
    if where is None or where[1] < 10:
        return 0
    return struct.unpack_from(">H", data, where[0] + 8)[0]


def embedding_problem(data: bytes) -> str | None:
    """Why deckwright cannot embed this font as a subset in a PDF (a sentence saying what to do), or None."""
    tag = data[:4]
    if tag == b"OTTO":
        return f"is OpenType with PostScript (CFF) outlines, which deckwright cannot embed; {_WHAT}"
    if tag in (b"wOFF", b"wOF2"):
        return f"is a WOFF web font, a compressed wrapper deckwright cannot embed; {_WHAT}"
    if tag == b"ttcf":
        return f"is a TrueType collection (.ttc) of several fonts; {_WHAT}, one file per style"
    if tag not in (b"\x00\x01\x00\x00", b"true"):
        return "is not a TrueType font file (it does not start like one); name a .ttf file"
    try:
        directory = tables(data)
    except ValueError as exc:
        return f"is not a readable TrueType font: {exc}"
    if b"glyf" not in directory or b"loca" not in directory:
        return f"has no TrueType (glyf) outlines; {_WHAT}"
    unreadable = cmap_problem(data, directory)
    if unreadable:
        return f"is not a readable TrueType font: {unreadable}"
    bits = fs_type(data, directory)
    if bits & _USAGE_BITS == RESTRICTED:
        return (f"forbids embedding (OS/2 fsType {bits:#06x}: restricted licence); a PDF must carry its fonts, so "
                "use a font whose licence allows embedding (any SIL Open Font License font does)")
    if bits & BITMAP_ONLY:
        return (f"allows only its bitmaps to be embedded (OS/2 fsType {bits:#06x}), not its outlines; "
                "use a font whose licence allows embedding")
    if bits & NO_SUBSETTING:
        return (f"forbids subsetting (OS/2 fsType {bits:#06x}), and deckwright embeds only the letters it uses; "
                "use a font whose licence allows subsetting")
    return None


def vertical_metrics(data: bytes) -> tuple[float, float]:
    """Ascent and descent (positive below the baseline) per point of size, as ReportLab's TrueType reader works
    them out (``TTFontFile.extractInfo``: the OS/2 typographic ascender and descender, or without an OS/2 table
    the head table's glyph box, in thousandths of an em, divided by 1000), without parsing the whole font."""
    directory = tables(data)
    head = directory[b"head"][0]
    units_per_em = struct.unpack_from(">H", data, head + 18)[0]
    os2 = directory.get(b"OS/2")
    if os2 is not None:
        ascender, descender = struct.unpack_from(">hh", data, os2[0] + 68)
    else:
        descender, _, ascender = struct.unpack_from(">hhh", data, head + 38)  # yMin, xMax, yMax
    if units_per_em != 1000:
        per_1000 = 1000 / units_per_em
        ascender, descender = ascender * per_1000, descender * per_1000
    return ascender / 1000, -descender / 1000
