"""A one-line progress bar with the rate and the time left, drawn on a terminal and silent anywhere else."""
from __future__ import annotations

import sys
import time

WIDTH = 28
EVERY = 0.1  # seconds between redraws


def clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def bar_line(done: int, total: int, elapsed: float) -> str:
    """``[#########---------]  4,200/9,000 games  1,234 games/s  0:04 left``"""
    share = done / total if total else 1.0
    filled = int(share * WIDTH)
    rate = done / elapsed if elapsed > 0 else 0.0
    left = clock((total - done) / rate) if rate > 0 else "?"
    return f"[{'#' * filled}{'-' * (WIDTH - filled)}] {done:,}/{total:,} games  {rate:,.0f} games/s  {left} left"


class Progress:
    def __init__(self, total: int, stream=None, now=time.monotonic):
        self.total, self.stream, self.now = total, stream or sys.stderr, now
        self.shown = bool(getattr(self.stream, "isatty", lambda: False)())
        self.done = 0
        self.start = self.last = now()

    def add(self, games: int) -> None:
        self.done += games
        if self.shown and (self.now() - self.last >= EVERY or self.done >= self.total):
            self.last = self.now()
            self.stream.write("\r" + bar_line(self.done, self.total, self.last - self.start))
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")  # the bar goes; the table takes its place
            self.stream.flush()
