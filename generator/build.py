"""``deckwright build``: every output of every game, each written atomically.

A build step is a function ``step(game, folder, options)`` writing into the
game's staging folder and returning its warnings (located problems of severity
"warning", printed once the game is built) or None; later issues add steps.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from deckwright.rules.data.export import game_data
from deckwright.rules.data.jsonschema import schema_files
from deckwright.rules.problems import InvalidGame

from .output import locked, staged_folder


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    paper: str = "a4"
    backs: bool = True
    target: str = "all"  # all, home or printshop


def write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n", encoding="utf-8")


def step_data(game, folder: Path, options: BuildOptions) -> None:
    write_json(folder / "game.json", game_data(game))
    for name, schema in schema_files(game).items():
        write_json(folder / "schema" / name, schema)


def build_steps():
    from .outputs.print_step import step_print

    return [step_data, step_print]


def build_games(games, options: BuildOptions) -> int:
    """Every game into ``out/<slug>/``, then the site into ``out/site/``, holding ``out``'s lock throughout."""
    failed = False
    with locked(options.out) as lock:
        for game in games:
            warnings = set()
            try:
                with staged_folder(options.out / game.slug, lock=lock) as folder:
                    for step in build_steps():
                        warnings.update(step(game, folder, options) or ())
            except InvalidGame as exc:  # e.g. a layout problem: located lines, the old output kept
                for problem in exc.problems:
                    print(problem, file=sys.stderr)
                print(f"{game.slug}: not built: {len(exc.problems)} problem(s); earlier output left as it was")
                failed = True
                continue
            for warning in sorted(warnings):  # the same fit warnings `deckwright check` gives
                print(warning, file=sys.stderr)
            print(f"{game.slug}: built into {options.out / game.slug}/")
        from .site import site_step  # the site covers every game built, so it comes after them

        status = site_step(games, options.out / "site", lock)
    sys.stdout.flush()
    return 1 if failed else status
