"""``deckwright build``: every output of every game, each written atomically.

A build first checks every game as ``deckwright check`` does (``check_for_build``): when one fails (a data
problem, a failing example, a layout error, text that does not fit even at its smallest size, a missing or
unreadable picture) nothing is written and the build exits 1, unless ``--force``.

A build step is a function ``step(game, folder, options, faces, report)`` writing into the game's staging
folder: ``faces`` is the game's layouts, compiled once for the check and every step, and ``report`` its check
report (``rules.ci.check``), its worked examples replayed once for every output that shows them (the rulebook
PDFs and the site). The whole build holds the output folder's lock (generator.output).

``--target`` picks what is built: ``home`` (print/*.pdf), ``printshop`` (print/printshop/), ``proof`` (print/proof.pdf),
``tts`` (tts/), ``sprites`` (sprites/), or ``all`` of them. game.json, the schema and the site
are written every time. The files of the targets not built are carried over from the game's
previous output, so building one target never deletes another's.
"""
from __future__ import annotations

import sys
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

from deckwright.rules.data.cells import csv_template
from deckwright.rules.data.export import game_data
from deckwright.rules.data.jsonschema import schema_files
from deckwright.rules.problems import InvalidGame, Problem, Problems

from .output import check_replaceable, link_or_copy, locked, staged_folder, write_json


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    paper: str = "a4"
    backs: bool = True
    target: str = "all"  # all, or one of TARGET_FILES
    image_format: str = "png"  # of the tts and sprites images: png or jpeg
    base_url: str | None = None  # where the tts images will be online; None: file:/// paths to them
    force: bool = False  # build even when checks fail (exit 1 all the same), the failures marked on the site
    home_draft: object = None  # one game's home PDFs its check drew (outputs.print_step.HomeDraft), to move in


# What each target writes under <out>/<game>/ (glob patterns).
TARGET_FILES = {
    "home": ("print/*.pdf",),
    "printshop": ("print/printshop/**/*",),
    "proof": ("print/proof.pdf",),
    "tts": ("tts/**/*",),
    "sprites": ("sprites/**/*",),
}


def write_schema(folder: Path, game) -> None:
    """JSON Schema files for editors (fonts.json for a game's fonts/fonts.yaml), and per card type a CSV template
    (its header row) for spreadsheets."""
    from deckwright.generator.layout.fonts import STYLES
    from deckwright.generator.layout.gamefonts import fonts_file_schema

    for name, schema in {"fonts.json": fonts_file_schema(tuple(STYLES)), **schema_files(game)}.items():
        write_json(folder / name, schema)
    for card_type in game.card_types.values():
        (folder / f"{card_type.id}.csv").write_text(csv_template(card_type.fields), encoding="utf-8")


def step_data(game, folder: Path, options: BuildOptions, faces=None, report=None) -> None:
    write_json(folder / "game.json", game_data(game))
    write_schema(folder / "schema", game)


def step_tabletop(game, folder: Path, options: BuildOptions, faces=None, report=None) -> None:
    """The Tabletop Simulator and sprite-sheet exports (``outputs.tabletop_step``), imported only by the targets
    that write them."""
    if options.target in ("all", "tts", "sprites"):
        from .outputs.tabletop_step import step_tabletop as write_exports

        write_exports(game, folder, options, faces, report)


def build_steps():
    from .outputs.print_step import step_print

    return [step_data, step_print, step_tabletop]


def rulebooks_beside_steps(game, folder: Path, options: BuildOptions, faces, report):
    """The printable rulebooks (``outputs.rulebook``), written in a worker process while every other step of the
    game runs, so that on a machine with a core to spare they cost the build little wall-clock time; their
    errors are raised when the steps end. A game without rulebook pages has none: the rulebook machinery is not
    even imported."""
    home, printshop = options.target in ("all", "home"), options.target in ("all", "printshop")
    if not game.pages or not (home or printshop):
        return nullcontext()
    from .outputs.rulebook import rulebooks_beside

    return rulebooks_beside(game, faces, report.examples, folder / "print", options.paper, home, printshop)


def keep_other_targets(previous: Path, staging: Path, target: str) -> None:
    """Carries the files of every target not being built from the previous output into the new one."""
    if target == "all" or not previous.is_dir():
        return
    for other, patterns in TARGET_FILES.items():
        if other == target:
            continue
        for pattern in patterns:
            for path in sorted(previous.glob(pattern)):
                copy = staging / path.relative_to(previous)
                if path.is_symlink() or not path.is_file() or copy.exists():
                    continue
                copy.parent.mkdir(parents=True, exist_ok=True)
                link_or_copy(path, copy)


def downloads(games, out: Path) -> dict[str, list[Path]]:
    """The printable rulebooks each game's output holds, for the site to offer."""
    from .outputs.rulebook_files import BOOKLET, FULL

    return {game.slug: [path for path in (out / game.slug / "print" / FULL, out / game.slug / "print" / BOOKLET)
                        if path.is_file()] for game in games}


@dataclass
class Verdict:
    """What checking one game before its build found: the check report, the compiled layouts (None when they
    cannot be compiled), and its located problems: ``failures`` fail the build, ``warnings`` do not."""

    report: object  # rules.ci.check.GameReport
    faces: object  # generator.layout.faces.Faces, or None
    failures: list[Problem]
    warnings: list[Problem]
    home_draft: object = None  # outputs.print_step.HomeDraft: the home PDFs drawn while checking, or None


def check_for_build(game, force: bool = False, loaded: Problems | None = None, draft: tuple | None = None) -> Verdict:
    """Everything ``deckwright check`` checks (the data, the worked examples, the rules module, every face laid
    out, its text fitted and its art found), run once: the report and the Faces are reused by the build.
    ``loaded``: what loading ``game`` found (the game is then checked as it is, not read again). ``draft``:
    (folder, paper, backs) to draw the home PDFs into while laying the faces out, so that the build moves
    them in rather than laying every card out twice (``Verdict.home_draft``)."""
    return finish_check(game, start_check(game, force, loaded), draft)


def start_check(game, force: bool = False, loaded: Problems | None = None) -> Verdict:
    """The first half of ``check_for_build``: the data, the worked examples and the rules module checked, the
    layouts compiled; every face's layout is still to be checked (``finish_check``)."""
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.layout.files import LayoutError
    from deckwright.rules.ci.check import check_game, check_loaded

    if loaded is None:
        report = check_game(game.root, run_code=game.run_code)
    else:
        report = check_loaded(game.root, game, Problems(list(loaded.items)))
    if not report.problems.errors and game.pages:  # (Python-Markdown imported only for a rulebook)
        from deckwright.generator.book.links import link_problems
        from deckwright.generator.site import game_pages

        report.problems.extend(link_problems(game, game_pages(game)))
    failures = [problem for problem in report.problems.sorted() if problem.severity == "error"]
    failures += [Problem(example.loc, f"{example.name}: failing" + (f": {example.message}" if example.message else ""))
                 for example in report.examples if example.verdict == "failing"]
    if report.conformance is not None:
        failures += [Problem(problem.loc, f"rules protocol: {problem.message}")
                     for problem in report.conformance.problems]
    try:
        faces = Faces(game, keep_going=force)
    except LayoutError as exc:  # its fonts or icons.yaml cannot be read: nothing can be drawn
        return _with_layout(Verdict(report, None, failures, []), exc.problems)
    return Verdict(report, faces, failures, [])


def finish_check(game, verdict: Verdict, draft: tuple | None = None) -> Verdict:
    """``start_check``'s verdict completed: every face laid out (drawn into the home PDFs, with ``draft``)."""
    from deckwright.generator.layout.files import LayoutError
    from deckwright.generator.layout.fitcheck import layout_warnings

    if verdict.faces is None:
        return verdict
    faces, home = verdict.faces, None
    try:
        home = _draw_home(game, faces, draft) if draft is not None else None
        layout = layout_warnings(game, faces=faces, drawn=home.fronts if home else frozenset(),
                                 backs_drawn=home.backs if home else frozenset())
    except LayoutError as exc:
        faces, layout = None, exc.problems
    return _with_layout(replace(verdict, faces=faces, home_draft=home if faces is not None else None), layout)


def _with_layout(verdict: Verdict, layout: list[Problem]) -> Verdict:
    """``verdict`` with the layout problems found: errors fail the build; the warnings the game's own check
    already reported (printed with its data problems) are not repeated; one mistake in a layout, found on many
    faces, is one problem."""
    from deckwright.generator.layout.perface import merged

    own = set(verdict.report.problems.items)
    layout = merged(layout)
    return replace(verdict, failures=verdict.failures + [problem for problem in layout if problem.severity == "error"],
                   warnings=verdict.warnings + [problem for problem in layout
                                                if problem.severity != "error" and problem not in own])


def _draw_home(game, faces, draft: tuple):
    """The home PDFs drawn into ``draft``'s folder; None when a face cannot be laid out or the paper is too small
    (the check then lays every face out to report it all, and the build step draws again, or fails)."""
    from deckwright.generator.layout.files import LayoutError
    from deckwright.generator.outputs.print_pdfs import PrintError
    from deckwright.generator.outputs.print_step import draw_home, printed_decks

    folder, paper, backs = draft
    folder.mkdir(parents=True)
    try:
        return draw_home(game, faces, printed_decks(game), tuple(game.sheets.values()), folder, paper, backs)
    except (LayoutError, PrintError):
        return None


def build_games(games, options: BuildOptions, loaded: dict[str, Problems] | None = None) -> int:
    """Every game into ``out/<slug>/``, then the site into ``out/site/``, holding ``out``'s lock throughout.

    Like a test suite: every game is checked first (``check_for_build``), and when one fails nothing is written
    (exit 1) unless ``options.force``, which builds anyway and marks the failures on the site (still exit 1).
    ``loaded``: by slug, what loading each game found, when the caller loaded them (each is then read once).
    The site is written in a worker beside the rest once the games' data are checked (``site.beside``)."""
    from .outputs.rulebook_files import BOOKLET, FULL
    from .site.beside import start_site
    from .status import Status

    status = Status()
    with tempfile.TemporaryDirectory(prefix="deckwright-home-") as drafts:
        verdicts = {}
        for game in games:
            status.stage(f"{game.slug}: checking")
            verdicts[game.slug] = start_check(game, options.force, (loaded or {}).get(game.slug))
        balances = _balances(games, options.out)
        site = start_site(games, options.out, options.target, verdicts, balances, Path(drafts), (FULL, BOOKLET))
        try:
            return _build_games(games, options, verdicts, balances, Path(drafts), site, status)
        finally:
            status.clear()
            if site is not None:
                site.worker.stop()


def _balances(games, out: Path) -> dict:
    """Each game's last simulation for its Balance page, marked ``stale`` when the cards have changed since;
    a line says so, and where a simulation kept under another output folder is not used."""
    from . import DEFAULT_OUT
    from .site.balance import balance_file, read_balance

    balances = {}
    for game in games:
        data = read_balance(balance_file(out, game.slug), game.slug)
        if data is not None and data.get("content") != _content_digest(game):
            data = {**data, "stale": True}
            print(f"{game.slug}: note: the Balance page shows a simulation of earlier cards (they have changed "
                  f"since): run deckwright simulate again")
        elif data is None and Path(out) != Path(DEFAULT_OUT) and balance_file(Path(DEFAULT_OUT), game.slug).exists():
            print(f"{game.slug}: note: no Balance page: the last simulation is under {DEFAULT_OUT}/, not {out}/; "
                  f"simulate with --out {out} to publish it here")
        balances[game.slug] = data
    return balances


def _content_digest(game) -> str:
    from deckwright.rules.sim.tally import content_digest  # (with the simulator's plans: only for a simulated game)

    return content_digest(game)


# What the status line says of each step while it runs (a line printed meanwhile erases it first: generator.status).
STEP_STAGES = {"step_data": "card data and schemas", "step_print": "print files",
               "step_tabletop": "Tabletop Simulator export"}


def _build_games(games, options: BuildOptions, started: dict, balances: dict, drafts: Path, site, status) -> int:
    verdicts = {}
    for game in games:
        draft = (drafts / game.slug, options.paper, options.backs) if options.target in ("all", "home") else None
        status.stage(f"{game.slug}: " + ("laying out and drawing the print-and-play PDFs" if draft else
                                         "laying out every card"))
        verdict = verdicts[game.slug] = finish_check(game, started[game.slug], draft)
        for line in verdict.warnings:
            print(line, file=sys.stderr)
        for line in verdict.failures:
            print(line, file=sys.stderr)
    from deckwright.generator.layout.files import LayoutError
    from deckwright.generator.outputs.print_pdfs import PrintError

    failing = [slug for slug, verdict in verdicts.items() if verdict.failures]
    if failing and not options.force:
        for slug in failing:
            count = len(verdicts[slug].failures)
            print(f"{slug}: not built: {count} failure{'s' * (count != 1)}")
        print(f"nothing written: earlier output left as it was ({len(failing)} of {len(games)} game(s) failing; "
              f"--force builds anyway)")
        sys.stdout.flush()
        return 1
    failed = bool(failing)
    with locked(options.out) as lock:
        check_replaceable([*(options.out / game.slug for game in games), options.out / "site"])
        for game in games:
            verdict = verdicts[game.slug]
            if verdict.faces is None:
                print(f"{game.slug}: not built: its layouts or fonts cannot be read; earlier output left as it was")
                failed = True
                continue
            try:
                with staged_folder(options.out / game.slug, lock=lock) as folder:
                    game_options = replace(options, home_draft=verdict.home_draft)
                    beside = rulebooks_beside_steps(game, folder, game_options, verdict.faces, verdict.report)
                    with beside:
                        for step in build_steps():
                            status.stage(f"{game.slug}: {STEP_STAGES.get(step.__name__, step.__name__)}")
                            step(game, folder, game_options, verdict.faces, verdict.report)
                        if not isinstance(beside, nullcontext):  # the rulebooks' worker is waited for
                            status.stage(f"{game.slug}: the printed rulebook")
                    keep_other_targets(options.out / game.slug, folder, options.target)
            except (InvalidGame, LayoutError, PrintError) as exc:  # a deck too large for the paper: old output kept
                for problem in exc.problems:
                    print(problem, file=sys.stderr)
                print(f"{game.slug}: not built: {len(exc.problems)} problem(s); earlier output left as it was")
                failed = True
                continue
            forced = f" (--force: {len(verdict.failures)} failure(s) marked on its site pages)" if verdict.failures else ""
            print(f"{game.slug}: built into {options.out / game.slug}/{forced}")
        if failed and not options.force:
            print("site: not built, as a game failed; earlier output left as it was")
            sys.stdout.flush()
            return 1
        from .site.beside import finish_site  # the site covers every game built, so it comes after them

        written = downloads(games, options.out)
        status.stage("site: the rulebook pages, the card gallery and the printable cards")
        if site is not None and not failed and finish_site(site, games, options.out, lock, written):
            from .site.summary import site_line

            print(site_line(len(games), options.out / "site"))
            sys.stdout.flush()
            return 0
        from .site import site_step  # only here: its Jinja2 and Markdown are the worker's when the site is beside

        exports = {game.slug: options.out / game.slug / "tts" for game in games}
        written_status = site_step(games, options.out / "site", {slug: v.report for slug, v in verdicts.items()},
                           downloads(games, options.out), {slug: path for slug, path in exports.items() if path.is_dir()},
                           lock, balances, failures={slug: v.failures for slug, v in verdicts.items() if v.failures},
                           faces={slug: v.faces for slug, v in verdicts.items() if v.faces is not None})
    sys.stdout.flush()
    return 1 if failed else written_status
