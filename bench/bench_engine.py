#!/usr/bin/env python3
"""Speed of the rules engine core.

    .venv/bin/python bench/bench_engine.py [--games N]

Prints the time to compute the exact distribution of ``3d20+D6`` (median of
many runs; target: under 5 ms), then the seeded random-play rate of every
bundled game whose mechanics module supports random play (``new_game``,
``legal_actions``, ``is_over``, ``zones``), Nightmare Hunt first: games and
decisions per second, with card conservation checked at the end of each game.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckwright.rules.engine.dice import parse_dice  # noqa: E402
from deckwright.rules.engine.randomplay import play  # noqa: E402
from deckwright.rules.games import mechanics_module  # noqa: E402
from deckwright.rules.load import bundled_games, load_game  # noqa: E402

DICE = "3d20+D6"
DICE_TARGET_MS = 5.0
RANDOM_PLAY = ("new_game", "legal_actions", "is_over", "zones", "apply")
MAX_DECISIONS = 5_000
FIRST = "nightmare-hunt"


def bench_dice(runs: int = 200) -> float:
    dice = parse_dice(DICE)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        dice.distribution()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bench_random_play(module, game, games: int) -> tuple[float, float, int]:
    """Games and decisions per CPU second, and the games that did not end within the bound."""
    unfinished = decisions = 0
    start = time.process_time()
    for seed in range(games):
        result = play(module, game, seed, MAX_DECISIONS, check_every=MAX_DECISIONS + 1)
        if result.problems:
            raise SystemExit(f"{game.slug} seed {seed}: {result.problems[0]}")
        unfinished += not result.over
        decisions += result.actions
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, unfinished


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per game (default 1000)")
    args = parser.parse_args()

    ms = bench_dice()
    verdict = "ok" if ms < DICE_TARGET_MS else "MISSES the target"
    print(f"exact distribution of {DICE}: {ms:.3f} ms (target < {DICE_TARGET_MS:g} ms: {verdict})")

    folders = sorted(bundled_games(ROOT / "cards"), key=lambda f: (f.name != FIRST, f.name))
    for folder in folders:
        game = load_game(folder)
        module = mechanics_module(game)
        if module is None or not all(hasattr(module, name) for name in RANDOM_PLAY):
            print(f"{game.slug}: no random play (its mechanics module lacks {', '.join(RANDOM_PLAY)})")
            continue
        try:
            per_game, per_decision, unfinished = bench_random_play(module, game, args.games)
        except Exception as exc:  # another game's module may need options this generic bench cannot guess
            print(f"{game.slug}: random play with default options failed: {type(exc).__name__}: {exc}")
            continue
        note = f", {unfinished} did not end within {MAX_DECISIONS} decisions" if unfinished else ""
        print(f"{game.slug}: seeded random play: {per_game:,.0f} games/s, {per_decision:,.0f} decisions/s of CPU "
              f"({args.games} games{note})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
