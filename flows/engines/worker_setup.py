"""A worker plugin (imported only with the dask extra): the flow's environment on every
worker, including those that join or are restarted after the run began."""

from __future__ import annotations

import os
from typing import Any

from distributed import WorkerPlugin


class WorkerEnvironment(WorkerPlugin):
    """Sets `env` in the worker process before any task runs there, and loads the task's
    modules."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = dict(env)

    def setup(self, worker: Any) -> None:
        os.environ.update(self.env)
        # The task's modules (polars, pandera, duckdb, the metric) load now, while the
        # cluster starts, not inside the first partition's task.
        import flows.engines.partition_task  # noqa: F401
