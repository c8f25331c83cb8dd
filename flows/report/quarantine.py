"""The report's quarantine table: rows quarantined by day and check, so a source whose rows
stopped fitting the contract shows where pass rates alone would look fine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text

from flows.printable import printable
from flows.store.db import sql

if TYPE_CHECKING:
    from datetime import date

    import duckdb
    from rich.console import Console

# Rows of the table at most: (day, check) pairs, the latest days first.
QUARANTINE_ROWS_SHOWN = 30


def quarantine_by_day(
    con: duckdb.DuckDBPyConnection, since: date | None = None, until: date | None = None
) -> list[tuple[date, str, int]]:
    """(day first quarantined, check, rows), the latest days first."""
    params = {"since": since, "until": until, "limit": QUARANTINE_ROWS_SHOWN}
    return con.execute(sql("report_quarantine_by_day"), params).fetchall()


def print_quarantine(
    con: duckdb.DuckDBPyConnection,
    console: Console,
    since: date | None = None,
    until: date | None = None,
) -> None:
    """The quarantine table, when anything was quarantined in the window."""
    found = quarantine_by_day(con, since, until)
    if not found:
        return
    table = Table(title=Text("Quarantined rows by day and check"), box=box.SIMPLE_HEAD)
    table.add_column("day", no_wrap=True)
    table.add_column("check")
    table.add_column("rows", justify="right", no_wrap=True)
    for day, check, rows in found:
        table.add_row(Text(f"{day:%Y-%m-%d}"), Text(printable(check)), Text(f"{rows:,}"))
    console.print(table)
