"""The local web server of ``deckwright serve``: the site's files, and server-sent events that reload pages.

Bound to 127.0.0.1 only. Every HTML page gets one script tag, ``/__deckwright/live.js``
(a file, not inline code, so a Content-Security-Policy of ``script-src 'self'`` allows it),
which listens on ``/__deckwright/events``:

- ``state`` on connecting: the version of every page and the current errors;
- ``update`` after each rebuild: the pages rewritten, and the errors (none once an edit is fixed).

A page reloads itself when it is among the pages rewritten; errors show as an overlay over the
last good page and go away with the next good build.
"""
from __future__ import annotations

import html
import json
import mimetypes
import queue
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from deckwright.generator import TEMPLATES

from .live import LiveSite, Update

HOST = "127.0.0.1"
LIVE_FILES = TEMPLATES / "serve"
PREFIX = "/__deckwright/"
HEARTBEAT = 10.0  # seconds between keep-alive comments, so a closed browser tab is noticed
NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not built yet</title></head>
<body data-deckwright-unbuilt><main><h1>Nothing to show yet</h1><p>{}</p></main></body></html>
"""


class LiveServer:
    """Serves ``site.folder`` and tells connected pages about each ``Update``."""

    def __init__(self, site: LiveSite, port: int):
        self.site = site
        self.clients: dict[queue.Queue, str] = {}  # each open event stream -> the page it is on
        self.lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"live": self})
        self.httpd = _Server((HOST, port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="deckwright-serve", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def start(self) -> None:
        self.thread.start()

    def publish(self, update: Update) -> None:
        event = _event("update", {"version": update.version, "changed": list(update.changed),
                                  "errors": list(update.shown_errors), "failing": list(update.shown_failing),
                                  "patches": update.patches})
        with self.lock:
            for client in self.clients:
                client.put(event)

    def open_pages(self) -> set[str]:
        """The pages browsers show now: a rebuild renders them first."""
        with self.lock:
            return set(self.clients.values())

    def state(self) -> bytes:
        return _event("state", {"versions": self.site.page_versions, "errors": list(self.site.shown_errors),
                                "failing": list(self.site.shown_failing)})

    def close(self) -> None:
        with self.lock:
            for client in self.clients:
                client.put(None)  # each event stream ends
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """A browser that dropped its connection (a tab closed mid-request, a reset keep-alive connection) is no
        error: the standard library would print its traceback in the terminal. Any other is printed as it does."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def _event(kind: str, data: dict) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


class _Handler(BaseHTTPRequestHandler):
    live: LiveServer
    protocol_version = "HTTP/1.1"
    head_only = False  # a HEAD request: the headers a GET would send, without its body

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # the terminal shows rebuilds, not every request

    def do_HEAD(self):  # noqa: N802 (http.server's name)
        self.head_only = True
        self.do_GET()

    def do_GET(self):  # noqa: N802 (http.server's name)
        if not self._host_is_this_computer():
            return self._send(403, b"deckwright serve answers only to http://127.0.0.1 or http://localhost\n",
                              "text/plain; charset=utf-8")
        url = urlsplit(self.path)
        path = unquote(url.path)
        if path == PREFIX + "events":
            return self._events(parse_qs(url.query).get("page", [""])[0])
        if path.startswith(PREFIX):
            return self._file(LIVE_FILES / path[len(PREFIX):], LIVE_FILES)
        site = self.live.site.folder
        relative = path.lstrip("/")
        if relative == "" or relative.endswith("/"):
            relative += "index.html"
        return self._file(site / relative, site, page=relative)

    def _host_is_this_computer(self) -> bool:
        """Whether the request names this server by a name of this computer. Bound to 127.0.0.1, the server is
        reached from this computer only, but a web page elsewhere can point a name of its own at 127.0.0.1 (DNS
        rebinding) and read the pages, errors and file names through it; such a request names that other host."""
        port = self.server.server_address[1]
        host = (self.headers.get("Host") or "").lower()
        return host in {f"{name}:{port}" for name in ("127.0.0.1", "localhost")} | ({"127.0.0.1", "localhost"}
                                                                                   if port == 80 else set())

    def _file(self, path: Path, root: Path, page: str | None = None) -> None:
        try:
            resolved = path.resolve()
            ok = resolved.is_relative_to(root.resolve()) and resolved.is_file()
        except (OSError, ValueError):
            ok = False
        if not ok:
            if page is not None and page.endswith(".html"):
                reason = "The game has errors: they are listed above." if self.live.site.errors else \
                    "No such page in this game's site."
                return self._send(404, _with_live_script(NOT_BUILT.format(html.escape(reason)), page, 0).encode(),
                                  "text/html; charset=utf-8")
            return self._send(404, b"not found\n", "text/plain; charset=utf-8")
        body = resolved.read_bytes()
        kind = mimetypes.guess_type(resolved.name)[0] or "application/octet-stream"
        if page is not None and kind == "text/html":
            version = self.live.site.page_versions.get(page, 0)
            body = _with_live_script(body.decode("utf-8", errors="replace"), page, version).encode("utf-8")
        if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
            kind += "; charset=utf-8"
        self._send(200, body, kind)

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.head_only:
            return
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _events(self, page: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.head_only:
            self.close_connection = True
            return
        mailbox: queue.Queue = queue.Queue()
        with self.live.lock:
            self.live.clients[mailbox] = page
            mailbox.put(self.live.state())
        try:
            while True:
                try:
                    event = mailbox.get(timeout=HEARTBEAT)
                except queue.Empty:
                    event = b": still here\n\n"
                if event is None:
                    break
                self.wfile.write(event)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        finally:
            with self.live.lock:
                del self.live.clients[mailbox]
        self.close_connection = True


def _with_live_script(page: str, path: str, version: int) -> str:
    tag = (f'<script src="{PREFIX}live.js" data-page="{html.escape(path)}" data-version="{version}" defer></script>\n')
    head_end = page.find("</head>")
    return page[:head_end] + tag + page[head_end:] if head_end >= 0 else tag + page
