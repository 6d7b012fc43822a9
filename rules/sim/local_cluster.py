"""``--scheduler local:N``: a Dask LocalCluster of N workers, run in a process of its own, in a session of its own.

The cluster's processes are apart from the terminal's process group, so a Ctrl-C reaches this process alone,
whenever it is pressed, the cluster's start-up included: this process decides what it means (the games so far
are reported) and then stops the cluster, as it would a cluster at a ``tcp://`` address it only connects to.
The cluster's process serves until its standard input closes (this process closes it, or dies), then closes
the cluster; run as ``python -m deckwright.rules.sim.local_cluster N``, it prints the scheduler's address.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass

# Dask's own bookkeeping that a cluster playing games does not need, turned down. Left on, an idle cluster of
# two workers takes 17% of a core (measured: 1.7 processor seconds in 10 s, the workers' profilers sampling every
# 10 ms and every process's event-loop watchdog ticking every 20 ms), taken from the games on a machine whose
# cores all play; turned down, 0.5 s. Workers started by ``dask worker`` take the same settings from the
# environment (README, "Where the games run").
QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.scheduler.work-stealing": False,  # the scheduler queues the pieces and hands them out as workers free
}
CLOSE_SECONDS = 20  # for the cluster to close itself once told, before its processes are killed


class ClusterError(Exception):
    """The cluster's process did not start a cluster; the message is its last line of error output."""


@dataclass(frozen=True)
class LocalCluster:
    """A running cluster's process and its scheduler's address."""

    process: subprocess.Popen
    scheduler_address: str

    def close(self) -> None:
        """Tells the cluster to close (its standard input closes) and waits; kills its processes if it hangs."""
        try:
            self.process.stdin.close()
            self.process.wait(CLOSE_SECONDS)
        except (subprocess.TimeoutExpired, KeyboardInterrupt, OSError):
            _kill(self.process)


def start(workers: int) -> LocalCluster:
    """A LocalCluster of ``workers`` single-threaded worker processes over TCP on 127.0.0.1. A Ctrl-C while it
    starts kills its processes and is raised here."""
    errors = tempfile.TemporaryFile()  # read only if it fails: Dask's start-up chatter stays off the terminal
    process = subprocess.Popen([sys.executable, "-m", __name__, str(workers)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=errors, text=True, **_apart())
    try:
        address = process.stdout.readline().strip()
    except KeyboardInterrupt:
        _kill(process)
        raise
    if not address.startswith("tcp://"):
        _kill(process)
        errors.seek(0)
        said = [line for line in errors.read().decode(errors="replace").splitlines() if line.strip()]
        raise ClusterError(said[-1] if said else f"its process ended with status {process.returncode}")
    errors.close()
    return LocalCluster(process, address)


def _apart() -> dict:
    """Popen's arguments for a process out of reach of the terminal's Ctrl-C, with its children."""
    if os.name == "nt":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def _kill(process: subprocess.Popen) -> None:
    """The cluster's process and every process it started (its session's group)."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def serve(workers: int) -> None:
    """Starts the cluster, prints its scheduler's address, and closes it when standard input closes."""
    import logging

    import dask
    from distributed import LocalCluster as DaskLocalCluster

    dask.config.set(QUIET_CLUSTER)  # this process's whole life: its workers take the settings from it
    # no dashboard; the scheduler's own HTTP routes (which it always serves) on a free port, not 8787, which a
    # second cluster would find taken and warn about. Logs silenced below CRITICAL: a worker's heartbeat racing
    # the cluster's close logs a closed stream's traceback as an error, and a chunk's own error reaches the
    # client through its future anyway.
    cluster = DaskLocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                               silence_logs=logging.CRITICAL)
    try:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()
    finally:
        cluster.close()


if __name__ == "__main__":
    serve(int(sys.argv[1]))
