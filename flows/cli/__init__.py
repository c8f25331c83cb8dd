"""`faith`: argparse, printing and exit codes over the Python API; nothing imports this room."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `faith` console script and of `python -m flows`."""
    from flows.allocator import keep_freed_pages

    # Before anything imports polars: its allocator reads the setting once, when it loads.
    keep_freed_pages()
    from flows.cli.commands import main as run_command

    return run_command(argv)
