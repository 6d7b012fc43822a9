"""The rulebooks written beside the card PDFs (generator.parallel.run_beside): in a forked worker on Linux, the
same bytes as written in process, the worker's errors raised in the build with their located problems, and the
worker stopped when the build's own work fails."""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from deckwright.generator import parallel
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.outputs.rulebook import BOOKLET, FULL, PRINTSHOP, rulebooks_beside, write_rulebooks
from deckwright.generator.parallel import run_beside
from deckwright.rules.load import load_game
from deckwright.rules.problems import Loc, Problem

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the worker is forked on Linux only")


@pytest.fixture
def forking(monkeypatch):
    """The worker forked even if an earlier test left a thread running in this process."""
    monkeypatch.setattr(parallel, "can_fork", lambda: True)


def _wait_for(path: Path, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _record_pid(path: Path) -> None:
    path.write_text(str(os.getpid()))


@linux_only
def test_the_job_runs_in_another_process_while_the_block_runs(tmp_path, forking):
    mark = tmp_path / "pid"
    with run_beside(lambda: _record_pid(mark), "rulebook worker"):
        assert _wait_for(mark), "the job ran while the block waited for it"
    assert int(mark.read_text()) != os.getpid()


def test_with_threads_running_the_job_runs_here_after_the_block(tmp_path):
    mark = tmp_path / "pid"
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with run_beside(lambda: _record_pid(mark), "rulebook worker"):
            assert not mark.exists()
    finally:
        stop.set()
        thread.join()
    assert int(mark.read_text()) == os.getpid()


def _fail(problems):
    raise LayoutError(problems)


@linux_only
def test_an_error_in_the_worker_is_raised_with_its_located_problems(forking):
    problems = [Problem(Loc("cards/x/layouts/card.yaml", 3, 5), "no such font 'Nope'"),
                Problem(Loc("cards/x/game.yaml", 1, 1), "a second problem")]
    with pytest.raises(LayoutError) as raised, run_beside(lambda: _fail(problems), "rulebook worker"):
        pass
    assert raised.value.problems == sorted(problems)
    assert [str(p) for p in raised.value.problems] == [str(p) for p in sorted(problems)]


def _broken():
    return {}["no such key"]


@linux_only
def test_an_unexpected_error_in_the_worker_keeps_the_workers_traceback(forking):
    with pytest.raises(KeyError) as raised, run_beside(_broken, "rulebook worker"):
        pass
    assert "no such key" in str(raised.value)
    assert "in _broken" in str(raised.value.__cause__) and "in the rulebook worker" in str(raised.value.__cause__)


def _late_write(path: Path) -> None:
    time.sleep(1.5)
    path.write_text("written")


@linux_only
def test_when_the_block_fails_the_worker_is_stopped_and_the_blocks_error_raised(tmp_path, forking):
    late = tmp_path / "late"
    with pytest.raises(ValueError, match="the card PDFs failed"), \
            run_beside(lambda: _late_write(late), "rulebook worker"):
        raise ValueError("the card PDFs failed")
    time.sleep(2.5)
    assert not late.exists()


def test_rulebooks_written_beside_are_the_bytes_written_in_process(tmp_path):
    game = load_game(FIXTURE)
    faces = Faces(game)
    write_rulebooks(game, faces, [], tmp_path / "here", "a4")
    with rulebooks_beside(game, faces, [], tmp_path / "beside", "a4"):
        pass
    for name in (FULL, BOOKLET, f"printshop/{PRINTSHOP}"):
        assert (tmp_path / "beside" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name
