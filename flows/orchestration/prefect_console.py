"""Prefect's own lines of a flow or task run kept off the CLI's stderr unless `-v`.

A failed flow run's engine logs the exception with its traceback ("Encountered exception
during execution", "Finished in state Failed(...)") on Prefect's console handler: ~28 lines
on stderr where faithpipe promises one, `error: ...` (docs/exit-codes.md). The filter sits on
that handler alone, so the Prefect API still gets every line (the UI shows them) and the
lines faithpipe logs through the run logger (progress, judge check) pass as they were.

`flows.cli.output` makes the choice for every command (this module imports no Prefect);
`score_flow.show_console_progress`, which every CLI route calls before its flow, attaches the
filter. Runs that `faith serve` or a worker starts are other processes: untouched.
"""

from __future__ import annotations

import logging
from importlib.util import find_spec

# Where Prefect logs a run's start, end, failure and crash, and its exit-time queue drain
# ("EventsWorker - Still processing items"), which followed the error line of a short run.
ENGINE_MODULES = (
    "prefect.flow_engine",
    "prefect.task_engine",
    "prefect._internal.concurrency.services",
)

_choice = {"shown": True}  # Prefect's default; the CLI hides them unless -v


def show_engine_lines(shown: bool) -> None:
    """Whether Prefect's engine lines reach the console (the CLI: only with -v). Served and
    deployed runs never call this: their console is their only local log."""
    _choice["shown"] = shown


class EngineLines(logging.Filter):
    """Drops the lines Prefect's engines log, while `show_engine_lines(False)` holds."""

    def __init__(self, files: frozenset[str]) -> None:
        super().__init__()
        self._files = files

    def filter(self, record: logging.LogRecord) -> bool:
        return _choice["shown"] or record.pathname not in self._files


class PrintedAlready(logging.Filter):
    """Drops the lines of faithpipe's `flows.*` modules when the CLI's own handler on `flows`
    prints them (flows/cli/output.py): they also propagate to the root, whose Prefect console
    handler printed each a second time on the Prefect route."""

    def filter(self, record: logging.LogRecord) -> bool:
        ours = record.name == "flows" or record.name.startswith("flows.")
        return not (ours and logging.getLogger("flows").handlers)


# Prefect's own logger, whose lines are its prose (its temporary server's start: "… on URL\nSee
# https://… for more information …"), never a logged value: a flow run's lines are
# `prefect.flow_runs`'.
PREFECTS_OWN = "prefect"


class SafeLines(logging.Formatter):
    """Prefect's console format, each line scrubbed of secrets and its control characters
    shown, as faithpipe's own lines are: Prefect's lines quote PREFECT_API_URL whole (`View at
    http://user:password@host/runs/…`, a refused events websocket), and a flow run's line
    quotes a source path, whose ESC sequences the terminal obeyed."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self._inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        from flows.printable import printable
        from flows.scrub import scrub

        saved = record.msg, record.args
        message = record.getMessage()
        if record.name == PREFECTS_OWN:  # its prose, on one line: a space where it breaks
            message = " ".join(message.splitlines())
        record.msg, record.args = printable(scrub(message)), None
        try:
            text = self._inner.format(record)
        finally:
            record.msg, record.args = saved
        return "\n".join(printable(scrub(line)) for line in text.split("\n"))


def filter_prefect_console() -> None:
    """Put the filter and the safe format on Prefect's console handler (the root logger's,
    from Prefect's logging config, set up when prefect is imported); once, however often it
    is called."""
    from prefect.logging.handlers import PrefectConsoleHandler

    for handler in logging.getLogger().handlers:
        if isinstance(handler, PrefectConsoleHandler) and not any(
            isinstance(each, EngineLines) for each in handler.filters
        ):
            handler.addFilter(EngineLines(engine_files()))
            handler.addFilter(PrintedAlready())
            handler.setFormatter(SafeLines(handler.formatter))


def engine_files() -> frozenset[str]:
    """The source files of ENGINE_MODULES, as a log record names its origin (`pathname`)."""
    specs = (find_spec(name) for name in ENGINE_MODULES)
    return frozenset(spec.origin for spec in specs if spec is not None and spec.origin)
