"""Walking a game folder without recursion.

A folder nested a thousand deep is a few seconds of ``mkdir`` for whoever hands over a game folder, and Python's
own walks (``os.walk``, ``Path.rglob`` in 3.11) recurse once a level: past about a thousand levels they raise
RecursionError, a traceback instead of a check. This walk keeps its place in a list instead.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path


def walk(top: Path, enter: Callable[[str], bool] = lambda name: True) -> Iterator[tuple[os.DirEntry, str]]:
    """Every entry under ``top``, depth first in name order, with its path relative to ``top`` (``a/b.yaml``);
    a folder is given before what it holds, and entered only when ``enter(its name)``. Links are given, never
    followed."""
    pending = [_entries(top, "")]
    while pending:
        found = next(pending[-1], None)
        if found is None:
            pending.pop()
            continue
        entry, name = found
        yield entry, name
        if entry.is_dir(follow_symlinks=False) and enter(entry.name):
            pending.append(_entries(Path(entry.path), name + "/"))


def _entries(folder: Path, prefix: str) -> Iterator[tuple[os.DirEntry, str]]:
    with os.scandir(folder) as found:
        entries = sorted(found, key=lambda entry: entry.name)
    return iter([(entry, prefix + entry.name) for entry in entries])
