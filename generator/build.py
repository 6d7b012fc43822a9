"""``deckwright build``: every output of every game, each written atomically.

A build step is a function ``step(game, folder, options, faces, report)`` writing into the game's staging
folder: ``faces`` is the game's layouts, compiled once for every step, and ``report`` its check report
(``rules.ci.check``), its worked examples replayed once for every output that shows them (the rulebook PDFs
and the site). A step returns its warnings (located problems of severity "warning", printed once the game
is built) or None. The whole build holds the output folder's lock (generator.output).

``--target`` picks what is built: ``home`` (print/*.pdf), ``printshop`` (print/printshop/), ``proof`` (print/proof.pdf),
``tts`` (tts/), ``sprites`` (sprites/), or ``all`` of them. game.json, the schema and the site
are written every time. The files of the targets not built are carried over from the game's
previous output, so building one target never deletes another's.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from deckwright.rules.data.cells import csv_template
from deckwright.rules.data.export import game_data
from deckwright.rules.data.jsonschema import schema_files
from deckwright.rules.problems import InvalidGame

from .output import link_or_copy, locked, staged_folder, write_json


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    paper: str = "a4"
    backs: bool = True
    target: str = "all"  # all, or one of TARGET_FILES
    image_format: str = "png"  # of the tts and sprites images: png or jpeg
    base_url: str | None = None  # where the tts images will be online; None: file:/// paths to them


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


def build_steps():
    from .outputs.print_step import step_print
    from .outputs.tabletop_step import step_tabletop

    return [step_data, step_print, step_tabletop]


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
    from .outputs.rulebook import BOOKLET, FULL

    return {game.slug: [path for path in (out / game.slug / "print" / FULL, out / game.slug / "print" / BOOKLET)
                        if path.is_file()] for game in games}


def build_games(games, options: BuildOptions) -> int:
    """Every game into ``out/<slug>/``, then the site into ``out/site/``, holding ``out``'s lock throughout."""
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.layout.files import LayoutError
    from deckwright.rules.ci.check import check_game

    failed = False
    reports = {}
    with locked(options.out) as lock:
        for game in games:
            report = reports[game.slug] = check_game(game.root, run_code=game.run_code)
            warnings = set()
            try:
                faces = Faces(game)
                warnings.update(faces.font_warnings)
                with staged_folder(options.out / game.slug, lock=lock) as folder:
                    for step in build_steps():
                        warnings.update(step(game, folder, options, faces, report) or ())
                    keep_other_targets(options.out / game.slug, folder, options.target)
            except (InvalidGame, LayoutError) as exc:  # e.g. a layout problem: located lines, the old output kept
                for problem in exc.problems:
                    print(problem, file=sys.stderr)
                print(f"{game.slug}: not built: {len(exc.problems)} problem(s); earlier output left as it was")
                failed = True
                continue
            for warning in sorted(warnings):  # the same fit warnings `deckwright check` gives
                print(warning, file=sys.stderr)
            print(f"{game.slug}: built into {options.out / game.slug}/")
        from .site import site_step  # the site covers every game built, so it comes after them

        exports = {game.slug: options.out / game.slug / "tts" for game in games}
        status = site_step(games, options.out / "site", reports, downloads(games, options.out),
                           {slug: path for slug, path in exports.items() if path.is_dir()}, lock)
    sys.stdout.flush()
    return 1 if failed else status
