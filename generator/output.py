"""Output folders: written atomically, one run at a time, and only ever replacing what deckwright wrote.

The one API, for every command and build step that writes a folder of its own::

    with locked(out) as lock:                                  # one deckwright run per output folder (waits)
        with staged_folder(out / "my-game", lock=lock) as folder:
            ...write files into folder...                      # on success, folder replaces out/my-game

``staged_folder(target)`` alone takes the lock itself. It

- refuses (``OutputError``, exit 2) to replace a ``target`` deckwright did not make: a folder it makes carries a
  manifest, ``MARKER``, listing every file it wrote, and a folder without one, or holding any file the manifest
  does not list (a user's ``site/blog.md``), or a link where the folder should be, is left alone;
- removes staging folders an interrupted run left beside ``target`` (``.<name>.*.tmp``, marked as staging);
- builds into a fresh staging folder beside ``target`` (same file system, so the swap is a rename) and, when the
  block ends without an exception, writes the manifest and swaps the staging folder into place; on an exception
  (even KeyboardInterrupt) it removes the staging folder and leaves ``target`` as it was.

``check_out_folder`` refuses an ``--out`` that resolves to, into or above a game folder or deckwright's own folders.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

MARKER = ".deckwright"  # in every folder deckwright writes: what it is, and the files deckwright wrote into it
LOCK_FILE = ".deckwright.lock"
LOCK_WAIT_SECONDS = 600.0
_OUTPUT_HEADER = "deckwright output: replaced whole by every build; the files deckwright wrote into it:"
_STAGING_HEADER = "deckwright staging: a build in progress, or one that was interrupted; all written by deckwright"


class OutputError(Exception):
    """The output folder cannot be made or replaced (``--out`` names a file, a folder deckwright did not make, ...)."""


class OutputBusy(OutputError):
    """Another deckwright run kept the output folder locked for longer than we waited."""


def _why(exc: OSError) -> str:
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "a file is in the way where a folder should be"
    return f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")


# -- where output may go ----------------------------------------------------------------------------------


def check_out_folder(out: Path, sources: Sequence[Path], project: Path | None = None) -> None:
    """OutputError unless ``out`` is safe to write into: links followed, it must not be a game folder, hold one
    (a build replaces out/<name>) or lie inside one, nor be or hold deckwright's own folder, nor lie in its sources."""
    from deckwright.generator import PROJECT_ROOT

    project = (project or PROJECT_ROOT).resolve()
    real = Path(out).resolve()
    out = Path(os.path.abspath(out))  # as messages show it
    for source in sources:
        game = Path(source).resolve()
        if real == game or real in game.parents:
            raise OutputError(f"the output folder {out} holds the game folder {source}, which a build could "
                              "replace; choose an output folder outside it")
        if game in real.parents:
            beside = os.path.relpath(game.parent / "output")  # ../output when run in the game folder
            raise OutputError(f"the output folder {out} is inside the game folder {source}; a build would write "
                              f"among the game's files; choose an output folder outside it, such as --out {beside}")
    if real == project or real in project.parents:
        raise OutputError(f"the output folder {out} holds deckwright itself ({project}); choose an output folder "
                          "such as output/")
    for own in ("rules", "generator", "templates", "cards", "tests", "bench"):
        if (project / own) in (real, *real.parents):
            raise OutputError(f"the output folder {out} is inside deckwright's {own}/ folder; choose an output "
                              "folder such as output/")


# -- what deckwright wrote --------------------------------------------------------------------------------


def _read_marker(folder: Path) -> list[str] | None:
    """The marker's lines, or None when the folder has no marker deckwright wrote."""
    marker = folder / MARKER
    if marker.is_symlink() or not marker.is_file():
        return None
    try:
        lines = marker.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines if lines and lines[0] in (_OUTPUT_HEADER, _STAGING_HEADER) else None


def foreign_file(folder: Path) -> str | None:
    """The first file (or link) under ``folder`` that deckwright did not write, relative to it; None if none.

    A file is deckwright's when the nearest marker at or above its folder lists it, or says staging; a folder
    with no marker at or above it holds nothing of deckwright's."""
    markers: dict[Path, list[str] | None] = {}

    def owner(directory: Path) -> tuple[Path, list[str]] | None:
        for candidate in (directory, *directory.parents):
            if candidate not in markers:
                markers[candidate] = _read_marker(candidate)
            if markers[candidate] is not None:
                return candidate, markers[candidate]
        return None

    for top, folders, names in os.walk(folder):
        here = Path(top)
        found = owner(here)
        for name in sorted(names) + sorted(f for f in folders if (here / f).is_symlink()):
            path = here / name
            if (name == MARKER and markers.get(here) is not None) or (name == LOCK_FILE and not path.is_symlink()):
                continue
            if found is None:
                return str(path.relative_to(folder))
            base, lines = found
            if lines[0] != _STAGING_HEADER and path.relative_to(base).as_posix() not in lines[1:]:
                return str(path.relative_to(folder))
    return None


def check_replaceable(targets: Sequence[Path]) -> None:
    """OutputError for the first of ``targets`` that a run may not replace (see ``staged_folder``): asked of every
    folder a run replaces before it replaces any, so that a refusal leaves all of them as they were."""
    for target in targets:
        _check_replaceable(target)


def _check_replaceable(target: Path) -> None:
    """OutputError unless ``target`` is absent or a folder deckwright made, holding only files it wrote."""
    if not target.exists() and not target.is_symlink():
        return
    if target.is_symlink() or not target.is_dir():
        raise _not_a_folder_of_ours(target)
    if not any(_read_marker(folder) is not None for folder in (target, *target.parents)):
        raise OutputError(f"{target} was not made by deckwright (it has no {MARKER} file) and a build would "
                          "replace it; move it away or choose another --out")
    foreign = foreign_file(target)
    if foreign is not None:
        raise OutputError(f"{target} holds {foreign}, which deckwright did not write, and a build replaces the "
                          "whole folder; move the file elsewhere or choose another --out")


def check_replaceable_below(out: Path, target: Path) -> None:
    """OutputError unless a run may replace ``target``, a folder deeper below the output folder ``out`` than
    its own child (``out/simulate/<game>``): what lies between them must be folders, not links (written through,
    the files would go wherever one points, outside ``out``) nor files."""
    for between in reversed(target.relative_to(out).parents[:-1]):
        path = out / between
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
            raise _not_a_folder_of_ours(path)
    _check_replaceable(target)


def _not_a_folder_of_ours(path: Path) -> OutputError:
    return OutputError(f"{path} is a {'link' if path.is_symlink() else 'file'}, not a folder deckwright made; "
                       "deckwright replaces only folders it made: move it away or choose another --out")


def _write_manifest(folder: Path) -> None:
    files = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*")
                   if (path.is_file() or path.is_symlink()) and path.name not in (MARKER, LOCK_FILE))
    (folder / MARKER).write_text("\n".join([_OUTPUT_HEADER, *files]) + "\n", encoding="utf-8")


def made_folder(folder: Path) -> None:
    """Makes ``folder``, a game's output folder that a command writing only a part of it (``schema``) needs
    first, marked as deckwright's with no file of its own, so that a later build may replace it; a folder that
    is there already is left as it is; a link there is refused, as a build refuses it (it would be written
    through, into wherever it points)."""
    if folder.is_symlink():
        raise _not_a_folder_of_ours(folder)
    if folder.exists():
        return
    try:
        folder.mkdir(parents=True)
        _write_manifest(folder)
    except OSError as exc:
        raise OutputError(f"cannot write into {folder.parent}: {_why(exc)}") from None


def _staging_pattern(name: str) -> re.Pattern:
    return re.compile(rf"^\.{re.escape(name)}\.[A-Za-z0-9_]+\.(tmp|old)$")


def clean_stale_staging(target: Path) -> list[Path]:
    """Remove the staging folders an interrupted run left beside ``target``; returns those removed.

    Only folders named like deckwright's staging and either empty or holding nothing deckwright did not write
    are removed (under the lock, no other run can be writing them)."""
    removed = []
    pattern = _staging_pattern(target.name)
    if not target.parent.is_dir():
        return removed
    for entry in sorted(target.parent.iterdir()):
        if not pattern.match(entry.name) or entry.is_symlink() or not entry.is_dir():
            continue
        if any(entry.iterdir()) and (_read_marker(entry) is None or foreign_file(entry) is not None):
            continue
        remove_tree(entry)
        removed.append(entry)
    return removed


def remove_tree(folder: Path, ignore_errors: bool = False) -> None:
    """Remove ``folder``, one deckwright wrote, whatever modes its folders have come to have (copied from a
    read-only install, or made read-only by hand): where a first try fails, each folder inside it is made
    writable for its owner and it is tried again. Links are never followed, nor their targets' modes changed."""
    try:
        shutil.rmtree(folder)
        return
    except OSError:
        if os.path.islink(folder) or not os.path.isdir(folder):
            if ignore_errors:
                return
            raise
    _open_up(folder)
    for inside, folders, _ in os.walk(folder):  # top down: each folder opened up before it is walked into
        for name in folders:
            _open_up(os.path.join(inside, name))
    shutil.rmtree(folder, ignore_errors=ignore_errors)


def _open_up(path: str | Path) -> None:
    """The folder ``path`` readable, writable and enterable by its owner (not a link: its target is not ours)."""
    try:
        if not os.path.islink(path):
            os.chmod(path, stat.S_IMODE(os.lstat(path).st_mode) | stat.S_IRWXU)
    except OSError:
        pass


# -- one run at a time ------------------------------------------------------------------------------------


@dataclass
class Lock:
    """A held lock on an output folder (see ``locked``)."""

    folder: Path
    handle: object


def _try_lock(handle) -> bool:
    try:
        if os.name == "nt":  # pragma: no cover - Windows
            import msvcrt

            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
            return False
        raise


def _open_lock(path: Path):
    """The lock file, opened for appending without following a link there (an output folder may come from a
    repository: a link named like the lock must not make deckwright create a file elsewhere)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    return os.fdopen(os.open(path, flags, 0o666), "a+", encoding="utf-8")


@contextmanager
def locked(folder: Path, wait: float | None = None) -> Iterator[Lock]:
    """Hold ``folder``'s lock for the block: a second run into the same folder waits, saying so once, and gives
    up with OutputBusy after ``wait`` seconds (LOCK_WAIT_SECONDS).

    The lock is ``folder/.deckwright.lock``, locked with flock (LockFileEx on Windows) and removed when released;
    a run that locked a file which was removed meanwhile tries again, so two runs never both hold it."""
    wait = LOCK_WAIT_SECONDS if wait is None else wait
    path = folder / LOCK_FILE
    deadline = time.monotonic() + wait
    said = False
    while True:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle = _open_lock(path)
        except OSError as exc:
            if os.path.islink(path):  # (False, not a second error, for a name longer than the system allows)
                raise OutputError(f"{path} is a link, not deckwright's lock file; remove it") from None
            raise OutputError(f"cannot write into {folder}: {_why(exc)}") from None
        if _try_lock(handle) and _still_there(path, handle):
            break
        handle.close()
        if time.monotonic() >= deadline:
            raise OutputBusy(f"another deckwright run is still writing into {folder}; gave up after waiting "
                             f"{wait:g} s (run again when it has finished)")
        if not said:
            print(f"deckwright: waiting for another deckwright run writing into {folder} ...", file=sys.stderr,
                  flush=True)
            said = True
        time.sleep(0.2)
    try:
        yield Lock(folder, handle)
    finally:
        try:
            path.unlink()
        except OSError:
            pass
        handle.close()  # closing releases the lock


def _still_there(path: Path, handle) -> bool:
    """Whether the locked file is still the one at ``path`` (its holder removes it when it finishes)."""
    try:
        return os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
    except OSError:
        return False


# -- staging and the swap ---------------------------------------------------------------------------------


@contextmanager
def staged_folder(target: Path, lock: Lock | None = None) -> Iterator[Path]:
    """Yields an empty folder beside ``target``; on success it replaces ``target`` (see the module's doc).

    ``lock``: a lock the caller holds on the output folder ``target`` is in; without one, ``target.parent`` is
    locked here."""
    if lock is None:
        with locked(target.parent) as held:
            with staged_folder(target, held) as folder:
                yield folder
        return
    _check_replaceable(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_staging(target)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        staging.chmod(0o755)
        (staging / MARKER).write_text(_STAGING_HEADER + "\n", encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write into {target.parent}: {_why(exc)}") from None
    try:
        yield staging
        _write_manifest(staging)
    except BaseException:
        remove_tree(staging, ignore_errors=True)
        raise
    _swap_into_place(staging, target)


def _swap_into_place(staging: Path, target: Path) -> None:
    """Put ``staging`` at ``target``; the old ``target`` (if any) is removed once the new one is in place.

    The swap is an exchange of the two names in one system call (Linux ``renameat2(RENAME_EXCHANGE)``, macOS
    ``renamex_np(RENAME_SWAP)``), chosen over a symlink swap because ``target`` stays a plain folder (a link
    would surprise whoever copies or uploads it, and needs privileges on Windows): at every instant ``target``
    is either the old folder or the new one. Where the system cannot exchange names (Windows, some network
    file systems) the old folder is renamed aside and the new one renamed in, which leaves ``target`` missing
    for the moment between the two renames."""
    old = staging.with_suffix(".old")  # unique, as the staging name is
    try:
        if not (target.exists() or target.is_symlink()):
            os.rename(staging, target)
            return
        if exchange_paths(staging, target):
            old = staging  # the old output now has the staging name
        else:
            os.replace(target, old)
            try:
                os.replace(staging, target)
            except OSError:
                os.replace(old, target)
                raise
    except OSError as exc:
        remove_tree(staging, ignore_errors=True)
        raise OutputError(f"cannot replace {target}: {_why(exc)}") from None
    remove_tree(old, ignore_errors=True)


def exchange_paths(first: Path, second: Path) -> bool:
    """Swap the names of two existing paths atomically; False where the system has no way to."""
    try:
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            call = getattr(libc, "renameat2", None)
            if call is None:
                return False
            at_fdcwd, rename_exchange = -100, 2
            status = call(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange)
        elif sys.platform == "darwin":  # pragma: no cover - macOS
            libc = ctypes.CDLL(None, use_errno=True)
            call = getattr(libc, "renamex_np", None)
            if call is None:
                return False
            status = call(os.fsencode(first), os.fsencode(second), 0x2)  # RENAME_SWAP
        else:  # pragma: no cover - Windows and others
            return False
    except (OSError, AttributeError):
        return False
    if status == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(code, os.strerror(code), str(second))


def why_not_replaced(report: Path, opening: bytes) -> str | None:
    """Why the file ``report`` a command writes besides its output folder (``check --junit``, ``simulate
    --json``) may not be written, or None when it may: when it is absent, or a regular file beginning with
    ``opening``, as every such file deckwright writes does; never a link, a folder, a pipe (opened, it would wait
    for a writer forever) or a file of the user's (a game's ``game.yaml`` named by mistake)."""
    try:
        found = os.lstat(report)
    except FileNotFoundError:  # (its folder too, perhaps: write_report makes it)
        return None
    except OSError as exc:  # a name longer than the system allows, a folder that may not be entered
        return _why(exc)
    if stat.S_ISLNK(found.st_mode):
        return "a link"
    if stat.S_ISDIR(found.st_mode):
        return "a folder"
    if not stat.S_ISREG(found.st_mode):
        return "not a regular file"
    try:
        with open(report, "rb") as handle:
            begins = handle.read(len(opening))
    except OSError as exc:
        return _why(exc)
    return None if begins == opening else "a file deckwright did not write, left as it is"


def write_report(report: Path, data: bytes, opening: bytes) -> None:
    """``data`` (beginning with ``opening``) written to ``report`` whole: into a new file beside it, renamed over
    it, so that a reader never sees half a file and a failed write leaves the old one; its folder is made if need
    be (``--junit reports/check.xml`` in CI). OutputError, saying why, when ``report`` may not be written
    (``why_not_replaced``, asked again now: a long run gave it time to change) or the write fails."""
    why = why_not_replaced(report, opening)
    if why is not None:
        raise OutputError(why)
    try:
        report.parent.mkdir(parents=True, exist_ok=True)
        write_whole(report, data)
    except OSError as exc:
        raise OutputError(_why(exc)) from None


def write_whole(path: Path, data: bytes) -> None:
    """``data`` written to ``path`` whole: into a new file of its own beside it (never one a link or another file
    left at a fixed name could stand for), renamed over ``path``; a reader never sees half a file, and a failed
    write leaves the old one. OSError when it cannot be."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


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
    with open(path, "w", encoding="utf-8") as handle:  # written as encoded: a big game's text is never whole
        json.dump(data, handle, indent=2, sort_keys=False, ensure_ascii=False)
        handle.write("\n")
