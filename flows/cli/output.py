"""What the commands print: faithpipe's log lines on stderr, frames as terminal tables."""

from __future__ import annotations

import logging
import sys
from typing import Any

from rich.console import Console

from flows.run.progress_bar import stderr

__all__ = ["configure_logging", "print_frame", "stderr"]


def configure_logging(verbose: bool = False) -> None:
    """faithpipe's own log lines on stderr, one line each; libraries stay at warnings."""
    logger = logging.getLogger("faithpipe")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
        logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False


def print_frame(frame: Any, title: str) -> None:
    """A polars frame as a terminal table on stdout."""
    from rich.table import Table

    table = Table(title=title)
    for column in frame.columns:
        table.add_column(column, no_wrap=True)
    for row in frame.iter_rows():
        table.add_row(*("" if value is None else str(value) for value in row))
    out = Console()
    # Piped output has no width of its own: keep rows whole for grep and logs.
    (out if out.is_terminal else Console(width=240)).print(table)
