"""Site build time for every bundled game (target: under 2 s), and the site of big synthetic games.

    .venv/bin/python bench/bench_site.py [--repeat N] [GAME_FOLDER ...]
    .venv/bin/python bench/bench_site.py --cards 1000 5000 [--repeat N] [--no-browser]

Without ``--cards``: the time to load and check the games (not counted against
the target: ``deckwright build`` does that for every output) and the time to
write the site from them, the best of N runs, with the page and card counts.

With ``--cards``: for each count, a synthetic game of that many poker cards
(bench_pdf.py's generator) and its site: the build's wall and processor seconds
(best of N), the size of its gallery and printable pages and of the largest
page, and in headless Chromium (Playwright, from disk) the first paint and
first contentful paint of the gallery and the A4 printable page, and the time
until every card picture in the first screen is drawn (best of N). Targets:
first paint under 1 s, no page over 2 MB. The load average is printed beside
the figures: the machine may be shared.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from in_build import cpu_seconds

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.site import build_site
from deckwright.rules.ci.check import check_game
from deckwright.rules.load import bundled_games, load_game, load_game_with_warnings

CHROMIUM = Path("/usr/bin/chromium")  # as the tests drive it (tests/conftest.py)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
MB = 1e6
PAINT = """() => Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]))"""
# Every card picture that shows in the first screen has its symbol on the page, and its drawing has been laid out.
FIRST_SCREEN_DRAWN = """() => [...document.querySelectorAll('svg.card-img, svg.print-card')]
    .filter(s => { const r = s.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })
    .every(s => { const u = s.querySelector('use'); const t = u && document.getElementById(u.getAttribute('href').slice(1));
                  return t && u.getBBox().width > 0; })"""


def load_average() -> str:
    return "load average " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def bench_bundled(folders: list[Path], repeat: int) -> int:
    start = time.perf_counter()
    games, reports = [], {}
    for folder in folders or bundled_games(BUNDLED_GAMES):
        game, problems = load_game_with_warnings(folder)
        if game is None:
            print(f"{folder.name}: skipped, it does not load ({len(problems.errors)} error(s))")
            continue
        games.append(game)
        reports[game.slug] = check_game(folder)
    checked = time.perf_counter() - start

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(repeat):
            start = time.perf_counter()
            try:
                pages = build_site(games, Path(tmp) / "site", reports)
            except LayoutError as exc:
                print(f"site not built: {exc}")
                return 1
            times.append(time.perf_counter() - start)
        size = sum(p.stat().st_size for p in (Path(tmp) / "site").rglob("*") if p.is_file())

    cards = sum(len(g.cards) for g in games)
    print(f"games: {len(games)} ({', '.join(g.slug for g in games)}), {cards} different cards, {len(pages)} pages, "
          f"{size / 1e6:.1f} MB")
    print(f"load + check: {checked:.2f} s")
    print(f"site build:   {min(times):.2f} s best of {len(times)} (runs: {', '.join(f'{t:.2f}' for t in times)}); "
          f"target < 2 s: {'met' if min(times) < 2 else 'NOT met'}  ({load_average()})")
    return 0


def time_build(game, target: Path, repeat: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Wall and processor seconds of the first of ``repeat`` site builds (its templates compiled: the cache of
    compiled templates starts empty, see main) and the best of them (the check report is made once, not timed)."""
    report = {game.slug: check_game(game.root)}
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), cpu_seconds()
        build_site([game], target, report)
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_seconds() - cpu)
    return (walls[0], cpus[0]), (min(walls), min(cpus))


def page_sizes(site: Path) -> dict[str, int]:
    return {str(p.relative_to(site)): p.stat().st_size for p in sorted(site.rglob("*.html"))}


def first_paint(site: Path, pages: list[str], repeat: int) -> dict[str, dict[str, float]]:
    """Per page, the best of ``repeat`` fresh loads from disk: first paint, first contentful paint, and the
    milliseconds until the first screen's card pictures are drawn, each in a new browser context."""
    from playwright.sync_api import sync_playwright

    figures: dict[str, dict[str, float]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for rel in pages:
            best: dict[str, float] = {}
            for _ in range(repeat):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                started = time.perf_counter()
                page.goto((site / rel).as_uri(), wait_until="commit")
                page.wait_for_function(FIRST_SCREEN_DRAWN, polling=20, timeout=120_000)
                drawn = (time.perf_counter() - started) * 1000
                paints = page.evaluate(PAINT)
                run = {"first-paint": paints.get("first-paint", float("nan")),
                       "first-contentful-paint": paints.get("first-contentful-paint", float("nan")),
                       "first screen drawn": drawn}
                best = {k: min(v, best.get(k, v)) for k, v in run.items()}
                context.close()
            figures[rel] = best
        browser.close()
    return figures


def bench_synthetic(counts: list[int], repeat: int, browser: bool) -> int:
    from bench_pdf import make_game

    for count in counts:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "bench"
            make_game(folder, count)
            game = load_game(folder)
            site = Path(tmp) / "site"
            (first_wall, first_cpu), (wall, cpu) = time_build(game, site, repeat)
            print(f"{count} cards: site build {wall:.2f} s wall, {cpu:.2f} s processor, best of {repeat}; the first, "
                  f"its templates compiled: {first_wall:.2f} s wall, {first_cpu:.2f} s processor ({load_average()})")
            sizes = page_sizes(site)
            largest = max(sizes, key=sizes.get)
            total = sum(f.stat().st_size for f in site.rglob("*") if f.is_file())
            print(f"  {len(sizes)} pages, {total / MB:.1f} MB in all; largest page {largest}: {sizes[largest] / MB:.2f} MB "
                  f"(target < 2 MB: {'met' if sizes[largest] < 2 * MB else 'NOT met'})")
            for kind in ("cards", "print-a4", "print-letter"):
                pages = [p for p in sizes if re.fullmatch(rf"{game.slug}/{kind}(-\d+)?\.html", p)]
                print(f"  {kind}: {len(pages)} page(s), {kind}.html {sizes[f'{game.slug}/{kind}.html'] / MB:.2f} MB, "
                      f"largest {max(sizes[p] for p in pages) / MB:.2f} MB")
            index = site / game.slug / "cards-index.js"
            if index.is_file():
                print(f"  the gallery's search index, cards-index.js: {index.stat().st_size / MB:.2f} MB, loaded when its "
                      "filters are first used, not with a page")
            if not browser:
                continue
            if not CHROMIUM.is_file():
                print(f"  first paint: not measured, {CHROMIUM} is not installed")
                continue
            for rel, figures in first_paint(site, [f"{game.slug}/cards.html", f"{game.slug}/print-a4.html"],
                                            repeat).items():
                print(f"  {rel}: first paint {figures['first-paint']:.0f} ms, first contentful paint "
                      f"{figures['first-contentful-paint']:.0f} ms, first screen of pictures drawn "
                      f"{figures['first screen drawn']:.0f} ms, best of {repeat} (target: first paint < 1000 ms: "
                      f"{'met' if figures['first-paint'] < 1000 else 'NOT met'}; {load_average()})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", type=int, nargs="+", help="synthetic games of these many cards")
    parser.add_argument("--no-browser", action="store_true", help="leave out the first paint in Chromium")
    parser.add_argument("folders", nargs="*", type=Path, help="game folders (default: every bundled game)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:  # compiled site templates (site/template_cache.py): none at first
        os.environ["XDG_CACHE_HOME"] = cache
        if args.cards:
            return bench_synthetic(args.cards, args.repeat, not args.no_browser)
        return bench_bundled(args.folders, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
