#!/usr/bin/env python3
"""Speed of the rules engine core.

    .venv/bin/python bench/bench_engine.py [--games N]

Prints the time to compute the exact distribution of ``3d20+D6`` (median of
many runs; target: under 5 ms), then the seeded random-play rate of every
bundled game, Nightmare Hunt first: games and decisions per CPU second, with
card conservation and the game's invariants checked at the end of each game.
Where a game's source leaves decks or values open, it is played with the
made-up cards and options of ``tests/fixtures/randomplay.yaml`` (said on its
line). Nightmare Hunt's rate is compared with its figure before the rules
protocol: 418 games/s for the code before it (commit 2f2d4fd), measured side by side with this one on
this machine, quiet, 2026-11-26 (the issue's 712 was taken under other conditions: the same old code gave
418 beside this one).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckwright.rules.ci.fixtures import overlaid, random_play_setups  # noqa: E402
from deckwright.rules.engine.dice import parse_dice  # noqa: E402
from deckwright.rules.engine.randomplay import play  # noqa: E402
from deckwright.rules.games import rules_module  # noqa: E402
from deckwright.rules.load import load_game  # noqa: E402

DICE = "3d20+D6"
DICE_TARGET_MS = 5.0
FIRST = "nightmare-hunt"
NIGHTMARE_HUNT_BEFORE = 418  # games/s of the pre-protocol code (2f2d4fd), side by side on this machine (2026-11-26)
SETUPS = ROOT / "tests" / "fixtures" / "randomplay.yaml"


def bench_dice(runs: int = 200) -> float:
    dice = parse_dice(DICE)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        dice.distribution()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bench_random_play(module, rules, games: int, options: dict, max_actions: int) -> tuple[float, float, int]:
    """Games and decisions per CPU second, and the games that did not end within the bound."""
    unfinished = decisions = 0
    start = time.process_time()
    for seed in range(games):
        result = play(module, rules, seed, max_actions, options, check_every=max_actions + 1)
        if result.problems:
            raise SystemExit(f"seed {seed}: {result.problems[0]}")
        unfinished += not result.over
        decisions += result.actions
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, unfinished


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per game (default 1000; a game whose "
                                                                "games are long, Gloombah!, plays a hundredth)")
    args = parser.parse_args()

    ms = bench_dice()
    verdict = "ok" if ms < DICE_TARGET_MS else "MISSES the target"
    print(f"exact distribution of {DICE}: {ms:.3f} ms (target < {DICE_TARGET_MS:g} ms: {verdict})")

    setups = sorted(random_play_setups(SETUPS), key=lambda s: (s.game != FIRST, s.game))
    with tempfile.TemporaryDirectory() as tmp:
        for setup in setups:
            game = load_game(overlaid(ROOT / "cards" / setup.game, setup.overlay, Path(tmp) / setup.game))
            module = rules_module(game)
            rules = module.prepare(game)
            games = args.games if setup.max_actions <= 5_000 else max(1, args.games // 100)  # long games: fewer
            per_game, per_decision, unfinished = bench_random_play(module, rules, games, setup.options,
                                                                   setup.max_actions)
            note = f", {unfinished} did not end within {setup.max_actions} decisions" if unfinished else ""
            made_up = f" (with the made-up cards of tests/fixtures/{setup.overlay.name})" if setup.overlay else ""
            print(f"{game.slug}: seeded random play{made_up}: {per_game:,.0f} games/s, {per_decision:,.0f} "
                  f"decisions/s of CPU ({games} games{note})")
            if game.slug == FIRST:
                verdict = "no slower" if per_game >= NIGHTMARE_HUNT_BEFORE else "SLOWER"
                print(f"  before the rules protocol: {NIGHTMARE_HUNT_BEFORE} games/s ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
