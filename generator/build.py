"""``deckwright build``: every output of every game, each written atomically.

A build step is a function ``step(game, folder, options, report)`` writing into the
game's staging folder; ``report`` is the game's check report (``rules.ci.check``),
its worked examples replayed once for every output that shows them (the rulebook
PDFs and the site).
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from deckwright.rules.data.export import game_data
from deckwright.rules.data.jsonschema import schema_files
from deckwright.rules.problems import InvalidGame

from .output import staged_folder


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    paper: str = "a4"
    backs: bool = True
    target: str = "all"  # all, home or printshop


def write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n", encoding="utf-8")


def step_data(game, folder: Path, options: BuildOptions, report) -> None:
    write_json(folder / "game.json", game_data(game))
    for name, schema in schema_files(game).items():
        write_json(folder / "schema" / name, schema)


def build_steps():
    from .outputs.print_step import step_print

    return [step_data, step_print]


def downloads(games, out: Path) -> dict[str, list[Path]]:
    """The printable rulebooks each game's output holds, for the site to offer."""
    from .outputs.rulebook import BOOKLET, FULL

    return {game.slug: [path for path in (out / game.slug / "print" / FULL, out / game.slug / "print" / BOOKLET)
                        if path.is_file()] for game in games}


def build_games(games, options: BuildOptions) -> int:
    from deckwright.rules.ci.check import check_game

    failed = False
    reports = {}
    for game in games:
        report = reports[game.slug] = check_game(game.root)
        try:
            with staged_folder(options.out / game.slug) as folder:
                for step in build_steps():
                    step(game, folder, options, report)
        except InvalidGame as exc:  # e.g. a layout problem: located lines, the old output kept
            for problem in exc.problems:
                print(problem, file=sys.stderr)
            print(f"{game.slug}: not built: {len(exc.problems)} problem(s); earlier output left as it was")
            failed = True
            continue
        print(f"{game.slug}: built into {options.out / game.slug}/")
    from .site import site_step  # the site covers every game built, so it comes after them

    status = site_step(games, options.out / "site", reports, downloads(games, options.out))
    sys.stdout.flush()
    return 1 if failed else status
