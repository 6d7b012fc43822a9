#!/usr/bin/env python3
"""What this machine's two cores give the simulator's own work, with none of deckwright's parallel machinery.

Each bundled game's random play (as ``tests/fixtures/randomplay.yaml`` sets it up, as ``bench_simulate.py`` plays
it) runs the same games in one process alone, then in two processes at once, each pinned to a core of its own,
the rounds alternating. A process that plays as fast beside another as alone means two workers can reach 2x; one
that plays slower shows what the machine itself takes away (caches and memory shared between the cores, or a
host that runs the virtual cores on busy hardware): the best ratio two workers can reach is then 2 / slowdown.

    .venv/bin/python bench/bench_cores.py [--rounds 5] [--seconds 2]

Each figure is processor seconds of the run in the process (best of the rounds, as other work only ever slows a
run down), so it needs no pool, no pipe and no scheduler: set against ``bench_simulate.py``'s pool 2/1, it tells
the machine's share of a shortfall from deckwright's.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckwright.rules.ci.fixtures import random_play_setups  # noqa: E402
from deckwright.rules.sim.plan import GameSource, Simulation, chunks  # noqa: E402
from deckwright.rules.sim.worker import prepared, run_chunk, strategies  # noqa: E402

SETUPS = ROOT / "tests" / "fixtures" / "randomplay.yaml"


def simulation_of(setup, games: int) -> Simulation:
    source = GameSource(str(ROOT / "cards" / setup.game), str(setup.overlay) if setup.overlay else None)
    module = prepared(source).module
    return Simulation(source, games, 1, next(iter(strategies(module))), setup.options, max_actions=setup.max_actions)


def played(simulation: Simulation) -> float:
    """Processor seconds to play the simulation's games in this process."""
    start = time.process_time()
    for chunk in chunks(simulation):
        run_chunk(chunk)
    return time.process_time() - start


def on_cores(simulation: Simulation, cores: tuple[int, ...]) -> list[float]:
    """The simulation played in one forked process per core, all at once: each one's processor seconds."""
    children = []
    for core in cores:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            os.sched_setaffinity(0, {core})
            os.write(write, repr(played(simulation)).encode())
            os._exit(0)
        os.close(write)
        children.append((pid, read))
    seconds = []
    for pid, read in children:
        with os.fdopen(read) as pipe:
            seconds.append(float(pipe.read()))
        os.waitpid(pid, 0)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; each figure is the best (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long a run takes (default 2)")
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))[:2]
    if len(cores) < 2:
        print("one core: nothing to compare")
        return 0
    print(f"cores {cores}; load average {os.getloadavg()[0]:.1f} at the start; best of {args.rounds} alternating "
          f"rounds")
    print(f"{'game':<16}{'games':>7}{'alone s':>10}{'beside s':>10}{'slowdown':>10}{'best 2/1 the machine allows':>30}")
    for setup in random_play_setups(SETUPS):
        probe = simulation_of(setup, 2)
        per_game = played(probe) / 2
        simulation = simulation_of(setup, max(2, round(args.seconds / per_game)))
        alone, beside = [], []
        for _ in range(args.rounds):
            alone += on_cores(simulation, cores[:1])
            beside.append(max(on_cores(simulation, tuple(cores))))  # the pair is as slow as its slower process
        slowdown = min(beside) / min(alone)
        print(f"{setup.game:<16}{simulation.games:>7}{min(alone):>10.2f}{min(beside):>10.2f}{slowdown:>9.2f}x"
              f"{min(2.0, 2 / slowdown):>29.2f}x", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
