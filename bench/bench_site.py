#!/usr/bin/env python3
"""Site build time for every bundled game (target: under 2 s).

    .venv/bin/python bench/bench_site.py [--repeat N] [GAME_FOLDER ...]

Prints the time to load and check the games (not counted against the target:
``deckwright build`` does that for every output) and the time to write the
site from them, the best of N runs, with the page and card counts.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deckwright.generator import BUNDLED_GAMES  # noqa: E402
from deckwright.generator.layout.files import LayoutError  # noqa: E402
from deckwright.generator.site import build_site  # noqa: E402
from deckwright.rules.ci.check import check_game  # noqa: E402
from deckwright.rules.load import bundled_games, load_game_with_warnings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("folders", nargs="*", type=Path, help="game folders (default: every bundled game)")
    args = parser.parse_args()

    start = time.perf_counter()
    games, reports = [], {}
    for folder in args.folders or bundled_games(BUNDLED_GAMES):
        game, problems = load_game_with_warnings(folder)
        if game is None:
            print(f"{folder.name}: skipped, it does not load ({len(problems.errors)} error(s))")
            continue
        games.append(game)
        reports[game.slug] = check_game(folder)
    checked = time.perf_counter() - start

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.repeat):
            start = time.perf_counter()
            try:
                pages = build_site(games, Path(tmp) / "site", reports)
            except LayoutError as exc:
                print(f"site not built: {exc}")
                return 1
            times.append(time.perf_counter() - start)
        size = sum(p.stat().st_size for p in (Path(tmp) / "site").rglob("*") if p.is_file())

    cards = sum(len(g.cards) for g in games)
    print(f"games: {len(games)} ({', '.join(g.slug for g in games)}), {cards} different cards, {len(pages)} pages, "
          f"{size / 1e6:.1f} MB")
    print(f"load + check: {checked:.2f} s")
    print(f"site build:   {min(times):.2f} s best of {len(times)} (runs: {', '.join(f'{t:.2f}' for t in times)}); "
          f"target < 2 s: {'met' if min(times) < 2 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
