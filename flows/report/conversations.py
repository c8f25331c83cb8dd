"""The report's conversations section: the worst conversations, each with its first failing
turn shown in context (the question, the answer, the claims not supported)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import polars as pl
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from flows.printable import printable
from flows.report.labels import name_of
from flows.report.markup import isolated, logged, shown, table_head
from flows.report.queries import ReportOptions
from flows.store.db import sql

if TYPE_CHECKING:
    import duckdb

WORST_CONVERSATIONS = 5
_HEADERS = ("conversation", "turns scored", "mean", "min", "passing", "first failing turn")


def worst_conversations(
    con: duckdb.DuckDBPyConnection,
    options: ReportOptions | None = None,
    limit: int = WORST_CONVERSATIONS,
) -> pl.DataFrame:
    """Up to `limit` conversations with a failing turn, worst first, over the report's window
    and settings (its turns logged within --since/--until, success recomputed as the other
    sections do); empty when the database holds no conversation."""
    if not con.execute(sql("report_has_conversations")).fetchall()[0][0]:
        return pl.DataFrame()
    params = {**(options or ReportOptions()).settings(), "limit": limit}
    return con.sql(sql("report_worst_conversations"), params=params).pl()


def _failing_turn(row: dict) -> str:
    """The first failing turn's number; a cases table's conversation (a `conversation_id`
    segment, no `turn`) names the case instead (it printed `None`)."""
    if row["first_failing_turn"] is None:
        return f"case {row['first_failing_case_id']}"
    return str(row["first_failing_turn"])


def _cells(row: dict, names: dict[str, str] | None = None) -> list[str]:
    """A conversation's cells; its config by id, or by its report name when `names` are given."""
    config = row["config_id"] if names is None else name_of(names, row["config_id"])
    return [
        f"{row['conversation_id']} ({config})",
        f"{row['turns_scored']:,} of {row['turns']:,}",
        f"{row['mean_score']:.2f}",
        f"{row['min_score']:.2f}",
        f"{row['share_passing']:.0%}",
        _failing_turn(row),
    ]


def print_conversations(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, console: Console
) -> None:
    """The worst conversations of the window as a table, then each first failing turn in
    context."""
    worst = worst_conversations(con, options)
    if worst.is_empty():
        return
    table = Table(title=Text("Worst conversations"), box=box.SIMPLE_HEAD)
    for name in _HEADERS:
        table.add_column(name, justify="left" if name == "conversation" else "right")
    rows = list(worst.iter_rows(named=True))
    # Every cell and line is the logs' text: its control characters and breaks are shown as
    # escapes, never obeyed (flows/printable.py), as in every other terminal section.
    for row in rows:
        table.add_row(*(Text(printable(cell)) for cell in _cells(row)))
    console.print(table)
    # Each text cut as on the page (shown): an answer pasting a whole document printed all of
    # it, 600 KB of a nightly log.
    for row in rows:
        turn = f"{shown(row['conversation_id'])}, turn {_failing_turn(row)}:"
        console.print(Text(printable(turn)))
        console.print(Text(printable(f"  user: {shown(row['input'] or '')}")))
        console.print(Text(printable(f"  assistant: {shown(row['actual_output'] or '')}")))
        for claim in row["failing_claims"] or []:
            console.print(
                Text(printable(f"    - {shown(claim['claim'] or '')} [{claim['verdict']}]"))
            )


def conversations_html(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, names: dict[str, str]
) -> str:
    """The same section as HTML ('' when the window holds no failing conversation)."""
    worst = worst_conversations(con, options)
    if worst.is_empty():
        return ""
    head = table_head((*_HEADERS, "in context"), "Worst conversations")
    body = []
    for row in worst.iter_rows(named=True):
        # logged text beside the report's words is set apart (`<bdi>`): a right-to-left
        # override in a claim or an id reorders itself only, not the verdict or config after it
        claims = "".join(
            f"<li>{isolated(c['claim'])} [{html.escape(c['verdict'])}]</li>"
            for c in row["failing_claims"] or []
        )
        context = (
            f"<p><b>user:</b> {isolated(row['input'])}</p>"
            f"<p><b>assistant:</b> {isolated(row['actual_output'])}</p><ul>{claims}</ul>"
        )
        config = f" ({name_of(names, row['config_id'])})"
        cells = f"<td>{isolated(row['conversation_id'])}{html.escape(config)}</td>" + "".join(
            f"<td>{logged(cell)}</td>" for cell in _cells(row, names)[1:]
        )
        body.append(f"<tr>{cells}<td>{context}</td></tr>")
    return "<h2>Worst conversations</h2>" + head + "<tbody>" + "".join(body) + "</tbody></table>"
