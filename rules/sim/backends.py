"""Where the chunks run: this process, a local process pool (the default), or a Dask distributed cluster.

Each backend hands every finished chunk's result to ``done(result)`` as it arrives and returns the results of
the chunks that finished. Ctrl-C stops it: the chunks not started are cancelled, those running are let finish
or dropped, and ``Interrupted`` carries the results so far (the caller reports them). Only this process decides
what a Ctrl-C means: the pool's workers ignore SIGINT, and a ``local:N`` cluster runs in a session of its own
(``local_cluster``), out of the terminal's reach, so a Ctrl-C while it starts stops the command too.
"""
from __future__ import annotations

import os
import signal
import sys
from typing import Callable, Sequence

from deckwright.rules.numbers import unsigned_number

from .plan import Chunk, pieces
from .worker import prepared, run_chunk

Done = Callable[[dict], None]


class Interrupted(Exception):
    def __init__(self, results: list[dict]):
        super().__init__("interrupted")
        self.results = results


class SchedulerError(Exception):
    """The scheduler named cannot be used (no Dask installed, no scheduler at that address)."""


def run(chunks: Sequence[Chunk], scheduler: str | None, done: Done) -> list[dict]:
    """``scheduler``: None (a process pool of one worker per core; this process on a single core), ``pool:N`` (a
    pool of N worker processes, even for N = 1), ``serial`` (this process), ``local:N`` (a Dask LocalCluster of N
    worker processes) or ``tcp://HOST:PORT`` (a running Dask scheduler)."""
    cores = os.cpu_count() or 1
    if scheduler == "serial" or (scheduler is None and cores < 2):
        return _serial(chunks, done)
    if scheduler is None:
        return _pool(chunks, done, cores)
    if scheduler.startswith("pool:"):
        return _pool(chunks, done, _count(scheduler))
    return _dask(chunks, scheduler, done)

# Each worker is a process of its own; a typo of a few extra digits should not start a million of them.
MAX_WORKERS = 1024


def _count(scheduler: str) -> int:
    kind, _, text = scheduler.partition(":")
    count = unsigned_number(text)
    if count is None or not 1 <= count <= MAX_WORKERS:
        raise SchedulerError(f"--scheduler {scheduler}: expected a number of workers from 1 to {MAX_WORKERS} "
                             f"after ':' ({kind}:2)")
    return count


def _host_port(scheduler: str) -> tuple[str, int]:
    host, _, port = scheduler.removeprefix("tcp://").rpartition(":")
    number = unsigned_number(port)
    if not host or number is None or number > 65535:
        raise SchedulerError(f"--scheduler {scheduler}: expected tcp://HOST:PORT, a port from 0 to 65535")
    return host.strip("[]"), number


def _answers(host: str, port: int) -> str | None:
    """Why nothing listens at HOST:PORT (None when something does): asked in a few seconds, before Dask's client,
    which retries a refused connection until its own timeout."""
    import socket

    try:
        with socket.create_connection((host, port), timeout=5):
            return None
    except OSError as exc:
        return exc.strerror or str(exc)


def _serial(chunks: Sequence[Chunk], done: Done) -> list[dict]:
    results = []
    try:
        for chunk in chunks:
            results.append(run_chunk(chunk))
            done(results[-1])
    except KeyboardInterrupt:
        raise Interrupted(results) from None
    return results


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(chunks: Sequence[Chunk], done: Done, workers: int) -> list[dict]:
    import gc
    import multiprocessing
    import threading
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    work = pieces(list(chunks), workers)
    if not work:
        return []
    fork = sys.platform == "linux" and threading.active_count() == 1
    if fork and chunks:
        prepared(chunks[0].source)  # loaded once here, inherited by every forked worker
        # frozen, the inherited objects are never walked by the workers' garbage collections (which would touch,
        # and so copy, every page of the parent's heap): generator.parallel does the same
        gc.freeze()
    context = multiprocessing.get_context("fork" if fork else "spawn")
    results = []
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint)
    try:
        # at most a few pieces a worker in flight: a Ctrl-C then has little to cancel
        pending, queue = set(), list(reversed(work))
        while queue or pending:
            while queue and len(pending) < 4 * workers:
                pending.add(pool.submit(run_chunk, queue.pop()))
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                results.append(future.result())
                done(results[-1])
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise Interrupted(results) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if fork:
            gc.unfreeze()
    return results


def _dask(chunks: Sequence[Chunk], scheduler: str, done: Done) -> list[dict]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SchedulerError(f"--scheduler {scheduler} needs Dask: pip install 'deckwright[cluster]'") from None
    cluster = None
    if scheduler.startswith("local:"):
        from . import local_cluster

        try:
            cluster = local_cluster.start(_count(scheduler))
        except KeyboardInterrupt:
            raise Interrupted([]) from None
        except local_cluster.ClusterError as exc:
            raise SchedulerError(f"--scheduler {scheduler}: the Dask LocalCluster did not start ({exc})") from None
        address = cluster.scheduler_address
    elif scheduler.startswith("tcp://"):
        address = scheduler
        why = _answers(*_host_port(scheduler))
        if why is not None:
            raise SchedulerError(f"--scheduler {scheduler}: no Dask scheduler answers there ({why})")
    else:
        raise SchedulerError(f"--scheduler {scheduler}: expected local:N, pool:N, serial or tcp://HOST:PORT")
    results = []
    try:
        try:
            client = Client(address, timeout="10s")
        except OSError as exc:
            raise SchedulerError(f"--scheduler {scheduler}: no Dask scheduler answers there ({exc})") from None
        with client:
            workers = max(1, sum(client.nthreads().values()))
            futures = client.map(run_chunk, pieces(list(chunks), workers), pure=False)
            try:
                for future in as_completed(futures):
                    results.append(future.result())
                    done(results[-1])
            except KeyboardInterrupt:
                client.cancel(futures)
                raise Interrupted(results) from None
    finally:
        if cluster is not None:
            cluster.close()
    return results
