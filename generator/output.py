"""Atomic output: build into a staging folder, then swap it into place.

A failed build removes its staging folder and leaves the previous output as it was.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class OutputError(Exception):
    """The output folder cannot be made or replaced (``--out`` names a file, no permission, ...)."""


def _why(exc: OSError) -> str:
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "a file is in the way where a folder should be"
    return f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")


def check_out_folder(out: Path, sources: list[Path]) -> None:
    """OutputError if ``out`` holds a folder a build reads (a game folder): replacing out/<name> could delete it."""
    out = Path(os.path.abspath(out))
    for source in sources:
        if Path(os.path.abspath(source)).is_relative_to(out):
            raise OutputError(f"the output folder {out} holds the game folder {source}, which a build could "
                              "replace; choose an output folder outside it")


@contextmanager
def staged_folder(target: Path) -> Iterator[Path]:
    """Yields an empty folder beside ``target``; on success it replaces ``target``.

    Staging beside the target keeps both on one file system, so each swap is a rename.
    """
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        staging.chmod(0o755)
    except OSError as exc:
        raise OutputError(f"cannot write into {target.parent}: {_why(exc)}") from None
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    old = staging.with_suffix(".old")  # unique, as the staging name is
    try:
        if target.exists() or target.is_symlink():
            os.replace(target, old)
        try:
            os.replace(staging, target)
        except OSError:
            if old.exists():
                os.replace(old, target)
            raise
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(f"cannot replace {target}: {_why(exc)}") from None
    if old.is_dir() and not old.is_symlink():
        shutil.rmtree(old, ignore_errors=True)
    elif old.exists() or old.is_symlink():
        old.unlink()


def link_or_copy(source: Path, target: Path) -> None:
    """``target`` gets ``source``'s bytes: as a hard link where the file system allows (built files are
    replaced, never rewritten in place, so sharing them is safe), else as a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def write_json(path: Path, data) -> None:
    """``data`` as indented UTF-8 JSON, keys in the order given (the same bytes for the same data)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n", encoding="utf-8")
