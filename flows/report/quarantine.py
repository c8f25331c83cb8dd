"""The report's quarantine section: rows quarantined by check and by day, so a source whose rows
stopped fitting the contract shows where pass rates alone would look fine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text

from flows.printable import printable
from flows.report.markup import table_html
from flows.report.terminal import print_fitted
from flows.store.db import sql

if TYPE_CHECKING:
    from datetime import date

    import duckdb
    from rich.console import Console

# Rows of the by-day table at most: (day, check) pairs, the latest days first.
QUARANTINE_ROWS_SHOWN = 30
NO_QUARANTINE = "No row was quarantined in this window."
_BY_CHECK = ("check", "rows", "days", "first day", "last day")


def quarantine_by_day(
    con: duckdb.DuckDBPyConnection, since: date | None = None, until: date | None = None
) -> list[tuple[date, str, int]]:
    """(day first quarantined, check, rows), the latest days first."""
    params = {"since": since, "until": until, "limit": QUARANTINE_ROWS_SHOWN}
    return con.execute(sql("report_quarantine_by_day"), params).fetchall()


def quarantine_by_check(
    con: duckdb.DuckDBPyConnection, since: date | None = None, until: date | None = None
) -> list[tuple[str, int, int, date, date]]:
    """(check, rows, days, first day, last day), the most frequent check first."""
    return con.execute(
        sql("report_quarantine_by_check"), {"since": since, "until": until}
    ).fetchall()


def quarantine_total(
    con: duckdb.DuckDBPyConnection, since: date | None = None, until: date | None = None
) -> tuple[int, int]:
    """(input rows quarantined, each once; (day, check) pairs)."""
    rows, pairs = con.execute(
        sql("report_quarantine_total"), {"since": since, "until": until}
    ).fetchall()[0]
    return int(rows), int(pairs)


def _check_cells(found: tuple[str, int, int, date, date]) -> list[str]:
    check, rows, days, first, last = found
    return [printable(check), f"{rows:,}", f"{days:,}", f"{first:%Y-%m-%d}", f"{last:%Y-%m-%d}"]


def print_quarantine(
    con: duckdb.DuckDBPyConnection,
    console: Console,
    since: date | None = None,
    until: date | None = None,
) -> None:
    """The quarantine by check, then by day and check, when anything was quarantined."""
    checks = quarantine_by_check(con, since, until)
    if not checks:
        return
    rows, _pairs = quarantine_total(con, since, until)
    by_check = Table(
        title=Text(f"Quarantined rows by check ({rows:,} rows in all)"), box=box.SIMPLE_HEAD
    )
    # without the HTML's count of days, so that a long check name still fits 80 columns
    for name in (*_BY_CHECK[:2], *_BY_CHECK[3:]):
        by_check.add_column(name, justify="left" if name == "check" else "right", no_wrap=True)
    for found in checks:
        cells = _check_cells(found)
        by_check.add_row(*(Text(cell) for cell in (*cells[:2], *cells[3:])))
    print_fitted(console, by_check)  # at 80 columns: the days in a second part
    table = Table(title=Text("Quarantined rows by day and check"), box=box.SIMPLE_HEAD)
    table.add_column("day", no_wrap=True)
    table.add_column("check")
    table.add_column("rows", justify="right", no_wrap=True)
    for day, check, count in quarantine_by_day(con, since, until):
        table.add_row(Text(f"{day:%Y-%m-%d}"), Text(printable(check)), Text(f"{count:,}"))
    console.print(table)


def quarantine_html(
    con: duckdb.DuckDBPyConnection, since: date | None = None, until: date | None = None
) -> str:
    """The section: total, a table by check and one by day and check; one line when empty."""
    checks = quarantine_by_check(con, since, until)
    if not checks:
        return f"<h2>Quarantine</h2><p class=quarantine-none>{NO_QUARANTINE}</p>"
    rows, pairs = quarantine_total(con, since, until)
    by_day = [
        [f"{day:%Y-%m-%d}", printable(check), f"{count:,}"]
        for day, check, count in quarantine_by_day(con, since, until)
    ]
    more = (
        f"<p class=meta>The latest {len(by_day)} of {pairs:,} (day, check) pairs.</p>"
        if pairs > len(by_day)
        else ""
    )
    return (
        "<h2>Quarantine</h2>"
        f"<p class=flag>{rows:,} input rows quarantined in this window, failing "
        f"{len(checks):,} check(s); a row failing two checks counts under both "
        "(see the table quarantine).</p>"
        "<div class=quarantine-by-check>"
        + table_html(
            _BY_CHECK,
            [_check_cells(found) for found in checks],
            "Quarantined rows by check",
            shown_caption=True,
        )
        + "</div><div class=quarantine-by-day>"
        + table_html(
            ("day", "check", "rows"),
            by_day,
            "Quarantined rows by day and check",
            shown_caption=True,
        )
        + more
        + "</div>"
    )
