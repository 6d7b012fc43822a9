"""Bytes kept in an unnamed temporary file instead of in memory, read back by their place in it.

A site holds every card's picture from planning its pages (which need each picture's size) until it writes the
last page that shows it: for 20,000 poker cards some 12 MB even compressed (37 MB as the spool keeps them,
uncompressed: site/cards.py), more than the rest of the site worker's own memory; and every card's alt text (its
name and every value: 8 MB), which each page and each printable part shows. Spooled, they cost the operating
system's file cache, not the process, and a page reads back only the pictures it shows. The file has no name (it is gone when the process ends or the spool is
collected) and is written by appending only.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass


class Spool:
    def __init__(self):
        self._file = tempfile.TemporaryFile(buffering=0)
        self._end = 0

    def keep_text(self, text: str) -> "SpooledText":
        kept = self.keep(text.encode("utf-8"))
        return SpooledText(self, kept.offset, kept.size)

    def keep(self, data: bytes) -> "Spooled":
        offset = self._end
        os.pwrite(self._file.fileno(), data, offset)
        self._end += len(data)
        return Spooled(self, offset, len(data))

    def read(self, offset: int, size: int) -> bytes:
        return os.pread(self._file.fileno(), size, offset)


@dataclass(frozen=True, slots=True)
class Spooled:
    """Where some bytes are in a spool (the spool stays open while anything refers to it)."""

    spool: Spool
    offset: int
    size: int

    def read(self) -> bytes:
        return self.spool.read(self.offset, self.size)


@dataclass(frozen=True, slots=True)
class SpooledText:
    """Text in a spool that reads as itself where a page shows it (``str()``, as Jinja2 does for any value: it
    is escaped like a string, as it has no ``__html__``)."""

    spool: Spool
    offset: int
    size: int

    def __str__(self) -> str:
        return self.spool.read(self.offset, self.size).decode("utf-8")
