"""Fuzz what reads a game folder with 100,000 inputs (or ``--inputs N``) and print the figures.

    .venv/bin/python tests/fuzz/run.py                 # 100,000 inputs, about half an hour on one core
    .venv/bin/python tests/fuzz/run.py --inputs 5000 --seed 7

The targets and properties are those of ``tests/test_fuzz.py`` (``tests/fuzz/properties.py``); inputs are
split among the targets in proportion to how much each has to explore. A failing property is shrunk by
Hypothesis, printed, and counted; the exit status is 1 if any failed. Figures: inputs run per target, failures,
wall time, the slowest single input, and the process's peak memory (Hypothesis runs in batches of 2,000
inputs, so its own bookkeeping does not grow with the count).
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for `fuzz.properties`

from fuzz.properties import (  # noqa: E402
    CARD_FILES,
    GAME_FILES,
    LAYOUT_FILES,
    ExampleTarget,
    LayoutTarget,
    Scratch,
    card_files,
    card_validator,
    layout_sources,
    mutated,
    pages,
    yaml_loader,
    yaml_texts,
)
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

BATCH = 2000
SHARES = {"YAML loader": 0.40, "card-type validator": 0.15, "layout evaluator": 0.30, "layout files": 0.03,
          "example-block parser": 0.12}


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--inputs", type=int, default=100_000, help="how many inputs in all (default 100,000)")
    options.add_argument("--seed", type=int, default=13, help="Hypothesis seed, for a run that can be repeated")
    args = options.parse_args()

    scratch = Scratch()
    layout = LayoutTarget()
    examples = ExampleTarget(scratch)
    targets = {
        "YAML loader": (yaml_texts, lambda text: scratch.run(yaml_loader, text)),
        "card-type validator": (st.tuples(mutated(GAME_FILES), mutated(CARD_FILES)),
                                lambda pair: scratch.run(card_validator, scratch.game(card_files(*pair)))),
        "layout evaluator": (layout_sources, lambda source: scratch.run(layout.value, source)),
        "layout files": (mutated(LAYOUT_FILES, 4),
                         lambda text: scratch.run(layout.layout_file, scratch.game({"layouts/hero.yaml": text}))),
        "example-block parser": (pages, lambda text: scratch.run(examples.page, text)),
    }
    total_inputs = total_failures = 0
    started = time.monotonic()
    print(f"fuzzing with {args.inputs:,} inputs (seed {args.seed})", flush=True)
    for name, (strategy, check) in targets.items():
        wanted = max(1, round(args.inputs * SHARES[name]))
        times: list[float] = []
        failures = 0
        begun = time.monotonic()
        # Hypothesis remembers every input of a run (to avoid repeats): runs of BATCH inputs, each with its own
        # seed, keep that bookkeeping, and so the process's memory, bounded however many inputs there are.
        for batch, start in enumerate(range(0, wanted, BATCH)):
            @seed(args.seed * 1000 + batch)
            @settings(database=None, deadline=None, max_examples=min(BATCH, wanted - start),
                      phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
            @given(strategy)
            def fuzz(value):
                times.append(check(value))

            try:
                fuzz()
            except Exception:  # a property failed: Hypothesis has shrunk it; show it and go on
                failures += 1
                traceback.print_exc()
        took = time.monotonic() - begun
        total_inputs += len(times)
        total_failures += failures
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
        print(f"  {name:<22} {len(times):>7,} inputs  {failures} failing  {took:7.1f} s  "
              f"slowest input {max(times, default=0):.2f} s  peak memory so far {peak:.0f} MB", flush=True)
    scratch.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    print(f"total: {total_inputs:,} inputs, {total_failures} failing, {time.monotonic() - started:.0f} s, "
          f"peak memory {peak:.0f} MB")
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
