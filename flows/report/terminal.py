"""The report in the terminal: the latest periods per metric config as rich tables."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import polars as pl
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from flows.printable import printable
from flows.report.conversations import print_conversations
from flows.report.labels import config_labels
from flows.report.queries import (
    CAUSES,
    ReportOptions,
    check_options,
    latest_periods,
    pass_rates,
    pass_rates_by_segment,
    resolve_segment,
    run_costs,
)
from flows.report.segments import (
    held_values,
    left_out_note,
    no_values_note,
    segment_label,
    top_values,
)

if TYPE_CHECKING:
    import duckdb


# After the causes: what was not judged, never hidden (issue 15); `!` marks a period whose
# invalid share is above its config's --max-invalid-share.
SHARE_HEADERS = ("invalid %", "pending %")
FLAG = "!"
COST_HEADERS = (
    "run",
    "flow",
    "status",
    "cases judged",
    "calls",
    "tokens in",
    "tokens out",
    "cost USD",
    "per 1,000 cases",
)

_CAUSE_HEADERS = {
    "contradicted": "contra.",
    "unsupported": "unsupp.",
    "no_claims": "no claims",
    "invalid": "invalid",
}


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _rate(row: dict[str, Any]) -> str:
    if row["pass_rate"] is None:
        return "–"
    return f"{_pct(row['pass_rate'])} [{_pct(row['pass_rate_low'])}–{_pct(row['pass_rate_high'])}]"


def _score(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def day_text(value: datetime | None) -> str:
    return "–" if value is None else f"{value:%Y-%m-%d}"


def period_text(value: date | datetime | None) -> str:
    return "(no logged_at)" if value is None else value.isoformat()


def render_terminal(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, console: Console
) -> None:
    """Per config, its latest periods; then the window per segment value; as rich tables."""
    check_options(con, options)
    rates = latest_periods(pass_rates(con, options), options.periods)
    labels = config_labels(con)
    if options.threshold is not None or options.penalize_ambiguous is not None:
        console.print(Text(f"Recomputed from the stored verdict counts: {settings_text(options)}."))
    if rates.is_empty():
        console.print(Text("No cases in this window."))
    for (config_id,), group in rates.group_by("config_id", maintain_order=True):
        table = Table(
            title=Text(
                f"{config_id} ({labels.get(config_id, '')}): "
                f"latest {options.periods} {options.grain}(s)"
            ),
            box=box.SIMPLE_HEAD,
        )
        table.add_column("period", no_wrap=True)
        headers = ("cases", "scored", "pass rate [95% CI]", "score", *_CAUSE_HEADERS.values())
        for name in (*headers, *SHARE_HEADERS):
            table.add_column(name, justify="right", no_wrap=True)
        for row in group.iter_rows(named=True):
            table.add_row(*(Text(cell) for cell in period_cells(row)))
        print_fitted(console, table)
        flagged = group.filter(pl.col("invalid_flagged"))
        if flagged.height:
            console.print(Text(invalid_note(flagged)))
    print_costs(con, options, console)
    print_conversations(con, options, console)

    print_segments(con, options, console)


def print_segments(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, console: Console
) -> None:
    """Per config, the pass rate of its top --segment-top values of the segment column over
    the window, and a line saying how many values were left out."""
    segment = resolve_segment(con, options.segment)
    if segment is None:
        return
    by_segment = pass_rates_by_segment(con, options, segment, grain=None)
    held = held_values(by_segment)
    if held.is_empty() and not by_segment.is_empty():  # a column all null in the window
        console.print(Text(no_values_note(segment)))
    shown = printable(segment)
    for (config_id,), group in held.group_by("config_id", maintain_order=True):
        top = top_values(group, options.segment_top, options.segment_rank)
        table = Table(title=Text(f"{config_id}: pass rate by {shown}"), box=box.SIMPLE_HEAD)
        table.add_column(Text(shown))  # a name, not rich markup
        for name in ("cases", "scored", "pass rate [95% CI]", "score", "failed"):
            table.add_column(name, justify="right", no_wrap=True)
        for row in top.shown.iter_rows(named=True):
            table.add_row(
                Text(_key_cell(row["segment_value"])),
                *(Text(cell) for cell in period_cells(row)[1:5]),
                Text(f"{row['failed']:,}"),
            )
        print_fitted(console, table)
        if top.left_out:
            console.print(Text(left_out_note(segment, top, options.segment_rank)))


# Flagged periods a note names; more are counted.
NAMED_PERIODS = 5


def invalid_note(flagged: pl.DataFrame, config: str = "") -> str:
    """The line under a table with one config's flagged periods, naming them (the first few);
    `config`: its name, said first where the line stands under no title of it (the page)."""
    limit = flagged["max_invalid_share"][0]
    periods = [period_text(period) for period in flagged["period"].head(NAMED_PERIODS)]
    more = flagged.height - len(periods)
    named = ", ".join(periods) + (f" and {more:,} more" if more > 0 else "")
    return (
        f"{FLAG} {f'{config}: ' if config else ''}"
        f"{flagged.height} period(s) with an invalid share above --max-invalid-share "
        f"{limit:g} ({named}): their pass rate leaves those cases out (see case_scores.error)"
    )


def cost_cells(row: dict[str, Any]) -> list[str]:
    """One run's spend: run, flow, status, cases judged, calls, tokens, cost, per 1,000."""
    cost, per_1000 = row["cost_usd"], row["cost_per_1000"]
    return [
        row["run_id"] + (" (dry run)" if row["dry_run"] else ""),
        row["flow"],
        row["status"],
        f"{row['cases_judged']:,}",
        f"{row['judge_calls']:,}",
        f"{row['prompt_tokens']:,}",
        f"{row['completion_tokens']:,}",
        "unknown" if cost is None else f"{cost:.4f}",
        "–" if per_1000 is None else f"{per_1000:.4f}",
    ]


def print_costs(con: duckdb.DuckDBPyConnection, options: ReportOptions, console: Console) -> None:
    """The latest runs' judge spend and cost (unknown: no price for the model)."""
    costs = run_costs(con, options)
    if costs.is_empty():
        return
    table = Table(
        title=Text(f"Judge cost of the latest {costs.height} run(s)"), box=box.SIMPLE_HEAD
    )
    for name in COST_HEADERS:
        table.add_column(name, justify="left" if name in ("run", "flow", "status") else "right")
    for row in costs.iter_rows(named=True):
        table.add_row(*(Text(cell) for cell in cost_cells(row)))
    print_fitted(console, table)


def settings_text(options: ReportOptions) -> str:
    return ", ".join(
        f"{name} {'as configured' if value is None else value}"
        for name, value in (
            ("threshold", options.threshold),
            ("penalize_ambiguous", options.penalize_ambiguous),
        )
    )


def period_cells(row: dict[str, Any]) -> list[str]:
    """period, cases, scored, pass rate [interval], mean score, the attribution split, then
    the invalid share (flagged above the limit) and the pending share."""
    return [
        period_text(row["period"]),
        f"{row['cases']:,}",
        f"{row['scored']:,}",
        _rate(row),
        _score(row["mean_score"]),
        *(f"{row[cause]:,}" for cause in CAUSES),
        _pct(row.get("invalid_share")) + (f" {FLAG}" if row.get("invalid_flagged") else ""),
        _pct(row.get("pending_share")),
    ]


# A segment value longer than this is cut in the terminal (its length said): the figures
# beside it are what the table is for.
MAX_KEY_CHARS = 120


def _key_cell(value: str | None) -> str:
    """segment_label, cut past MAX_KEY_CHARS for a terminal table's key column."""
    shown = segment_label(value)
    if len(shown) <= MAX_KEY_CHARS:
        return shown
    return f"{shown[:MAX_KEY_CHARS]}… ({len(shown):,} characters)"


def print_fitted(console: Console, table: Table) -> None:
    """Print `table` whole: when wider than the console, as several tables of the columns that
    fit, each repeating the first (the row's key), so no column shrinks and no date is cut."""
    widths = [
        max([cell_len(str(column.header))] + [cell_len(str(cell)) for cell in column.cells]) + 3
        for column in table.columns
    ]
    # A key longer than a third of the width (a 5,000-character segment value) is folded onto
    # more lines: repeated in every part, it squeezed the figures beside it to '…'.
    key_room = max(12, console.width // 3)
    folded = widths[0] > key_room + 3
    widths[0] = min(widths[0], key_room + 3)
    if not folded and (sum(widths) + 2 <= console.width or len(widths) < 3):
        console.print(table)
        return
    chunks: list[list[int]] = [[]]
    used = widths[0] + 2
    for index in range(1, len(widths)):
        if chunks[-1] and used + widths[index] > console.width:
            chunks.append([])
            used = widths[0] + 2
        chunks[-1].append(index)
        used += widths[index]
    rows = [list(column.cells) for column in table.columns]
    for number, chunk in enumerate(chunks):
        part = Table(title=table.title if number == 0 else None, box=table.box)
        key = table.columns[0]
        part.add_column(key.header, justify=key.justify, overflow="fold", max_width=key_room)
        for index in chunk:
            column = table.columns[index]
            part.add_column(column.header, justify=column.justify, no_wrap=True)
        for row in range(table.row_count):
            part.add_row(*(rows[index][row] for index in (0, *chunk)))
        console.print(part)
