"""What the commands print: faithpipe's log lines on stderr, frames as terminal tables."""

from __future__ import annotations

import logging
import sys
from typing import Any

from rich.console import Console

from flows.orchestration.prefect_console import show_engine_lines
from flows.printable import printable
from flows.run.progress_bar import stderr
from flows.scrub import ScrubbingFilter, scrub

__all__ = [
    "StdoutConsole",
    "configure_logging",
    "print_frame",
    "print_traceback",
    "stderr",
]


class StdoutConsole(Console):
    """rich's Console on stdout, whose reader may go away (`faith report | head`): rich ends
    the process then with SystemExit(1), the code of a bug, with no line; this raises
    BrokenPipeError instead, which the CLI ends with the shell's 141 (flows/cli/commands.py)."""

    def on_broken_pipe(self) -> None:
        """What rich does (stdout pointed at /dev/null), then raise."""
        stdout_to_devnull()
        raise BrokenPipeError("stdout's reader is gone")


def stdout_to_devnull() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of what is still buffered
    does not fail on the closed pipe ('Exception ignored ... BrokenPipeError', exit 120)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no file (a test's capture): nothing to flush
        pass
    finally:
        os.close(devnull)


def configure_logging(verbose: bool = False) -> None:
    """faithpipe's own log lines on stderr, one line each: the run's (`faithpipe`) and every
    module's (`flows.*`, e.g. the judge's format negotiation); libraries stay at warnings,
    and Prefect's engine lines (a failed run's traceback among them) show only with -v."""
    show_engine_lines(verbose)
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
        """The line, its control characters and line breaks shown (paths, server text,
        segment values): one line, whatever the message carries."""
        return printable(super().format(record))

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        """The stream is always the current stderr."""


def print_traceback() -> None:
    """The exception being handled as rich's traceback on stderr (-v), its messages scrubbed
    and their control characters shown: a message may quote a URL with its credentials (a
    Prefect server's 401 names PREFECT_API_URL whole) or a segment value's ESC sequences."""
    from rich.traceback import Traceback

    exc_type, exc_value, traceback = sys.exc_info()
    if exc_type is None or exc_value is None:
        return
    trace = Traceback.extract(exc_type, exc_value, traceback)
    stacks = list(trace.stacks)
    while stacks:
        stack = stacks.pop()
        stack.exc_value = _shown_message(stack.exc_value)
        stack.notes = [_shown_message(note) for note in stack.notes]
        stacks += [stack for group in stack.exceptions for stack in group.stacks]
    stderr.print(Traceback(trace))


def _shown_message(text: str) -> str:
    """An exception's message scrubbed, each line's control characters shown as escapes."""
    return "\n".join(printable(line) for line in scrub(text).split("\n"))


def print_frame(frame: Any, title: str, *, null: str = "") -> None:
    """A polars frame on stdout: a table when it fits the terminal, else one block a row, so no
    column is shrunk to nothing and no date cut; plain aligned text when piped (grep, logs).
    Every value goes through `printable`: its control characters are shown, never obeyed. A
    null is `null` (blank; `faith sql` shows `NULL`, apart from an empty text)."""
    rows = [
        [null if value is None else printable(value) for value in row] for row in frame.iter_rows()
    ]
    columns = [printable(column) for column in frame.columns]
    title = printable(title)
    out = StdoutConsole()
    if not out.is_terminal:
        print(plain_table(columns, rows, title))
        return
    widths = [
        max([len(column)] + [len(row[i]) for row in rows]) for i, column in enumerate(columns)
    ]
    if sum(widths) + 3 * len(widths) + 1 <= out.width:
        from rich.table import Table
        from rich.text import Text

        table = Table(title=Text(title))
        for column in columns:
            table.add_column(Text(column), no_wrap=True)
        for row in rows:
            # Text, not markup: a value's brackets are shown as they are.
            table.add_row(*(Text(value) for value in row))
        out.print(table)
        return
    out.print(title, markup=False, highlight=False)
    out.print(plain_records(columns, rows), markup=False, highlight=False, soft_wrap=True)


def plain_table(columns: list[str], rows: list[list[str]], title: str) -> str:
    """Columns aligned by spaces, values whole: what a pipe gets."""
    widths = [max([len(c)] + [len(row[i]) for row in rows]) for i, c in enumerate(columns)]
    lines = [title, "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    for row in rows:
        lines.append("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines)


def plain_records(columns: list[str], rows: list[list[str]]) -> str:
    """One block a row, `name  value` a line: a wide table read in a narrow terminal."""
    width = max(len(c) for c in columns)
    blocks = []
    for row in rows:
        blocks.append(
            "\n".join(f"{c.rjust(width)}  {v}" for c, v in zip(columns, row, strict=True))
        )
    return "\n\n".join(blocks)
