#!/usr/bin/env python3
"""Benchmark: big card files, loaded and checked.

    .venv/bin/python bench/bench_cards.py [--cards 20000] [--rows 100000] [--repeat 3] [--check-repeat 1]
                                          [--skip-big] [--skip-check]

Writes synthetic games into a temporary folder, each holding all its cards in
one file, and runs each measurement in a fresh process:

- load: ``load_game`` of a game of --cards cards in one YAML file, in one CSV
  file and in one XLSX workbook (target: under 2 s);
- check: ``deckwright check`` of the same games (wall, processor seconds,
  peak memory; it lays out every card and takes minutes: --skip-check leaves
  it out when only loading is measured);
- big file: ``load_game`` of a game of --rows rows (100,000 by default) in one
  YAML file padded towards the 64 MB limit;
- bundled: ``deckwright check --no-cache`` of every bundled game, as a first check and every check in CI do it
  (target: under 0.5 s wall; bench_check.py prints it run again, from the cache, and after an edit too).

Prints the best of --repeat runs of each (--check-repeat for checking the big
games, which lays out every card and takes minutes), with the load average
beside it; the machine may be shared, so processor seconds are the steadier
figure. Runs are timed as an installed deckwright runs, with its bytecode
cached (PYTHONDONTWRITEBYTECODE is dropped from their environment).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_pdf import WORDS  # the same made-up words as the PDF benchmark's cards

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")

KINDS = ("beast", "spirit", "curse", "relic", "hunter")
GAME_YAML = """title: Bench cards
slug: bench-cards
players: 1-4
summary: A synthetic game of many cards for the loading benchmark.
card_types:
  unit:
    name: Unit
    fields:
      kind: {type: choice, values: [beast, spirit, curse, relic, hunter]}
      attack: {type: int, min: 0}
      defense: {type: int, min: 0}
      keywords: {type: list, of: text, optional: true}
      ally: {type: ref, to: [unit], optional: true}
      text: text
decks:
  bench: {name: Bench deck, size: poker, back: {title: Bench cards, color: "#35506b"}}
"""
COLUMNS = ("id", "name", "kind", "attack", "defense", "keywords", "ally", "text")


def card_rows(count: int, words: int = 30, seed: int = 7) -> list[dict]:
    """``count`` cards as plain values; every tenth names an ally, every third has keywords."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        rows.append({
            "id": f"card-{i}", "name": f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}",
            "kind": rng.choice(KINDS), "attack": rng.randint(0, 12), "defense": rng.randint(0, 12),
            "keywords": [rng.choice(WORDS).title() for _ in range(2)] if i % 3 == 0 else [],
            "ally": f"card-{rng.randrange(count)}" if i % 10 == 0 else "",
            "text": " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + ".",
        })
    return rows


def yaml_cards(rows: list[dict]) -> str:
    lines = ["type: unit", "deck: bench", "cards:"]
    for row in rows:
        lines += [f"  - id: {row['id']}", f"    name: {row['name']}", f"    kind: {row['kind']}",
                  f"    attack: {row['attack']}", f"    defense: {row['defense']}"]
        if row["keywords"]:
            lines.append(f"    keywords: [{', '.join(row['keywords'])}]")
        if row["ally"]:
            lines.append(f"    ally: {row['ally']}")
        lines.append(f"    text: {row['text']}")
    return "\n".join(lines) + "\n"


def csv_cards(rows: list[dict]) -> str:
    lines = [",".join(COLUMNS)]
    for row in rows:
        cells = {**row, "keywords": "; ".join(row["keywords"]), "text": '"' + row["text"].replace('"', '""') + '"'}
        lines.append(",".join(str(cells[column]) for column in COLUMNS))
    return "\n".join(lines) + "\n"


def write_xlsx_cards(rows: list[dict], path: Path) -> None:
    """The cards as a workbook of one sheet, a header row and a row a card, as a spreadsheet program saves it."""
    import openpyxl

    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Cards")
    sheet.append(COLUMNS)
    for row in rows:
        cells = {**row, "keywords": "; ".join(row["keywords"])}
        sheet.append([cells[column] if cells[column] != "" else None for column in COLUMNS])
    workbook.save(path)


def make_game(folder: Path, rows: list[dict], form: str) -> Path:
    """A game folder with every card in one ``cards.yaml``, ``cards.csv`` or ``cards.xlsx`` (``form``)."""
    folder.mkdir(parents=True)
    game = GAME_YAML
    if form == "csv":
        game += "spreadsheets:\n  - {file: cards.csv, type: unit, deck: bench}\n"
        (folder / "cards.csv").write_text(csv_cards(rows), encoding="utf-8")
    elif form == "xlsx":
        game += "spreadsheets:\n  - {file: cards.xlsx, type: unit, deck: bench}\n"
        write_xlsx_cards(rows, folder / "cards.xlsx")
    else:
        (folder / "cards.yaml").write_text(yaml_cards(rows), encoding="utf-8")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    return folder


# Run in a fresh process: the figures of one load, as JSON on stdout.
_LOAD_SCRIPT = """
import json, resource, sys, time
from pathlib import Path
started = time.perf_counter(), time.process_time()
from deckwright.rules.load import load_game_with_warnings
game, problems = load_game_with_warnings(Path(sys.argv[1]))
print(json.dumps({"wall": time.perf_counter() - started[0], "cpu": time.process_time() - started[1],
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "cards": len(game.cards) if game else 0, "errors": len(problems.errors)}))
"""

_COMMAND_SCRIPT = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024,
                  "code": code}))
"""


def _run(script: str, args: list[str]) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run([str(BIN / "python"), "-c", script, *args], capture_output=True, text=True, cwd=ROOT,
                            env=env, check=False)
    if result.returncode:
        raise SystemExit(f"benchmark run failed:\n{result.stderr}")
    return json.loads(result.stdout.splitlines()[-1])


def best(script: str, args: list[str], repeat: int) -> dict:
    """The best wall and processor seconds of ``repeat`` runs, and the largest peak memory."""
    runs = [_run(script, args) for _ in range(repeat)]
    out = dict(runs[-1])
    out.update(wall=min(r["wall"] for r in runs), cpu=min(r["cpu"] for r in runs),
               peak_mb=max(r["peak_mb"] for r in runs))
    return out


def load_average() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def show(label: str, figures: dict, target: str = "", extra: str = "") -> None:
    print(f"  {label:<38} {figures['wall']:6.2f} s wall {figures['cpu']:6.2f} s cpu {figures['peak_mb']:6.0f} MB"
          f"{extra}  {target}  (load {load_average()})", flush=True)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--cards", type=int, default=20_000)
    options.add_argument("--rows", type=int, default=100_000)
    options.add_argument("--repeat", type=int, default=3)
    options.add_argument("--check-repeat", type=int, default=1)
    options.add_argument("--skip-big", action="store_true", help="leave out the 100,000-row file")
    options.add_argument("--skip-check", action="store_true", help="leave out `deckwright check` of the big games")
    args = options.parse_args()
    deckwright = str(BIN / "deckwright")
    print(f"best of {args.repeat} runs, {os.cpu_count()} cores; each run a fresh process")
    with tempfile.TemporaryDirectory() as tmp:
        rows = card_rows(args.cards)
        for form in ("yaml", "csv", "xlsx"):
            folder = make_game(Path(tmp) / f"game-{form}", rows, form)
            size = sum(p.stat().st_size for p in folder.iterdir()) / 2**20
            loaded = best(_LOAD_SCRIPT, [str(folder)], args.repeat)
            verdict = "ok" if loaded["wall"] < 2 else "MISSED"
            show(f"load {args.cards:,} cards, one {form.upper()} ({size:.1f} MB)", loaded,
                 f"target < 2 s wall: {verdict}", f"  {loaded['cards']} cards, {loaded['errors']} errors")
            if not args.skip_check:
                checked = best(_COMMAND_SCRIPT, [deckwright, "check", str(folder)], args.check_repeat)
                show(f"deckwright check, {form.upper()}", checked, extra=f"  exit {checked['code']}")
        if not args.skip_big:
            big_rows = card_rows(args.rows, words=90)
            folder = make_game(Path(tmp) / "game-big", big_rows, "yaml")
            size = (folder / "cards.yaml").stat().st_size / 2**20
            loaded = best(_LOAD_SCRIPT, [str(folder)], 1)
            show(f"load {args.rows:,} rows, one YAML ({size:.1f} MB)", loaded,
                 extra=f"  {loaded['cards']} cards, {loaded['errors']} errors")
    bundled = best(_COMMAND_SCRIPT, [deckwright, "check", "--no-cache"], max(args.repeat, 5))
    verdict = "ok" if bundled["wall"] < 0.5 else "MISSED"
    show("deckwright check --no-cache, every bundled game", bundled, f"target < 0.5 s wall: {verdict}",
         f"  exit {bundled['code']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
