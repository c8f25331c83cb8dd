"""How partition tasks reach the cluster: a plain `distributed.Client`, or Prefect tasks on
the flow's DaskTaskRunner (flows/orchestration/dask_flow.py). Either way the flow process
waits for each result in short slices, so Ctrl-C and SIGTERM are heard."""

from __future__ import annotations

from typing import Any, Protocol

from flows.engines.partition_task import PartitionJob, score_partition

# How long one slice of a wait for a task lasts.
_POLL_SECONDS = 0.2
# A failing task is run once more (its error may be passing: a full /tmp on one worker);
# a worker that dies mid-task is Dask's to handle: the scheduler runs the task elsewhere.
TASK_RETRIES = 1


def result_in_slices(handle: Any) -> str:
    """A task's result (Dask or Prefect future), waited for in short slices: between them
    the main thread runs its signal handlers."""
    while True:
        try:
            return handle.result(timeout=_POLL_SECONDS)
        except TimeoutError:
            continue


class Submitter(Protocol):
    """Submits partition jobs to a cluster and waits for their shards."""

    def submit(self, job: PartitionJob) -> Any: ...

    def result(self, handle: Any) -> str: ...

    def cancel(self, handles: list[Any]) -> None: ...


class ClientSubmitter:
    """Partition tasks as plain Dask tasks of `client`."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def submit(self, job: PartitionJob) -> Any:
        key = f"score-partition-{job.shards.rsplit('/', 1)[-1]}-{job.partition.number}"
        return self._client.submit(score_partition, job, key=key, retries=TASK_RETRIES)

    def result(self, handle: Any) -> str:
        return result_in_slices(handle)

    def cancel(self, handles: list[Any]) -> None:
        self._client.cancel(handles)
