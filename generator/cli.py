"""The ``deckwright`` command.

Exit codes: 0 fine, 1 the game's content has problems, 2 the command was used wrongly.
Heavy libraries (ReportLab, Jinja2, Markdown) are imported only by the commands that need them.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from deckwright.rules.problems import Problems, clip, printable

from . import BUNDLED_GAMES, DEFAULT_OUT
from .output import OutputBusy, OutputError, check_out_folder

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, not the whole usage text (exit 2 as before)."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def resolve_games(names: list[str]) -> list[Path]:
    from deckwright.rules.load import bundled_games, find_game_folder

    if not names and Path("game.yaml").is_file():  # run inside a game folder: that game, as a designer means
        return [Path(".").resolve()]
    if not names:
        folders = bundled_games(BUNDLED_GAMES)
        if not folders:
            raise UsageError(f"no games under {BUNDLED_GAMES}; name a game folder")
        return folders
    folders = []
    for name in names:
        folder = find_game_folder(name, BUNDLED_GAMES)
        if folder is None and Path(name).expanduser().is_dir():
            raise UsageError(f"'{name}' is a folder without a game.yaml")
        if folder is None:
            known = ", ".join(p.name for p in bundled_games(BUNDLED_GAMES))
            raise UsageError(f"'{name}' is neither a bundled game ({known}) nor a folder with a game.yaml")
        folders.append(folder)
    return folders


def one_line(item) -> str:
    """What a game folder wrote, as one readable line: control characters escaped, a long text cut."""
    return printable(clip(str(item)))


def print_problems(problems, stream=None, traceback: bool = False) -> None:
    """One line a problem; with ``traceback``, a rules module's traceback under the line it caused."""
    for problem in problems.sorted():
        print(problem, file=stream or sys.stderr)
        if traceback and problem.detail:
            print(problem.detail.rstrip(), file=stream or sys.stderr)


def cmd_list(args) -> int:
    """Each game with its decks (copies counted), sheets and open questions; a deck holding a card whose number
    of copies is open shows its count as at least the cards it has."""
    from deckwright.rules.load import load_game_with_warnings

    failed = False
    for folder in resolve_games(args.games):
        game, problems = load_game_with_warnings(folder, run_code=False)  # listing runs no game's code
        if game is None or problems.errors:
            print(f"{folder.name}: invalid ({len(problems.errors)} error(s); run deckwright check {folder})")
            failed = True
            continue
        print(f"{game.slug}: {printable(game.title)}, players {game.players}, {len(game.open_questions)} open questions, "
              f"{len(game.readings)} readings")
        for deck in game.decks.values():
            cards = game.cards_in(deck.id)
            open_copies = any(not isinstance(card.copies, int) for card in cards)
            count = sum(card.count for card in cards)
            shown = f"{count} card{'s' if count != 1 else ''}"
            shown = f"at least {shown} (copies open)" if open_copies else shown
            print(f"  deck  {deck.id:<22} {shown}, {len(cards)} different")
        for sheet in game.sheets.values():
            print(f"  sheet {sheet.id:<22} {sheet.size.width:g} x {sheet.size.height:g} mm")
    return EXIT_INVALID if failed else EXIT_OK


@dataclass(frozen=True)
class _LayoutCache:
    """Where one game's layout problems are cached, under which key, and what is stored there (None: nothing)."""

    where: Path  # the cache's folder of entries
    key: str
    found: list | None


def _check_one(folder: Path, update_golden: bool, run_code: bool = True, cache: _LayoutCache | None = None):
    """One game's check report and its layout problems (none for a game that did not load); with ``cache``, the
    layout problems of an unchanged game are the ones stored (see generator.layout.fitcache)."""
    from deckwright.rules.ci.check import check_game

    report = check_game(folder, update_golden=update_golden, run_code=run_code)
    if report.game is None or report.problems.errors:
        return report, []
    if cache is not None and cache.found is not None:
        return report, cache.found
    from .layout import fitcache
    from .layout.fitcheck import layout_warnings

    found = layout_warnings(report.game)
    if cache is not None:
        fitcache.write(cache.where, folder, run_code, cache.key, found)
    return report, found


def _check_all(folders: list[Path], update_golden: bool, run_code: bool = True, cache: bool = False) -> list:
    """Games are independent, so they are checked side by side (see generator.parallel), the largest first."""
    from functools import partial

    caches = _layout_caches(folders, run_code, cache) if not update_golden else [None] * len(folders)
    if any(cache is None or cache.found is None for cache in caches):  # some faces to lay out
        from .layout.fitcheck import layout_warnings  # noqa: F401  (imported before the workers fork, so they share it)
        from .layout.fonts import shipped_fonts

        shipped_fonts()
    from .parallel import process_map

    order = sorted(range(len(folders)), key=lambda i: -_size(folders[i]))
    results = process_map(partial(_check_indexed, update_golden=update_golden, run_code=run_code),
                          [(folders[i], caches[i]) for i in order])
    return [result for _, result in sorted(zip(order, results), key=lambda pair: pair[0])]


def _check_indexed(item: tuple, update_golden: bool, run_code: bool):
    folder, cache = item
    return _check_one(folder, update_golden, run_code, cache)


def _size(folder: Path) -> int:
    """Bytes of a game's card files and pages: how long checking it takes, roughly."""
    try:
        return sum(path.stat().st_size for path in folder.rglob("*") if path.suffix in (".yaml", ".yml", ".md", ".csv"))
    except OSError:
        return 0


def _layout_caches(folders: list[Path], run_code: bool, create: bool) -> list:
    """Each game's layout cache entry (None for a game not cached): looked up here, before the workers start, so
    that a run finding every game's there imports nothing that lays faces out."""
    from .layout import fitcache

    where = fitcache.cache_folder(folders, create)
    if where is None:
        return [None] * len(folders)
    install = fitcache.install_digest()
    caches = []
    for folder in folders:
        key = fitcache.game_key(folder, install, run_code)
        caches.append(None if key is None else _LayoutCache(where, key, fitcache.read(where, folder, run_code, key)))
    return caches


def cmd_check(args) -> int:
    failed = False
    reports = []
    for report, layout in _check_all(resolve_games(args.games), args.update_golden, run_code=not args.no_code,
                                        cache=args.cache):
        reports.append(report)
        print_problems(report.problems, traceback=args.traceback)
        if report.game is None or report.problems.errors:
            print(f"{report.folder.name}: {len(report.problems.errors)} error(s)")
            failed = True
            continue
        print_problems(Problems(sorted(set(layout) - set(report.problems.items))),  # the game's own are printed above
                       traceback=args.traceback)
        layout_errors = sum(1 for problem in set(layout) if problem.severity == "error")  # not just small text
        failed |= bool(layout_errors)
        game = report.game
        cards = sum(card.count for card in game.cards if card.deck)
        verdict = f"invalid: {layout_errors} layout error{'s' * (layout_errors != 1)}" if layout_errors else "valid"
        print(f"{game.slug}: {cards} cards in {len(game.decks)} decks: {verdict}")
        _print_examples(report, args.traceback)
        _print_conformance(report.conformance, args.traceback)
        if game.open_questions:
            print(f"  open questions ({len(game.open_questions)}):")
            for question in game.open_questions:
                print(f"    {printable(str(question))}")  # the designer's note, whole
        _print_readings(game)
        failed |= report.failed
    if args.junit:
        from deckwright.rules.ci.junit import write_junit

        try:
            write_junit(reports, Path(args.junit))
        except OSError as exc:
            raise UsageError(f"cannot write the JUnit report {args.junit}: {exc.strerror or exc}") from None
    return EXIT_INVALID if failed else EXIT_OK


def _print_examples(report, traceback: bool = False) -> None:
    if not report.examples:
        return
    counts = {v: sum(1 for e in report.examples if e.verdict == v) for v in ("verified", "erratum", "failing", "not run")}
    not_run = f", {counts['not run']} not run (--no-code)" if counts["not run"] else ""
    print(f"  examples: {counts['verified']} verified, {counts['erratum']} known errata, {counts['failing']} failing"
          f"{not_run}")
    for example in report.examples:
        if example.verdict == "erratum":
            continue
        print(f"    {one_line(example)}")
        if example.verdict == "failing" and example.log:
            for line in example.log:
                print(f"      | {one_line(line)}")
        if traceback and example.trace:
            print(example.trace.rstrip())
    errata = [e for e in report.examples if e.verdict == "erratum"]
    if errata:
        print(f"  known errata ({len(errata)}; they do not fail the check, and fail once they agree with the rules):")
        for example in errata:
            print(f"    {one_line(example)}")


def _print_readings(game) -> None:
    """The readings register, one line per entry, as open questions are listed."""
    from deckwright.rules.data.model import readings_summary

    if not game.readings:
        print("  readings (0): no readings register (readings.yaml)")
        return
    pending = sum(1 for r in game.readings if r.pending)
    pending_text = f"; {pending} engine change{'s' * (pending != 1)} pending" if pending else ""
    print(f"  readings ({len(game.readings)}: {readings_summary(game.readings)}{pending_text}):")
    for reading in game.readings:
        today = f", plays '{reading.pending.plays}' today" if reading.pending and reading.pending.plays else ""
        pending = f" [engine change pending{today}]" if reading.pending else ""
        print(f"    {printable(str(reading))}: '{printable(str(reading.chosen))}'{pending}")


def _print_conformance(conformance, traceback: bool = False) -> None:
    if conformance is None:
        return
    if conformance.problems:
        print(f"  rules protocol: {len(conformance.problems)} problem(s):")
        for problem in conformance.problems:
            print(f"    {problem}")
        for trace in conformance.traces if traceback else ():
            print(trace.rstrip())
    else:
        played = f", {conformance.games} random games played to the end" if conformance.games else ""
        print(f"  rules protocol: conforms{played}")
    for note in conformance.notes:
        print(f"    note: {note}")


def cmd_build(args) -> int:
    from deckwright.rules.load import load_game_with_warnings

    from .build import BuildOptions, build_games

    games = []
    loaded = {}  # what loading found, by slug: the build checks each game as loaded here, without reading it again
    failed = False
    for folder in resolve_games(args.games):
        game, problems = load_game_with_warnings(folder, run_code=not args.no_code)
        print_problems(problems, traceback=args.traceback)
        if game is None:
            print(f"{folder.name}: not built: {len(problems.errors)} error(s); earlier output left as it was")
            failed = True
            continue
        games.append(game)
        loaded[game.slug] = problems
    if failed:
        return EXIT_INVALID
    check_out_folder(Path(args.out), [game.root for game in games])
    options = BuildOptions(out=Path(args.out), paper=args.paper, backs=not args.no_backs, target=args.target,
                           image_format=args.image_format, base_url=args.base_url, force=args.force)
    return build_games(games, options, loaded)


def cmd_schema(args) -> int:
    from deckwright.rules.load import load_game_with_warnings

    from .build import write_schema
    from .output import locked, staged_folder

    status = EXIT_OK
    for folder in resolve_games(args.games):
        game, problems = load_game_with_warnings(folder, run_code=False)  # a schema needs no game's code
        print_problems(problems)
        if game is None:
            status = EXIT_INVALID
            continue
        target = Path(args.out) / game.slug / "schema"
        check_out_folder(target, [game.root])
        with locked(Path(args.out)) as lock, staged_folder(target, lock=lock) as staging:
            write_schema(staging, game)  # the same files, byte for byte, as a build writes
        print(f"{game.slug}: schema written to {target}/ (first line of a card file: "
              f"# yaml-language-server: $schema=<relative path to>{target}/<type>.json; "
              f"for a spreadsheet, <type>.csv holds the header row)")
    return status


def cmd_new(args) -> int:
    from .new import NewGameError, write_new_game

    try:
        made = write_new_game(Path(args.path), args.title, shown=args.path)
    except NewGameError as exc:
        print(f"deckwright: {one_line(exc)}", file=sys.stderr)
        return EXIT_INVALID
    except OSError as exc:
        print(f"deckwright: cannot write {one_line(args.path)}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INVALID
    shown = one_line(args.path)
    print(f"{made.slug}: a new game, \"{one_line(made.title)}\", written into {shown}/ ({len(made.files)} files; "
          f"start with {shown}/README.md)")
    print(f"  next: deckwright check {shown}   then: deckwright build {shown} --out output")
    return EXIT_OK


def _base_url(text: str) -> str:
    if not text.startswith(("https://", "http://", "file:///")) or any(c.isspace() or c in '"<>\\' for c in text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a URL starting with https://, http:// or file:///")
    return text


def cmd_serve(args) -> int:
    from .serve import ServeError, serve

    folders = resolve_games([args.game])
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is a number from 0 to 65535 (0 picks a free one)")
    try:
        return serve(folders[0], args.port)
    except ServeError as exc:
        raise UsageError(str(exc)) from None


def cmd_simulate(args) -> int:
    """Many seeded games of one game's rules; the figures printed, written to JSON and kept for the site."""
    from deckwright.rules.problems import InvalidGame
    from deckwright.rules.sim import session
    from deckwright.rules.sim.backends import SchedulerError
    from deckwright.rules.sim.options import OptionError
    from deckwright.rules.sim.progress import Progress
    from deckwright.rules.sim.report import lines
    from deckwright.rules.sim.worker import PlayStopped

    folder = resolve_games([args.game])[0]
    fixture = Path(args.fixture) if args.fixture else None
    if fixture is not None and not fixture.is_dir():
        raise UsageError(f"--fixture {args.fixture}: not a folder")
    if args.games < 1:
        raise UsageError(f"--games {args.games}: play at least one game")
    if args.max_actions < 1:
        raise UsageError(f"--max-actions {args.max_actions}: a game needs at least one action")
    extra = Path(args.json) if args.json else None
    if extra is not None and (extra.is_dir() or not extra.parent.is_dir()):
        # asked before the games are played: a long run must not end in a file that cannot be written
        why = "a folder" if extra.is_dir() else f"no folder {extra.parent}"
        raise UsageError(f"--json {args.json}: cannot write it there ({why})")
    try:
        simulation = session.plan(folder, fixture, args.games, args.seed, args.strategy, args.option, args.sweep,
                                  args.max_actions)
    except InvalidGame as exc:
        for problem in sorted(exc.args[0], key=str):
            print(problem, file=sys.stderr)
        print(f"{folder.name}: not simulated: the game has errors (deckwright check {folder})", file=sys.stderr)
        return EXIT_INVALID
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    except session.SimulationError as exc:
        print(f"deckwright: {exc}", file=sys.stderr)
        if args.traceback and exc.trace:
            print(exc.trace, file=sys.stderr, end="")
        if exc.lines:
            print(f"  the game's open questions ({len(exc.lines)}):", file=sys.stderr)
            for line in exc.lines:
                print(f"    {line}", file=sys.stderr)
        return EXIT_INVALID
    from .site.balance import balance_file

    slug = session.game_of(simulation).slug
    saved = balance_file(Path(args.out), slug).parent
    check_out_folder(saved, [folder])
    terminal = getattr(sys.stderr, "stream", sys.stderr)  # the bar's \r and erase codes, unescaped
    bar = Progress(args.games * max(1, len(session.cells(simulation))), terminal)
    try:
        data = session.run(simulation, args.scheduler, lambda result: bar.add(result["games"]))
    except SchedulerError as exc:
        raise UsageError(str(exc)) from None
    except PlayStopped as exc:
        print(f"deckwright: {slug}: a game stopped: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # the rules code failed in a worker: one line (the trace with --traceback)
        if args.traceback:
            raise
        print(f"deckwright: {slug}: a game failed in the rules code: {type(exc).__name__}: {exc} "
              f"(--traceback shows where)", file=sys.stderr)
        return EXIT_INVALID
    finally:
        bar.close()
    # the files first: the table may go to a reader that leaves early (`| head`)
    written = _write_balance(data, saved, extra)
    print("\n".join(lines(data)))
    for line in written:
        print(line)
    return 130 if data["interrupted"] else EXIT_OK


def _write_balance(data: dict, saved: Path, extra: Path | None) -> list[str]:
    """The figures as JSON: into the output folder (``<out>/simulate/<game>/balance.json``, which the site's
    Balance page reads) and, with --json, to that file too; the lines that say so."""
    import json
    import os

    from .output import staged_folder

    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    with staged_folder(saved) as folder:
        (folder / "balance.json").write_text(text, encoding="utf-8")
    site = f"the site's Balance page: deckwright build --out {saved.parents[1]}"
    written = [f"written: {saved / 'balance.json'} ({site})"]
    if extra is not None:
        try:
            partial = extra.with_name(f".{extra.name}.tmp")  # replaced whole: a failed write leaves the old file
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, extra)
        except OSError as exc:
            raise UsageError(f"--json {extra}: cannot write it: {exc.strerror or exc}") from None
        written.append(f"written: {extra}")
    return written


def _global_options(default) -> argparse.ArgumentParser:
    """Options taken before or after the command (``deckwright --traceback check g`` or ``... check g --traceback``);
    the command's copy defaults to SUPPRESS, so it does not undo one given before it."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--traceback", action="store_true", default=default,
                         help="with an error raised by a game's rules module, print its full traceback too")
    return options


def _no_code(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-code", action="store_true",
                   help="do not import or run the game folder's own rules module (for a folder you do not "
                        "trust): data, layouts and tables are checked, examples are not run")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="deckwright", description="Print, publish and check tabletop card games.",
                  parents=[_global_options(False)])
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    game_help = "a bundled game's name or a path to a game folder (default: every bundled game)"
    command_options = [_global_options(argparse.SUPPRESS)]

    p = sub.add_parser("list", parents=command_options, help="list games with their decks (copies counted), sheets and open questions")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("check", parents=command_options, help="validate games, replay their rulebook examples, list open questions and readings")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report (one test case per example)")
    p.add_argument("--update-golden", action="store_true", help="write each example's event log as its golden file")
    p.add_argument("--cache", action="store_true",
                   help="keep each game's layout problems in .deckwright-cache/ in this folder, reused while nothing "
                        "they depend on changes (once made, every check run here uses it; delete it to stop)")
    _no_code(p)
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("build", parents=command_options,
                       help="check, then build PDFs, print-shop files and the HTML site into the output folder "
                            "(nothing is written when a check fails, unless --force)")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help="output folder (default: output)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper for home-print sheets (default: a4)")
    p.add_argument("--no-backs", action="store_true", help="leave out the back pages")
    _no_code(p)
    p.add_argument("--target", choices=("all", "home", "printshop", "proof", "tts", "sprites"), default="all",
                   help="home-print PDFs, print-shop files, proof sheets, Tabletop Simulator saved objects, sprite "
                        "sheets with a JSON manifest, or all of them (default: all); the other targets' files are kept")
    p.add_argument("--force", action="store_true",
                   help="build even when a check fails (a failing example, a layout error, text that cannot fit, a "
                        "missing picture): the site lists the failures on the game's pages; the exit status is still 1")
    p.add_argument("--image-format", choices=("png", "jpeg"), default="png",
                   help="file format of the tts and sprites images (default: png; jpeg: quality 95, smaller)")
    p.add_argument("--base-url", type=_base_url, metavar="URL",
                   help="Tabletop Simulator loads the images from URL/<game>/tts/images/ (where you put them "
                        "online) instead of from file:/// paths on this machine")
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("serve", parents=command_options, help="show a game's site on this computer, rebuilt and reloaded as you edit")
    p.add_argument("game", metavar="GAME", help="a bundled game's name or a path to a game folder")
    p.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000; 0 picks a free one)")
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("simulate", parents=command_options, help="play many seeded games and report win rates, game lengths and cards")
    p.add_argument("game", metavar="GAME", help="a bundled game's name or a path to a game folder")
    p.add_argument("--games", type=int, default=1000, metavar="N", help="games per cell of the sweep (default 1000)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the seed every chunk's seed derives from (default 1)")
    p.add_argument("--strategy", metavar="NAME", help="who plays: random, or a strategy the rules module offers "
                                                      "(default: the module's first, else random)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of a new game, its value read as YAML (level=2, players=[Ann, Ben]); repeatable")
    p.add_argument("--sweep", action="append", default=[], metavar="KEY=V1,V2",
                   help="play each value in turn; several sweeps make a grid")
    p.add_argument("--fixture", metavar="FOLDER", help="a folder of cards laid over the game's, for content its "
                                                      "source leaves open")
    p.add_argument("--max-actions", type=int, default=5_000, metavar="N",
                   help="a game not over after N actions counts as unfinished (default 5000)")
    p.add_argument("--scheduler", metavar="WHERE", help="default: a process pool, one worker per core; pool:N; "
                   "serial; local:N (a Dask LocalCluster of N workers); tcp://HOST:PORT (a running Dask scheduler)")
    p.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help="output folder; the figures go to DIR/simulate/<game>/balance.json (default: output)")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("new", parents=command_options, help="write a small working game to edit into your own")
    p.add_argument("path", metavar="PATH", help="a new or empty folder for the game")
    p.add_argument("--title", help="the game's title (default: from the folder's name)")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("schema", parents=command_options, help="write JSON Schema files for editors and a CSV header row per card type")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help="output folder; files go to DIR/<game>/schema/ (default: output)")
    p.set_defaults(run=cmd_schema)
    return top


class PrintableStream:
    """Writes to ``stream`` with control characters as visible escapes (line breaks kept): whatever a game folder
    holds (``"\\e[2J"`` in a YAML value), printing it cannot clear, retitle or rewrite the user's terminal."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable(text, keep_newlines=True))

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(sys.stdout), PrintableStream(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _main(argv: list[str] | None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
    except OutputBusy as exc:  # not a mistake in the command: another run holds the folder
        print(f"deckwright: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except (UsageError, OutputError) as exc:
        print(f"deckwright: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `deckwright check | head`: the reader left; not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
