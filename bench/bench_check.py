#!/usr/bin/env python3
"""Wall and processor time of ``deckwright check`` on every bundled game, each run a fresh process.

    .venv/bin/python bench/bench_check.py [--runs N]

Prints the best of N runs (default 5), wall and processor seconds (the command's process and its workers):

- cold: ``check`` in a new empty working folder each run (no cache yet): what a first check costs;
- warm: ``check`` run once in a working folder, then N runs there: every game unchanged, printed from the cache
  (what a designer re-running check after an edit pays for each game that edit did not touch);
- no cache: ``check --no-cache`` (what a CI job, where the ``CI`` variable turns the cache off, costs);

then the import time of what ``check`` imports before its workers start and of what a warm run imports
(``python -X importtime``, top-level modules), ``deckwright --help`` and ``python -c pass`` for scale, and the
load average beside every figure: the machine is shared, so compare figures taken at similar loads.
The target (issue 21): ``deckwright check`` on all bundled games, run again, under 0.5 s wall: the warm figure.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")
DECKWRIGHT = BIN / "deckwright"
PYTHON = BIN / "python"
TARGET = 0.5  # seconds of wall time, warm
WARM_IMPORTS = ("deckwright.generator.cli", "deckwright.generator.check.run", "deckwright.generator.check.cache",
                "deckwright.generator.check.inputs")
CHECK_IMPORTS = (*WARM_IMPORTS, "deckwright.rules.ci.check", "deckwright.rules.load",
                 "deckwright.generator.layout.fitcheck", "deckwright.generator.parallel")


def timed(args: list[str], cwd: Path) -> tuple[float, float, int]:
    """Wall seconds, processor seconds (user + system, with every child) and the exit code of one run."""
    environment = {name: value for name, value in os.environ.items() if name != "CI"}  # CI turns the cache off
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=environment).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), code


def best(runs: list[tuple[float, float, int]], target: bool = False) -> str:
    wall = min(run[0] for run in runs)
    cpu = min(run[1] for run in runs)
    codes = sorted({run[2] for run in runs})
    verdict = f"; {'meets' if wall < TARGET else 'misses'} the {TARGET} s target" if target else ""
    return f"wall {wall:.2f} s, processor {cpu:.2f} s (best of {len(runs)}; exit {codes}{verdict})  load {load()}"


def load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def cold(runs: int) -> list[tuple[float, float, int]]:
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as here:  # no .deckwright-cache yet: every game checked
            out.append(timed([str(DECKWRIGHT), "check"], Path(here)))
    return out


def warm(runs: int, *options: str) -> list[tuple[float, float, int]]:
    """``check OPTIONS`` run N times in a working folder where ``check`` has run once."""
    with tempfile.TemporaryDirectory() as here:
        timed([str(DECKWRIGHT), "check"], Path(here))  # fills the cache
        return [timed([str(DECKWRIGHT), "check", *options], Path(here)) for _ in range(runs)]


def import_seconds(code: str) -> tuple[float, list[tuple[float, str]]]:
    """Seconds the top-level imports of ``python -c code`` take, and the slowest of them."""
    result = subprocess.run([str(PYTHON), "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True, text=True)
    found = []
    for line in result.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = (part for part in line[len("import time:"):].split("|"))
        if not name.startswith("   "):  # a top-level import (its children are counted inside it)
            found.append((int(cumulative) / 1e6, name.strip()))
    return sum(seconds for seconds, _ in found), sorted(found, reverse=True)[:6]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"deckwright check, every bundled game, {os.cpu_count()} cores")
    print(f"  cold (a first check):       {best(cold(runs))}")
    print(f"  warm (check, run again):    {best(warm(runs), target=True)}")
    print(f"  no cache (check --no-cache): {best(warm(runs, '--no-cache'))}")
    for what, modules in (("a warm run's imports", WARM_IMPORTS), ("imports before the workers start", CHECK_IMPORTS)):
        code = f"import {', '.join(modules)}"
        seconds, slowest = min((import_seconds(code) for _ in range(runs)), key=lambda found: found[0])
        print(f"  {what}: {seconds:.3f} s (best of {runs})  load {load()}")
        for module_seconds, name in slowest:
            print(f"    {module_seconds:.3f} s  {name}")
    help_runs = [timed([str(DECKWRIGHT), "--help"], ROOT) for _ in range(runs)]
    python_runs = [timed([str(PYTHON), "-c", "pass"], ROOT) for _ in range(runs)]
    print(f"  deckwright --help: wall {min(r[0] for r in help_runs):.3f} s; python -c pass: wall "
          f"{min(r[0] for r in python_runs):.3f} s  load {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
