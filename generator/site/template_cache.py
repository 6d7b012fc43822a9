"""The site's own Jinja2 templates (templates/html), compiled once and kept for the next build.

Compiling them is about a quarter of a second of every build's site (measured: 0.38 s of processor time for the
eleven templates on a loaded machine, 0.01 s read back), on the build's critical path: the site worker starts
from nothing but the forked build. Jinja2's own bytecode cache keeps the compiled code in a folder that is this
user's alone (``_jinja2-cache-<uid>`` in the temporary folder, made and checked by Jinja2: owned by the user,
no one else may read or write it), never in a game folder nor in a working folder, where a downloaded
repository could bring code to run. An entry is used only for the same template source (Jinja2 compares its
checksum), the same Python and Jinja2 versions and the same compile options (both in the key, here): anything
else compiles afresh. These are deckwright's own templates only: a game's layouts are compiled in their
sandbox (generator.layout) and never cached.
"""
from __future__ import annotations

import hashlib
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

    def __init__(self, fingerprint: str, directory: str | None = None):
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


def template_cache(env: jinja2.Environment, directory: Path | None = None) -> KeyedBytecodeCache | None:
    """A bytecode cache for ``env``'s templates (in ``directory``, else Jinja2's folder of this user); None where
    no safe folder can be had (the templates are then compiled every time, as before)."""
    try:
        return KeyedBytecodeCache(compile_fingerprint(env), str(directory) if directory is not None else None)
    except (OSError, RuntimeError):  # RuntimeError: Jinja2 found its folder unsafe (another owner, other modes)
        return None
