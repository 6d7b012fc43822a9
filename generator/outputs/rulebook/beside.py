"""The rulebooks written beside the rest of the print step: in a forked worker process (which starts with
the game, its compiled layouts and fonts already in memory), so that on a machine with a core to spare their
wall-clock cost hides behind the card PDFs drawn meanwhile. Where forking is not safe (not Linux, or the
process runs threads that might hold a lock the child would copy) they are written in this process after
the block, as before. The worker (``generator.parallel.Beside``) collects no garbage: it lives for one game's
rulebooks.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from deckwright.generator.parallel import Beside


@contextmanager
def run_beside(job: Callable[[], object]) -> Iterator[None]:
    """Runs ``job`` while the block runs (in a forked process where that is safe, else after the block);
    an exception ``job`` raises is raised here when the block ends. If the block raises, the worker is
    stopped and ``job``'s work is abandoned."""
    worker = Beside.start(job, "rulebook worker")
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
