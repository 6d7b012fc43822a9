"""The ``deckwright`` command.

Exit codes: 0 fine, 1 the game's content has problems, 2 the command was used wrongly.
Heavy libraries (ReportLab, Jinja2, Markdown) are imported only by the commands that need them, and deckwright's
own modules only where they are used: ``check`` of unchanged games prints from its cache and imports nearly nothing.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from deckwright.rules.problems import printable

from . import BUNDLED_GAMES, DEFAULT_OUT

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, not the whole usage text (exit 2 as before)."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


ONE_GAME_HELP = "a bundled game's name or a path to a game folder (default: the game in the current folder)"


def one_game(name: str | None) -> Path:
    """The game a command that works on one game names, or else the game in the current folder."""
    if name is None and not Path("game.yaml").is_file():
        raise UsageError("name a game (a bundled game's name or a path to a game folder), or run it in a game folder")
    return resolve_games([name] if name is not None else [])[0]


def resolve_games(names: list[str]) -> list[Path]:
    from deckwright.rules.gamefolders import bundled_games, find_game_folder

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


def print_problems(problems, traceback: bool = False) -> None:
    """One line a problem on stderr; with ``traceback``, a rules module's traceback under the line it caused."""
    from .check.output import problem_lines

    for line in problem_lines(problems, traceback):
        print(line.text, file=sys.stderr)


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


def cmd_check(args) -> int:
    from .check.run import CheckOptions, check_games

    options = CheckOptions(update_golden=args.update_golden, run_code=not args.no_code, traceback=args.traceback,
                           cache=args.cache)
    if args.junit:
        from deckwright.rules.ci.junit import OPENING

        _check_report_file(Path(args.junit), OPENING, f"cannot write the JUnit report {args.junit}")
    outputs = check_games(resolve_games(args.games), options)
    for output in outputs:
        for line in output.lines:
            print(line.text, file=sys.stderr if line.to_stderr else sys.stdout)
    if args.junit:
        from deckwright.rules.ci.junit import OPENING, junit_bytes

        _write_report(Path(args.junit), junit_bytes([output.suite for output in outputs]), OPENING,
                      f"cannot write the JUnit report {args.junit}")
    return EXIT_INVALID if any(output.failed for output in outputs) else EXIT_OK


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
            forced = " (--force builds past failing examples and layouts, not errors in the game's data)" \
                if args.force else ""
            print(f"{folder.name}: not built: {len(problems.errors)} error(s); earlier output left as it was{forced}")
            failed = True
            continue
        games.append(game)
        loaded[game.slug] = problems
    if failed:
        return EXIT_INVALID
    from .output import check_out_folder

    check_out_folder(Path(args.out), [game.root for game in games])
    options = BuildOptions(out=Path(args.out), paper=args.paper, backs=not args.no_backs, target=args.target,
                           image_format=args.image_format, base_url=args.base_url, force=args.force)
    return build_games(games, options, loaded)


def cmd_schema(args) -> int:
    from deckwright.rules.load import load_game_with_warnings

    from .build import write_schema
    from .output import check_out_folder, locked, made_folder, staged_folder

    status = EXIT_OK
    for folder in resolve_games(args.games):
        game, problems = load_game_with_warnings(folder, run_code=False)  # a schema needs no game's code
        print_problems(problems)
        if game is None:
            status = EXIT_INVALID
            continue
        target = Path(args.out) / game.slug / "schema"
        check_out_folder(target, [game.root])
        with locked(Path(args.out)) as lock:
            made_folder(target.parent)  # out/<game>, which the game's first build replaces
            with staged_folder(target, lock=lock) as staging:
                write_schema(staging, game)  # the same files, byte for byte, as a build writes
        print(f"{game.slug}: schema written to {target}/ (first line of a card file: "
              f"# yaml-language-server: $schema=<relative path to>{target}/<type>.json; "
              f"for a spreadsheet, <type>.csv holds the header row)")
    return status


def cmd_new(args) -> int:
    from .check.output import one_line
    from .new import NewGameError, write_new_game

    try:
        made = write_new_game(Path(args.path), args.title, shown=args.path)
    except NewGameError as exc:  # a folder that is not new or empty: the command used wrongly, as --out is
        print(f"deckwright: {one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"deckwright: cannot write {one_line(args.path)}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INVALID
    shown = one_line(args.path).rstrip("/") or "/"  # `new games/` names games, not games//README.md
    print(f"{made.slug}: a new game, \"{one_line(made.title)}\", written into {shown}/ ({len(made.files)} files; "
          f"start with {shown}/README.md)")
    # the output folder may not be inside the game's: from within it (`new .`), it goes beside it
    out = "../output" if Path.cwd().resolve().is_relative_to(made.folder.resolve()) else "output"
    print(f"  next: deckwright check {shown}   then: deckwright build {shown} --out {out}")
    return EXIT_OK


def _base_url(text: str) -> str:
    if not text.startswith(("https://", "http://", "file:///")) or any(c.isspace() or c in '"<>\\' for c in text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a URL starting with https://, http:// or file:///")
    return text


def cmd_serve(args) -> int:
    from .serve import ServeError, serve

    folder = one_game(args.game)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is a number from 0 to 65535 (0 picks a free one)")
    try:
        return serve(folder, args.port, run_code=not args.no_code)
    except ServeError as exc:
        raise UsageError(str(exc)) from None


def cmd_simulate(args) -> int:
    """Many seeded games of one game's rules; the figures printed, written to JSON and kept for the site."""
    from deckwright.rules.problems import InvalidGame
    from deckwright.rules.sim import session
    from deckwright.rules.sim.backends import SchedulerError
    from deckwright.rules.sim.options import OptionError
    from deckwright.rules.sim.plan import MAX_GAMES
    from deckwright.rules.sim.progress import Progress
    from deckwright.rules.sim.report import lines
    from deckwright.rules.sim.tally import FIGURES_OPENING
    from deckwright.rules.sim.worker import PlayStopped

    folder = one_game(args.game)
    fixture = Path(args.fixture) if args.fixture else None
    if fixture is not None and not fixture.is_dir():
        raise UsageError(f"--fixture {args.fixture}: not a folder")
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games {args.games}: play from 1 to {MAX_GAMES:,} games")
    if args.max_actions < 1:
        raise UsageError(f"--max-actions {args.max_actions}: a game needs at least one action")
    extra = Path(args.json) if args.json else None
    if extra is not None:  # asked before the games are played: a long run must not end in a file that cannot be written
        if not os.path.isdir(extra.parent):  # (os.path: no error for a name longer than the system allows)
            raise UsageError(f"--json {args.json}: cannot write it there (no folder {extra.parent})")
        _check_report_file(extra, FIGURES_OPENING, f"--json {args.json}: cannot write it there")
    try:
        simulation = session.plan(folder, fixture, args.games, args.seed, args.strategy, args.option, args.sweep,
                                  args.max_actions)
    except InvalidGame as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        with_fixture = f" with the fixture {args.fixture}" if fixture is not None else ""
        print(f"{folder.name}: not simulated: the game{with_fixture} has errors, listed above", file=sys.stderr)
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
    from .output import check_out_folder, check_replaceable_below

    check_out_folder(saved, [folder])
    check_replaceable_below(Path(args.out), saved)  # before the games: their figures must not end unwritable
    terminal = getattr(sys.stderr, "stream", sys.stderr)  # the bar's \r and erase codes, unescaped
    bar = Progress(args.games * max(1, len(session.cells(simulation))), terminal)
    try:
        data = session.run(simulation, args.scheduler, lambda result: bar.add(result["games"]))
    except SchedulerError as exc:
        raise UsageError(str(exc)) from None
    except PlayStopped as exc:
        stopped = session.cannot_play(session.game_of(simulation), f"a game reached {exc}") if exc.open_value \
            else f"{slug}: a game stopped: {exc}"
        print(f"deckwright: {stopped}", file=sys.stderr)
        if args.traceback and exc.trace:
            print(exc.trace, file=sys.stderr, end="")
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
    for line in written + session.missing_hooks(simulation):
        print(line)
    return 130 if data["interrupted"] else EXIT_OK


def _check_report_file(report: Path, opening: bytes, refused: str) -> None:
    """UsageError (``refused (why)``) when ``report`` is there and is not a file deckwright wrote, one beginning
    with ``opening`` (generator.output.why_not_replaced): asked before a run, so that it does not end unwritten."""
    from .output import why_not_replaced

    why = why_not_replaced(report, opening)
    if why is not None:
        raise UsageError(f"{refused} ({why})")


def _write_report(report: Path, data: bytes, opening: bytes, refused: str) -> None:
    """The report written (generator.output.write_report); UsageError (``refused (why)``) when it cannot be."""
    from .output import OutputError, write_report

    try:
        write_report(report, data, opening)
    except OutputError as exc:
        raise UsageError(f"{refused} ({exc})") from None


def _write_balance(data: dict, saved: Path, extra: Path | None) -> list[str]:
    """The figures as JSON: into the output folder (``<out>/simulate/<game>/balance.json``, which the site's
    Balance page reads) and, with --json, to that file too; the lines that say so."""
    import json

    from deckwright.rules.sim.tally import FIGURES_OPENING

    from .output import staged_folder

    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    with staged_folder(saved) as folder:
        (folder / "balance.json").write_text(text, encoding="utf-8")
    site = f"the site's Balance page: deckwright build --out {saved.parents[1]}"
    written = [f"written: {saved / 'balance.json'} ({site})"]
    if extra is not None:
        _write_report(extra, text.encode("utf-8"), FIGURES_OPENING, f"--json {extra}: cannot write it there")
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


class _PrintVersion(argparse.Action):
    """``--version``: deckwright's version as installed (what a bug report or a CI log should quote), looked up
    only when asked for (importlib.metadata takes 0.05 s to import, and every command builds this parser)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("deckwright")
        except PackageNotFoundError:  # a source tree that was never installed
            found = "(not installed)"
        print(f"deckwright {found}")  # on standard output, as argparse's own version action prints
        parser.exit()


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="deckwright", description="Print, publish and check tabletop card games.",
                  parents=[_global_options(False)])
    top.add_argument("--version", action=_PrintVersion, help="print deckwright's version and exit")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    game_help = ("a bundled game's name or a path to a game folder (default: the game in the current folder, "
                 "if it is one, else every bundled game)")
    command_options = [_global_options(argparse.SUPPRESS)]

    p = sub.add_parser("list", parents=command_options, help="list games with their decks (copies counted), sheets and open questions")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("check", parents=command_options, help="validate games, replay their rulebook examples, list open questions and readings")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report (one test case per example)")
    p.add_argument("--update-golden", action="store_true", help="write each example's event log as its golden file")
    p.add_argument("--cache", action=argparse.BooleanOptionalAction, default=None,
                   help="keep what each game's check printed in .deckwright-cache/ in the working folder (never in a "
                        "game folder) and print it again, without checking, while nothing the check reads has "
                        "changed: the game folder's files, deckwright, Python and its libraries, these options "
                        "(default: on, unless the CI environment variable is set, which --cache overrides; "
                        "--update-golden never uses it; --no-cache checks afresh and writes nothing)")
    _no_code(p)
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("build", parents=command_options,
                       help="check, then build PDFs, print-shop files and the HTML site into the output folder "
                            "(nothing is written when a check fails, unless --force)")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help="output folder (default: output)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper for home-print sheets (default: a4)")
    p.add_argument("--no-backs", action="store_true", help="leave the backs out of every print file (home PDFs' back pages, print-shop backs)")
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
    p.add_argument("game", metavar="GAME", nargs="?", help=ONE_GAME_HELP)
    p.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000; 0 picks a free one)")
    _no_code(p)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("simulate", parents=command_options, help="play many seeded games and report win rates, game lengths and cards")
    p.add_argument("game", metavar="GAME", nargs="?", help=ONE_GAME_HELP)
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
        self.before_write = None  # set while a status line shows (generator.status): erases it first

    def write(self, text: str) -> int:
        if text and self.before_write is not None:
            self.before_write()
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
    except UsageError as exc:
        print(f"deckwright: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # a command that reports what it finished (simulate) catches it itself
        doing = f" while {exc}" if str(exc) else ""  # a game's rules running: what deckwright did, at which line
        print(f"deckwright: interrupted{doing}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `deckwright check | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:
        from .output import OutputBusy, OutputError  # imported here: a command that writes no folder skips it

        if isinstance(exc, OutputBusy):  # not a mistake in the command: another run holds the folder
            print(f"deckwright: {exc}", file=sys.stderr)
            return EXIT_INVALID
        if isinstance(exc, OutputError):
            print(f"deckwright: {exc}", file=sys.stderr)
            return EXIT_USAGE
        raise


if __name__ == "__main__":
    sys.exit(main())
