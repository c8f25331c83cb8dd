"""Where a run reports how far it got: the protocol, and log lines (progress_bar.py draws a
bar on a terminal)."""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

log = logging.getLogger("faithpipe")


class Progress(Protocol):
    """Where a run reports how far it got (a progress bar, log lines)."""

    def start(self, total: int, description: str) -> None: ...

    def advance(self, rows: int, run: dict[str, Any]) -> None: ...

    def stop(self) -> None: ...


class LogProgress:
    """Progress as one log line a batch: rows done, rows/s, counts so far."""

    def __init__(self, logger: logging.Logger | logging.LoggerAdapter = log) -> None:
        self._say = logger.info
        self._total = 0
        self._done = 0
        self._started = time.perf_counter()

    def start(self, total: int, description: str) -> None:
        self._total, self._done, self._started = total, 0, time.perf_counter()
        self._say(f"{description}: {total:,} rows to read")

    def advance(self, rows: int, run: dict[str, Any]) -> None:
        self._done += rows
        rate = self._done / max(time.perf_counter() - self._started, 1e-9)
        self._say(
            f"batch {run['batches']}: {self._done:,}/{self._total:,} rows ({rate:,.0f} rows/s); "
            f"scored {run['rows_scored']:,}, invalid {run['rows_invalid']:,}, "
            f"quarantined {run['rows_quarantined']:,}"
        )

    def stop(self) -> None:
        return None
