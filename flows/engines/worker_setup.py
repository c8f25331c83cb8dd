"""A worker plugin (imported only with the dask extra): the flow's environment on every
worker, including those that join or are restarted after the run began."""

from __future__ import annotations

import logging
import os
from typing import Any

from distributed import WorkerPlugin


def quiet_lease_releases() -> None:
    """A worker shut down while its judge holds semaphore leases (a stopped run closes the
    cluster under its tasks) cannot hand them back: Dask logs an ERROR and a traceback for
    each ("Release failed ... ConnectionPool is closed"), 30-132 lines a stop. The scheduler
    takes the leases back when they time out, so nothing is lost: only critical lines stay."""
    logging.getLogger("distributed.semaphore").setLevel(logging.CRITICAL)


def quiet_judge_refusals() -> None:
    """A worker's judge refused by the endpoint (a wrong API key: HTTP 401, 403, 404) printed
    the refusal itself, once a partition, through logging's last resort (no time, no
    scrubbing). The refusal travels back with the partition's shard, and the flow process
    prints it once, as the local engine does (flows/engines/dask_run.py)."""
    logging.getLogger("flows.judges.endpoint.transport").setLevel(logging.CRITICAL)


def quiet_cleartext_warnings() -> None:
    """A worker's judge warned of a key sent over plain http (flows/judges/endpoint/
    cleartext.py), its line forwarded to the terminal once a worker; the flow process's judge,
    built before any task, warns once for the run."""
    from flows.judges.endpoint.cleartext import leave_to_the_flow_process

    leave_to_the_flow_process()


class WorkerEnvironment(WorkerPlugin):
    """Sets `env` in the worker process before any task runs there, and loads the task's
    modules."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = dict(env)

    def setup(self, worker: Any) -> None:
        os.environ.update(self.env)
        quiet_lease_releases()
        quiet_judge_refusals()
        quiet_cleartext_warnings()
        # The task's modules (polars, pandera, duckdb, the metric) load now, while the
        # cluster starts, not inside the first partition's task.
        import flows.engines.partition_task  # noqa: F401
