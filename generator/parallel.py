"""Independent work spread over the machine's cores.

Checking five games or writing three hundred PNGs are independent jobs; on
Linux they run in worker processes, elsewhere one after another. A worker is
forked (it starts with everything the parent already imported and parsed) or,
``fresh``, a new interpreter that imports only the modules its job names: its
peak memory (ru_maxrss) then does not start from the parent's, as a fork's does
(a fork's resident pages count in full for both processes, shared or not). A fresh
worker may also be fed: items sent to it while it runs (``feed_beside``).
"""
from __future__ import annotations

import gc
import itertools
import os
import pickle
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def can_fork() -> bool:
    """Whether forking is safe here: on Linux, and no other thread runs (forking a process that runs other
    threads can copy a held lock into the child)."""
    return sys.platform == "linux" and threading.active_count() == 1


def cores() -> int:
    """How many items ``process_map`` works on side by side at most: 1 where it works one after another."""
    return (os.cpu_count() or 1) if can_fork() else 1


def process_map(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """``[function(item) for item in items]``, in that order, one process per core where that helps (each
    worker takes the next item when it is done with one: put the longest first).

    ``function`` must be a module-level function (or a ``functools.partial`` of one), and the items
    and results plain picklable data."""
    workers = min(len(items), cores())
    if workers < 2:
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


@dataclass(frozen=True)
class _End:
    """Sent to a fed worker after its last item."""


class _Inbox:
    """The items sent to a fed worker, in order, until the end (or until the parent is gone)."""

    def __init__(self, connection):
        self._connection = connection
        self._ended = False

    def __iter__(self) -> Iterator:
        while not self._ended:
            try:
                item = self._connection.recv()
            except EOFError:
                item = _End()
            if isinstance(item, _End):
                self._ended = True
            else:
                yield item


def _work(job: Callable[..., object], connection, name: str, inbox=None) -> None:
    """Runs ``job`` (with a fed worker's items) and sends back what it returned or raised."""
    # the worker collects no garbage unless its job turns the collector on: a collection would walk the whole
    # heap a forked worker inherited (measured for the rulebooks: about a tenth of their processor time)
    gc.disable()
    items = None if inbox is None else _Inbox(inbox)
    try:
        outcome: object = job() if items is None else job(items)
    except BaseException as exc:  # noqa: BLE001 (handed to the parent, which raises it)
        outcome = Failure.of(exc)
    if inbox is not None:
        inbox.close()  # what the parent still sends fails at once, not filling a pipe no one reads
    try:
        connection.send(outcome)
    except BrokenPipeError:  # the parent has gone (Ctrl-C): no one is left to tell
        return
    except Exception as exc:  # noqa: BLE001 (a result or problem that does not pickle)
        connection.send(Failure(RuntimeError, None, f"the {name}'s result could not be sent back: {exc}"))
    connection.close()


class Beside:
    """A job run in a worker process while this one carries on: ``result()`` waits for what it returned
    (raising here what it raised, located problems kept), ``stop()`` abandons it. ``start`` gives None where
    forking is not safe (``can_fork``; a fresh worker too, so that a build takes the same path everywhere):
    the caller then does the work itself. ``name`` (such as "rulebook worker") is how messages about the
    worker call it."""

    def __init__(self, worker, receiver, name: str, feed=None):
        self._worker = worker
        self._receiver = receiver
        self._name = name
        self._feed = feed  # the pipe to a fed worker's items

    @classmethod
    def start(cls, job: Callable[[], Result], name: str, fresh: bool = False) -> "Beside | None":
        """``job`` run in a forked worker, or with ``fresh`` in a new interpreter (``job`` then pickled: a
        module-level function or a ``functools.partial`` of one, with plain data)."""
        return cls._started(job, name, fresh, fed=False)

    @classmethod
    def fed(cls, consume: Callable[[Iterable], Result], name: str) -> "Beside | None":
        """``consume(items)`` run in a fresh worker (pickled as ``start``'s job), ``items`` being what ``send``
        hands it, in order, until ``result()``."""
        return cls._started(consume, name, fresh=True, fed=True)

    @classmethod
    def _started(cls, job, name: str, fresh: bool, fed: bool) -> "Beside | None":
        if not can_fork() or (fresh and not sys.executable):  # an embedded Python names no interpreter to start
            return None
        if fresh:
            worker, receiver, feed = _fresh_worker(job, name, fed)
            return cls(worker, receiver, name, feed)
        import multiprocessing

        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        worker = context.Process(target=_work, args=(job, sender, name), daemon=True)
        worker.start()
        sender.close()
        return cls(worker, receiver, name)

    def send(self, item) -> None:
        """Hands ``item`` to a fed worker, waiting while the worker is a pipe's worth of items behind. After the
        worker has ended, nothing: ``result()`` raises why."""
        if self._feed is None:
            return
        try:
            self._feed.send(item)
        except OSError:  # the worker has ended
            self._close_feed()

    def _close_feed(self) -> None:
        if self._feed is not None:
            self._feed.close()
            self._feed = None

    def result(self):
        if self._feed is not None:
            self.send(_End())
            self._close_feed()
        try:
            outcome = self._receiver.recv()
        except EOFError:
            outcome = Failure(RuntimeError, None, f"the {self._name} ended without a result")
        except BaseException:  # Ctrl-C while waiting: the worker is stopped, not waited for (its result unread)
            self._worker.terminate()
            raise
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
        self._close_feed()


class _Channel:
    """Pickled objects through one end of a pipe (what a fresh worker and its parent talk through)."""

    def __init__(self, file):
        self._file = file

    def send(self, thing) -> None:
        pickle.dump(thing, self._file, pickle.HIGHEST_PROTOCOL)
        self._file.flush()

    def recv(self):
        return pickle.load(self._file)  # EOFError once the other end is closed

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:  # what was still buffered could not be written: the other end is gone
            pass


@dataclass(frozen=True)
class _Interpreter:
    """A fresh worker's process, stopped and waited for as a forked one is."""

    process: subprocess.Popen

    def terminate(self) -> None:
        self.process.terminate()

    def join(self) -> None:
        self.process.wait()


def _fresh_worker(job, name: str, fed: bool) -> tuple[_Interpreter, _Channel, _Channel | None]:
    """A new interpreter running ``job`` (``_fresh_main``), with this process's module path, its own pipes only
    (none of this process's other files), and Ctrl-C left to this process, which stops it; its channel of
    outcomes, and of items if ``fed``. ``multiprocessing``'s spawn would import this process's main script
    again in the worker, which runs a script that calls deckwright unguarded once more."""
    inbox, to_worker = os.pipe()
    from_worker, outbox = os.pipe()
    code = (f"import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); import sys; sys.path[:] = {sys.path!r}; "
            f"from {__name__} import _fresh_main; _fresh_main({inbox}, {outbox})")
    try:
        process = subprocess.Popen([sys.executable, "-c", code], pass_fds=(inbox, outbox))
    finally:
        os.close(inbox)
        os.close(outbox)
    worker, feed, receiver = _Interpreter(process), _Channel(open(to_worker, "wb")), _Channel(open(from_worker, "rb"))
    try:
        feed.send((job, name, fed))
    except BaseException:  # a job that does not pickle
        worker.terminate()
        worker.join()
        feed.close()
        receiver.close()
        raise
    if not fed:
        feed.close()
    return worker, receiver, feed if fed else None


def _fresh_main(inbox: int, outbox: int) -> None:
    """A fresh worker: reads its job from ``inbox``, then (if fed) its items, and writes the outcome to ``outbox``."""
    received, outcome = _Channel(open(inbox, "rb")), _Channel(open(outbox, "wb"))
    try:
        job, name, fed = received.recv()
    except BaseException as exc:  # noqa: BLE001 (a job whose module cannot be imported here)
        outcome.send(Failure.of(exc))
        return
    _work(job, outcome, name, received if fed else None)


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


@contextmanager
def feed_beside(consume: Callable[[Iterable], object], workers: int, name: str) -> Iterator[Callable | None]:
    """Starts ``workers`` fresh fed workers (``Beside.fed``) and gives a function that sends an item to one of
    them (to each in turn), or None where they cannot be started (``can_fork``): the caller then does the work
    itself. When the block ends, each worker's ``consume`` is waited for and an exception it raised is raised
    here; if the block raises, the workers are stopped."""
    fed: list[Beside] = []
    try:
        for _ in range(workers):
            worker = Beside.fed(consume, name)
            if worker is None:
                break
            fed.append(worker)
        if not fed:
            yield None
            return
        turn = itertools.cycle(fed)
        yield lambda item: next(turn).send(item)
    except BaseException:
        for worker in fed:
            worker.stop()
        raise
    failures = []
    try:
        for worker in fed:
            try:
                worker.result()
            except Exception as exc:  # noqa: BLE001 (the first is raised once every worker has ended)
                failures.append(exc)
    except BaseException:  # Ctrl-C while waiting
        for worker in fed:
            worker.stop()
        raise
    if failures:
        raise failures[0]
