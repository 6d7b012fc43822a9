"""What a build is doing, on a terminal: one status line (``g20000: the printed rulebook...``), rewritten at each
stage and erased before any other line is printed and at the end.

A game of 20,000 cards takes over a minute to build, silent until its last lines without this. Only a terminal
gets it (stderr a tty, ``TERM`` not "dumb"): a pipe, a log file or CI output holds exactly the lines it held
before. Whatever else is printed meanwhile (a warning, a rules module's ``print``) erases the line first: under
``deckwright``'s command line, stdout and stderr are ``cli.PrintableStream``s, whose ``before_write`` the status
line sets while it shows.
"""
from __future__ import annotations

import os
import sys
from typing import TextIO

from deckwright.rules.problems import printable

_ERASE = "\r\x1b[K"  # back to the line's start, and clear it


class Status:
    def __init__(self, stream: TextIO | None = None):
        stream = stream if stream is not None else sys.stderr
        terminal = getattr(stream, "stream", stream)  # under cli.PrintableStream: the terminal, for the erase code
        shown = bool(getattr(terminal, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"
        self.stream = terminal if shown else None
        self.showing = False
        self._printers = [printer for printer in (sys.stdout, sys.stderr) if hasattr(printer, "before_write")]

    def stage(self, text: str) -> None:
        """The line now reads ``text...``."""
        if self.stream is None:
            return
        line = f"{text}..."
        width = self._width() - 1  # a longer line would wrap, and the erase code clears only its last row
        self.stream.write(_ERASE + printable(line if len(line) <= width else line[:width - 1] + "\u2026"))
        self.stream.flush()
        self.showing = True
        for printer in self._printers:
            printer.before_write = self.clear

    def clear(self) -> None:
        """Erased: before another line is printed, and when the build ends."""
        if self.showing:
            self.showing = False
            for printer in self._printers:
                printer.before_write = None
            self.stream.write(_ERASE)
            self.stream.flush()

    def _width(self) -> int:
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError, AttributeError):  # not a real terminal's file (a test's stand-in)
            columns = 0
        return max(20, columns) if columns else 80  # (a terminal whose size was never set says 0)
