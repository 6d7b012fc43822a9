#!/usr/bin/env python3
"""What the online-play exports (``--target tts`` and ``sprites``) add to a build (target: under 5 s for all games).

    .venv/bin/python bench/bench_tabletop.py [--repeat N] [--image-format png|jpeg] [GAME_FOLDER ...]
    .venv/bin/python bench/bench_tabletop.py --in-build [--repeat N]

Loading the games and reading their layouts is not counted (``deckwright build`` does that once for
every output); the figure is the export step itself, drawing every face and writing the images, saved
objects and manifests, the best of N runs, per game and in total: the wall-clock time, and the processor
time of this process and its workers (steadier on a shared machine; the load average says how shared).
``--in-build`` times whole builds of the bundled games instead, with the exports and without (``in_build``).
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
from deckwright.generator.build import BuildOptions  # noqa: E402
from deckwright.generator.layout.faces import Faces  # noqa: E402
from deckwright.generator.outputs.tabletop_step import step_tabletop  # noqa: E402
from deckwright.generator.render.png import fastest_deflate  # noqa: E402
from deckwright.rules.load import bundled_games, load_game_with_warnings  # noqa: E402

# Measured with this script on the shared 2-core machine before the speed branch (commit b9d5094: Pillow's
# PNG writer, each deck's back drawn again for its own image), best of 3.
BEFORE = "37.03 s wall, 9.75 s processor (load average 13.2)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--image-format", choices=("png", "jpeg"), default="png")
    parser.add_argument("--in-build", action="store_true", help="time whole builds with and without the exports")
    parser.add_argument("folders", nargs="*", type=Path, help="game folders (default: every bundled game)")
    args = parser.parse_args()
    print(f"PNG files deflated by {fastest_deflate().name}")
    if args.in_build:
        from unittest import mock

        from in_build import report_added

        report_added("the tts/sprites step", lambda: mock.patch(
            "deckwright.generator.outputs.tabletop_step.step_tabletop", lambda *a, **k: None), args.repeat)
        return 0

    games = []
    for folder in args.folders or bundled_games(BUNDLED_GAMES):
        game, problems = load_game_with_warnings(folder)
        if game is None:
            print(f"{folder.name}: skipped, it does not load ({len(problems.errors)} error(s))")
            continue
        games.append((game, Faces(game)))

    best: dict[str, float] = {}
    cpu: dict[str, float] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        options = BuildOptions(out=Path(tmp), image_format=args.image_format)
        for run in range(args.repeat):
            for game, faces in games:
                folder = Path(tmp) / f"{game.slug}-{run}"
                folder.mkdir()
                start, start_cpu = time.perf_counter(), cpu_seconds()
                step_tabletop(game, folder, options, faces)
                elapsed, used = time.perf_counter() - start, cpu_seconds() - start_cpu
                best[game.slug] = min(best.get(game.slug, elapsed), elapsed)
                cpu[game.slug] = min(cpu.get(game.slug, used), used)
                sizes[game.slug] = sum(p.stat().st_size for p in (folder / "tts").rglob("*") if p.is_file())
    print()
    for game, _ in games:
        print(f"{game.slug:<16} {best[game.slug]:6.2f} s   processor {cpu[game.slug]:6.2f} s   "
              f"tts/ {sizes[game.slug] / 1e6:5.1f} MB")
    print(f"{'all games':<16} {sum(best.values()):6.2f} s   processor {sum(cpu.values()):6.2f} s   "
          f"(best of {args.repeat}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; target < 5 s)")
    if not args.folders and args.image_format == "png":
        print(f"{'before':<16} {BEFORE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
