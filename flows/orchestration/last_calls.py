"""A deadline on a flow run's last calls to the Prefect server, once its work is committed.

The start-up health check (prefect_server.py) covers the start only. A server killed or paused
mid-run left the run whole in DuckDB, but Prefect's last calls (the artifacts, the flow run's
final state, its queued events) then waited on it: exit 1 after ~3 minutes of Prefect's own
error lines when it was killed, past 7 minutes when it was paused (`kill -STOP`), each request
tried 5 times at PREFECT_API_REQUEST_TIMEOUT. The CLI arms the deadline, never a library
caller: once the flow call returns, only the exit hooks are held to it (a test process that
runs flows lives on). Past it the process ends, exit 2, one line.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from typing import Any

from flows.orchestration.prefect_server import without_credentials

# As a Prefect server that does not answer at the start (prefect_server.py): a setting to fix.
EXIT_SERVER_GONE = 2
# Set by the CLI: the deadline in seconds, the server's URL (without credentials), and the
# timer running once the work is committed.
_ARMED: dict[str, Any] = {}


def arm_last_calls_deadline() -> None:
    """In the CLI's process, with a Prefect server configured: once the work is committed,
    Prefect's last calls get twice PREFECT_API_REQUEST_TIMEOUT (120 s by default), then the
    process ends with exit 2 and one line; so do its exit hooks (they send Prefect's queued
    events, and waited on a dead server too)."""
    from prefect.settings import get_current_settings

    api = get_current_settings().api
    if not api.url:  # a temporary server is this process's own child
        return
    if not _ARMED:
        atexit.register(_at_exit)  # after Prefect's own hooks, so it runs before them
    _ARMED.update(seconds=2 * float(api.request_timeout), url=without_credentials(str(api.url)))


def work_committed(run: dict[str, Any]) -> None:
    """The flow's work is in the database: only Prefect's calls are left, and, if the CLI
    armed it, their deadline starts."""
    if _ARMED:
        _ARMED["run_id"] = str(run.get("run_id") or "the run")
        _ARMED["timer"] = _started_timer()


def flow_returned() -> None:
    """The flow call came back to the CLI (its final state is set): no deadline until exit."""
    timer = _ARMED.pop("timer", None)
    if timer is not None:
        timer.cancel()


def _at_exit() -> None:
    if _ARMED.get("run_id"):
        _started_timer()


def _started_timer() -> threading.Timer:
    """A daemon timer: a process that ends first (every healthy run: its last calls take well
    under a second) is not held by it."""
    timer = threading.Timer(_ARMED["seconds"], _give_up)
    timer.name, timer.daemon = "faithpipe-prefect-last-calls", True
    timer.start()
    return timer


def _give_up() -> None:
    line = (
        f"error: {_ARMED['run_id']} is committed whole in the database, but the Prefect server "
        f"at {_ARMED['url']} did not take the flow run's last calls (artifacts, final state, "
        f"events) within {_ARMED['seconds']:g} s (twice PREFECT_API_REQUEST_TIMEOUT): check "
        "the server; `faith runs` shows what was kept"
    )
    with contextlib.suppress(OSError, ValueError):  # what the command printed (its run line)
        sys.stdout.flush()
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    os._exit(EXIT_SERVER_GONE)  # Prefect's threads would hold a normal exit
