"""Independent work spread over the machine's cores.

Checking five games or writing three hundred PNGs are independent jobs; on
Linux they run in forked worker processes (which start with everything the
parent already imported and parsed), elsewhere one after another.
"""
from __future__ import annotations

import gc
import os
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def can_fork() -> bool:
    """Whether forking is safe here: on Linux, and no other thread runs (forking a process that runs other
    threads can copy a held lock into the child)."""
    return sys.platform == "linux" and threading.active_count() == 1


def process_map(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """``[function(item) for item in items]``, in that order, one process per core where that helps.

    ``function`` must be a module-level function (or a ``functools.partial`` of one), and the items
    and results plain picklable data."""
    workers = min(len(items), os.cpu_count() or 1)
    if workers < 2 or not can_fork():
        return [function(item) for item in items]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # frozen, the objects the workers inherit are never walked by their garbage collections, which would
    # otherwise touch (and so copy) every page of the parent's heap (measured: a whole build's processor time
    # 42.9 s before, 38.6 s after)
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(function, items))
    finally:
        gc.unfreeze()



class WorkerTraceback(Exception):
    """Where in the worker an unexpected exception was raised (the cause of the one raised here)."""


@dataclass(frozen=True)
class Failure:
    """An exception raised in a ``Beside`` worker, in a form that crosses the pipe: deckwright's errors carry
    their located problems (their ``args`` alone would not rebuild them); any other keeps the worker's
    traceback."""

    kind: type
    problems: list | None
    message: str
    trace: str = ""

    @staticmethod
    def of(exc: BaseException) -> "Failure":
        problems = getattr(exc, "problems", None)
        if problems is not None:
            return Failure(type(exc), list(problems), str(exc))
        return Failure(type(exc), None, str(exc), "".join(traceback.format_exception(exc)))

    def exception(self, worker: str) -> BaseException:
        if self.problems is not None:
            return self.kind(self.problems)
        try:
            exc = self.kind(self.message)
        except TypeError:  # an exception type that wants other arguments
            exc = RuntimeError(f"{self.kind.__name__}: {self.message}")
        if self.trace:
            exc.__cause__ = WorkerTraceback(f"in the {worker}:\n{self.trace}")
        return exc


def _work(job: Callable[[], object], connection, name: str) -> None:
    # the worker collects no garbage unless its job turns the collector on: a collection would walk the whole
    # heap it inherited (measured for the rulebooks: about a tenth of their processor time)
    gc.disable()
    try:
        outcome: object = job()
    except BaseException as exc:  # noqa: BLE001 (handed to the parent, which raises it)
        outcome = Failure.of(exc)
    try:
        connection.send(outcome)
    except Exception as exc:  # noqa: BLE001 (a result or problem that does not pickle)
        connection.send(Failure(RuntimeError, None, f"the {name}'s result could not be sent back: {exc}"))
    connection.close()


class Beside:
    """A job run in a forked worker process while this one carries on: ``result()`` waits for what it returned
    (raising here what it raised, located problems kept), ``stop()`` abandons it. ``start`` gives None where
    forking is not safe (``can_fork``): the caller then does the work itself. ``name`` (such as "rulebook
    worker") is how messages about the worker call it."""

    def __init__(self, worker, receiver, name: str):
        self._worker = worker
        self._receiver = receiver
        self._name = name

    @classmethod
    def start(cls, job: Callable[[], Result], name: str) -> "Beside | None":
        if not can_fork():
            return None
        import multiprocessing

        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        worker = context.Process(target=_work, args=(job, sender, name), daemon=True)
        worker.start()
        sender.close()
        return cls(worker, receiver, name)

    def result(self):
        try:
            outcome = self._receiver.recv()
        except EOFError:
            outcome = Failure(RuntimeError, None, f"the {self._name} ended without a result")
        finally:
            self._receiver.close()
            self._worker.join()
        if isinstance(outcome, Failure):
            raise outcome.exception(self._name)
        return outcome

    def stop(self) -> None:
        self._worker.terminate()
        self._worker.join()
        self._receiver.close()


@contextmanager
def run_beside(job: Callable[[], object], name: str) -> Iterator[None]:
    """Runs ``job`` while the block runs (in a forked ``Beside`` worker called ``name`` where that is safe, else
    after the block); an exception ``job`` raises is raised here when the block ends. If the block raises, the
    worker is stopped and ``job``'s work is abandoned."""
    worker = Beside.start(job, name)
    if worker is None:
        yield
        job()
        return
    try:
        yield
    except BaseException:
        worker.stop()
        raise
    worker.result()
