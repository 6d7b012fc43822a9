"""What one output adds to a whole ``deckwright build``: the build timed as it is and with that output's
step left out, for the bench scripts' ``--in-build`` option.

Each build writes every bundled game (all targets) and the site into a fresh folder; the figures are the
best of ``repeat`` builds each way, wall clock and processor seconds (this process and its finished workers,
so work spread over the cores counts in full).
"""
from __future__ import annotations

import contextlib
import io
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Callable, ContextManager

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.build import BuildOptions, build_games
from deckwright.rules.load import bundled_games, load_game


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed_build(games, out: Path) -> tuple[float, float]:
    cpu, wall = cpu_seconds(), time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        build_games(games, BuildOptions(out=out))
    return time.perf_counter() - wall, cpu_seconds() - cpu


def report_added(name: str, without: Callable[[], ContextManager], repeat: int) -> None:
    """Prints the build's best wall and processor time with and without the step ``without()`` leaves out."""
    games = [load_game(folder) for folder in bundled_games(BUNDLED_GAMES)]
    runs: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(repeat):
            runs["with"].append(_timed_build(games, Path(tmp) / f"with-{run}"))
            with without():
                runs["without"].append(_timed_build(games, Path(tmp) / f"without-{run}"))
    best = {kind: (min(w for w, _ in times), min(c for _, c in times)) for kind, times in runs.items()}
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"whole build, {len(games)} games and the site, best of {repeat}:")
    for kind in ("with", "without"):
        print(f"  {kind:<8}{name:<22} {best[kind][0]:6.2f} s wall, {best[kind][1]:6.2f} s processor")
    print(f"  added by {name:<19} {best['with'][0] - best['without'][0]:6.2f} s wall, "
          f"{best['with'][1] - best['without'][1]:6.2f} s processor (load average {load} on {os.cpu_count()} cores)")
