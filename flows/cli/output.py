"""What the commands print: faithpipe's log lines on stderr, frames as terminal tables."""

from __future__ import annotations

import logging
import sys
from typing import Any

from rich.console import Console

from flows.printable import printable
from flows.run.progress_bar import stderr
from flows.scrub import ScrubbingFilter

__all__ = ["configure_logging", "print_frame", "stderr"]


def configure_logging(verbose: bool = False) -> None:
    """faithpipe's own log lines on stderr, one line each: the run's (`faithpipe`) and every
    module's (`flows.*`, e.g. the judge's format negotiation); libraries stay at warnings."""
    for name in ("faithpipe", "flows"):
        logger = logging.getLogger(name)
        if not logger.handlers:
            handler = _StderrHandler()
            handler.addFilter(ScrubbingFilter())  # server text that slipped into a line
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
            logger.addHandler(handler)
        logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    # `flows.*` lines still reach handlers on the root (pytest's caplog); faithpipe's did not.
    logging.getLogger("faithpipe").propagate = False


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever `sys.stderr` is when a line is logged: a stream captured (and
    closed) since the handler was made would fail, and the logging module would print the
    failure with the exception being handled, server text and all."""

    def format(self, record: logging.LogRecord) -> str:
        """The line, its control characters shown (paths, server text, segment values)."""
        return printable(super().format(record))

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        """The stream is always the current stderr."""


def print_frame(frame: Any, title: str) -> None:
    """A polars frame as a terminal table on stdout."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(printable(title)))
    for column in frame.columns:
        table.add_column(Text(printable(column)), no_wrap=True)
    for row in frame.iter_rows():
        # Text, not markup: a value's brackets are shown as they are, its controls escaped.
        table.add_row(*(Text("" if value is None else printable(value)) for value in row))
    out = Console()
    # Piped output has no width of its own: keep rows whole for grep and logs.
    (out if out.is_terminal else Console(width=240)).print(table)
