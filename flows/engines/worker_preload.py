"""Loaded by each local Dask worker process as it starts (a Dask preload module): the worker
ignores SIGINT, which a Ctrl-C at the terminal sends to the whole process group; the run's
own stop, in the flow process, closes the workers. Its lease-release errors are quieted
(flows/engines/worker_setup.py) before any task can hold a lease. A worker told to close
stops its tasks' judges first (`dask_teardown`), and its process ends right after its exit
hooks once the worker has closed and its running task has written its shard (the replies it
paid for, kept by the next run): it would otherwise wait for its running task to finish its
calls, then tear the interpreter down, and its nanny kills it only after 4 s."""

from __future__ import annotations

import signal
import threading
from typing import Any

from flows.engines.worker_setup import quiet_judge_refusals, quiet_lease_releases
from flows.run.stop_signals import exit_after_hooks

# How long a closing worker's process waits for its stopped task to write its shard: within
# the 4 s its nanny gives it (a stopped task's judge answers at once; a task still at work
# after this is cut off, as before).
SHARD_WRITE_SECONDS = 2.5


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in the worker process before it takes tasks."""
    quiet_lease_releases()
    quiet_judge_refusals()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_teardown(worker: Any) -> None:
    """Dask's preload hook, run as the worker starts closing, before it waits for its
    running task: that task's judge stops now, so the task ends within moments."""
    from flows.engines.worker_judge import stop_running_judges  # polars: after the env is set

    stop_running_judges()
    # Run as the interpreter starts its exit (the worker has closed, its main function
    # returned), before it joins the threads left and tears itself down. The hooks of
    # threading's exit (concurrent.futures' uses it too) are the only ones that early.
    threading._register_atexit(_exit_once_shards_written)  # type: ignore[attr-defined]


def _exit_once_shards_written() -> None:
    """End the worker's process once its stopped tasks have written their shards (at most
    SHARD_WRITE_SECONDS): the process ended before, and the replies they paid were lost."""
    from flows.engines.worker_judge import wait_for_partitions

    wait_for_partitions(SHARD_WRITE_SECONDS)
    exit_after_hooks(0)
