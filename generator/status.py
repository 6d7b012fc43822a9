"""What a build is doing, on a terminal: one status line (``g20000: the printed rulebook... 41 s``), rewritten
at each stage and erased before any other line is printed and at the end.

A game of 20,000 cards takes over a minute to build, silent until its last lines without this. Only a terminal
gets it (the stream a tty, ``TERM`` not "dumb"): a pipe, a log file or CI output holds exactly the lines it held
before.
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from typing import TextIO

from deckwright.rules.problems import printable

_ERASE = "\r\x1b[K"  # back to the line's start, and clear it


class Status:
    def __init__(self, stream: TextIO | None = None):
        stream = stream if stream is not None else sys.stderr
        stream = getattr(stream, "stream", stream)  # under cli.PrintableStream: the terminal, for the erase code
        shown = bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"
        self.stream = stream if shown else None
        self.started = time.monotonic()
        self.showing = False

    def stage(self, text: str) -> None:
        """The line now reads ``text``, with the seconds since the build began."""
        if self.stream is None:
            return
        line = f"{text}... {time.monotonic() - self.started:.0f} s"
        width = max(20, shutil.get_terminal_size().columns - 1)  # a longer line would wrap and not be erased
        self.stream.write(_ERASE + printable(line if len(line) <= width else line[:width - 1] + "\u2026"))
        self.stream.flush()
        self.showing = True

    def clear(self) -> None:
        """Erased: before another line is printed, and when the build ends."""
        if self.showing:
            self.stream.write(_ERASE)
            self.stream.flush()
            self.showing = False
