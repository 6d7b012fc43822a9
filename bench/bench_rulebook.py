#!/usr/bin/env python3
"""What the printable rulebooks add to ``deckwright build`` (target: under 3 s for the five bundled games).

    .venv/bin/python bench/bench_rulebook.py [--repeat N] [--paper a4|letter] [GAME_FOLDER ...]
    .venv/bin/python bench/bench_rulebook.py --in-build [--repeat N]

Loading, checking (the examples' replay) and compiling the layouts are not counted: the build does them
for the card PDFs and the site anyway, and the rulebook reuses them. Counted is ``write_rulebooks``: the
full-page PDF, the booklet and the print-shop pages of each game, written here one after another. Prints,
per game and in total, the best wall-clock time of N runs and the processor time of that run, and the
machine's load average, which on a shared machine explains most of the spread.

The build writes each game's rulebooks in a worker process while it draws that game's card PDFs
(``generator.parallel.run_beside``), so what they add to its wall clock is not the serial figure: ``--in-build`` times
whole builds of the bundled games, with the rulebooks and without (``in_build``), and how long the builds
waited for the workers.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from in_build import cpu_seconds  # noqa: E402

from deckwright.generator import BUNDLED_GAMES  # noqa: E402
from deckwright.generator.layout.faces import Faces  # noqa: E402
from deckwright.generator.outputs.rulebook import write_rulebooks  # noqa: E402
from deckwright.rules.book.examples import replay_game_examples  # noqa: E402
from deckwright.rules.load import bundled_games, load_game  # noqa: E402

# Measured with this script on the shared 2-core machine before the speed branch (commit b9d5094: every
# print-shop page drawn a second time, the example panels parsed on every wrap), best of 3 runs per game.
BEFORE = "28.41 s wall, 10.96 s processor (load average 8.4)"


def in_build(repeat: int) -> None:
    """Whole builds with and without the rulebooks; besides, how long the builds with them waited for the
    rulebook workers (from the end of a game's card PDFs to its rulebooks' end, and starting the worker):
    the wall-clock time they add when a core is free. On a busy machine the workers also slow the card PDFs
    down, which only the whole builds' difference shows."""
    import contextlib
    from unittest import mock

    from in_build import report_added

    from deckwright.generator.outputs.rulebook import run_beside

    waits: list[tuple[float, float]] = []  # per game: (starting the worker, waiting for it), seconds

    @contextlib.contextmanager
    def timed_beside(job, name):
        start = time.perf_counter()
        with run_beside(job, name):
            started = time.perf_counter() - start
            yield
            done = time.perf_counter()
        waits.append((started, time.perf_counter() - done))

    with mock.patch("deckwright.generator.outputs.rulebook.run_beside", timed_beside):
        report_added("the rulebooks", lambda: mock.patch(
            "deckwright.generator.build.rulebooks_beside_steps", lambda *a, **k: contextlib.nullcontext()),
            repeat)
    games = len(waits) // repeat
    builds = [waits[i:i + games] for i in range(0, len(waits), games)]
    best = min(builds, key=lambda build: sum(s + w for s, w in build))
    print(f"  waited for the rulebook workers:  {sum(w for _, w in best):6.2f} s wall, starting them "
          f"{sum(s for s, _ in best):5.2f} s (the best of {repeat} builds; per game: "
          + ", ".join(f"{w:.2f}" for _, w in best) + ")")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
    parser.add_argument("--in-build", action="store_true", help="time whole builds with and without the rulebooks")
    parser.add_argument("folders", nargs="*", type=Path, help="game folders (default: every bundled game)")
    args = parser.parse_args()
    if args.in_build:
        in_build(args.repeat)
        return 0

    prepared = []
    for folder in args.folders or bundled_games(BUNDLED_GAMES):
        game = load_game(folder)
        prepared.append((game, Faces(game), replay_game_examples(game)))

    total_wall = total_cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for game, faces, results in prepared:
            runs = []
            for run in range(args.repeat):
                out = Path(tmp) / f"{game.slug}-{run}"
                cpu, wall = cpu_seconds(), time.perf_counter()
                files = write_rulebooks(game, faces, results, out, args.paper)
                runs.append((time.perf_counter() - wall, cpu_seconds() - cpu))
            wall, cpu = min(runs)
            total_wall += wall
            total_cpu += cpu
            pages = ", ".join(f"{f.name} {f.stat().st_size // 1024} KB" for f in files)
            print(f"{game.slug:16} {wall:5.2f} s wall, {cpu:5.2f} s processor  ({pages})")
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"all {len(prepared)} games:   {total_wall:5.2f} s wall, {total_cpu:5.2f} s processor, best of {args.repeat} "
          f"runs each; target < 3 s: {'met' if total_wall < 3 else 'NOT met'} (load average {load} "
          f"on {os.cpu_count()} cores)")
    if not args.folders and args.paper == "a4":
        print(f"before the speed branch:  {BEFORE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
