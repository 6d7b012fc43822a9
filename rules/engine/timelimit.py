"""A time limit on running a game's rules code, so that an endless loop in it is reported, not waited on forever.

``time_limit()`` wraps one piece of work that calls into a rules module: replaying one worked example, one random
game of the conformance suite or of ``deckwright simulate``, ``prepare(game)``, ``outcome(state)``, and the hooks
the layouts and the site's Odds page call (``layout_data(game)``, ``odds(rules)``). When the limit passes, the rules
code running then is interrupted by a ``RulesTimedOut`` raised where it stands, so its traceback names the line
of the rules module that was running (``rules.games.gamecode`` reports it as it reports any exception).

It needs SIGALRM and a timer (``signal.setitimer``) and works in the main thread only, where Python runs signal
handlers: ``deckwright check``'s and ``simulate``'s worker processes run their work there. Elsewhere (Windows,
another thread such as a Dask worker's) the work runs without a limit, as it always did. Inside a time limit
already running, another adds nothing: the outer one stands.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

# Per example, per random game of up to 5,000 actions and per prepare(game): in the bundled games such a random
# game takes at most 0.15 s (watched by the conformance suite, every step deep-compared, 0.1 s) and a worked
# example 0.01 s, so a hundred times that still leaves room for a slow rules module on a busy machine, and an
# endless loop is reported within seconds rather than never.
RULES_SECONDS = 10.0
GAME_ACTIONS = 5_000  # a random game allowed more actions than this (--max-actions) gets more time, in proportion
# After the limit, raised again every second until the work gives up: rules code that catches Exception around
# its loop swallows the first one, not every one.
AGAIN_SECONDS = 1.0


class RulesTimedOut(Exception):
    """The rules code did not finish within ``seconds``; raised where it was running."""

    def __init__(self, seconds: float):
        super().__init__(seconds)  # the only argument, so that it crosses a process boundary whole
        self.seconds = seconds

    def __str__(self) -> str:
        return f"did not finish within {self.seconds:g} s"


def _timer(cpu: bool) -> tuple[int, int] | None:
    """The interval timer and the signal it sends: wall-clock time, or (``cpu``) the processor time this process
    spends, which other work on the machine does not stretch; None where there are no such timers."""
    if not hasattr(signal, "setitimer"):
        return None
    return (signal.ITIMER_PROF, signal.SIGPROF) if cpu else (signal.ITIMER_REAL, signal.SIGALRM)


def can_time(cpu: bool = False) -> bool:
    """Whether a time limit can be set here: a timer signal, the main thread, and no timer already running."""
    timer = _timer(cpu)
    return (timer is not None and threading.current_thread() is threading.main_thread()
            and signal.getitimer(timer[0]) == (0.0, 0.0))


@contextmanager
def outside_limit() -> Iterator[None]:
    """Work done inside a time limit that does not count against it: deckwright's own (such as the tables a
    rulebook page's blocks become while Markdown reads the page), not the code the limit watches. The timers
    are paused meanwhile, and go on with the time they had left."""
    if _timer(False) is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    paused = [(timer, signal.setitimer(timer, 0)) for timer, _ in (_timer(False), _timer(True))]
    try:
        yield
    finally:
        for timer, (left, interval) in paused:
            if left > 0:
                signal.setitimer(timer, left, interval)


def game_seconds(max_actions: int) -> float:
    """The time limit on one random game of at most ``max_actions`` actions."""
    return RULES_SECONDS * max(1.0, max_actions / GAME_ACTIONS)


class _Clock:
    """The running limit: ``restart()`` gives the work the whole time again (one system call; a loop of many short
    games restarts it for each game rather than setting the signal handler up each time)."""

    def __init__(self, seconds: float | None, timer: int = 0):
        self.seconds = seconds  # None: no limit here
        self.timer = timer

    def restart(self) -> None:
        if self.seconds is not None:
            signal.setitimer(self.timer, self.seconds, AGAIN_SECONDS)


class RulesExited(Exception):
    """The rules code called ``exit()`` or ``sys.exit()``: its failure, raised where it called it."""

    def __str__(self) -> str:
        return f"exit({self.args[0]!r}) called; rules code raises an exception to fail, it cannot end deckwright"


@contextmanager
def time_limit(seconds: float | None = None, cpu: bool = False) -> Iterator[_Clock]:
    """Raises ``RulesTimedOut`` in the code that runs ``seconds`` (default ``RULES_SECONDS``) after entering (or
    after the clock's last ``restart()``), and every ``AGAIN_SECONDS`` after that, until the block is left; no
    limit where ``can_time(cpu)`` is false. ``cpu``: seconds of this process's processor time, not of the clock
    on the wall (for work that never waits, whose limit should not depend on the machine's other load).

    A ``SystemExit`` from the code becomes ``RulesExited`` (its traceback kept): ``sys.exit(0)`` in a rules
    module ended ``deckwright check`` silently, with exit status 0."""
    try:
        with _limit(seconds, cpu) as clock:
            yield clock
    except SystemExit as exc:
        raise RulesExited(exc.code).with_traceback(exc.__traceback__) from None


@contextmanager
def _limit(seconds: float | None, cpu: bool) -> Iterator[_Clock]:
    seconds = RULES_SECONDS if seconds is None else seconds
    if not can_time(cpu):
        yield _Clock(None)
        return

    def expired(signum, frame) -> None:
        raise RulesTimedOut(seconds)

    timer, signum = _timer(cpu)
    previous = signal.signal(signum, expired)
    clock = _Clock(seconds, timer)
    clock.restart()
    try:
        yield clock
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signum, previous)
