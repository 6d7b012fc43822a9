#!/usr/bin/env python3
"""Wall time of the installed ``deckwright`` command, as a user starts it.

    .venv/bin/python bench/bench_cli.py [--runs N]

Prints the median of N runs (default 7) of ``deckwright check`` on every
bundled game (target: under 1 s) and of ``deckwright --help`` (target: under
0.3 s), next to a bare ``python -c pass`` for scale. When check misses its
target, it shows where its time goes, game by game (in this process); when
start-up misses its target, it lists the slowest imports (``python -X
importtime``), the ones to make lazy.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")
DECKWRIGHT = BIN / "deckwright"
PYTHON = BIN / "python"

TARGETS = {"check": 1.0, "help": 0.3}


def wall(args: list[str], runs: int) -> tuple[float, int]:
    """Median wall time of ``args`` and its exit code (the last run's)."""
    times = []
    code = 0
    for _ in range(runs):
        start = time.perf_counter()
        code = subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times), code


def slowest_imports(args: list[str], count: int = 12) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of the slowest top-level imports of a command."""
    result = subprocess.run([str(PYTHON), "-X", "importtime", *args], cwd=ROOT, capture_output=True, text=True)
    found = []
    for line in result.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
        if not name.startswith("  "):  # top-level imports only (their children are inside them)
            found.append((int(cumulative), name.strip()))
    return sorted(found, reverse=True)[:count]


def check_phases() -> list[tuple[str, float, float]]:
    """(game, seconds to load, check and replay examples, seconds of layout fit checks) in this process."""
    sys.path.insert(0, str(ROOT))
    from deckwright.generator import BUNDLED_GAMES
    from deckwright.generator.layout.fitcheck import layout_warnings
    from deckwright.rules.ci.check import check_game
    from deckwright.rules.load import bundled_games

    phases = []
    for folder in bundled_games(BUNDLED_GAMES):
        start = time.perf_counter()
        report = check_game(folder)
        checked = time.perf_counter()
        if report.game is not None:
            layout_warnings(report.game)  # what `deckwright check` adds for a valid game
        phases.append((folder.name, checked - start, time.perf_counter() - checked))
    return phases


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--runs", type=int, default=7)
    runs = options.parse_args().runs
    if not DECKWRIGHT.exists():
        print(f"{DECKWRIGHT} is missing; run `python3 tasks.py build` first", file=sys.stderr)
        return 2

    bare, _ = wall([str(PYTHON), "-c", "pass"], runs)
    check, check_code = wall([str(DECKWRIGHT), "check"], runs)
    help_, _ = wall([str(DECKWRIGHT), "--help"], runs)
    games = sorted(p.parent.name for p in (ROOT / "cards").glob("*/game.yaml"))

    print(f"median of {runs} runs, {sys.platform}, {os.cpu_count()} cores")
    print(f"  python -c pass               {bare:6.3f} s   (the interpreter alone, for scale)")
    print(f"  deckwright check ({len(games)} games)   {check:6.3f} s   target < {TARGETS['check']} s   "
          f"{'ok' if check < TARGETS['check'] else 'MISSED'}   exit {check_code}")
    print(f"  deckwright --help            {help_:6.3f} s   target < {TARGETS['help']} s   "
          f"{'ok' if help_ < TARGETS['help'] else 'MISSED'}")
    if check >= TARGETS["check"]:
        print("where check's time goes (one run, in this process; seconds):")
        print(f"  {'game':<16} {'load+check+examples':>20} {'layout fit':>11}")
        for game, checked, fitted in check_phases():
            print(f"  {game:<16} {checked:20.3f} {fitted:11.3f}")
    if help_ >= TARGETS["help"]:
        print("slowest imports of `deckwright --help` (cumulative ms):")
        for micros, name in slowest_imports(["-m", "deckwright.generator.cli", "--help"]):
            print(f"  {micros / 1000:8.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
