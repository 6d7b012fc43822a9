"""Every game's check output: an unchanged game's from the cache, the others checked side by side.

The cache is looked up here, before any worker starts, so that a run in which every game is unchanged imports
nothing that loads, lays out or replays a game, and starts no worker.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .output import CheckOutput


@dataclass(frozen=True)
class CheckOptions:
    update_golden: bool = False
    run_code: bool = True
    traceback: bool = False
    cache: bool | None = None  # None: the cache unless the CI environment variable is set

    @property
    def uses_cache(self) -> bool:
        """``--update-golden`` writes golden logs, so it never trusts (nor feeds) the cache."""
        wanted = self.cache if self.cache is not None else not os.environ.get("CI")
        return wanted and not self.update_golden

    @property
    def how(self) -> str:
        """What of the options changes the output, as the cache keys it."""
        return f"run_code={self.run_code} traceback={self.traceback}"


@dataclass(frozen=True)
class _Cached:
    where: Path
    install: str
    key: str


def check_games(folders: list[Path], options: CheckOptions) -> list[CheckOutput]:
    outputs: list[CheckOutput | None] = [None] * len(folders)
    cached: list[_Cached | None] = [None] * len(folders)
    if options.uses_cache:
        cached, outputs = _look_up(folders, options)
    missing = [i for i, output in enumerate(outputs) if output is None]
    if missing:
        from . import cache, inputs

        checked = _check_all([folders[i] for i in missing], options)
        for i, output in zip(missing, checked):
            outputs[i] = output
            place = cached[i]
            # stored only when no file changed while the game was checked: the output is then the key's
            if place is not None and inputs.game_key(folders[i], place.install, options.run_code,
                                                     options.traceback) == place.key:
                cache.write(place.where, folders[i], options.how, place.key, output)
    return outputs


def _look_up(folders: list[Path], options: CheckOptions) -> tuple[list, list]:
    """Each game's place in the cache (None: not cached) and the output found there (None: none)."""
    from . import cache, inputs

    where = cache.cache_folder(folders)
    try:
        install = inputs.install_digest() if where is not None else None
    except OSError:
        install = None
    if install is None:
        return [None] * len(folders), [None] * len(folders)
    places, found = [], []
    for folder in folders:
        key = inputs.game_key(folder, install, options.run_code, options.traceback)
        places.append(None if key is None else _Cached(where, install, key))
        found.append(None if key is None else cache.read(where, folder, options.how, key))
    return places, found


def _check_all(folders: list[Path], options: CheckOptions) -> list[CheckOutput]:
    """Games are independent, so they are checked side by side (see generator.parallel), the largest first."""
    from functools import partial

    from deckwright.rules.ci import check  # noqa: F401  (imported before the workers fork, so they share it)

    from ..layout.fitcheck import layout_warnings  # noqa: F401  (likewise)
    from ..layout.fonts import shipped_fonts
    from ..parallel import process_map

    shipped_fonts()
    order = sorted(range(len(folders)), key=lambda i: -_size(folders[i]))
    results = process_map(partial(check_one, options=options), [folders[i] for i in order])
    return [result for _, result in sorted(zip(order, results), key=lambda pair: pair[0])]


def check_one(folder: Path, options: CheckOptions) -> CheckOutput:
    """One game checked: its data, examples and rules module, then (when it loaded) its layouts.

    The cyclic garbage collector is paused meanwhile, as loading pauses it: compiling layouts, laying out faces and
    replaying games make many objects that live until the game is checked, and the collector walked them again and
    again (measured on the bundled games, one after another: 456 passes, 0.11 s of about 1.5 s; paused, 6 passes,
    0.05 s). Its next pass, once this game is done, frees what this game left in cycles: a worker holds at most
    one game's."""
    from deckwright.rules.ci.check import check_game
    from deckwright.rules.load import collector_paused

    from ..layout.fitcheck import layout_warnings
    from .output import check_output

    with collector_paused():
        report = check_game(folder, update_golden=options.update_golden, run_code=options.run_code)
        layout = layout_warnings(report.game) if report.game is not None and not report.problems.errors else []
        return check_output(report, layout, options.traceback)


def _size(folder: Path) -> int:
    """Bytes of a game's card files and pages: how long checking it takes, roughly."""
    try:
        return sum(path.stat().st_size for path in folder.rglob("*") if path.suffix in (".yaml", ".yml", ".md", ".csv"))
    except OSError:
        return 0
