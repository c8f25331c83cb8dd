"""How partition tasks reach the cluster: a plain `distributed.Client`, or Prefect tasks on
the flow's DaskTaskRunner (flows/orchestration/dask_flow.py). Either way the flow process
waits for each result in short slices, so Ctrl-C and SIGTERM are heard."""

from __future__ import annotations

import time
from concurrent.futures import CancelledError
from typing import Any, Protocol

from flows.engines.partition_task import PartitionJob, score_partition
from flows.errors import ClusterUnavailable

# How long one slice of a wait for a task lasts.
_POLL_SECONDS = 0.2
# The least time a finished task's result is given to arrive, however late it finished.
_FETCH_SECONDS = 30.0
# A failing task is run once more (its error may be passing: a full /tmp on one worker);
# a worker that dies mid-task is Dask's to handle: the scheduler runs the task elsewhere.
TASK_RETRIES = 1


def result_in_slices(handle: Any, task_timeout: float) -> str:
    """A task's result (Dask or Prefect future), waited for in short slices: between them
    the main thread runs its signal handlers. A cluster that finishes nothing within
    `task_timeout` seconds, or loses its scheduler, ends the wait with ClusterUnavailable."""
    give_up = time.monotonic() + task_timeout
    # Each slice asks whether the task is done; the result is fetched once, after. Asking
    # `result(timeout=...)` slice after slice breaks when fetching takes longer than a slice
    # (distributed 2026.8): the timed-out fetch is cancelled but stays shared, and the next
    # fetch awaits it and fails with UnboundLocalError from inside `sync()`.
    task = getattr(handle, "wrapped_future", handle)
    while not task.done():
        if time.monotonic() > give_up:
            raise ClusterUnavailable(
                f"no partition finished within --task-timeout {task_timeout:g} s: the Dask "
                "cluster is stuck or has no worker; committed batches are kept"
            )
        time.sleep(_POLL_SECONDS)
    # distributed is loaded already: `handle` is its future (or wraps one)
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    fetch_seconds = max(give_up - time.monotonic(), _FETCH_SECONDS)
    try:
        return handle.result(timeout=fetch_seconds)
    except TimeoutError:
        raise ClusterUnavailable(
            f"a finished partition's result could not be fetched within {fetch_seconds:.0f} s: "
            "its worker is unreachable; committed batches are kept"
        ) from None
    # every worker that ran the task died running it (a nanny kills a worker past its memory
    # limit): the cluster cannot run this partition, whatever the run does
    except KilledWorker as exc:
        tries = exc.allowed_failures + 1
        raise ClusterUnavailable(
            f"{_partition_task(exc.task)} ended the worker running it, {tries} "
            f"time{'s' if tries != 1 else ''} in a row (a worker killed by its memory limit, "
            "most often): lower --batch-size or give the workers more memory; committed "
            "batches are kept"
        ) from None
    # the cluster went away, not the task: a future the scheduler cancelled (its connection
    # lost) or a closed connection to it
    except (CancelledError, CommClosedError) as exc:
        raise ClusterUnavailable(
            f"the Dask scheduler was lost ({type(exc).__name__}); committed batches "
            "are kept: run again to resume"
        ) from None


def _partition_task(key: object) -> str:
    """`partition N's task` for a key ClientSubmitter gave (`score-partition-<run>-N`)."""
    text = str(key)
    number = text.rpartition("-")[2]
    if text.startswith("score-partition-") and number.isdecimal():
        return f"partition {int(number)}'s task"
    return "a partition's task"


class Submitter(Protocol):
    """Submits partition jobs to a cluster and waits for their shards."""

    def submit(self, job: PartitionJob) -> Any: ...

    def result(self, handle: Any, task_timeout: float) -> str: ...

    def cancel(self, handles: list[Any]) -> None: ...


class ClientSubmitter:
    """Partition tasks as plain Dask tasks of `client`."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def submit(self, job: PartitionJob) -> Any:
        key = f"score-partition-{job.shards.rsplit('/', 1)[-1]}-{job.partition.number}"
        return self._client.submit(score_partition, job, key=key, retries=TASK_RETRIES)

    def result(self, handle: Any, task_timeout: float) -> str:
        return result_in_slices(handle, task_timeout)

    def cancel(self, handles: list[Any]) -> None:
        if self._client.status == "running":  # a lost scheduler cannot hear it
            self._client.cancel(handles)
