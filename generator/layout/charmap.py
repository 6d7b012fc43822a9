"""Whether a font's character map ('cmap' table) is sane enough to hand to ReportLab.

ReportLab's TrueType reader (``TTFontFile.extractInfo``) makes a dictionary entry for every code point of
the subtable it picks, looping over each group's range: a crafted font whose one format-12 group claims
71 million characters fills all memory from a 435 KB file. So before ReportLab sees a game's font, every
subtable of every encoding record is read here (the OpenType spec's "cmap" chapter) and the code points
ReportLab would loop over are counted: more than Unicode has (U+0000 .. U+10FFFF, 1,114,112) is refused, as
is a range past U+10FFFF or one that ends before it starts. A subtable of a format ReportLab does not read
(8, 14) costs it nothing: it refuses those itself.
"""
from __future__ import annotations

import struct

UNICODE_CODE_POINTS = 0x110000  # U+0000 .. U+10FFFF: no honest character map maps more
_LAST = UNICODE_CODE_POINTS - 1


class CmapProblem(ValueError):
    pass


def cmap_problem(data: bytes, directory: dict[bytes, tuple[int, int]]) -> str | None:
    """Why ReportLab must not read this font's character map (a clause for "is not a readable TrueType font:
    ..."), or None."""
    where = directory.get(b"cmap")
    if where is None:
        return None  # ReportLab refuses a font without one itself
    start, length = where
    table = memoryview(data)[start:start + length]
    try:
        for offset in _subtable_offsets(table):
            _check(_code_points(table, offset))
    except CmapProblem as exc:
        return str(exc)
    except struct.error:
        return "its character map ('cmap' table) is cut short"
    return None


def _subtable_offsets(table) -> set[int]:
    version, count = struct.unpack_from(">HH", table, 0)
    if count == 0 and version != 0:  # ReportLab reads the two the other way round in that case
        count = version
    return {struct.unpack_from(">HHL", table, 4 + 8 * index)[2] for index in range(count)}


def _check(count: int) -> None:
    if count > UNICODE_CODE_POINTS:
        raise CmapProblem(f"its character map claims {count:,} characters; a font maps at most "
                          f"{UNICODE_CODE_POINTS:,}")


def _code_points(table, offset: int) -> int:
    """How many code points ReportLab would loop over reading the subtable at ``offset`` (0 for a format it
    refuses); CmapProblem for a range outside Unicode, as soon as one is seen."""
    fmt = struct.unpack_from(">H", table, offset)[0]
    if fmt in (12, 13):
        groups = struct.unpack_from(">L", table, offset + 12)[0]
        total = 0
        for index in range(groups):
            first, last = struct.unpack_from(">LL", table, offset + 16 + 12 * index)
            if last > _LAST or first > last:
                why = "past the last code point, U+10FFFF" if last > _LAST else "ending before it starts"
                raise CmapProblem(f"its character map (format {fmt}) has a range U+{first:04X} .. U+{last:04X}, {why}")
            total += last - first + 1
            _check(total)  # also stops a file of a million groups early
        return total
    if fmt == 4:
        segments = struct.unpack_from(">H", table, offset + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", table, offset + 14)
        starts = struct.unpack_from(f">{segments}H", table, offset + 16 + 2 * segments)
        return sum(max(0, last - first + 1) for first, last in zip(starts, ends))
    if fmt == 10:
        return struct.unpack_from(">L", table, offset + 16)[0]  # a glyph for each, one after another
    if fmt == 2:
        keys = struct.unpack_from(">256H", table, offset + 6)
        # ReportLab takes a subheader key as the subheader's index; entryCount is its second field
        return 256 + sum(struct.unpack_from(">H", table, offset + 520 + 8 * key)[0] for key in keys if key)
    return 0  # formats 0 and 6 hold at most 65,536 entries; others ReportLab refuses
