"""The rulebooks written beside the rest of the print step: in a forked worker process (which starts with
the game, its compiled layouts and fonts already in memory), so that on a machine with a core to spare their
wall-clock cost hides behind the card PDFs drawn meanwhile. Where forking is not safe (not Linux, or the
process runs threads that might hold a lock the child would copy) they are written in this process after
the block, as before.

The worker collects no garbage: it lives for one game's rulebooks, and a collection would walk the whole
heap it inherited from the build (measured: about a tenth of the rulebooks' processor time).
"""
from __future__ import annotations

import gc
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class WorkerTraceback(Exception):
    """Where in the worker an unexpected exception was raised (the cause of the one raised here)."""


@dataclass(frozen=True)
class Failure:
    """An exception raised in the worker, in a form that crosses the pipe: deckwright's errors carry their
    located problems (their ``args`` alone would not rebuild them); any other keeps the worker's traceback."""

    kind: type
    problems: list | None
    message: str
    trace: str = ""

    @staticmethod
    def of(exc: BaseException) -> Failure:
        problems = getattr(exc, "problems", None)
        if problems is not None:
            return Failure(type(exc), list(problems), str(exc))
        return Failure(type(exc), None, str(exc), "".join(traceback.format_exception(exc)))

    def exception(self) -> BaseException:
        if self.problems is not None:
            return self.kind(self.problems)
        try:
            exc = self.kind(self.message)
        except TypeError:  # an exception type that wants other arguments
            exc = RuntimeError(f"{self.kind.__name__}: {self.message}")
        if self.trace:
            exc.__cause__ = WorkerTraceback(f"in the rulebook worker:\n{self.trace}")
        return exc


def can_fork() -> bool:
    return sys.platform == "linux" and threading.active_count() == 1


def _work(job: Callable[[], object], connection) -> None:
    gc.disable()
    try:
        outcome: object = job()
    except BaseException as exc:  # noqa: BLE001 (handed to the parent, which raises it)
        outcome = Failure.of(exc)
    try:
        connection.send(outcome)
    except Exception as exc:  # noqa: BLE001 (a result or problem that does not pickle)
        connection.send(Failure(RuntimeError, None, f"the rulebook worker's result could not be sent back: {exc}"))
    connection.close()


@contextmanager
def run_beside(job: Callable[[], object]) -> Iterator[None]:
    """Runs ``job`` while the block runs (in a forked process where that is safe, else after the block);
    an exception ``job`` raises is raised here when the block ends. If the block raises, the worker is
    stopped and ``job``'s work is abandoned."""
    if not can_fork():
        yield
        job()
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_work, args=(job, sender), daemon=True)
    worker.start()
    sender.close()
    try:
        yield
    except BaseException:
        worker.terminate()
        worker.join()
        raise
    try:
        outcome = receiver.recv()
    except EOFError:
        outcome = Failure(RuntimeError, None, "the rulebook worker ended without a result")
    finally:
        receiver.close()
        worker.join()
    if isinstance(outcome, Failure):
        raise outcome.exception()
