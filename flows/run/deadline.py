"""`--run-timeout`: past the deadline the run stops as on SIGTERM (committed batches kept,
the run row `interrupted`), and the process exits 14. Armed with SIGALRM on the main thread,
so it reaches the run wherever it waits, as the stop signals do (stop_signals.py)."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from faith_udfs.errors import ConfigError
from flows.clock import remaining, set_deadline
from flows.run.stop_signals import RunDeadline, deadline_handler

__all__ = ["NIGHTLY_RUN_TIMEOUT", "RunDeadline", "run_deadline"]

log = logging.getLogger("faithpipe")

# `faith nightly` stops after 6 h unless told otherwise: a night started at 02:00 ends
# before the working day, whatever the endpoint does.
NIGHTLY_RUN_TIMEOUT = 6 * 3600.0
# The longest deadline the timer can hold (setitimer overflows past ~1e9 s): 30 days.
MAX_RUN_TIMEOUT = 30 * 24 * 3600


@contextmanager
def run_deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, the run stops `seconds` after it began (RunDeadline, exit 14);
    None or 0: no deadline; nor when one is already armed (`faith nightly`'s around the
    flow that arms its own): the first governs. Off the main thread only the judge's waits
    are bounded (no signal reaches another thread): the deadline is said in a warning. A
    value outside 0..MAX_RUN_TIMEOUT (a flow's parameter, unchecked by the CLI) is refused."""
    if seconds is not None and not 0 <= seconds <= MAX_RUN_TIMEOUT:
        raise ConfigError(
            f"run_timeout must be a number of seconds from 0 (none) to {MAX_RUN_TIMEOUT:,} "
            f"(30 days), got {seconds}"
        )
    if not seconds or remaining() is not None:
        yield
        return
    set_deadline(seconds)
    if threading.current_thread() is not threading.main_thread():
        log.warning("--run-timeout bounds only the judge's waits off the main thread")
        try:
            yield
        finally:
            set_deadline(None)
        return
    previous = signal.signal(signal.SIGALRM, deadline_handler(seconds))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        set_deadline(None)
