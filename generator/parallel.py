"""Independent work spread over the machine's cores.

Checking five games or writing three hundred PNGs are independent jobs; on
Linux they run in forked worker processes (which start with everything the
parent already imported and parsed), elsewhere one after another.
"""
from __future__ import annotations

import gc
import os
import sys
from typing import Callable, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def process_map(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """``[function(item) for item in items]``, in that order, one process per core where that helps.

    ``function`` must be a module-level function (or a ``functools.partial`` of one), and the items
    and results plain picklable data."""
    import threading

    workers = min(len(items), os.cpu_count() or 1)
    # forking a process that runs other threads can copy a held lock into the child: stay serial then
    if workers < 2 or sys.platform != "linux" or threading.active_count() > 1:
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



class Beside:
    """A job run in a forked worker process while this one carries on: ``result()`` waits for what it returned
    (raising here what it raised, located problems kept), ``stop()`` abandons it. ``start`` gives None where
    forking is not safe (``outputs.rulebook.beside.can_fork``): the caller then does the work itself."""

    def __init__(self, worker, receiver):
        self._worker = worker
        self._receiver = receiver

    @classmethod
    def start(cls, job: Callable[[], Result]) -> "Beside | None":
        from .outputs.rulebook.beside import _work, can_fork

        if not can_fork():
            return None
        import multiprocessing

        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        worker = context.Process(target=_work, args=(job, sender), daemon=True)
        worker.start()
        sender.close()
        return cls(worker, receiver)

    def result(self):
        from .outputs.rulebook.beside import Failure

        try:
            outcome = self._receiver.recv()
        except EOFError:
            outcome = Failure(RuntimeError, None, "the worker ended without a result")
        finally:
            self._receiver.close()
            self._worker.join()
        if isinstance(outcome, Failure):
            raise outcome.exception()
        return outcome

    def stop(self) -> None:
        self._worker.terminate()
        self._worker.join()
        self._receiver.close()
