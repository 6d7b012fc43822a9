"""A persistent cache of ``deckwright check``'s output, one entry a game, as pytest and mypy keep theirs.

When nothing a game's check reads has changed since a run that stored its output (the key of
``generator.check.inputs``), check prints that output again, exits as it did and writes the same ``--junit``
suite, without loading, laying out or replaying anything.

The entries live in ``.deckwright-cache/`` in the working folder, which carries a CACHEDIR.TAG: ``check`` makes
it (unless ``--no-cache``, or the ``CI`` environment variable is set) and uses it afterwards. Never inside a game
folder (a check run there caches nothing), never in a ``.deckwright-cache`` deckwright did not make. An entry
that does not parse, has another format or another key is ignored and written anew; nothing is deleted.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from deckwright.rules.ci.junit import Case, Suite

from .inputs import FORMAT
from .output import CheckOutput, Line

CACHE_FOLDER = ".deckwright-cache"
ENTRIES = "check"
TAG = "CACHEDIR.TAG"
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by deckwright (deckwright check's output).\n"
            "# For information about cache directory tags see https://bford.info/cachedir/\n")
GITIGNORE_TEXT = "# Created by deckwright: deckwright check's cache, nothing to commit.\n*\n"
OUTCOMES = ("passed", "failure", "skipped")


def cache_folder(games: list[Path], here: Path | None = None) -> Path | None:
    """Where the entries go: ``.deckwright-cache/check`` in the working folder; None (no caching) when that is
    inside one of ``games`` or is a ``.deckwright-cache`` deckwright did not make."""
    here = (here or Path.cwd()).resolve()
    if any(here.is_relative_to(game.resolve()) for game in games):
        return None
    top = here / CACHE_FOLDER
    try:
        if top.is_symlink() or (top / ENTRIES).is_symlink():
            return None
        if top.exists() and not (top / TAG).is_file():
            return None
    except OSError:
        return None
    return top / ENTRIES


def _entry(cache: Path, folder: Path, how: str) -> Path:
    """One file a game folder (as reached from this working folder) and way of checking it."""
    name = f"{folder.resolve()}\0{Path.cwd()}\0{how}"
    return cache / f"{hashlib.sha256(name.encode('utf-8', 'surrogateescape')).hexdigest()[:32]}.json"


def read(cache: Path, folder: Path, how: str, key: str) -> CheckOutput | None:
    """The output stored for ``folder`` under ``key``; None when there is none (or the entry is not one)."""
    try:
        data = json.loads(_entry(cache, folder, how).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("key") != key:
            return None
        return _output(data)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):  # missing, damaged or foreign: not used
        return None


def _output(data: dict) -> CheckOutput:
    lines = tuple(Line(text, to_stderr) for text, to_stderr in data["lines"])
    suite = data["suite"]
    cases = tuple(Case(**case) for case in suite["cases"])
    output = CheckOutput(lines, data["failed"], Suite(suite["name"], cases))
    if not (all(isinstance(line.text, str) and type(line.to_stderr) is bool for line in lines)
            and type(output.failed) is bool and isinstance(output.suite.name, str)
            and all(_is_case(case) for case in cases)):
        raise ValueError("not a stored output")
    return output


def _is_case(case: Case) -> bool:
    return (all(isinstance(value, str) for value in (case.name, case.message, case.text))
            and case.outcome in OUTCOMES and (case.file is None or isinstance(case.file, str))
            and type(case.line) is int)


def write(cache: Path, folder: Path, how: str, key: str, output: CheckOutput) -> None:
    """Stores ``output`` for ``folder`` under ``key`` (written whole, then moved into place); a folder that
    cannot be written leaves things as they are."""
    suite = {"name": output.suite.name, "cases": [vars(case) for case in output.suite.cases]}
    data = {"format": FORMAT, "key": key, "failed": output.failed,
            "lines": [[line.text, line.to_stderr] for line in output.lines], "suite": suite}
    text = json.dumps(data)  # ASCII: a file name's undecodable bytes (lone surrogates) survive
    from ..output import write_whole  # (here: a check printed from the cache writes nothing)

    try:
        _make_folder(cache)
        write_whole(_entry(cache, folder, how), text.encode("utf-8"))
    except OSError:
        pass


def _make_folder(cache: Path) -> None:
    top = cache.parent
    try:
        top.mkdir()
        (top / TAG).write_text(TAG_TEXT, encoding="utf-8")
    except FileExistsError:  # made before, or by another run just now
        pass
    try:  # kept out of the designer's repository, as pytest keeps its cache (a cache made before this had none)
        with open(top / ".gitignore", "x", encoding="utf-8") as ignore:
            ignore.write(GITIGNORE_TEXT)
    except FileExistsError:
        pass
    cache.mkdir(exist_ok=True)
