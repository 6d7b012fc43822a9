"""Faces laid out once for more than one output.

Laying out a face costs far more than drawing it, and a build shows the same face in several outputs: the
print-shop PDFs and PNGs, the home PDFs and the site. Laying out is deterministic, so a face laid out for
one output is the face any other output would lay out with the same card and bleed; handing it over changes
no output, only what it costs.

- ``SharedFaces`` hands each face a ``Faces`` lays out to a receiver in this process as well (the print
  shop's PNG painter).
- A ``FaceSpool`` hands them to a forked worker: the build draws the home PDFs while a worker writes the site,
  which shows the same fronts cut at the trim. The build appends each front it lays out to a file (it never
  waits on the worker); the worker's ``SpooledFaces`` reads a front from it when the build has laid it out, waits
  for it when the build will and has not yet, and lays out itself any other face, or every face once the
  build has stopped laying out (``close``), whatever the reason.

A spool frame is a header (the payload's and the key's lengths), the key (a card id, UTF-8) and the pickled
display list; a frame with an empty key ends the spool. The worker keeps only where each frame it has passed
over lies, so its memory does not grow with the deck, whatever order the two go through the cards in.
"""
from __future__ import annotations

import os
import pickle
import struct
import time
from dataclasses import dataclass
from pathlib import Path

from .displaylist import DisplayList

_HEAD = struct.Struct("<QI")  # payload length, key length
_KEY_MAX = 4096  # bytes of a key read with its header (a card id is short; a longer key is read apart)
_POLL = 0.0005  # seconds between looks at a spool the build has not yet written far enough


class SharedFaces:
    """A game's ``Faces`` whose fronts and backs are handed to ``receiver`` (``front(card, bleed, display)``,
    ``back(deck, bleed, display)``) as they are laid out; everything else is the wrapped ``Faces``'."""

    def __init__(self, faces, receiver):
        self._faces = faces
        self._receiver = receiver

    def front(self, card, bleed: float = 0.0) -> DisplayList:
        display = self._faces.front(card, bleed)
        self._receiver.front(card, bleed, display)
        return display

    def back(self, deck, bleed: float = 0.0) -> DisplayList:
        display = self._faces.back(deck, bleed)
        self._receiver.back(deck, bleed, display)
        return display

    def __getattr__(self, name: str):
        return getattr(self._faces, name)


@dataclass(frozen=True)
class FaceSpool:
    """Where one process hands the fronts it lays out at ``bleed`` to a worker it forks after making this:
    ``path`` (a new file in a folder of the build's own), the ids of the cards whose fronts it will lay out
    (``expected``: a worker waits for those and lays out the rest itself) and the writer's process id."""

    path: Path
    bleed: float
    expected: frozenset[str]
    writer_pid: int

    @classmethod
    def create(cls, path: Path, bleed: float, expected) -> "FaceSpool":
        path.touch(exist_ok=False)
        return cls(path, bleed, frozenset(expected), os.getpid())


class SpoolWriter:
    """The writing end, a ``SharedFaces`` receiver: each front laid out at the spool's bleed, appended."""

    def __init__(self, spool: FaceSpool):
        self._spool = spool
        self._fd = os.open(spool.path, os.O_WRONLY | os.O_APPEND)

    def front(self, card, bleed: float, display: DisplayList) -> None:
        if self._fd is not None and bleed == self._spool.bleed and card.id in self._spool.expected:
            self._write(card.id.encode("utf-8"), pickle.dumps(display, pickle.HIGHEST_PROTOCOL))

    def back(self, deck, bleed: float, display: DisplayList) -> None:
        pass  # one a deck: the worker lays its backs out itself

    def close(self) -> None:
        """The end of the spool: the worker lays out itself whatever it has not found by then."""
        if self._fd is not None:
            self._write(b"", b"")
            os.close(self._fd)
            self._fd = None

    def _write(self, key: bytes, payload: bytes) -> None:
        os.write(self._fd, _HEAD.pack(len(payload), len(key)) + key + payload)  # a reader handles a part-written frame


class SpooledFaces:
    """A forked worker's ``Faces``: the fronts the spool's writer lays out are read from the spool; every other
    face is laid out here. Everything else is the wrapped ``Faces``'."""

    def __init__(self, faces, spool: FaceSpool):
        self._faces = faces
        self._spool = spool
        self._fd = os.open(spool.path, os.O_RDONLY)
        self._offset = 0  # where the next frame not yet passed over starts
        self._passed: dict[str, tuple[int, int]] = {}  # key -> (offset, length) of a payload passed over
        self._ended = False

    def front(self, card, bleed: float = 0.0) -> DisplayList:
        if bleed == self._spool.bleed and card.id in self._spool.expected:
            while True:
                found = self._passed.pop(card.id, None)
                if found is not None:
                    return pickle.loads(os.pread(self._fd, found[1], found[0]))
                if self._ended:
                    break
                if not self._pass_over() and not self._ended:
                    self._wait()
        return self._faces.front(card, bleed)

    def __getattr__(self, name: str):
        return getattr(self._faces, name)

    def _pass_over(self) -> bool:
        """Indexes the frames written completely since the last look; whether there were any."""
        size = os.fstat(self._fd).st_size
        passed = False
        while not self._ended and self._offset + _HEAD.size <= size:
            head = os.pread(self._fd, _HEAD.size + _KEY_MAX, self._offset)
            length, key_length = _HEAD.unpack_from(head)
            start = self._offset + _HEAD.size + key_length
            if start + length > size:  # still being written
                break
            key = head[_HEAD.size:_HEAD.size + key_length] if key_length <= _KEY_MAX \
                else os.pread(self._fd, key_length, self._offset + _HEAD.size)
            if key:
                self._passed[key.decode("utf-8")] = (start, length)
            else:
                self._ended = True
            self._offset = start + length
            passed = True
        return passed

    def close(self) -> None:
        os.close(self._fd)

    def _wait(self) -> None:
        if self._spool.writer_pid not in (os.getppid(), os.getpid()):  # the writer is gone and will write no more
            self._ended = True
        else:
            time.sleep(_POLL)
