"""Every game's check output: an unchanged game's from the cache, the others checked side by side.

The cache is looked up here, before any worker starts, so that a run in which every game is unchanged imports
nothing that loads, lays out or replays a game, and starts no worker.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .output import CheckOutput, ReportOutput, joined


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
    """Games are independent, so they are checked side by side (see generator.parallel), in parts (``plan``)."""
    from functools import partial

    # imported before the workers fork, so that they share them: the checks, the layouts, ReportLab's font
    # reader, which measures their text (importing it took each worker 0.03 s), and the check of the rulebook's
    # links with Python-Markdown, which reads its pages (0.04 s)
    from reportlab.pdfbase import ttfonts  # noqa: F401

    from deckwright.rules.ci import check, conformance  # noqa: F401

    from ..book.links import link_problems  # noqa: F401
    from ..book.markdown import extension_modules
    from ..layout.fitcheck import layout_warnings  # noqa: F401
    from ..layout.fonts import shipped_fonts
    from ..parallel import cores, process_map

    shipped_fonts()
    extension_modules()
    parts = plan(folders, [_size(folder) for folder in folders], cores())
    return joined_parts(folders, parts, process_map(partial(check_part, options=options), parts), options)


# measured alone, on 2 cores: the bundled games (47 to 81 kB) checked in parts took from 0.07 s more to 0.2 s
# less wall time than whole, and 0.15 to 0.3 s more processor time; a game of 2,000 cards (589 kB), 2.4 s instead
# of 3.7 s wall (4.2 s instead of 3.7 s processor)
SPLIT_BYTES = 100_000


@dataclass(frozen=True)
class Part:
    """What one worker checks of a game: its data, examples and rules module (``rules``), and every n-th of its
    faces from the k-th (``faces`` (k, n); None: none). A game checked by one worker is one Part of both."""

    folder: Path
    rules: bool = True
    faces: tuple[int, int] | None = (0, 1)


@dataclass(frozen=True)
class PartOutput:
    report: ReportOutput | None  # what the game's report prints (with ``rules``)
    layout: tuple | None  # the layout problems of its share of faces; None: not laid out (errors, or no share)


def plan(folders: list[Path], sizes: list[int], cores: int) -> list[Part]:
    """The parts to check, the largest first: each game whole, but a big one (``SPLIT_BYTES`` of card files and
    pages, ``sizes``, or more) that is more than a core's share of all the games is split across the cores (a big
    game checked alone, or beside small ones): its data, examples and rules module in one part, its faces in
    ``cores`` shares. Each of these parts loads the game and compiles its layouts, so a smaller game is checked
    faster whole."""
    total = sum(sizes)
    sized: list[tuple[float, Part]] = []
    for folder, size in zip(folders, sizes):
        if cores > 1 and size >= SPLIT_BYTES and size * cores > total:
            sized.append((size / cores, Part(folder, faces=None)))
            sized += [(size / cores, Part(folder, rules=False, faces=(k, cores))) for k in range(cores)]
        else:
            sized.append((size, Part(folder)))
    return [part for _, part in sorted(sized, key=lambda pair: -pair[0])]  # stable: a game's rules before faces


def check_part(part: Part, options: CheckOptions) -> PartOutput:
    """One part of a game checked (see ``Part``); its faces are laid out when the game loaded without errors.

    The cyclic garbage collector is paused meanwhile, as loading pauses it: compiling layouts, laying out faces and
    replaying games make many objects that live until the game is checked, and the collector walked them again and
    again (measured on the bundled games, one after another: 456 passes, 0.11 s of about 1.5 s; paused, 6 passes,
    0.05 s). Its next pass, once this part is done, frees what this part left in cycles: a worker holds at most
    one part's."""
    from deckwright.rules.ci.check import check_data, check_game
    from deckwright.rules.load import collector_paused

    from ..book.links import link_problems
    from ..layout.fitcheck import layout_warnings
    from ..site import game_pages
    from .output import report_output

    with collector_paused():
        report = None
        if part.rules:
            checked = check_game(part.folder, update_golden=options.update_golden, run_code=options.run_code)
            if checked.game is not None and not checked.problems.errors:
                checked.problems.extend(link_problems(checked.game, game_pages(checked.game)))
            game, problems, report = checked.game, checked.problems, report_output(checked, options.traceback)
        else:
            game, problems = check_data(part.folder, run_code=options.run_code)
        if part.faces is None or game is None or problems.errors:
            return PartOutput(report, None)
        return PartOutput(report, tuple(layout_warnings(game, share=part.faces)))


def joined_parts(folders: list[Path], parts: list[Part], outputs: list[PartOutput],
                 options: CheckOptions) -> list[CheckOutput]:
    """Each game's output from its parts' (``outputs``, one a part). A game laid out by its report's part, but a
    share of whose faces was not (a file changed between the parts' loads), is checked again here, whole."""
    reports: dict[Path, ReportOutput] = {}
    layouts: dict[Path, list] = {}
    for part, output in zip(parts, outputs):
        if output.report is not None:
            reports[part.folder] = output.report
        if part.faces is not None:
            layouts.setdefault(part.folder, []).append(output.layout)
    checked = []
    for folder in folders:
        report, shares = reports[folder], layouts[folder]
        if report.laid_out and None in shares:
            whole = check_part(Part(folder), options)
            report, shares = whole.report, [whole.layout]
        checked.append(joined(report, sorted(set().union(*(share or () for share in shares)))))
    return checked


def check_one(folder: Path, options: CheckOptions) -> CheckOutput:
    """One game checked whole: its data, examples and rules module, then (when it loaded) its layouts."""
    whole = check_part(Part(folder), options)
    return joined(whole.report, list(whole.layout or ()))


def _size(folder: Path) -> int:
    """Bytes of a game's card files and pages: how long checking it takes, roughly."""
    from deckwright.rules.data.walk import walk

    try:
        return sum(entry.stat(follow_symlinks=False).st_size for entry, _ in walk(folder)
                   if entry.name.endswith((".yaml", ".yml", ".md", ".csv")))
    except OSError:
        return 0
