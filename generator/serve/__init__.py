"""``deckwright serve``: a game's site on a local web server, rebuilt and reloaded in the browser as files change."""
from __future__ import annotations

import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from .live import LiveSite, Update


class ServeError(Exception):
    """The server cannot start (the port is taken, watchfiles is missing)."""


def serve(game_folder: Path, port: int = 8000, stop: threading.Event | None = None,
          ready: Callable[[str], None] | None = None, run_code: bool = True) -> int:
    """Serve the game until Ctrl-C (or ``stop`` is set); ``ready`` is called with the game's URL once it is up;
    without ``run_code`` the game folder's own rules module is never imported (``--no-code``)."""
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        raise ServeError("serve needs watchfiles: pip install 'deckwright[serve]' (python3 tasks.py installs it)") \
            from None
    from .server import LiveServer
    from .watch import rebuild_on_changes

    game_folder = game_folder.resolve()
    folder = Path(tempfile.mkdtemp(prefix="deckwright-serve-"))
    server = None
    restore = _stop_on_terminate()
    try:
        site = LiveSite(game_folder, folder, run_code=run_code)
        first = site.rebuild(examples=True)
        try:
            server = LiveServer(site, port)
        except OSError as exc:
            raise ServeError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}; choose another --port") \
                from None
        server.start()
        url = server.url + (f"{site.slug}/" if site.slug else "")
        print(f"{site.slug or game_folder.name}: serving {url} (Ctrl-C stops)", flush=True)
        _report(first)
        if ready is not None:
            ready(url)

        def published(update: Update) -> None:
            server.publish(update)
            _report(update)

        rebuild_on_changes(site, game_folder, stop or threading.Event(), published, server.open_pages)
    except KeyboardInterrupt:
        pass
    finally:
        restore()
        if server is not None:
            server.close()
        shutil.rmtree(folder, ignore_errors=True)
    print("stopped", flush=True)
    return 0


def _stop_on_terminate() -> Callable[[], None]:
    """SIGTERM (a closed terminal, a process manager) stops the server as Ctrl-C does: cleanly, temporary
    folder removed. Returns what puts the old handler back; signals are only for the main thread."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    return lambda: signal.signal(signal.SIGTERM, previous)


def _report(update: Update) -> None:
    stamp = time.strftime("%H:%M:%S")
    if update.errors:
        for line in update.errors:
            print(line, file=sys.stderr)
        print(f"{stamp} {len(update.errors)} error(s): shown in the browser; the site is left as it was", flush=True)
        return
    pages = ", ".join(update.changed[:4]) + (f" and {len(update.changed) - 4} more" if len(update.changed) > 4 else "")
    print(f"{stamp} built in {update.seconds:.2f} s: {update.redrawn} picture(s) drawn, "
          f"{len(update.changed)} page(s) written{': ' + pages if pages else ''}", flush=True)
    if update.failing:
        for line in update.failing:
            print(line, file=sys.stderr)
        count = len(update.failing)
        print(f"{stamp} {count} worked example{'s' if count != 1 else ''} failing (above; the rulebook page shows "
              f"the engine's numbers)", flush=True)
