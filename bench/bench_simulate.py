#!/usr/bin/env python3
"""Speed of ``deckwright simulate``: games per second of every bundled game on 1 and 2 workers, on the local
process pool and on a Dask LocalCluster, the scaling ratio (target: at least 1.8x on 2 cores), and Nightmare
Hunt's heuristic encounters per CPU second against the issue's figure (7,203 on this machine, 2026-11-26; the
side-by-side with the code before the protocol is ``bench/bench_engine.py``'s).

The 7,203 was ``bench/bench_nightmare_hunt.py`` (1,000 attempts a level and armour) on the code of then, before
the protocol, at a moment the machine ran faster: the same script on that code (2f2d4fd) gives about 4,300
today, and issue 15's random-play figure taken with it (712 games/s) is 418 side by side today, the same 1.7x.
So the ratio to the old code measured in the same minutes (bench_engine) is the comparison that holds.

    .venv/bin/python bench/bench_simulate.py [--seconds S] [--no-dask]

Each game plays as ``tests/fixtures/randomplay.yaml`` says (its made-up cards and options where the source leaves
content open), with the strategy the simulator picks (its module's first, else random). Each game's run is sized so
that one worker takes about ``--seconds`` (default 6): a few of its games are timed first, on one core, and the run
is that many games (whole chunks where a chunk takes less than the run), or more where single games are long
(Gloombah!'s take from 20 ms to over a second): see ``sized``. The pool's rates are wall clock from
the call to the last result, its start-up (forking the workers: one for ``pool:1`` too) included; ``CPU 2/1`` is
the processor time of its run on 2 workers (workers included) over that on 1: what the parallel run costs beyond
the work itself (1.00x: nothing), a figure other work on the machine moves far less than the wall-clock ratio. A
Dask cluster of each size is started and its workers load the game before the clock starts (its start-up, a second
or more, is printed apart): the rate is the cluster's work.

Other work on a shared machine only ever slows a run down, so each figure is the best of ``--rounds`` runs (default
3), the rounds alternating 1 and 2 workers so that a busy minute does not fall on one side only (the ``timeit``
convention; the median is printed beside the scaling ratio). The load average is printed too. What the machine
itself allows two workers, with none of deckwright's machinery, is ``bench/bench_cores.py``'s.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from in_build import cpu_seconds  # noqa: E402  (bench/, this script's folder)

from deckwright.rules.ci.fixtures import random_play_setups  # noqa: E402
from deckwright.rules.engine.randomplay import play  # noqa: E402
from deckwright.rules.sim import backends, local_cluster  # noqa: E402
from deckwright.rules.sim.plan import CHUNK_GAMES, GameSource, Simulation, chunks  # noqa: E402
from deckwright.rules.sim.worker import CardFactLog, prepared, run_chunk, strategies  # noqa: E402

SETUPS = ROOT / "tests" / "fixtures" / "randomplay.yaml"
ENCOUNTERS_BEFORE = 7_203  # Nightmare Hunt heuristic encounters per CPU second in the issue (2026-11-26)
SCALING_TARGET = 1.8
WORKERS = (1, 2)
TAIL_RUNS = 40  # a run at least this many times its expected idle end (see sized)


def sized(simulation: Simulation, seconds: float) -> Simulation:
    """The simulation with as many games as one worker plays in about ``seconds``, or longer where a game's games
    are long: a run on 2 workers ends with one idle while the other plays its last game, about E[t^2] / 2E[t] for
    games of t seconds (the mean time left of the game running when the work runs out), and the run is made at
    least ``TAIL_RUNS`` times that so the idle end costs the ratio under 5%. Timed on single games, each on other
    seeds, for a second of processor time; whole chunks where a run is longer than a chunk."""
    times = []
    while sum(times) < 1.0:
        probe = Simulation(simulation.source, 1, 1 + len(times), simulation.strategy, simulation.options,
                           max_actions=simulation.max_actions)
        start = time.process_time()
        run_chunk(chunks(probe)[0])
        times.append(time.process_time() - start)
    per_game = statistics.fmean(times)
    tail = statistics.fmean(t * t for t in times) / (2 * per_game)
    games = max(4 * max(WORKERS), round(max(seconds, TAIL_RUNS * tail) / per_game))
    if games > CHUNK_GAMES:
        games = round(games / CHUNK_GAMES) * CHUNK_GAMES
    return Simulation(simulation.source, games, simulation.seed, simulation.strategy, simulation.options,
                      max_actions=simulation.max_actions)


def pool_rate(simulation: Simulation, workers: int) -> tuple[float, float]:
    """Games per wall-clock second, and the processor seconds of the run (this process and its workers)."""
    work = chunks(simulation)
    wall, cpu = time.perf_counter(), cpu_seconds()
    results = backends.run(work, f"pool:{workers}", lambda result: None)  # 1 too: a forked worker, as for 2
    return sum(r["games"] for r in results) / (time.perf_counter() - wall), cpu_seconds() - cpu


def pool_rates(simulations: list[Simulation], rounds: int) -> dict:
    """Each (source, workers): the (games/s, processor seconds) of every round, the rounds alternating 1 and 2
    workers."""
    timed: dict = {}
    for _ in range(rounds):
        for simulation in simulations:
            for workers in WORKERS:
                timed.setdefault((simulation.source, workers), []).append(pool_rate(simulation, workers))
    return timed


def dask_rates(simulations: list[Simulation], rounds: int) -> tuple[dict, dict]:
    """Games per second of each simulation on a LocalCluster of 1 and of 2 workers, every round (the two
    clusters started, and the game loaded in every worker, before any clock starts; the rounds alternate
    between them), and each cluster's start-up in seconds."""
    from distributed import Client

    rates: dict = {}
    startup: dict = {}
    clusters = {}
    try:
        for workers in WORKERS:
            begun = time.perf_counter()
            clusters[workers] = cluster = local_cluster.start(workers)  # as --scheduler local:N starts it
            with Client(cluster.scheduler_address) as client:
                for simulation in simulations:
                    client.run(prepared, simulation.source)
            startup[workers] = time.perf_counter() - begun
        for _ in range(rounds):
            for simulation in simulations:
                for workers, cluster in clusters.items():
                    work = chunks(simulation)
                    wall = time.perf_counter()
                    results = backends.run(work, cluster.scheduler_address, lambda result: None)
                    rate = sum(r["games"] for r in results) / (time.perf_counter() - wall)
                    rates.setdefault((simulation.source, workers), []).append(rate)
    finally:
        for cluster in clusters.values():
            cluster.close()
    return rates, startup


def scaling(rates: dict, source) -> tuple[float, float]:
    """The 2-worker rate over the 1-worker rate: best over best, and the median of the rounds' ratios."""
    ones, twos = rates[source, 1], rates[source, 2]
    return max(twos) / max(ones), statistics.median(two / one for one, two in zip(ones, twos))


def encounters_per_cpu_second(games: int) -> float:
    """Nightmare Hunt's heuristic as the simulator plays it (in place, the card facts counted: ``run_chunk``'s
    path), ``games`` seeded attempts at every level and armour (the issue's way: bench_nightmare_hunt's 1,000)."""
    ready = prepared(GameSource(str(ROOT / "cards" / "nightmare-hunt")))
    choose = strategies(ready.module)["heuristic"]
    table, outcome = ready.module.CARD_FACTS, ready.module.outcome
    encounters, start = 0, time.process_time()
    for level in (1, 2, 3):
        for armor in ready.rules.armors:
            log = CardFactLog(table, ready.cards)  # one a chunk of games, each closed with its result
            for seed in range(games):
                result = play(ready.module, ready.rules, seed, 5_000, {"armor": armor, "level": level}, choose=choose,
                              log=log, check_every=5_001, in_place=True)
                encounters += result.state.encounters
                log.game_over(bool(outcome(result.state)[1]))
            log.figures()
    return encounters / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="about how long each game's run takes on one "
                                                                   "worker (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; each figure is the best "
                                                              "(default 3)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask LocalCluster")
    parser.add_argument("--attempts", type=int, default=1000, help="Nightmare Hunt heuristic attempts a level and "
                                                                   "armour (default 1000, as the issue measured)")
    args = parser.parse_args()
    dask = not args.no_dask and importlib.util.find_spec("distributed") is not None
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start (other work shares the "
          f"machine: the wall-clock rates and ratios move with it)")
    simulations = []
    for setup in sorted(random_play_setups(SETUPS), key=lambda s: (s.game != "nightmare-hunt", s.game)):
        source = GameSource(str(ROOT / "cards" / setup.game), str(setup.overlay) if setup.overlay else None)
        module = prepared(source).module
        simulations.append(sized(Simulation(source, CHUNK_GAMES, 1, next(iter(strategies(module))), setup.options,
                                            max_actions=setup.max_actions), args.seconds))
    timed = pool_rates(simulations, args.rounds)
    pool = {key: [rate for rate, _ in runs] for key, runs in timed.items()}
    cpu = {key: min(seconds for _, seconds in runs) for key, runs in timed.items()}
    dask_rate, startup = dask_rates(simulations, args.rounds) if dask else ({}, {})
    print(f"best of {args.rounds} alternating rounds (2/1: best over best; in brackets the median of the rounds' "
          f"ratios)")
    columns = ["pool:1", "pool:2", "pool 2/1", "CPU 2/1"] + (["local:1", "local:2", "dask 2/1"] if dask else [])
    print(f"{'game':<16}{'games':>8}" + "".join(f"{c + (' games/s' if ':' in c else ''):>18}" for c in columns))
    for simulation in simulations:
        key = simulation.source
        line = f"{Path(key.folder).name:<16}{simulation.games:>8,}"
        best, median = scaling(pool, key)
        line += f"{max(pool[key, 1]):>18,.0f}{max(pool[key, 2]):>18,.0f}{f'{best:.2f}x ({median:.2f})':>18}"
        line += f"{cpu[key, 2] / cpu[key, 1]:>17.2f}x"
        if dask:
            best, median = scaling(dask_rate, key)
            line += f"{max(dask_rate[key, 1]):>18,.0f}{max(dask_rate[key, 2]):>18,.0f}"
            line += f"{f'{best:.2f}x ({median:.2f})':>18}"
        print(line, flush=True)
    if dask:
        print(f"Dask LocalCluster start-up, the game loaded in every worker: {startup[1]:.1f} s (1 worker), "
              f"{startup[2]:.1f} s (2 workers), not counted in the rates")
    print(f"scaling target: {SCALING_TARGET}x on 2 cores; load average {os.getloadavg()[0]:.1f} at the end")
    rate = encounters_per_cpu_second(args.attempts)
    print(f"nightmare-hunt heuristic: {rate:,.0f} encounters per CPU second on one core, as the simulator plays "
          f"({args.attempts:,} attempts a level and armour; load average {os.getloadavg()[0]:.1f}; the issue's "
          f"figure: {ENCOUNTERS_BEFORE:,}, {rate / ENCOUNTERS_BEFORE:.2f}x of it; it was the code before the "
          f"protocol timed when the machine ran faster: side by side, bench/bench_engine.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
