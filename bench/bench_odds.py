#!/usr/bin/env python3
"""Time to work out every bundled game's exact odds tables (``odds(rules)``), the best of N runs.

    .venv/bin/python bench/bench_odds.py [--repeat N]

The site and every card build compute them (the Odds page, ``data.odds`` in layouts), so they must stay
small next to a build; prints per game the tables, their cells and the milliseconds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deckwright.generator import BUNDLED_GAMES  # noqa: E402
from deckwright.rules.games import rules_module  # noqa: E402
from deckwright.rules.load import bundled_games, load_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each table; the best is shown (default 5)")
    args = parser.parse_args()
    total = 0.0
    for folder in bundled_games(BUNDLED_GAMES):
        game = load_game(folder)
        module = rules_module(game)
        if getattr(module, "odds", None) is None:
            continue
        rules = module.prepare(game)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            tables = module.odds(rules)
            best = min(best, time.perf_counter() - start)
        cells = sum(len(row.cells) for table in tables.values() for row in table.rows)
        total += best
        print(f"{game.slug:16} {len(tables):2} tables {cells:5} cells {best * 1000:8.1f} ms")
    print(f"{'all':16} {'':17} {total * 1000:8.1f} ms (best of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
