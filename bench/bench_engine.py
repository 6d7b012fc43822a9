#!/usr/bin/env python3
"""Speed of the rules engine core.

    .venv/bin/python bench/bench_engine.py [--games N] [--rounds R] [--no-before]

Prints the time to compute the exact distribution of ``3d20+D6`` (median of
many runs; target: under 5 ms), then the seeded random-play rate of every
bundled game, Nightmare Hunt first: games and decisions per CPU second, with
card conservation and the game's invariants checked at the end of each game.
Where a game's source leaves decks or values open, it is played with the
made-up cards and options of ``tests/fixtures/randomplay.yaml`` (said on its
line).

Then Nightmare Hunt's heuristic hunter, side by side with the code before the
rules protocol (commit 2f2d4fd, taken from this repository's history with
``git archive``): heuristic encounters per CPU second over every level and
armour, the old code, this code through ``apply`` (a copy at every step),
through ``apply_in_place`` with no log, and as the simulator plays
(``apply_in_place`` with its card-fact log: ``rules.sim.worker.run_chunk``'s
path), each in a fresh process, the rounds alternating (``--rounds``, default 5): the best and the median
of each way. Target: the simulator's path at least 2x the old code (issue 19).
``--side-by-side --attempts 1000`` runs only that, with the issue's 1,000
attempts a level and armour (``bench/bench_nightmare_hunt.py``'s, which gave
the issue's 7,203 on the old code at a faster moment of this machine). The load average is printed beside it: on a
shared machine the ratio, measured in the same minutes, says more than either
figure.

``--instructions`` counts instead of timing, which other work on the machine
cannot move: each way runs under valgrind's callgrind at two attempt counts
(``--instruction-attempts``, default 20 and 80 a level and armour), and the
difference of the instructions executed over the difference of the encounters
played is the instructions per encounter, start-up (imports, loading) cancelled.
PYTHONHASHSEED is fixed, the old code is kept at one place (build/bench-before-*)
and valgrind lays memory out the same each run, so from the same shell the
figures repeat exactly (``--ways`` counts only some ways). Without valgrind it
says so and counts nothing.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Only what the code before the protocol also has: the side-by-side runs this file there (--measure before).
from deckwright.rules.engine.randomplay import play  # noqa: E402
from deckwright.rules.load import load_game  # noqa: E402

DICE = "3d20+D6"
DICE_TARGET_MS = 5.0
FIRST = "nightmare-hunt"
NIGHTMARE_HUNT_BEFORE = 418  # games/s of the pre-protocol code (2f2d4fd), side by side on this machine (2026-11-26)
SETUPS = ROOT / "tests" / "fixtures" / "randomplay.yaml"
BEFORE_COMMIT = "2f2d4fd"  # the last commit before the rules protocol
HEURISTIC_TARGET = 2.0  # the simulator's path against the code before the protocol
WAYS = ("before", "apply", "in_place", "simulator")
LABELS = {"before": f"before the protocol ({BEFORE_COMMIT})", "apply": "apply (a copy each step)",
          "in_place": "apply_in_place, no log", "simulator": "the simulator (in place, card facts)"}
INSTRUCTION_TARGET = 2.3  # fewer instructions an encounter than the old code: the 2x of CPU time with margin
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")  # callgrind's summary: the instructions executed


def bench_dice(runs: int = 200) -> float:
    from deckwright.rules.engine.dice import parse_dice
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


def heuristic_encounters(way: str, games: int) -> tuple[float, int]:
    """Nightmare Hunt's heuristic encounters per CPU second, and how many, over ``games`` seeded attempts per level
    and armour, played by the code this process imports (``way``: before, apply or in_place)."""
    from deckwright.rules.games import nightmare_hunt as nh
    folder = Path(nh.__file__).resolve().parents[3] / "cards" / "nightmare-hunt"
    if way == "before":
        from deckwright.rules.games.nightmare_hunt.players import heuristic_choice
        rules, extra = nh.rules_from(load_game(folder)), {}
    else:
        from deckwright.rules.games.nightmare_hunt.strategies import heuristic_choice
        rules, extra = nh.prepare(load_game(folder)), {"in_place": way != "apply"}
    if way == "simulator":  # run_chunk's path: in place, the card facts of a chunk's games in one log
        from deckwright.rules.sim.worker import CardFactLog
        cards = frozenset(card.id for card in load_game(folder).cards)

        def facts() -> dict:
            return {"log": CardFactLog(nh.CARD_FACTS, cards)}
    else:
        facts = dict
    encounters, start = 0, time.process_time()
    for level in (1, 2, 3):
        for armor in rules.armors:  # a cell's games: as a chunk of them (run_chunk's log, closed each game)
            logged = facts()
            for seed in range(games):
                result = play(nh, rules, seed, 5_000, {"armor": armor, "level": level}, choose=heuristic_choice,
                              check_every=5_001, **extra, **logged)
                encounters += result.state.encounters
                if logged:
                    logged["log"].game_over(nh.outcome(result.state)[1])
            if logged:
                logged["log"].figures()
    return encounters / (time.process_time() - start), encounters


def before_protocol() -> Path | None:
    """A folder to put first on PYTHONPATH so that ``deckwright`` is the code of BEFORE_COMMIT (None without git).

    It is made once, at a fixed place in this checkout's build/, and kept: the old code's file paths are then
    the same at every run, which the instruction counts need (a random temporary name moved them by 0.2%)."""
    kept = ROOT / "build" / f"bench-before-{BEFORE_COMMIT}"
    if (kept / "path" / "deckwright" / "__init__.py").exists():
        return kept / "path"
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE_COMMIT], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    kept.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=kept.parent))  # made whole beside, then renamed into place
    (scratch / "source").mkdir()
    subprocess.run(["tar", "-x", "-C", str(scratch / "source")], input=archive.stdout, check=True)
    package = scratch / "path" / "deckwright"
    package.mkdir(parents=True)
    for folder in ("rules", "generator", "templates", "cards"):
        (package / folder).symlink_to(Path("..", "..", "source", folder))
    (package / "__init__.py").write_text("")
    try:
        scratch.rename(kept)
    except OSError:  # another run made it meanwhile
        shutil.rmtree(scratch)
    return kept / "path"


def measure_command(way: str, games: int) -> list[str]:
    return [sys.executable, __file__, "--measure", way, "--games", str(games)]


def way_env(way: str, old_path: Path | None) -> dict:
    """The environment a way runs in: the old code first on the path for ``before``; string hashes fixed, and no
    bytecode cache written (the instruction counts repeat only from the same start)."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    if way == "before":
        env["PYTHONPATH"] = str(old_path)
    return env


def side_by_side(games: int, rounds: int) -> None:
    old_path = before_protocol()
    ways = WAYS if old_path else WAYS[1:]
    rates: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(rounds):
        for way in ways:
            out = subprocess.run(measure_command(way, games), env=way_env(way, old_path), capture_output=True,
                                 text=True, check=True).stdout.split()
            rates[way].append(float(out[0]))
            encounters = int(out[1])
    best = {way: max(figures) for way, figures in rates.items()}
    median = {way: statistics.median(figures) for way, figures in rates.items()}
    print(f"nightmare-hunt heuristic, {games} attempts per level and armour ({encounters:,} encounters), "
          f"{rounds} alternating rounds, load average {os.getloadavg()[0]:.1f}: encounters per CPU second")
    if "before" not in best:
        print(f"  (no git: the code before the protocol, {BEFORE_COMMIT}, cannot be taken from the history)")
    print(f"  {'':<40}{'best':>9}{'':8}{'median':>9}")
    for way in ways:
        ratios = [f" ({figures[way] / figures['before']:.2f}x)" if "before" in figures else ""
                  for figures in (best, median)]
        print(f"  {LABELS[way]:<40}{best[way]:>9,.0f}{ratios[0]:<8}{median[way]:>9,.0f}{ratios[1]}")
    if "before" in best:
        ratio = best["simulator"] / best["before"]
        verdict = "ok" if ratio >= HEURISTIC_TARGET else "MISSES the target"
        print(f"  target: the simulator's path at least {HEURISTIC_TARGET:g}x the code before (best of each): "
              f"{verdict}")


def callgrind_count(command: list[str], env: dict) -> tuple[int, int]:
    """Instructions executed by ``command`` (a --measure run) under callgrind, and the encounters it played."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], env=env,
                         capture_output=True, text=True, check=True)
    return int(COLLECTED.search(run.stderr).group(1)), int(run.stdout.split()[1])


def instructions_side_by_side(low: int, high: int, jobs: int, chosen: tuple[str, ...] = WAYS) -> None:
    """Instructions per encounter of each way (``chosen``), from the difference of a run of ``high`` and one of
    ``low`` attempts per level and armour (each in its own process under callgrind)."""
    if shutil.which("valgrind") is None:
        print("instruction counts: skipped, valgrind is not installed (apt-get install valgrind)")
        return
    old_path = before_protocol() if "before" in chosen else None
    ways = tuple(way for way in chosen if old_path or way != "before")
    runs = [(way, games) for way in ways for games in (low, high)]
    with ThreadPoolExecutor(jobs) as pool:
        counts = dict(zip(runs, pool.map(lambda run: callgrind_count(measure_command(*run),
                                                                     way_env(run[0], old_path)), runs)))
    per_encounter = {}
    for way in ways:
        (low_instructions, low_encounters), (high_instructions, high_encounters) = counts[way, low], counts[way, high]
        per_encounter[way] = (high_instructions - low_instructions) / (high_encounters - low_encounters)
    encounters = counts[ways[0], high][1] - counts[ways[0], low][1]
    print(f"nightmare-hunt heuristic, instructions per encounter under callgrind: {high} minus {low} attempts per "
          f"level and armour ({encounters:,} encounters), PYTHONHASHSEED=0, load average {os.getloadavg()[0]:.1f} "
          f"(which does not move a count)")
    if "before" in chosen and "before" not in per_encounter:
        print(f"  (no git: the code before the protocol, {BEFORE_COMMIT}, cannot be taken from the history)")
    for way in ways:
        ratio = (f" ({per_encounter['before'] / per_encounter[way]:.2f}x fewer)"
                 if "before" in per_encounter and way != "before" else "")
        print(f"  {LABELS[way]:<40}{per_encounter[way]:>12,.0f} instructions per encounter{ratio}")
    if "before" in per_encounter and "simulator" in per_encounter:
        ratio = per_encounter["before"] / per_encounter["simulator"]
        verdict = "ok" if ratio >= INSTRUCTION_TARGET else "MISSES the target"
        print(f"  target: the simulator's path at least {INSTRUCTION_TARGET:g}x fewer instructions than the code "
              f"before: {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per game (default 1000; a game whose "
                                                                "games are long, Gloombah!, plays a hundredth); "
                                                                "heuristic attempts per level and armour: a tenth")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of the side-by-side (default 5)")
    parser.add_argument("--no-before", action="store_true", help="leave out the side-by-side with the old code")
    parser.add_argument("--attempts", type=int, help="heuristic attempts per level and armour in the side-by-side "
                                                     "(default: a tenth of --games; the issue measured 1000)")
    parser.add_argument("--side-by-side", action="store_true", help="only the side-by-side with the old code")
    parser.add_argument("--instructions", action="store_true", help="only the side-by-side counted in "
                                                                        "instructions under valgrind")
    parser.add_argument("--instruction-attempts", type=int, nargs=2, default=(20, 80), metavar=("LOW", "HIGH"),
                        help="the two attempt counts a level and armour whose difference is counted (default 20 80)")
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs at a time (default 2)")
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=WAYS, help="the ways counted (default all)")
    parser.add_argument("--measure", choices=WAYS, help=argparse.SUPPRESS)  # one side, in a child process
    args = parser.parse_args()
    if args.measure:
        rate, encounters = heuristic_encounters(args.measure, args.games)
        print(f"{rate:.1f} {encounters}")
        return 0
    if args.instructions:
        instructions_side_by_side(*args.instruction_attempts, args.jobs, tuple(args.ways))
        return 0
    attempts = args.attempts or max(10, args.games // 10)
    if args.side_by_side:
        side_by_side(attempts, args.rounds)
        return 0

    ms = bench_dice()
    verdict = "ok" if ms < DICE_TARGET_MS else "MISSES the target"
    print(f"exact distribution of {DICE}: {ms:.3f} ms (target < {DICE_TARGET_MS:g} ms: {verdict})")

    from deckwright.rules.ci.fixtures import overlaid, random_play_setups
    from deckwright.rules.games import rules_module
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
    if not args.no_before:
        side_by_side(attempts, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
