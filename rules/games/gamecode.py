"""A game folder's own rules module, and where any rules module's errors come from.

``mechanics: rules.py`` (a file) or ``mechanics: rules/`` (a package folder holding ``__init__.py``) names
Python code inside the game folder. It is found here (inside the folder, links followed, no ``..``), loaded by
path under a private module name, and kept in ``sys.modules`` under a name made from its resolved path and its
files' sizes and times: loading it again in the same process gives the same module object, without running
its code again, until a file of it changes (``deckwright serve`` then loads the edited code).

Whatever a rules module raises (a syntax error, a failed import, an exception in ``prepare`` or ``apply``) is
reported at the deepest line of the module's own code that the traceback passes through, so the designer
reads ``rules.py:12``, not a line of deckwright's; ``CodeFailure.trace`` keeps the whole traceback for
``--traceback``.
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from dataclasses import dataclass
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from pathlib import Path, PurePosixPath
from types import ModuleType

from deckwright.rules.data.confine import FileRefused, confined
from deckwright.rules.engine import timelimit
from deckwright.rules.engine.timelimit import RulesTimedOut, time_limit
from deckwright.rules.problems import Loc, display_path

MODULE_PREFIX = "deckwright_game_"
MAX_PACKAGE_FILES = 1_000


class RulesCodeError(Exception):
    """The game folder's rules module cannot be used: ``failure`` says where and why."""

    def __init__(self, failure: "CodeFailure"):
        super().__init__(failure.message)
        self.failure = failure


@dataclass(frozen=True)
class CodeFailure:
    """An exception raised by a rules module, located in that module's own files where the traceback allows."""

    loc: Loc | None  # the deepest line of the module's own code the exception passed through
    message: str  # ``ValueError: bad card``, one line
    trace: str  # the full traceback, for --traceback
    function: str = ""  # for code stopped while it ran (a time limit, Ctrl-C): the function it was in
    timed_out: bool = False

    def __str__(self) -> str:
        if not self.loc:
            return self.message
        within = f", in {self.function}" if self.function else ""
        return f"{self.message} ({self.loc.file}:{self.loc.line}{within})"

    @property
    def said(self) -> str:
        """What the code did, after "the rules": ``raised ValueError: bad card (rules.py:12)``, or ``did not finish
        within 10 s (rules.py:30, in _bank)``."""
        return str(self) if self.timed_out else f"raised {self}"

    @property
    def said_at_loc(self) -> str:
        """``said`` for a line that starts with ``loc``: ``raised ValueError: bad card``, ``did not finish within
        10 s (in _bank)``."""
        if self.timed_out:
            return f"{self.message} (in {self.function})" if self.function else self.message
        return f"raised {self.message}"


class RulesInterrupted(KeyboardInterrupt):
    """Ctrl-C while a rules module ran: the message says what deckwright was doing, and where in the rules."""

    @classmethod
    def of(cls, exc: KeyboardInterrupt, module, doing: str) -> "RulesInterrupted":
        """``doing`` (such as "replaying the example 'X'"), with the line of ``module``'s own code that ran."""
        if isinstance(exc, RulesInterrupted):
            return exc
        failure = module_failure(exc, module)
        where = f", at {failure.loc.file}:{failure.loc.line} in {failure.function}" if failure.loc else ""
        return cls(f"{doing}{where}")


def is_own_module(mechanics: str) -> bool:
    """Whether ``mechanics:`` names a file or folder in the game folder rather than a bundled rules module."""
    return mechanics.endswith((".py", "/")) or "/" in mechanics or "\\" in mechanics


def own_module_path(root: Path, mechanics: str) -> Path:
    """The module's file or package folder, resolved inside ``root``; FileRefused says what is wrong."""
    written = PurePosixPath(mechanics.replace("\\", "/"))
    if written.is_absolute() or mechanics.startswith("~") or ".." in written.parts:
        raise FileRefused(f"'{mechanics}' must be a path inside the game folder, such as rules.py or rules/")
    path = confined(root, Path(root, *written.parts))
    if path.is_dir():
        if not (path / "__init__.py").is_file():
            raise FileRefused(f"'{mechanics}' is a folder without __init__.py; a rules package needs one")
        for file in _package_files(path):
            confined(root, file)
        return path
    if path.suffix != ".py":
        raise FileRefused(f"'{mechanics}' is not a Python file (.py) or a package folder")
    if not path.is_file():
        raise FileRefused(f"no file '{mechanics}' in the game folder")
    return path


def _package_files(folder: Path) -> list[Path]:
    from deckwright.rules.data.walk import walk

    files = sorted(folder / name for entry, name in walk(folder) if name.endswith(".py"))
    if len(files) > MAX_PACKAGE_FILES:
        raise FileRefused(f"the rules package holds {len(files)} Python files; deckwright loads at most {MAX_PACKAGE_FILES}")
    return files


def load_own_module(root: Path, mechanics: str) -> ModuleType:
    """The game folder's rules module, run once per process and version of its files.

    Raises FileRefused for a path that is not allowed and RulesCodeError when its code fails to load.
    """
    path = own_module_path(root, mechanics)
    name = _module_name(path)
    module = sys.modules.get(name)
    if module is not None:
        return module
    try:
        with time_limit():  # its top level runs here: an endless loop in it is reported at its line
            return load_rules_file(path, name=name, private=True)
    except (Exception, SystemExit) as exc:  # SyntaxError, ImportError, anything its top level raises or exit()
        raise RulesCodeError(code_failure(exc, path if path.is_dir() else path.parent)) from None


def _module_name(path: Path) -> str:
    """A private module name for this path and this version of its files."""
    files = _package_files(path) if path.is_dir() else [path]
    fingerprint = hashlib.sha256(str(path).encode())
    for file in files:
        info = file.stat()
        fingerprint.update(f"{file}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return f"{MODULE_PREFIX}{fingerprint.hexdigest()[:20]}"


def module_folder(module) -> Path | None:
    """The folder holding a module's own code (a package's folder, a single file's folder)."""
    file = getattr(module, "__file__", None)
    return Path(file).resolve().parent if file else None


def code_failure(exc: BaseException, own: Path | None) -> CodeFailure:
    """``exc`` located at the deepest traceback line inside ``own`` (the module's folder); a SyntaxError at
    its own line and column."""
    trace = "".join(traceback.format_exception(exc))
    message = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        message = f"{type(exc).__name__}: {exc.msg}"
        return CodeFailure(Loc(display_path(exc.filename), exc.lineno, exc.offset or 1), message, trace)
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename != timelimit.__file__]
    if own is not None:
        own = Path(own).resolve()
        mine = [frame for frame in frames if _inside(frame.filename, own)]
        frames = mine or frames
    if not frames:
        return CodeFailure(None, message, trace)
    frame = frames[-1]
    if isinstance(exc, (RulesTimedOut, KeyboardInterrupt)):  # stopped, not failed: where it was, in which function
        return CodeFailure(Loc(display_path(frame.filename), frame.lineno or 1), str(exc) or message, trace,
                           frame.name, isinstance(exc, RulesTimedOut))
    return CodeFailure(Loc(display_path(frame.filename), frame.lineno or 1), message, trace)


def module_failure(exc: BaseException, module) -> CodeFailure:
    """``exc`` raised while running ``module``, located in the module's own code."""
    return code_failure(exc, module_folder(module))


def definition_loc(module, name: str) -> Loc | None:
    """Where ``module`` defines ``name``: a function's ``def`` line (through inspect), another value's assignment
    (``NAME =`` at the start of a line of the module's file), else the module's file itself; None for what lies
    outside the module's own folder (code of deckwright's or of a library the module imports)."""
    import inspect
    import re

    own, file = module_folder(module), getattr(module, "__file__", None)
    if own is None or file is None:
        return None
    value = getattr(module, name, None)
    try:
        code = inspect.unwrap(value).__code__ if callable(value) else None
    except (AttributeError, ValueError):
        code = None
    if code is not None:
        if not _inside(code.co_filename, own):
            return None
        return Loc(display_path(code.co_filename), code.co_firstlineno, 1)
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    assigned = re.compile(rf"^{re.escape(name)}\s*[:=]")
    line = next((number for number, text in enumerate(lines, start=1) if name and assigned.match(text)), 1)
    return Loc(display_path(file), line, 1)


def _inside(filename: str, folder: Path) -> bool:
    try:
        return Path(filename).resolve().is_relative_to(folder)
    except (OSError, ValueError):
        return False


class _SourceOnly(SourceFileLoader):
    """Loads Python source and never writes ``__pycache__`` into the game folder: deckwright writes nothing
    there but the golden logs asked for."""

    def set_data(self, path, data, *, _mode=0o666) -> None:
        return None


def load_rules_file(path: Path, name: str | None = None, private: bool = False) -> ModuleType:
    """A rules module from ``path``: a ``.py`` file, or a package folder holding ``__init__.py``.

    It is loaded under a private module name (``deckwright_game_<name>``, or ``name`` itself when
    ``private``), so two games' modules never collide, and a package's relative imports work.
    """
    path = Path(path)
    init = path / "__init__.py" if path.is_dir() else path
    module_name = name if private and name else f"deckwright_game_{(name or path.stem).replace('-', '_')}"
    if path.is_dir():  # its submodules are found by these finders: Python source only, no bytecode written
        for folder in {file.parent for file in _package_files(path)}:
            sys.path_importer_cache[str(folder)] = FileFinder(str(folder), (_SourceOnly, SOURCE_SUFFIXES))
    spec = importlib.util.spec_from_file_location(module_name, init, loader=_SourceOnly(module_name, str(init)),
                                                  submodule_search_locations=[str(path)] if path.is_dir() else None)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load a rules module from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        for loaded in [n for n in sys.modules if n == module_name or n.startswith(module_name + ".")]:
            del sys.modules[loaded]  # a package's submodules too: a fixed file is loaded afresh
        raise
    return module
