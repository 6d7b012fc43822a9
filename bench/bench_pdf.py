"""Benchmark: a whole ``deckwright build --target home`` and its PDF step against a bare ReportLab script.

    .venv/bin/python bench/bench_pdf.py [--sizes 1000,5000,20000] [--repeat 2]
    .venv/bin/python bench/bench_pdf.py --printshop 10000     # the print-shop PNGs instead

Makes a synthetic game of poker cards (a title, a type line, two stats and about 40 words of fitted text
each; 9-up on US Letter, fronts only, as issue 21 measures) at each size and runs, each in a fresh process:

- bare: what a designer would write by hand: the cards read with deckwright's loader, then one canvas script
  drawing the same frame, texts (wrapped with ReportLab's simpleSplit), stat circles and crop marks, card by
  card, into one PDF (ReportLab with rl_accel, as deckwright uses);
- whole: ``deckwright build GAME --target home --paper letter --no-backs`` (the check, every PDF, the site),
  run in the child process through deckwright's command-line entry point, so that it can tell its own peak
  memory from its largest worker's (the site worker, forked once the games are checked);
- pdf step: the game loaded, then the deck's home-print PDF alone (``Faces`` and ``HomePrint``).

For each it prints wall clock, processor seconds (the process and its workers: ``wait4`` of the child) and
the child's peak memory (ru_maxrss; for the build, its main process and its largest worker apart), the best
of ``--repeat`` runs (the rounds alternating between the three), with the load average beside them, and the
ratios against issue 21's targets: the whole command at most 1.2x the bare script's wall clock, the PDF step at
most 1.15x the bare script's drawing time (processor seconds, both without imports and loading), peak memory
under 100 MB in every process (under 60 MB at 1,000 cards). The whole command's ratio is printed round by round
too: on this shared machine the same command's wall clock can differ by a quarter from one run to the next, and
the spread says how far one best-of figure can be trusted.

The runs are timed as an installed deckwright runs, with its bytecode cached: PYTHONDONTWRITEBYTECODE is dropped
from their environment (as bench_check and bench_cards do), or every module edited since its bytecode was last
written would be compiled from source in each run, and the build imports many more of them than the bare script.

``--printshop N`` builds ``--target printshop`` of an N-card game (10,000: target under 2 minutes) and
splits the PNGs' cost into painting and PNG compression at each ``compress_level`` on a sample of cards,
checking that two runs give identical pixels.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VOCABULARY = ("the hunter strikes again when night falls and every shadow in the old forest gathers strength while "
              "lanterns burn low over broken stones rivers of ash cold iron silver blades ancient oaths whisper "
              "beneath moonlight draw two cards discard one gain energy lose health shield ally enemy")
WORDS = tuple(VOCABULARY.split())
KINDS = ("Creature - Beast", "Creature - Spirit", "Spell - Curse", "Item - Relic", "Ally - Hunter")
GAME_YAML = """title: Bench
slug: bench
players: 1
summary: A synthetic deck for the PDF benchmark.
card_types:
  unit:
    name: Unit
    fields:
      kind: text
      attack: {type: int}
      defense: {type: int}
      text: text
decks:
  bench:
    name: Bench deck
    size: poker
    back: {title: Bench, subtitle: Synthetic deck, color: "#35506b"}
"""
LAYOUT = """boxes:
  background: {kind: rect, fill: "#35506b", bleed: true}
  panel: {kind: rect, left: 3, right: 3, top: 3, bottom: 3, fill: "#fbf7ef", radius: 2}
  band: {kind: rect, left: 3, right: 3, top: 3, height: 10, fill: "#35506b"}
  title: {kind: text, text: "{{ card.name }}", font: Vollkorn, font_style: bold, size: 12, color: "#ffffff",
          left: 5, right: 5, top: 3, height: 10, align: center, valign: middle}
  kind: {kind: text, text: "{{ card.kind }}", font: Open Sans, font_style: italic, size: 7, color: "#1d1a24",
         left: 5, right: 5, top: 14, height: 4, align: center}
  attack:
    kind: ellipse
    left: 6
    top: 19.5
    width: 10
    height: 10
    fill: "#8c1c13"
    boxes:
      value: {kind: text, text: "{{ card.attack }}", font: Open Sans, font_style: bold, size: 12, color: "#ffffff",
              align: center, valign: middle}
  defense:
    kind: ellipse
    right: 6
    top: 19.5
    width: 10
    height: 10
    fill: "#2f4858"
    boxes:
      value: {kind: text, text: "{{ card.defense }}", font: Open Sans, font_style: bold, size: 12, color: "#ffffff",
              align: center, valign: middle}
  text: {kind: text, text: "{{ card.text }}", font: Open Sans, size: 8, color: "#1d1a24", left: 6, right: 6, top: 32,
         bottom: 6}
"""


def make_game(folder: Path, count: int) -> None:
    """A game folder with ``count`` unique cards (500 per file, under the loader's file size limit)."""
    rng = random.Random(7)
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (folder / "layouts" / "unit.yaml").write_text(LAYOUT, encoding="utf-8")
    for start in range(0, count, 500):
        lines = ["type: unit", "deck: bench", "cards:"]
        for i in range(start, min(count, start + 500)):
            text = " ".join(rng.choice(WORDS) for _ in range(40)).capitalize() + "."
            lines += [f"  - id: card-{i}", f"    name: {rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}",
                      f"    kind: {rng.choice(KINDS)}", f"    attack: {rng.randint(0, 12)}",
                      f"    defense: {rng.randint(0, 12)}", f"    text: {text}"]
        (folder / f"cards-{start:05d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")




LETTER = (215.9, 279.4)
FLAGS = ("--target", "home", "--paper", "letter", "--no-backs")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_pdf_step(folder: Path, out: Path) -> tuple[float, float]:
    """The deck's home-print PDF alone, the game already loaded: (wall, processor seconds)."""
    # ReportLab's modules imported before the clock starts, as the bare script imports them: deckwright imports
    # them when it first draws, which would put 0.1 s of imports into the step's drawing time and not the bare's
    import reportlab.lib.utils  # noqa: F401
    import reportlab.pdfbase.pdfmetrics  # noqa: F401
    import reportlab.pdfbase.ttfonts  # noqa: F401
    import reportlab.pdfgen.canvas  # noqa: F401
    from reportlab import rl_config  # noqa: F401

    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
    from deckwright.rules.load import load_game

    game = load_game(folder)
    started = time.perf_counter(), cpu_seconds()
    faces = Faces(game)
    job = PrintJob("Bench", tuple(game.decks.values()), (), "letter", False)
    HomePrint(game, faces, job).write(str(out))
    return time.perf_counter() - started[0], cpu_seconds() - started[1]


def run_bare(folder: Path, out: Path) -> tuple[float, float]:
    """What a designer would write by hand with ReportLab: same fonts, same drawing, no layout engine."""
    from reportlab import rl_config
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from deckwright.generator.layout.impose import plan_grid
    from deckwright.rules.load import load_game

    game = load_game(folder)
    started = time.perf_counter(), cpu_seconds()
    fonts = ROOT / "templates" / "fonts"
    for name, file in (("VB", "vollkorn/Vollkorn-Bold.ttf"), ("OS", "open-sans/OpenSans-Regular.ttf"),
                       ("OSI", "open-sans/OpenSans-Italic.ttf"), ("OSB", "open-sans/OpenSans-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(fonts / file)))
    mm = 72 / 25.4
    pw, ph = LETTER
    cw, chh, bleed = 63.5, 88.9, 3.0
    grid = plan_grid((pw, ph), (cw, chh), bleed)
    rl_config.useA85 = 0  # the same canvas settings deckwright uses
    c = Canvas(str(out), pagesize=(pw * mm, ph * mm), invariant=1, pageCompression=1)
    cards = list(game.cards)
    for first in range(0, len(cards), grid.per_page):
        chunk = cards[first:first + grid.per_page]
        for i, card in enumerate(chunk):
            col, row = grid.slot(i)
            tx, ty = grid.trim_origin(col, row)
            vx, vy, vw, vh = grid.visible(col, row)
            x, top = tx * mm, (ph - ty) * mm  # top-left of the trim
            c.saveState()
            p = c.beginPath()
            p.rect(vx * mm, (ph - vy - vh) * mm, vw * mm, vh * mm)
            c.clipPath(p, stroke=0, fill=0)
            c.setFillColorRGB(0.21, 0.31, 0.42)
            c.rect(x - bleed * mm, top - (chh + bleed) * mm, (cw + 2 * bleed) * mm, (chh + 2 * bleed) * mm, stroke=0, fill=1)
            c.setFillColorRGB(0.98, 0.97, 0.94)
            c.roundRect(x + 3 * mm, top - (chh - 3) * mm, (cw - 6) * mm, (chh - 6) * mm, 2 * mm, stroke=0, fill=1)
            c.setFillColorRGB(0.21, 0.31, 0.42)
            c.rect(x + 3 * mm, top - 13 * mm, (cw - 6) * mm, 10 * mm, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("VB", 12)
            c.drawCentredString(x + cw / 2 * mm, top - 9.6 * mm, card.name)
            c.setFillColorRGB(0.11, 0.1, 0.14)
            c.setFont("OSI", 7)
            c.drawCentredString(x + cw / 2 * mm, top - 16.5 * mm, card["kind"])
            for cx, value, rgb in ((11, card["attack"], (0.55, 0.11, 0.07)), (cw - 11, card["defense"], (0.18, 0.28, 0.35))):
                c.setFillColorRGB(*rgb)
                c.circle(x + cx * mm, top - 24.5 * mm, 5 * mm, stroke=0, fill=1)
                c.setFillColorRGB(1, 1, 1)
                c.setFont("OSB", 12)
                c.drawCentredString(x + cx * mm, top - 26 * mm, str(value))
            c.setFillColorRGB(0.11, 0.1, 0.14)
            c.setFont("OS", 8)
            y = top - 35 * mm
            for line in simpleSplit(card["text"], "OS", 8, (cw - 12) * mm):
                c.drawString(x + 6 * mm, y, line)
                y -= 9.6
            c.restoreState()
        for mark in grid.marks(grid.ruler(), len(chunk)):
            c.line(mark.x1 * mm, (ph - mark.y1) * mm, mark.x2 * mm, (ph - mark.y2) * mm)
        c.showPage()
    c.save()
    return time.perf_counter() - started[0], cpu_seconds() - started[1]


def run_png_split(folder: Path, out: Path) -> dict:
    """Print-shop PNGs of the first cards, painting and PNG compression timed apart (processor seconds)."""
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.layout.paper import SHOP_BLEED
    from deckwright.generator.render.png import ZLIB, fastest_deflate, save_png
    from deckwright.generator.render.raster import Rasterizer
    from deckwright.rules.load import load_game

    game = load_game(folder)
    faces = Faces(game)
    # painted after as many other faces, as a worker paints them: its kept frame and words' masks in use
    warm_up = [faces.front(card, SHOP_BLEED) for card in list(game.cards)[PNG_SAMPLE:2 * PNG_SAMPLE]]
    displays = [faces.front(card, SHOP_BLEED) for card in list(game.cards)[:PNG_SAMPLE]]
    raster = Rasterizer(faces.fonts)
    for display in warm_up:
        raster.image(display, 300)
    started = cpu_seconds()
    images = [raster.image(display, 300) for display in displays]
    figures = {"cards": len(displays), "paint": cpu_seconds() - started}
    figures["same_pixels"] = all(raster.image(display, 300).tobytes() == image.tobytes()
                                 for display, image in zip(displays[:5], images))
    supersampled = Rasterizer(faces.fonts, text_at_output=False)  # every text run painted as before raster_text
    for display in warm_up:
        supersampled.image(display, 300)
    started = cpu_seconds()
    for display in displays:
        supersampled.image(display, 300)
    figures["paint, text supersampled"] = cpu_seconds() - started
    for level in (0, 1, 3, 6, 9):
        started = cpu_seconds()
        sizes = 0
        for image in images:
            image.save(out, "PNG", dpi=(300, 300), compress_level=level)
            sizes += out.stat().st_size
        figures[f"level {level}"] = (cpu_seconds() - started, sizes / len(images) / 1024)
    for deflate in dict.fromkeys((ZLIB, fastest_deflate())):
        started = cpu_seconds()
        sizes = 0
        for image in images:
            save_png(image, out, 300, deflate)
            sizes += out.stat().st_size
        figures[f"deckwright, {deflate.name}"] = (cpu_seconds() - started, sizes / len(images) / 1024)
    return figures


PNG_SAMPLE = 40


def run_build(folder: Path, out: Path) -> dict:
    """``deckwright build`` in this process: its exit status and the peak memory (MB) of this process and of the
    largest of its workers (the site, rulebook and PNG workers, each waited for)."""
    from deckwright.generator.cli import main as deckwright

    status = deckwright(["build", str(folder), *FLAGS, "--out", str(out)])
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stdout.flush()
    return {"status": status, "main_mb": own.ru_maxrss / 1024, "worker_mb": workers.ru_maxrss / 1024}


def child(args) -> None:
    if args.run == "build":
        result = run_build(Path(args.game), Path(args.output))
        print(json.dumps(result))
        if result["status"]:
            sys.exit(result["status"])
        return
    if args.run == "png-split":
        print(json.dumps(run_png_split(Path(args.game), Path(args.output))))
        return
    runner = run_pdf_step if args.run == "pdf" else run_bare
    wall, cpu = runner(Path(args.game), Path(args.output))
    print(json.dumps({"inner_wall": wall, "inner_cpu": cpu}))


def measured(command: list[str]) -> dict:
    """Runs ``command`` in a fresh process: its wall clock, processor seconds (with its workers, from ``wait4``),
    peak memory (MB, its largest process) and what it printed last as JSON, if anything."""
    started = time.perf_counter()
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout = process.stdout.read()
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed (exit {process.returncode}):\n{stderr.decode()[-3000:]}")
    result = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}
    lines = stdout.decode().strip().splitlines()
    if lines and lines[-1].startswith("{"):
        result.update(json.loads(lines[-1]))
    return result


def best_of(commands: list[list[str]], repeat: int) -> tuple[list[dict], list[list[dict]]]:
    """For each command, the fastest of ``repeat`` runs (by wall clock), with the lowest processor time and memory
    among them; and every round's runs. The rounds alternate between the commands, so that a slow minute of a
    shared machine does not fall on one command only (run one after the other, the bare script once measured 5.6 s
    in a slow minute against 3.0 s in the next, and its ratios looked met)."""
    rounds = [[measured(command) for command in commands] for _ in range(repeat)]
    return [_best([runs[index] for runs in rounds]) for index in range(len(commands))], rounds


def _best(runs: list[dict]) -> dict:
    best = dict(min(runs, key=lambda run: run["wall"]))
    for key in ("cpu", "peak_mb", "inner_cpu", "main_mb", "worker_mb"):
        if key in best:
            best[key] = min(run[key] for run in runs)
    return best


def load_average() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg()) + f" on {os.cpu_count()} cores"


def bench_size(tmp: Path, cards: int, repeat: int) -> None:
    game = tmp / f"bench-{cards}"
    make_game(game, cards)
    me = [sys.executable, __file__]
    commands = [[*me, "--run", "bare", "--game", str(game), "--output", str(tmp / "bare.pdf")],
                [*me, "--run", "pdf", "--game", str(game), "--output", str(tmp / "step.pdf")],
                [*me, "--run", "build", "--game", str(game), "--output", str(tmp / f"out-{cards}")]]
    (bare, step, whole), rounds = best_of(commands, repeat)
    memory_target = 60 if cards <= 1000 else 100
    print(f"{cards:,} poker cards, 9-up on Letter, fronts only (best of {repeat}; {load_average()}):")
    for label, run in (("bare ReportLab script", bare), ("deckwright PDF step", step), ("deckwright build --target home", whole)):
        inner = f"; drawing alone {run['inner_cpu']:.2f} s processor" if "inner_cpu" in run else ""
        print(f"  {label + ':':<32}{run['wall']:7.2f} s wall, {run['cpu']:7.2f} s processor, "
              f"peak {run['peak_mb']:5.0f} MB{inner}")
    whole_ratio = whole["wall"] / bare["wall"]
    step_ratio = step["inner_cpu"] / bare["inner_cpu"]
    print(f"  whole command / bare, wall:      {whole_ratio:5.2f} x (target <= 1.20: {'met' if whole_ratio <= 1.2 else 'NOT met'})")
    print(f"  whole command / bare, processor: {whole['cpu'] / bare['cpu']:5.2f} x (the same, the machine's other work left out)")
    print("  whole command / bare, wall, round by round (the machine's noise): "
          + " ".join(f"{round_whole['wall'] / round_bare['wall']:.2f}" for round_bare, _, round_whole in rounds))
    print(f"  PDF step / bare drawing, CPU:    {step_ratio:5.2f} x (target <= 1.15: {'met' if step_ratio <= 1.15 else 'NOT met'})")
    print(f"  build's peak memory by process:  main {whole['main_mb']:5.0f} MB, "
          f"largest worker {whole['worker_mb']:5.0f} MB")
    peak = max(step["peak_mb"], whole["main_mb"], whole["worker_mb"])
    print(f"  peak memory, deckwright:         {peak:5.0f} MB in its largest process (target < {memory_target} MB: "
          f"{'met' if peak < memory_target else 'NOT met'})")
    sys.stdout.flush()
    shutil.rmtree(tmp / f"out-{cards}", ignore_errors=True)
    shutil.rmtree(game, ignore_errors=True)


def bench_printshop(tmp: Path, cards: int) -> None:
    game = tmp / f"shop-{cards}"
    make_game(game, cards)
    split = measured([sys.executable, __file__, "--run", "png-split", "--game", str(game), "--output", str(tmp / "one.png")])
    print(f"print-shop PNGs, 300 dpi with bleed, {split['cards']} cards in one process after as many others "
          f"({load_average()}):")
    print(f"  painting: {split['paint'] / split['cards'] * 1000:6.1f} ms a card (every text run supersampled: "
          f"{split['paint, text supersampled'] / split['cards'] * 1000:.1f} ms); identical pixels on a second run: "
          f"{split['same_pixels']}")
    for level in (0, 1, 3, 6, 9):
        seconds, kb = split[f"level {level}"]
        print(f"  Pillow's writer, compress_level {level}: {seconds / split['cards'] * 1000:6.1f} ms a card, {kb:6.0f} KB a file")
    for name in (name for name in split if name.startswith("deckwright, ")):
        seconds, kb = split[name]
        print(f"  {name[len('deckwright, '):]} (deckwright's writer, rows unfiltered): "
              f"{seconds / split['cards'] * 1000:6.1f} ms a card, {kb:6.0f} KB a file")
    child_code = (f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import bench_pdf; "
                  f"bench_pdf.run_printshop_build({str(game)!r}, {str(tmp / 'shop-out')!r})")
    whole = measured([sys.executable, "-c", child_code])
    verdict = "met" if whole["wall"] < 120 and max(whole["main_mb"], whole["worker_mb"]) < 100 else "NOT met"
    print(f"deckwright build --target printshop, {cards:,} cards: {whole['wall']:.1f} s wall, {whole['cpu']:.1f} s "
          f"processor (main process {whole['main_cpu']:.1f} s, its workers {whole['workers_cpu']:.1f} s); peak "
          f"main {whole['main_mb']:.0f} MB, largest worker {whole['worker_mb']:.0f} MB (the PNG workers are fresh "
          f"interpreters; the site worker is forked, its peak counting the pages it shares with the main process); "
          f"target under 120 s and 100 MB: {verdict} ({load_average()})")


def run_printshop_build(game: str, out: str) -> None:
    """``deckwright build GAME --target printshop`` in this process; prints its processor seconds and peak memory
    (MB), this process's and its workers' (the PNG workers, the site worker) apart, as JSON."""
    from deckwright.generator.cli import main as deckwright

    status = deckwright(["build", game, "--target", "printshop", "--out", out])
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stdout.flush()
    print(json.dumps({"main_cpu": own.ru_utime + own.ru_stime, "workers_cpu": workers.ru_utime + workers.ru_stime,
                      "main_mb": own.ru_maxrss / 1024, "worker_mb": workers.ru_maxrss / 1024}))
    if status:
        sys.exit(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000", help="card counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each command; the best is shown")
    parser.add_argument("--printshop", type=int, metavar="CARDS", help="bench the print-shop PNGs of CARDS cards instead")
    parser.add_argument("--run", choices=("pdf", "bare", "build", "png-split"), help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        child(args)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.printshop:
            bench_printshop(Path(tmp), args.printshop)
            return 0
        for cards in (int(size) for size in args.sizes.split(",")):
            bench_size(Path(tmp), cards, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
