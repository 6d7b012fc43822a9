"""Finished PDFs of this program joined into one file, their pages copied as they are, not drawn again.

``everything.pdf`` holds the pages of every ``deck-*.pdf`` and of ``sheets.pdf``: rather than laying out and
drawing each card a second time, ``join_pdfs`` copies each page object with everything it refers to (its
content stream, fonts, forms, pictures) from the finished files, renumbered, under one page tree, with an
outline and document information of its own.

It reads only what ``generator.render.pdf.new_canvas`` writes (ReportLab: a classic cross-reference table,
no object streams, a flat page tree) and refuses anything else (``JoinError``). Each part keeps its own
fonts: a font's subset codes belong to the file that wrote them, so they are never merged.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

_REF_OR_STRING = re.compile(rb"\((?:\\.|[^\\)])*\)|(\d+) 0 R")  # a string is skipped: its text is not a reference
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_TRAILER_ROOT = re.compile(rb"/Root (\d+) 0 R")
_PAGES = re.compile(rb"/Pages (\d+) 0 R")
_KIDS = re.compile(rb"/Kids \[([^\]]*)\]")
_HEIGHT = re.compile(rb"/MediaBox \[ [-\d.]+ [-\d.]+ [-\d.]+ ([-\d.]+) \]")


class JoinError(Exception):
    """A file that is not the kind of PDF this module reads."""


@dataclass(frozen=True)
class Part:
    """One finished PDF and its outline entries: (title, page index in that file)."""

    path: Path
    outline: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class _Objects:
    """A finished PDF's objects by number, each read from the file when asked for: the file is never held whole
    (a 20,000-card deck file is 6 MB, and everything.pdf copies it)."""

    handle: BinaryIO
    spans: dict[int, tuple[int, int]]  # object number -> (start, end) in the file

    def __getitem__(self, number: int) -> bytes:
        start, end = self.spans[number]
        self.handle.seek(start)
        return self.handle.read(end - start)


@dataclass(frozen=True)
class _Source:
    """A finished PDF read: each object's bytes from ``N 0 obj`` to the next object, and its pages in order."""

    objects: _Objects
    tree: int  # the page tree, every page's parent
    pages: tuple[int, ...]


def split_objects(data: bytes) -> tuple[int, dict[int, bytes], int]:
    """A PDF written by ReportLab split by its cross-reference table: where its first object starts (the header
    ends), each object's bytes by number (from ``N 0 obj`` to the next object), and where the table starts."""
    xref = _xref(data[:8], data[-64:])
    first, spans = _spans(data[xref:], xref)
    return first, {number: data[start:end] for number, (start, end) in spans.items()}, xref


def _xref(head: bytes, end: bytes) -> int:
    """Where the cross-reference table starts, from the file's first bytes and its last 64."""
    found = _STARTXREF.search(end)
    if found is None or not head.startswith(b"%PDF-"):
        raise JoinError("not a PDF with a cross-reference table")
    return int(found.group(1))


def _spans(tail: bytes, xref: int) -> tuple[int, dict[int, tuple[int, int]]]:
    """Where the first object starts, and where each object starts and ends, from ``tail``: the file from its
    cross-reference table (at ``xref``) on."""
    header = tail[:64].split(b"\n")
    if header[0].strip() != b"xref" or header[1].split()[0] != b"0":
        raise JoinError("not a single classic cross-reference table")
    count = int(header[1].split()[1])
    table = tail.index(b"\n", tail.index(b"\n") + 1) + 1
    offsets = {}
    for number in range(1, count):
        entry = tail[table + 20 * number:table + 20 * number + 20]
        if entry[17:18] == b"n":
            offsets[number] = int(entry[:10])
    spans = sorted(offsets.items(), key=lambda item: item[1])
    places = {number: (start, end) for (number, start), (_, end) in zip(spans, [*spans[1:], (0, xref)])}
    return spans[0][1], places


def read_source(handle: BinaryIO) -> _Source:
    """A PDF written by ReportLab, open for reading: its objects (read when asked for) and its pages."""
    head = handle.read(8)
    size = handle.seek(0, os.SEEK_END)
    handle.seek(max(0, size - 64))
    xref = _xref(head, handle.read())
    handle.seek(xref)
    tail = handle.read()
    _, spans = _spans(tail, xref)
    objects = _Objects(handle, spans)
    root = _TRAILER_ROOT.search(tail, tail.find(b"trailer"))
    if root is None:
        raise JoinError("no /Root in the trailer")
    pages = _PAGES.search(_dictionary(objects[int(root.group(1))]))
    kids = _KIDS.search(_dictionary(objects[int(pages.group(1))])) if pages else None
    if kids is None:
        raise JoinError("no flat page tree")
    page_numbers = tuple(int(ref) for ref in re.findall(rb"(\d+) 0 R", kids.group(1)))
    if any(b"/Type /Page\n" not in _dictionary(objects[number]) for number in page_numbers):
        raise JoinError("a nested page tree")
    return _Source(objects, int(pages.group(1)), page_numbers)


def _dictionary(obj: bytes) -> bytes:
    """The part of an object before its stream data (the whole object when it has none)."""
    cut = obj.find(b">>\nstream")
    return obj if cut < 0 else obj[:cut + 2]


def _refs(dictionary: bytes) -> list[int]:
    return [int(match.group(1)) for match in _REF_OR_STRING.finditer(dictionary) if match.group(1)]


def _body(obj: bytes) -> bytes:
    """An object without its ``N 0 obj`` line."""
    return obj[obj.index(b"obj") + 3:].lstrip(b"\r\n")


def _renumbered(obj: bytes, numbers: dict[int, int]) -> bytes:
    body = _body(obj)
    head = _dictionary(body)

    def swap(match: re.Match) -> bytes:
        return match.group(0) if match.group(1) is None else b"%d 0 R" % numbers[int(match.group(1))]

    return _REF_OR_STRING.sub(swap, head) + body[len(head):]


def pdf_text(text: str) -> bytes:
    """A PDF text string: escaped ASCII, or UTF-16 with its byte-order mark."""
    if text.isascii():
        return b"(" + text.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<" + ("\ufeff" + text).encode("utf-16-be").hex().encode("ascii") + b">"


class _Writer:
    """A PDF written object by object, in any order of numbers, their offsets kept for the table."""

    def __init__(self, handle):
        self.handle = handle
        self.offsets: dict[int, int] = {}
        self.position = 0
        self.digest = hashlib.md5()
        self._write(b"%PDF-1.4\n%\x93\x8c\x8b\x9e deckwright\n")

    def _write(self, data: bytes) -> None:
        self.handle.write(data)
        self.position += len(data)
        self.digest.update(data)

    def put(self, number: int, body: bytes) -> None:
        self.offsets[number] = self.position
        self._write(b"%d 0 obj\n" % number + body + (b"" if body.endswith(b"endobj\n") else b"\nendobj\n"))

    def finish(self, root: int, info: int) -> None:
        size = max(self.offsets) + 1
        if sorted(self.offsets) != list(range(1, size)):
            raise AssertionError("every object number from 1 up is written once")
        xref = self.position
        identity = self.digest.hexdigest().encode("ascii")  # from the content: rebuilding writes the same bytes
        table = [b"xref\n0 %d\n0000000000 65535 f \n" % size]
        table += [b"%010d 00000 n \n" % self.offsets[number] for number in range(1, size)]
        table.append(b"trailer\n<<\n/ID [<%s><%s>] /Info %d 0 R /Root %d 0 R /Size %d\n>>\nstartxref\n%d\n%%%%EOF\n"
                     % (identity, identity, info, root, size, xref))
        self.handle.write(b"".join(table))


def _copy_pages(writer: _Writer, source: _Source, tree: int, next_number: int) -> tuple[list[tuple[int, bytes]], int]:
    """Writes the source's pages and all they refer to, renumbered from ``next_number``, the pages under ``tree``;
    returns (each page's new number and height in points) and the next free number."""
    numbers: dict[int, int] = {}
    queue = list(source.pages)
    while queue:
        number = queue.pop()
        if number in numbers:
            continue
        numbers[number] = next_number
        next_number += 1
        queue.extend(ref for ref in reversed(_refs(_dictionary(source.objects[number]))) if ref != source.tree)
    renumber = {**numbers, source.tree: tree}
    for old, new in sorted(numbers.items(), key=lambda item: item[1]):
        writer.put(new, _renumbered(source.objects[old], renumber))
    placed = []
    for page in source.pages:
        height = _HEIGHT.search(source.objects[page])
        placed.append((numbers[page], height.group(1) if height else b"0"))
    return placed, next_number


def join_pdfs(parts: list[Part], target: Path, title: str, subject: str, duplex: bool = False) -> int:
    """Writes the pages of ``parts``, in order, as one PDF at ``target``; returns its page count.

    The outline is the parts' entries, pointing at their pages; viewers are asked to print at actual size, and
    with ``duplex`` on both sides flipping on the long edge. One part is read at a time."""
    tree = 1
    next_number = 2
    placed: list[tuple[int, bytes]] = []  # (page object number, page height in points), in order
    entries: list[tuple[str, int]] = []  # (title, page object number)
    with open(target, "wb") as handle:
        writer = _Writer(handle)
        for part in parts:
            with open(part.path, "rb") as source:
                pages, next_number = _copy_pages(writer, read_source(source), tree, next_number)
            for name, index in part.outline:
                if not 0 <= index < len(pages):
                    raise JoinError(f"outline entry '{name}' points past the last page of {part.path.name}")
                entries.append((name, pages[index][0]))
            placed.extend(pages)
        catalog, info, outline_root = next_number, next_number + 1, next_number + 2
        kids = b" ".join(b"%d 0 R" % number for number, _ in placed)
        writer.put(tree, b"<<\n/Count %d /Kids [ %s ] /Type /Pages\n>>" % (len(placed), kids))
        # print dialogs offer actual size, not fit to page (the home print's ruler must measure 50 mm)
        preferences = b" /ViewerPreferences << /PrintScaling /None%s >>" % (
            b" /Duplex /DuplexFlipLongEdge" if duplex else b"")
        writer.put(catalog, b"<<\n/Outlines %d 0 R /PageMode /UseNone /Pages %d 0 R /Type /Catalog%s\n>>"
                   % (outline_root, tree, preferences))
        writer.put(info, b"<<\n/Creator (deckwright) /Producer (deckwright \\(ReportLab\\)) /Subject %s /Title %s\n>>"
                   % (pdf_text(subject), pdf_text(title)))
        first, last = outline_root + 1, outline_root + len(entries)
        writer.put(outline_root, b"<<\n/Count %d%s /Type /Outlines\n>>"
                   % (len(entries), b" /First %d 0 R /Last %d 0 R" % (first, last) if entries else b""))
        for number, (name, page) in enumerate(entries, start=first):
            links = (b" /Prev %d 0 R" % (number - 1) if number > first else b"") + \
                (b" /Next %d 0 R" % (number + 1) if number < last else b"")
            writer.put(number, b"<<\n/Dest [ %d 0 R /Fit ] /Parent %d 0 R /Title %s%s\n>>"
                       % (page, outline_root, pdf_text(name), links))
        writer.finish(catalog, info)
    return len(placed)
