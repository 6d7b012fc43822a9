"""Which file changes matter to a game's site, and the loop that rebuilds the site after them (watchfiles)."""
from __future__ import annotations

import queue
import sys
import threading
from pathlib import Path
from typing import Callable, Iterable

from deckwright.generator.layout.files import LAYOUT_DIR
from deckwright.generator.layout.fonts import shipped_fonts

from .live import LiveSite, Update

LAYOUTS, CONTENT = "layouts", "content"
STEP_MS = 20  # how long the watcher waits for more changes after one (an editor's save is often several)


def kind_of_change(path: Path, game_folder: Path, slug: str) -> str | None:
    """LAYOUTS for a file layouts are compiled from (a layout, icons, a shipped font or one in the game's fonts/),
    CONTENT for anything else in the game folder (card data, pages, art), None for what the game does not use
    (another game's layouts)."""
    fonts, layouts = shipped_fonts().folder.resolve(), LAYOUT_DIR.resolve()
    if path.is_relative_to(fonts):
        return LAYOUTS
    if path.is_relative_to(game_folder):
        parts = path.relative_to(game_folder).parts
        if any(part.startswith(".") for part in parts):
            return None  # hidden files: editors' swap and backup files, version control
        return LAYOUTS if parts and parts[0] in ("layouts", "fonts") else CONTENT
    if path.is_relative_to(layouts):
        parts = path.relative_to(layouts).parts
        return LAYOUTS if len(parts) == 1 or parts[0] == slug else None
    return None


def watched(game_folder: Path) -> list[Path]:
    return [game_folder, LAYOUT_DIR.resolve(), shipped_fonts().folder.resolve()]


def rebuild_on_changes(site: LiveSite, game_folder: Path, stop: threading.Event,
                       published: Callable[[Update], None], urgent: Callable[[], set[str]]) -> None:
    """Rebuild after every relevant change until ``stop`` is set (Ctrl-C is raised to the caller).

    The pages ``urgent()`` names (those open in a browser) are rebuilt first and published; then the
    other pages, then the replayed examples, each skipped when a newer change is already waiting."""
    changes: queue.Queue = queue.Queue()
    watcher = threading.Thread(target=_watch, args=(watched(game_folder), stop, changes), name="deckwright-watch",
                               daemon=True)
    watcher.start()
    try:
        while not stop.is_set():
            try:
                batch = changes.get(timeout=0.25)
            except queue.Empty:
                continue
            while not changes.empty():
                batch |= changes.get_nowait()
            kinds = _kinds(batch, game_folder, site.slug)
            if not kinds:
                continue
            published(_guarded(site, lambda: site.rebuild(layouts_changed=LAYOUTS in kinds, urgent=urgent())))
            newer = lambda: not changes.empty()  # noqa: E731
            for later in (lambda: site.finish(newer), lambda: site.recheck(urgent()), lambda: site.finish(newer)):
                if newer():
                    break
                update = _guarded(site, later)
                if update is not None:
                    published(update)
    finally:
        stop.set()


def _guarded(site: LiveSite, step: Callable[[], Update | None]) -> Update | None:
    """A step of the rebuild; a failure deckwright did not foresee (a bug, here or in a rules module) shows as an
    error over the last good build instead of stopping the server."""
    try:
        return step()
    except Exception as exc:  # noqa: BLE001 (the server must outlive any one edit)
        return site.unforeseen(f"deckwright could not rebuild the site: {type(exc).__name__}: {exc}")


def _watch(folders: list[Path], stop: threading.Event, changes: queue.Queue) -> None:
    """Each batch of changed paths into ``changes``. watchfiles follows links: one in the game folder to ``/`` or
    ``..`` reaches folders this user may not read, which are passed over; a watch that still fails (the system's
    limit on watches reached) is said in one line, not a thread's traceback."""
    from watchfiles import DefaultFilter, watch

    try:
        for batch in watch(*folders, watch_filter=DefaultFilter(), stop_event=stop, step=STEP_MS,
                           raise_interrupt=False, ignore_permission_denied=True):
            changes.put({Path(path) for _, path in batch})
    except (OSError, RuntimeError) as exc:  # (watchfiles' own errors, once watching, are RuntimeErrors)
        print(f"deckwright: cannot watch {', '.join(map(str, folders))} for edits ({exc}); the site is no longer "
              f"rebuilt as you edit: restart deckwright serve", file=sys.stderr, flush=True)


def _kinds(paths: Iterable[Path], game_folder: Path, slug: str) -> set[str]:
    return {kind for kind in (kind_of_change(p, game_folder, slug) for p in paths) if kind is not None}
