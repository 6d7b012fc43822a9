"""The site of a build written in a forked worker while the build checks, draws and writes its games.

The site is the build's last step, as it shows what the others made: the check's verdicts, the rulebook PDFs
(offered for download) and the Tabletop Simulator export. Once the games' data and examples are checked and
their layouts compiled, what it will show can mostly be told in advance, so the site is started then, beside
the rest of the build, on a guess of those inputs (no failures, the rulebooks the target writes or keeps, the
export the previous output holds). When the build ends, the guess is compared with what the build made: when
it holds, the worker's pages are moved into place (the real rulebook files copied over the placeholders it
linked); when not (a layout failure under ``--force``, a rulebook missing, an export changed) or when the
worker failed, the worker is stopped and the caller builds the site as before, in this process, so its output
and its error messages are the serial build's. Targets that write the export (``all``, ``tts``) build the
site after it, as before.
"""
from __future__ import annotations

import gc
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..output import link_or_copy, staged_folder
from ..parallel import Beside

SERIAL_TARGETS = ("all", "tts")  # they write the Tabletop Simulator export the site copies


@dataclass(frozen=True)
class SiteInputs:
    """What the site is made from besides the games and their check reports: by game slug, the rulebook files
    it offers and the files of the Tabletop Simulator export it copies (relative path, size)."""

    downloads: dict[str, list[Path]]
    tabletop: dict[str, tuple[tuple[str, int], ...]]


@dataclass
class SiteDraft:
    worker: Beside
    folder: Path  # where the worker writes the site
    guessed: SiteInputs


def tabletop_files(folder: Path) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((str(path.relative_to(folder)), path.stat().st_size)
                        for path in folder.rglob("*") if path.is_file()))


def built_inputs(games, out: Path, downloads: dict[str, list[Path]]) -> SiteInputs:
    """The site's inputs as the build left them in ``out`` (``downloads``: the rulebook files it wrote or kept)."""
    exports = {game.slug: out / game.slug / "tts" for game in games}
    return SiteInputs(downloads,
                      {slug: tabletop_files(path) for slug, path in exports.items() if path.is_dir()})


def start_site(games, out: Path, target: str, verdicts: dict, balances: dict, drafts: Path,
               rulebooks: tuple[str, ...]) -> SiteDraft | None:
    """The site started in a worker on the guess that the build succeeds; None when it is built afterwards
    (a failure found already, a target that writes the export, or no safe way to fork). ``rulebooks``: the
    names of the rulebook files a home build writes into a game's print/ folder."""
    if target in SERIAL_TARGETS or any(verdict.failures or verdict.faces is None for verdict in verdicts.values()):
        return None
    placeholders = drafts / "site-downloads"
    guessed_downloads, exports = {}, {}
    for game in games:
        files = []
        for name in rulebooks:
            kept = out / game.slug / "print" / name
            if (game.pages and target == "home") or (target != "home" and kept.is_file() and not kept.is_symlink()):
                files.append(out / game.slug / "print" / name)
        guessed_downloads[game.slug] = files
        previous = out / game.slug / "tts"
        if previous.is_dir() and not previous.is_symlink():  # carried over by the build: a copy to read from
            exports[game.slug] = drafts / "site-tts" / game.slug / "tts"
            shutil.copytree(previous, exports[game.slug], copy_function=link_or_copy)
    guessed = SiteInputs(guessed_downloads, {slug: tabletop_files(path) for slug, path in exports.items()})
    stand_ins = {}
    for slug, files in guessed_downloads.items():  # the site copies files that the rulebook worker writes later
        stand_ins[slug] = [placeholders / slug / path.name for path in files]
        for stand_in in stand_ins[slug]:
            stand_in.parent.mkdir(parents=True, exist_ok=True)
            stand_in.touch()
    folder = drafts / "site"
    job = _SiteJob(games, folder, {slug: v.report for slug, v in verdicts.items()}, stand_ins, exports,
                   out / "site", balances, {slug: v.faces for slug, v in verdicts.items()})
    worker = Beside.start(job, "site worker")
    return SiteDraft(worker, folder, guessed) if worker is not None else None


@dataclass(frozen=True)
class _SiteJob:
    games: list
    folder: Path
    reports: dict
    downloads: dict
    tabletop: dict
    keep_from: Path
    balances: dict
    faces: dict

    def __call__(self) -> list[str]:
        from .build import write_site

        # what the worker inherited is never collected; what it makes is (the rulebook worker runs without a
        # collector, but the site's pictures would pile up)
        gc.freeze()
        gc.enable()
        self.folder.mkdir()
        return write_site(self.games, self.folder, self.reports, self.downloads, self.tabletop,
                          keep_from=self.keep_from, balances=self.balances, faces=self.faces)


def finish_site(draft: SiteDraft, games, out: Path, lock, downloads: dict[str, list[Path]]) -> bool:
    """Moves the worker's site into ``out/site`` when the guess held and the worker succeeded (True); else
    stops it (False: the caller builds the site). ``downloads``: the rulebook files the build left."""
    from ..layout.files import LayoutError

    built = built_inputs(games, out, downloads)
    if built != draft.guessed:
        draft.worker.stop()
        return False
    try:
        draft.worker.result()
    except LayoutError:  # built again in this process, which reports it as the serial build does
        return False
    with staged_folder(out / "site", lock=lock) as folder:
        for entry in sorted(os.listdir(draft.folder)):
            shutil.move(draft.folder / entry, folder / entry)
        for slug, files in built.downloads.items():
            for path in files:
                shutil.copyfile(path, folder / slug / path.name)
    return True

