"""A simulation's progress bar: tqdm's, with the games done, the rate and the time left, drawn on a terminal
and silent anywhere else (a pipe, a CI log)."""
from __future__ import annotations

import sys

from tqdm import tqdm

LOOK = "{percentage:3.0f}% |{bar}| {n:,}/{total:,} games  {rate_fmt}  {remaining} left"


class _Bar(tqdm):
    monitor_interval = 0  # no monitor thread: the process pool forks while the bar is up


class Progress:
    """Games finished so far, counted by the caller as its results arrive."""

    def __init__(self, total: int, stream=None, every: float = 0.1):
        stream = stream or sys.stderr
        shown = bool(getattr(stream, "isatty", lambda: False)())
        self.bar = _Bar(total=total, file=stream, disable=not shown, leave=False, unit=" games",
                        unit_scale=True, bar_format=LOOK, mininterval=every, miniters=1, smoothing=0,
                        dynamic_ncols=True)  # smoothing 0: the rate over the whole run, as results come in chunks

    def add(self, games: int) -> None:
        self.bar.update(games)

    def close(self) -> None:
        self.bar.close()  # the bar goes (leave=False): the table takes its place
