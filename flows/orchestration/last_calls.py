"""A deadline on a flow run's last calls to the Prefect server, once its work is committed.

The start-up health check (prefect_server.py) covers the start only. A server killed or paused
mid-run left the run whole in DuckDB, but Prefect's last calls (the artifacts, the flow run's
final state, its queued events) then waited on it: exit 1 after ~3 minutes of Prefect's own
error lines when it was killed, past 7 minutes when it was paused (`kill -STOP`), each request
tried 5 times at PREFECT_API_REQUEST_TIMEOUT. The CLI arms the deadline, never a library
caller (a flow called in-process, as the tests do): past it the process ends, exit 2, one line.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Any

from flows.orchestration.prefect_server import without_credentials

# As a Prefect server that does not answer at the start (prefect_server.py): a setting to fix.
EXIT_SERVER_GONE = 2
# Set as a flow run's work is committed (its summary is about to be published).
_WORK_DONE = threading.Event()
_RUN: dict[str, str] = {}


def work_committed(run: dict[str, Any]) -> None:
    """The flow's work is in the database: from now on only Prefect's calls are left."""
    _RUN["run_id"] = str(run.get("run_id", ""))
    _WORK_DONE.set()


def arm_last_calls_deadline() -> None:
    """In the CLI's process, with a Prefect server configured: once the work is committed,
    give Prefect's last calls twice PREFECT_API_REQUEST_TIMEOUT (120 s by default), then end
    the process with exit 2 and one line. A daemon thread: a process that ends first (every
    healthy run: its last calls take well under a second) is not held by it."""
    from prefect.settings import get_current_settings

    api = get_current_settings().api
    if not api.url:  # a temporary server is this process's own child
        return
    seconds = 2 * float(api.request_timeout)
    url = without_credentials(str(api.url))
    watcher = threading.Thread(
        target=_watch, args=(seconds, url), name="faithpipe-prefect-last-calls", daemon=True
    )
    watcher.start()


def _watch(seconds: float, url: str) -> None:
    _WORK_DONE.wait()
    # Not disarmed when the command returns: Prefect's exit hooks send its queued events, and
    # they waited on a dead server too.
    threading.Event().wait(seconds)
    run = _RUN.get("run_id") or "the run"
    line = (
        f"error: {run} is committed whole in the database, but the Prefect server at {url} did "
        f"not take the flow run's last calls (artifacts, final state) within {seconds:g} s "
        "(twice PREFECT_API_REQUEST_TIMEOUT): check the server; `faith runs` shows what was kept"
    )
    with contextlib.suppress(Exception):  # what the command printed already (its run line)
        sys.stdout.flush()
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    os._exit(EXIT_SERVER_GONE)  # Prefect's threads would hold a normal exit
