"""Independent work spread over the machine's cores.

Checking five games or writing three hundred PNGs are independent jobs; on
Linux they run in forked worker processes (which start with everything the
parent already imported and parsed), elsewhere one after another.
"""
from __future__ import annotations

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

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(function, items))


def side_by_side(jobs: Sequence[Callable[[], None]]) -> None:
    """Run jobs that write files at the same time: each but the last in a forked child (which starts with
    everything this process has built, so nothing needs pickling), the last here; an exception in a child
    is raised here. One after another where forking is not safe (see ``process_map``)."""
    import threading

    if len(jobs) < 2 or (os.cpu_count() or 1) < 2 or sys.platform != "linux" or threading.active_count() > 1:
        for job in jobs:
            job()
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    sys.stdout.flush()  # a child must not write out what this process has buffered
    sys.stderr.flush()
    children = []
    for job in jobs[:-1]:
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_run_reporting, args=(job, send), daemon=True)
        child.start()
        send.close()
        children.append((child, receive))
    try:
        jobs[-1]()
    finally:
        failures = []
        for child, receive in children:
            outcome = receive.recv() if receive.poll(None) else None
            child.join()
            if outcome is not None or child.exitcode:
                failures.append(outcome or RuntimeError(f"a worker process stopped with exit code {child.exitcode}"))
    if failures:
        raise failures[0]


def _run_reporting(job: Callable[[], None], send) -> None:
    try:
        job()
        send.send(None)
    except BaseException as exc:  # noqa: BLE001 (handed to the parent, which raises it)
        try:
            send.send(exc)
        except Exception:  # noqa: BLE001 (an exception that does not pickle)
            send.send(RuntimeError(f"{type(exc).__name__}: {exc}"))
