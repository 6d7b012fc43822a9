"""The ``deckwright`` command.

Exit codes: 0 fine, 1 the game's content has problems, 2 the command was used wrongly.
Heavy libraries (ReportLab, Jinja2, Markdown) are imported only by the commands that need them.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import BUNDLED_GAMES
from .output import OutputError, check_out_folder

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, not the whole usage text (exit 2 as before)."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def resolve_games(names: list[str]) -> list[Path]:
    from deckwright.rules.load import bundled_games, find_game_folder

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


def print_problems(problems, stream=None) -> None:
    for problem in problems.sorted():
        print(problem, file=stream or sys.stderr)


def cmd_list(args) -> int:
    from deckwright.rules.load import bundled_games, load_game_with_warnings

    for folder in bundled_games(BUNDLED_GAMES):
        game, problems = load_game_with_warnings(folder)
        if game is None:
            print(f"{folder.name:<16} (invalid: {len(problems.errors)} problem(s); run deckwright check {folder.name})")
            continue
        cards = sum(card.count for card in game.cards if card.deck)
        print(f"{game.slug:<16} {game.title:<20} players {game.players}  {len(game.decks)} decks, {cards} cards, "
              f"{len(game.open_questions)} open questions")
    return EXIT_OK


def _check_one(folder: Path, update_golden: bool):
    """One game's check report and its layout problems (none for a game that did not load)."""
    from deckwright.rules.ci.check import check_game

    report = check_game(folder, update_golden=update_golden)
    if report.game is None or report.problems.errors:
        return report, []
    from .layout.fitcheck import layout_warnings

    return report, layout_warnings(report.game)


def _check_all(folders: list[Path], update_golden: bool) -> list:
    """Games are independent, so they are checked side by side (see generator.parallel)."""
    from functools import partial

    from .layout.fitcheck import layout_warnings  # noqa: F401  (imported before the workers fork, so they share it)
    from .layout.fonts import shipped_fonts
    from .parallel import process_map

    shipped_fonts()
    return process_map(partial(_check_one, update_golden=update_golden), folders)


def cmd_check(args) -> int:
    failed = False
    reports = []
    for report, layout in _check_all(resolve_games(args.games), args.update_golden):
        reports.append(report)
        print_problems(report.problems)
        if report.game is None or report.problems.errors:
            print(f"{report.folder.name}: {len(report.problems.errors)} error(s)")
            failed = True
            continue
        for warning in sorted(set(layout) - set(report.problems.items)):  # the game's own are printed above
            print(warning, file=sys.stderr)
        failed |= any(problem.severity == "error" for problem in layout)  # a broken layout, not just small text
        game = report.game
        cards = sum(card.count for card in game.cards if card.deck)
        print(f"{game.slug}: {cards} cards in {len(game.decks)} decks: valid")
        _print_examples(report)
        _print_conformance(report.conformance)
        if game.open_questions:
            print(f"  open questions ({len(game.open_questions)}):")
            for question in game.open_questions:
                print(f"    {question}")
        failed |= report.failed
    if args.junit:
        from deckwright.rules.ci.junit import write_junit

        try:
            write_junit(reports, Path(args.junit))
        except OSError as exc:
            raise UsageError(f"cannot write the JUnit report {args.junit}: {exc.strerror or exc}") from None
    return EXIT_INVALID if failed else EXIT_OK


def _print_examples(report) -> None:
    if not report.examples:
        return
    counts = {v: sum(1 for e in report.examples if e.verdict == v) for v in ("verified", "erratum", "failing")}
    print(f"  examples: {counts['verified']} verified, {counts['erratum']} known errata, {counts['failing']} failing")
    for example in report.examples:
        if example.verdict == "erratum":
            continue
        print(f"    {example}")
        if example.verdict == "failing" and example.log:
            for line in example.log:
                print(f"      | {line}")
    errata = [e for e in report.examples if e.verdict == "erratum"]
    if errata:
        print(f"  known errata ({len(errata)}; they do not fail the check, and fail once they agree with the rules):")
        for example in errata:
            print(f"    {example}")


def _print_conformance(conformance) -> None:
    if conformance is None:
        return
    if conformance.problems:
        print(f"  rules protocol: {len(conformance.problems)} problem(s):")
        for problem in conformance.problems:
            print(f"    {problem}")
    else:
        played = f", {conformance.games} random games played to the end" if conformance.games else ""
        print(f"  rules protocol: conforms{played}")
    for note in conformance.notes:
        print(f"    note: {note}")


def cmd_build(args) -> int:
    from deckwright.rules.load import load_game_with_warnings

    from .build import BuildOptions, build_games

    games = []
    failed = False
    for folder in resolve_games(args.games):
        game, problems = load_game_with_warnings(folder)
        print_problems(problems)
        if game is None:
            print(f"{folder.name}: not built: {len(problems.errors)} error(s); earlier output left as it was")
            failed = True
            continue
        games.append(game)
    if failed:
        return EXIT_INVALID
    check_out_folder(Path(args.out), [game.root for game in games])
    options = BuildOptions(out=Path(args.out), paper=args.paper, backs=not args.no_backs, target=args.target)
    return build_games(games, options)


def cmd_schema(args) -> int:
    from deckwright.rules.data.jsonschema import schema_files
    from deckwright.rules.load import load_game_with_warnings

    from .build import write_json
    from .output import staged_folder

    status = EXIT_OK
    for folder in resolve_games(args.games):
        game, problems = load_game_with_warnings(folder)
        print_problems(problems)
        if game is None:
            status = EXIT_INVALID
            continue
        target = Path(args.out) / game.slug / "schema"
        check_out_folder(target, [game.root])
        with staged_folder(target) as staging:  # the same files, byte for byte, as a build writes
            for name, schema in schema_files(game).items():
                write_json(staging / name, schema)
        print(f"{game.slug}: schema written to {target}/ (first line of a card file: "
              f"# yaml-language-server: $schema=<relative path to>{target}/<type>.json)")
    return status


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="deckwright", description="Print, publish and check tabletop card games.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    game_help = "a bundled game's name or a path to a game folder (default: every bundled game)"

    p = sub.add_parser("list", help="list the bundled games with deck and card counts")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("check", help="validate games, replay their rulebook examples, list open questions")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report (one test case per example)")
    p.add_argument("--update-golden", action="store_true", help="write each example's event log as its golden file")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("build", help="build PDFs, print-shop files and the HTML site into the output folder")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--out", default="output", metavar="DIR", help="output folder (default: output)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper for home-print sheets (default: a4)")
    p.add_argument("--no-backs", action="store_true", help="leave out the back pages")
    p.add_argument("--target", choices=("all", "home", "printshop"), default="all",
                   help="home-print sheets, print-shop files, or both (default: all)")
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("schema", help="write JSON Schema files for editors (YAML language server)")
    p.add_argument("games", nargs="*", metavar="GAME", help=game_help)
    p.add_argument("--out", default="output", metavar="DIR", help="output folder; files go to DIR/<game>/schema/ (default: output)")
    p.set_defaults(run=cmd_schema)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
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
