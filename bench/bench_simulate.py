#!/usr/bin/env python3
"""Speed of ``deckwright simulate``: games per second of every bundled game on 1 and 2 workers, on the local
process pool and on a Dask LocalCluster, the scaling ratio (target: at least 1.8x on 2 cores), and Nightmare
Hunt's heuristic encounters per CPU second against the figure before the simulator (7,203 on this machine,
2026-11-26).

    .venv/bin/python bench/bench_simulate.py [--games N] [--no-dask]

Each game plays as ``tests/fixtures/randomplay.yaml`` says (its made-up cards and options where the source
leaves content open), with the strategy the simulator picks (its module's first, else random). The rates are
wall clock, start-up included (a pool forks its workers, a LocalCluster starts its processes and connects over
TCP): on a machine other work shares, the scaling ratio says more about the load than about the simulator, so
the pool's CPU time (this process and its workers) is printed beside it.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckwright.rules.ci.fixtures import random_play_setups  # noqa: E402
from deckwright.rules.engine.randomplay import play  # noqa: E402
from deckwright.rules.sim import backends  # noqa: E402
from deckwright.rules.sim.plan import GameSource, Simulation, chunks  # noqa: E402
from deckwright.rules.sim.worker import prepared, strategies  # noqa: E402

SETUPS = ROOT / "tests" / "fixtures" / "randomplay.yaml"
ENCOUNTERS_BEFORE = 7_203  # Nightmare Hunt heuristic encounters per CPU second before, on this machine (2026-11-26)
SCALING_TARGET = 1.8


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(simulation: Simulation, scheduler: str) -> tuple[float, float]:
    """Games per wall-clock second and per CPU second (the CPU of Dask's workers is not counted: 0 then)."""
    work = chunks(simulation)
    wall, cpu = time.perf_counter(), cpu_seconds()
    results = backends.run(work, scheduler, lambda result: None)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    games = sum(r["games"] for r in results)
    return games / wall, (games / cpu if not scheduler.startswith("local") else 0.0)


def encounters_per_cpu_second(games: int) -> float:
    ready = prepared(GameSource(str(ROOT / "cards" / "nightmare-hunt")))
    choose = strategies(ready.module)["heuristic"]
    encounters, start = 0, time.process_time()
    for level in (1, 2, 3):
        for armor in ready.rules.armors:
            for seed in range(games):
                result = play(ready.module, ready.rules, seed, 5_000, {"armor": armor, "level": level}, choose=choose,
                              check_every=5_001)
                encounters += result.state.encounters
    return encounters / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per game and backend (default 2000; "
                                                                "Gloombah!, whose games are long, a twentieth)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask LocalCluster")
    args = parser.parse_args()
    dask = not args.no_dask and importlib.util.find_spec("distributed") is not None
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} (other work shares the machine: the "
          f"wall-clock rates and ratios move with it)")
    schedulers = ["pool:1", "pool:2"] + (["local:1", "local:2"] if dask else [])
    print(f"{'game':<16}" + "".join(f"{s + ' games/s':>18}" for s in schedulers)
          + f"{'pool 2/1':>10}" + (f"{'dask 2/1':>10}" if dask else "") + f"{'pool games/CPU s':>18}")
    for setup in sorted(random_play_setups(SETUPS), key=lambda s: (s.game != "nightmare-hunt", s.game)):
        source = GameSource(str(ROOT / "cards" / setup.game), str(setup.overlay) if setup.overlay else None)
        module = prepared(source).module
        games = args.games if setup.max_actions <= 5_000 else max(20, args.games // 20)
        simulation = Simulation(source, games, 1, next(iter(strategies(module))), setup.options,
                                max_actions=setup.max_actions)
        rates = {s: timed(simulation, s) for s in schedulers}
        line = f"{setup.game:<16}" + "".join(f"{rates[s][0]:>18,.0f}" for s in schedulers)
        line += f"{rates['pool:2'][0] / rates['pool:1'][0]:>9.2f}x"
        if dask:
            line += f"{rates['local:2'][0] / rates['local:1'][0]:>9.2f}x"
        print(line + f"{rates['pool:2'][1]:>18,.0f}", flush=True)
    rate = encounters_per_cpu_second(max(50, args.games // 20))
    print(f"nightmare-hunt heuristic: {rate:,.0f} encounters per CPU second on one core "
          f"(before: {ENCOUNTERS_BEFORE:,}; {rate / ENCOUNTERS_BEFORE:.2f}x)")
    print(f"scaling target: {SCALING_TARGET}x on 2 cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
