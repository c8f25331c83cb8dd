"""Prefect's SIGTERM handler, made to wait while polars' code is on the stack.

Inside a flow run Prefect replaces the process's SIGTERM handler with its own, which raises
`TerminationSignal` wherever the main thread is. Raised in Python code that polars' Rust
called, that was a Rust panic (`PanicException: called Result::unwrap() on an Err value:
PyErr { type: <class 'prefect.exceptions.TerminationSignal'> ...`), a page of backtrace and
exit 1 instead of exit 143 (seen in the Prefect stop trial on a fast machine). faithpipe's
own handlers already wait there (flows/run/stop_signals.py); this gives Prefect's the same.

The handler is replaced where Prefect looks it up (a module global its `capture_sigterm`
installs and its runner-cancel checks compare by identity), so both see the one function.
"""

from __future__ import annotations

from prefect.utilities import engine as prefect_engine

from flows.run.stop_signals import deferred_inside_polars


def defer_prefect_sigterm_inside_polars() -> bool:
    """Wrap Prefect's SIGTERM handler once; returns whether it is wrapped (False: this
    Prefect has no such handler, and nothing was changed)."""
    handler = getattr(prefect_engine, "_prefect_sigterm_handler", None)
    if handler is None:
        return False
    if not hasattr(handler, "__wrapped__"):
        prefect_engine._prefect_sigterm_handler = deferred_inside_polars(handler)
    return True
