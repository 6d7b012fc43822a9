"""The site's own Jinja2 templates (templates/html), compiled once and kept for the next build.

Compiling them is about a quarter of a second of every build's site (measured: 0.37 s of processor time for the
eleven templates on a loaded machine, 0.01 s read back), on the build's critical path: the site worker starts
from nothing but the forked build. Jinja2's bytecode cache keeps the compiled code in this user's cache folder
(``$XDG_CACHE_HOME/deckwright/site-templates``, by default under ``~/.cache``), a folder that must be this user's
alone (owned by the user, not a link, no one else may read or write it: Jinja2's rule for its own folder),
never in a game folder nor in a working folder, where a downloaded repository could bring code to run, nor in
the temporary folder, which ``deckwright serve`` leaves as it found it. An entry is used only for the same
template source (Jinja2 compares its checksum), the same Python and Jinja2 versions and the same compile options
(both in the key, here): anything else compiles afresh. Where no such folder can be had, the templates are
compiled every time, as before. These are deckwright's own templates only: a game's layouts are compiled in
their sandbox (generator.layout) and never cached.
"""
from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import jinja2
from jinja2.bccache import FileSystemBytecodeCache

# The environment's settings that change the code a template compiles to.
COMPILE_OPTIONS = ("block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
                   "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
                   "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline", "optimized",
                   "autoescape", "finalize", "is_async")


class KeyedBytecodeCache(FileSystemBytecodeCache):
    """Jinja2's file cache, its entries keyed by the template, the Jinja2 version and the compile options as well
    (Jinja2 keys them by the template's name and file alone)."""

    def __init__(self, fingerprint: str, directory: str):
        super().__init__(directory, "__deckwright_site_%s.cache")
        self.fingerprint = fingerprint

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha256(f"{self.fingerprint}\0{name}\0{filename}".encode("utf-8", "surrogateescape")).hexdigest()

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 (an entry that cannot be read back: compiled afresh)
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:  # a full disk, a folder gone: the site is written all the same, compiled next time again
            pass


def compile_fingerprint(env: jinja2.Environment) -> str:
    """What, besides a template's source, decides its compiled code (callables by their qualified name)."""
    def shown(value) -> str:
        return getattr(value, "__qualname__", None) or repr(value)

    return ";".join([jinja2.__version__, *(f"{name}={shown(getattr(env, name))}" for name in COMPILE_OPTIONS),
                     *sorted(shown(extension) for extension in env.extensions)])


def cache_folder(environ: dict[str, str] | None = None) -> Path | None:
    """This user's folder for the compiled templates, made if need be; None where there is none that is safely
    this user's alone."""
    environ = os.environ if environ is None else environ
    if not hasattr(os, "getuid"):  # no owner to check the folder's against
        return None
    base = environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative: the XDG specification says to ignore it
        home = environ.get("HOME", "")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    folder = Path(base) / "deckwright" / "site-templates"
    try:
        folder.mkdir(parents=True, mode=stat.S_IRWXU, exist_ok=True)
        found = os.lstat(folder)
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
            return None
        if stat.S_IMODE(found.st_mode) != stat.S_IRWXU:
            os.chmod(folder, stat.S_IRWXU)
    except OSError:
        return None
    return folder


def template_cache(env: jinja2.Environment, directory: Path | None = None) -> KeyedBytecodeCache | None:
    """A bytecode cache for ``env``'s templates in ``directory`` (by default ``cache_folder()``); None when there
    is no folder for it."""
    folder = directory if directory is not None else cache_folder()
    return KeyedBytecodeCache(compile_fingerprint(env), str(folder)) if folder is not None else None
