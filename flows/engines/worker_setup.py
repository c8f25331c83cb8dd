"""A worker plugin (imported only with the dask extra): the flow's environment on every
worker, including those that join or are restarted after the run began."""

from __future__ import annotations

import os
from typing import Any

from distributed import WorkerPlugin


class WorkerEnvironment(WorkerPlugin):
    """Sets `env` in the worker process before any task runs there."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = dict(env)

    def setup(self, worker: Any) -> None:
        os.environ.update(self.env)
