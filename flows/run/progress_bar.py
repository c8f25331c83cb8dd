"""A run's progress: a bar with rows/s on a terminal, log lines elsewhere."""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from flows.run.progress import LogProgress, batch_counts

stderr = Console(stderr=True)


class BarProgress:
    """A rich progress bar on stderr: rows read, rows/s, counts, time left."""

    def __init__(self) -> None:
        self._bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(bar_width=20),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]:>10} rows/s"),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=stderr,
            transient=False,
        )
        self._task: Any = None

    def start(self, total: int, description: str) -> None:
        self._bar.start()
        self._task = self._bar.add_task("scoring", total=total, rate="", counts="")

    def advance(self, rows: int, run: dict[str, Any]) -> None:
        elapsed = self._bar.tasks[0].elapsed or 1e-9
        done = self._bar.tasks[0].completed + rows
        counts = batch_counts(run, " ")
        self._bar.update(self._task, advance=rows, rate=f"{done / elapsed:,.0f}", counts=counts)

    def stop(self) -> None:
        self._bar.stop()


def console_progress() -> BarProgress | LogProgress:
    """A bar when a person watches stderr, plain log lines when a log file does."""
    return BarProgress() if sys.stderr.isatty() else LogProgress()
