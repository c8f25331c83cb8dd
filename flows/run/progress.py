"""Where a run reports how far it got: the protocol, and log lines (progress_bar.py draws a
bar on a terminal)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Protocol

log = logging.getLogger("faithpipe")


def batch_counts(run: dict[str, Any], between: str) -> str:
    """The run's counts so far for a progress line; a dry run scores nothing, so its cases
    are counted as to judge (as its last line counts them), not as scored."""
    quarantined = f"quarantined {run['rows_quarantined']:,}"
    if run.get("dry_run"):
        return f"to judge {run['rows_scored'] + run['rows_invalid']:,}{between}{quarantined}"
    return (
        f"scored {run['rows_scored']:,}{between}invalid {run['rows_invalid']:,}{between}"
        + quarantined
    )


class Progress(Protocol):
    """Where a run reports how far it got (a progress bar, log lines)."""

    def start(self, total: int, description: str) -> None: ...

    def advance(self, rows: int, run: dict[str, Any]) -> None: ...

    def stop(self) -> None: ...


# A batch judged by an LLM takes minutes to hours (150,000 cases): with one line a batch, a
# night was silent that long. A line this often says the run is still at work.
HEARTBEAT_SECONDS = 20.0


class LogProgress:
    """Progress as one log line a batch: rows done, rows/s, counts so far; and, while a batch
    takes longer than `heartbeat` seconds, a line that often saying the run is at work."""

    def __init__(
        self,
        logger: logging.Logger | logging.LoggerAdapter = log,
        heartbeat: float = HEARTBEAT_SECONDS,
    ) -> None:
        self._say = logger.info
        self._total = 0
        self._done = 0
        self._batches = 0
        self._started = self._said = self._batch_began = time.perf_counter()
        self._heartbeat = heartbeat
        self._stopped = threading.Event()
        self._ticker: threading.Thread | None = None

    def start(self, total: int, description: str) -> None:
        self._total, self._done, self._batches = total, 0, 0
        self._started = self._said = self._batch_began = time.perf_counter()
        self._say(f"{description}: {total:,} rows to read")
        self._stopped.clear()
        self._ticker = threading.Thread(target=self._tick, name="faith-progress", daemon=True)
        self._ticker.start()

    def advance(self, rows: int, run: dict[str, Any]) -> None:
        self._done += rows
        self._batches = run["batches"]
        self._said = self._batch_began = time.perf_counter()
        rate = self._done / max(self._said - self._started, 1e-9)
        self._say(
            f"batch {run['batches']}: {self._done:,}/{self._total:,} rows ({rate:,.0f} rows/s); "
            + batch_counts(run, ", ")
        )

    def stop(self) -> None:
        self._stopped.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            # it wakes at once; a line it is writing (a blocked log handler) is not waited for
            self._ticker.join(timeout=self._heartbeat)
        self._ticker = None

    def _tick(self) -> None:
        while not self._stopped.wait(self._heartbeat / 4):
            now = time.perf_counter()
            if now - self._said >= self._heartbeat:
                self._said = now
                self._say(
                    f"batch {self._batches + 1}: still at work, {now - self._batch_began:.0f} s "
                    f"into it ({self._done:,}/{self._total:,} rows done)"
                )
