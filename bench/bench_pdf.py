"""Benchmark: deckwright's home-print PDF against a bare ReportLab canvas script drawing the same cards.

    .venv/bin/python bench/bench_pdf.py [--cards 1000] [--memory-cards 5000] [--repeat 3]

Makes a synthetic game of poker cards (a title, a type line, two stats and
about 40 words of text each) and, each in a fresh process:

- deckwright: load nothing but the game, lay out every card, impose them 3 x 3
  on A4 with bleed, crop marks, ruler and mirrored back pages, write the PDF;
- bare: one canvas script drawing the same frame, texts (wrapped with
  ReportLab's simpleSplit), stat circles, backs and crop marks, card by card.

Prints the CPU time of each (best of --repeat runs; CPU time, because the
machine may be shared), their ratio (target: at most 1.5) and the peak memory of deckwright at --memory-cards cards (target: under
200 MB, and not growing with the deck).
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = ("the hunter strikes again when night falls and every shadow in the old forest gathers strength while "
         "lanterns burn low over broken stones rivers of ash cold iron silver blades ancient oaths whisper "
         "beneath moonlight draw two cards discard one gain energy lose health shield ally enemy").split()
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


LOADED_MB = [0.0]  # peak memory once the game is loaded, before any layout or drawing


def run_deckwright(folder: Path, out: Path) -> tuple[float, float]:
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
    from deckwright.rules.load import load_game

    game = load_game(folder)
    LOADED_MB[0] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter(), time.process_time()
    faces = Faces(game)
    job = PrintJob("Bench", tuple(game.decks.values()), (), "a4", True)
    HomePrint(game, faces, job).write(str(out))
    return time.perf_counter() - started[0], time.process_time() - started[1]


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
    started = time.perf_counter(), time.process_time()
    fonts = ROOT / "templates" / "fonts"
    for name, file in (("VB", "vollkorn/Vollkorn-Bold.ttf"), ("OS", "open-sans/OpenSans-Regular.ttf"),
                       ("OSI", "open-sans/OpenSans-Italic.ttf"), ("OSB", "open-sans/OpenSans-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(fonts / file)))
    mm = 72 / 25.4
    pw, ph = 210.0, 297.0
    cw, chh, bleed = 63.5, 88.9, 3.0
    grid = plan_grid((pw, ph), (cw, chh), bleed)
    rl_config.useA85 = 0  # the same canvas settings deckwright uses
    c = Canvas(str(out), pagesize=(pw * mm, ph * mm), invariant=1, pageCompression=1)
    cards = [card for card in game.cards]

    def marks():
        for mark in grid.marks(grid.ruler()):
            c.line(mark.x1 * mm, (ph - mark.y1) * mm, mark.x2 * mm, (ph - mark.y2) * mm)

    def slot(index, mirrored):
        col, row = grid.slot(index, mirrored)
        x, y = grid.trim_origin(col, row)
        vx, vy, vw, vh = grid.visible(col, row)
        c.saveState()
        p = c.beginPath()
        p.rect(vx * mm, (ph - vy - vh) * mm, vw * mm, vh * mm)
        c.clipPath(p, stroke=0, fill=0)
        return x * mm, (ph - y) * mm  # top-left of the trim

    for first in range(0, len(cards), 9):
        chunk = cards[first:first + 9]
        for i, card in enumerate(chunk):
            x, top = slot(i, False)
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
        marks()
        c.showPage()
        for i in range(len(chunk)):
            x, top = slot(i, True)
            c.setFillColorRGB(0.21, 0.31, 0.42)
            c.rect(x - bleed * mm, top - (chh + bleed) * mm, (cw + 2 * bleed) * mm, (chh + 2 * bleed) * mm, stroke=0, fill=1)
            c.setStrokeColorRGB(0.6, 0.66, 0.72)
            c.roundRect(x + 4 * mm, top - (chh - 4) * mm, (cw - 8) * mm, (chh - 8) * mm, 3 * mm, stroke=1, fill=0)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("VB", 15)
            c.drawCentredString(x + cw / 2 * mm, top - chh / 2 * mm, "Bench")
            c.restoreState()
        marks()
        c.showPage()
    c.save()
    return time.perf_counter() - started[0], time.process_time() - started[1]


def child(args) -> None:
    runner = run_deckwright if args.run == "deckwright" else run_bare
    wall, cpu = runner(Path(args.game), Path(args.output))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": cpu, "wall": wall, "peak_mb": peak_mb, "loaded_mb": LOADED_MB[0]}))


def measure(run: str, game: Path, output: Path) -> dict:
    result = subprocess.run([sys.executable, __file__, "--run", run, "--game", str(game), "--output", str(output)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--memory-cards", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--run", choices=("deckwright", "bare"), help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        child(args)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        game = tmp / "bench"
        make_game(game, args.cards)
        best = {}
        for run in ("bare", "deckwright"):
            results = [measure(run, game, tmp / f"{run}.pdf") for _ in range(args.repeat)]
            best[run] = min(results, key=lambda r: r["seconds"])
        ratio = best["deckwright"]["seconds"] / best["bare"]["seconds"]
        print(f"{args.cards} poker cards, 3 x 3 on A4 with backs (CPU seconds, best of {args.repeat}; wall clock in brackets):")
        for run, label in (("bare", "bare ReportLab script"), ("deckwright", "deckwright")):
            print(f"  {label + ':':<22} {best[run]['seconds']:.2f} s ({best[run]['wall']:.2f} s), peak {best[run]['peak_mb']:.0f} MB")
        print(f"  ratio: {ratio:.2f} x the bare script (target <= 1.5)")
        big = tmp / "big"
        make_game(big, args.memory_cards)
        small = measure("deckwright", game, tmp / "small.pdf")
        large = measure("deckwright", big, tmp / "big.pdf")
        print(f"peak memory: {small['peak_mb']:.0f} MB at {args.cards} cards, {large['peak_mb']:.0f} MB at "
              f"{args.memory_cards} cards (target < 200 MB); {args.memory_cards} cards took {large['seconds']:.1f} s")
        print(f"  of which the loaded game data: {small['loaded_mb']:.0f} MB and {large['loaded_mb']:.0f} MB; "
              f"laying out and drawing added {small['peak_mb'] - small['loaded_mb']:.0f} MB and "
              f"{large['peak_mb'] - large['loaded_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
