"""`faith`: argparse, printing and exit codes over the Python API; nothing imports this room."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `faith` console script and of `python -m flows`. The stop handlers
    come first: a Ctrl-C or SIGTERM while the heavy libraries load (up to ~3 s) is one line
    and exit 130 or 143, never a traceback from inside an import: it is held until the
    imports end (a stop raised inside DuckDB's initialisation aborted the process)."""
    from flows.run.stop_signals import (
        exit_code_of,
        install_stop_handlers,
        note_further_stops,
        signal_name,
        stops_held,
    )

    install_stop_handlers()
    try:
        from flows.allocator import keep_freed_pages

        # Before anything imports polars: its allocator reads the setting once, when it loads.
        keep_freed_pages()
        if argv is None:  # the process is the command: nothing else of it uses pandas
            from flows.cli.lean_start import hide_pandas_from_pandera
            from flows.printable import lossy_where_unencodable

            hide_pandas_from_pandera()
            lossy_where_unencodable(sys.stdout)
        with stops_held():  # a stop inside a native library's start-up aborted the process
            from flows.cli.commands import main as run_command
        code = run_command(argv)
    except KeyboardInterrupt as stop:
        sys.stderr.write(f"interrupted ({signal_name(stop)})\n")
        code = exit_code_of(stop)
    if argv is None:  # the process is the command: what is left is the interpreter's exit
        # (Prefect's and Dask's atexit hooks); a signal now is noted, not raised in a hook.
        note_further_stops()
        exit_now(code)
    return code


def exit_now(code: int) -> None:
    """End the process once the command is done, right after its exit hooks
    (stop_signals.exit_after_hooks): a stop stays within its 5 s."""
    from flows.run.stop_signals import exit_after_hooks

    exit_after_hooks(code)
