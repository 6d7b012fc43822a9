"""Fresh workers (generator.parallel): a new interpreter that imports only what its job names, fed items while
it runs (``feed_beside``); their errors raised when the block ends, with located problems, however much is still
sent; Ctrl-C stops them; no workers where forking is not safe."""
from __future__ import annotations

import os
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from deckwright.generator import parallel
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.parallel import Beside, feed_beside
from deckwright.rules.problems import Loc, Problem

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="workers run on Linux only")


@pytest.fixture
def forking(monkeypatch):
    """Workers started even if an earlier test left a thread running in this process."""
    monkeypatch.setattr(parallel, "can_fork", lambda: True)


def _where() -> tuple[int, bool]:
    return os.getpid(), "deckwright.generator.outputs.print_pdfs" in sys.modules


def _record(items, folder: Path) -> None:
    """Writes the items it is sent, one a line, into a file named by its process id."""
    with open(folder / str(os.getpid()), "w", encoding="utf-8") as out:
        for item in items:
            out.write(f"{item}\n")


def _fail_after_one(items, problems) -> None:
    for _ in items:
        raise LayoutError(problems)


@linux_only
def test_a_fresh_worker_is_another_interpreter_without_this_ones_modules(forking):
    import deckwright.generator.outputs.print_pdfs  # noqa: F401 (here, not in the module the job comes from)

    worker = Beside.start(_where, "test worker", fresh=True)
    pid, has_faces = worker.result()
    assert pid != os.getpid() and not has_faces


@linux_only
def test_fed_workers_get_every_item_each_in_the_order_sent(tmp_path, forking):
    items = [f"face {number:04d} " + "x" * 200 for number in range(2000)]  # several pipes' worth
    with feed_beside(partial(_record, folder=tmp_path), 2, "test worker") as send:
        for item in items:
            send(item)
    files = sorted(tmp_path.iterdir())
    assert len(files) == 2 and all(int(file.name) != os.getpid() for file in files)
    received = [file.read_text(encoding="utf-8").splitlines() for file in files]
    assert sorted(received[0] + received[1]) == items
    assert all(lines == sorted(lines) for lines in received)


@linux_only
def test_a_workers_error_is_raised_when_the_block_ends_however_much_is_still_sent(tmp_path, forking):
    problems = [Problem(Loc("cards/x/cards.yaml", 3, 5), "no such field: 'power'")]
    with pytest.raises(LayoutError) as raised:
        with feed_beside(partial(_fail_after_one, problems=problems), 1, "test worker") as send:
            for number in range(2000):  # far more than the pipe holds once the worker has stopped reading them
                send("x" * 1000)
            (tmp_path / "done").write_text("the block ran")
    assert raised.value.problems == problems and (tmp_path / "done").is_file()


@linux_only
def test_when_the_block_is_interrupted_the_workers_are_stopped(tmp_path, forking):
    with pytest.raises(KeyboardInterrupt):
        with feed_beside(partial(_record, folder=tmp_path), 2, "test worker") as send:
            send("one")
            send("two")
            while len(list(tmp_path.iterdir())) < 2:  # both workers running
                pass
            raise KeyboardInterrupt
    for file in tmp_path.iterdir():
        with pytest.raises(ProcessLookupError):  # ended and waited for
            os.kill(int(file.name), 0)



def _interrupted():
    raise KeyboardInterrupt


@linux_only
@pytest.mark.parametrize("fresh", [True, False])
def test_ctrl_c_while_waiting_for_a_result_stops_the_worker_without_a_traceback(forking, capfd, fresh):
    worker = Beside.start(partial(time.sleep, 3), "test worker", fresh=fresh)
    worker._receiver.recv = _interrupted  # Ctrl-C while the parent waits
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        worker.result()
    assert time.monotonic() - started < 2  # stopped, not waited for
    time.sleep(0.5)  # (a worker left to finish would send into the closed pipe now)
    assert "Traceback" not in capfd.readouterr().err


def test_where_forking_is_not_safe_there_are_no_workers_and_the_caller_does_the_work(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    with feed_beside(partial(_record, folder=tmp_path), 2, "test worker") as send:
        assert send is None
    assert list(tmp_path.iterdir()) == []


@linux_only
def test_a_job_that_cannot_be_sent_to_a_fresh_worker_is_refused_here_and_its_worker_ended(forking):
    import pickle

    before = _children()
    with pytest.raises((pickle.PicklingError, AttributeError)):
        Beside.start(lambda: "a lambda does not pickle", "test worker", fresh=True)
    assert _children() == before  # the interpreter started for it was stopped and waited for


def _children() -> set[str]:
    tasks = Path("/proc/self/task")
    return {pid for task in tasks.iterdir() for pid in (task / "children").read_text().split()}


def test_a_worker_whose_parent_has_gone_ends_quietly(capfd):
    """A worker's result sent into a pipe its parent closed (the parent stopped by Ctrl-C): the worker ends, its
    result unsent, with no BrokenPipeError traceback."""
    import multiprocessing

    receiver, sender = multiprocessing.Pipe(duplex=False)
    receiver.close()
    parallel._work(lambda: "a result no one reads", sender, "test worker")
    assert capfd.readouterr().err == ""
