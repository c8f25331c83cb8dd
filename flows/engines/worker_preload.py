"""Loaded by each local Dask worker process as it starts (a Dask preload module): the worker
ignores SIGINT, which a Ctrl-C at the terminal sends to the whole process group; the run's
own stop, in the flow process, closes the workers. Its lease-release errors are quieted
(flows/engines/worker_setup.py) before any task can hold a lease."""

from __future__ import annotations

import signal
import threading
from typing import Any

from flows.engines.worker_setup import quiet_lease_releases


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in the worker process before it takes tasks."""
    quiet_lease_releases()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
