#!/usr/bin/env python3
"""Nightmare Hunt played by the heuristic hunter: encounters per second and the win rate per armour.

    .venv/bin/python bench/bench_nightmare_hunt.py [--attempts N] [--levels 1 2 3]

A level attempt starts in town with a fresh shuffled deck and ends when the
boss falls (a win) or at the first death. Runs N seeded attempts (default
1,000) per level and armour in this one process, with card conservation
checked at the end of each attempt, and prints the win rate per armour and
the encounters played per second of CPU time on one core (target: at least
2,000), with the wall-clock rate beside it (lower when other work shares the
machine).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckwright.rules.engine.randomplay import play  # noqa: E402
from deckwright.rules.games import nightmare_hunt as nh  # noqa: E402
from deckwright.rules.games.nightmare_hunt.strategies import heuristic_choice  # noqa: E402
from deckwright.rules.load import load_game  # noqa: E402

TARGET = 2_000  # encounters per second
MAX_DECISIONS = 5_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=1000, help="seeded attempts per level and armour (default 1000)")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()

    rules = nh.prepare(load_game(ROOT / "cards" / "nightmare-hunt"))
    total_encounters = 0
    total_cpu = total_wall = 0.0
    print(f"{'level':>5}  {'armour':<8} {'attempts':>8}  {'win rate':>8}  {'encounters':>10}  {'per CPU second':>14}")
    for level in args.levels:
        for armor in rules.armors:
            wins = encounters = 0
            cpu, wall = time.process_time(), time.perf_counter()
            for seed in range(args.attempts):
                result = play(nh, rules, seed, MAX_DECISIONS, {"armor": armor, "level": level},
                              choose=heuristic_choice, check_every=MAX_DECISIONS + 1)
                if result.problems or not result.over:
                    raise SystemExit(f"level {level} {armor} seed {seed}: "
                                     f"{result.problems[0] if result.problems else 'did not end'}")
                wins += result.state.phase == "won"
                encounters += result.state.encounters
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            total_encounters += encounters
            total_cpu += cpu
            total_wall += wall
            print(f"{level:>5}  {rules.names[armor]:<8} {args.attempts:>8}  {wins / args.attempts:>8.1%}  "
                  f"{encounters:>10,}  {encounters / cpu:>14,.0f}")
    rate = total_encounters / total_cpu
    verdict = "ok" if rate >= TARGET else "MISSES the target"
    print(f"all: {total_encounters:,} encounters in {total_cpu:.2f} s of CPU = {rate:,.0f} encounters/s on one core "
          f"(target >= {TARGET:,}: {verdict}); wall clock {total_encounters / total_wall:,.0f}/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
