"""`faith report`: pass rates of the latest periods in the terminal, and one offline HTML file.

Every number comes from the analysis macros of flows/store/sql/002_analysis.sql; this module only
binds parameters, shapes frames and draws.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go
import plotly.io as pio
import polars as pl
from plotly.colors import hex_to_rgb, qualitative
from plotly.offline import get_plotlyjs
from plotly.subplots import make_subplots
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from faith_udfs.errors import ConfigError
from flows.errors import DatabaseError
from flows.store.db import sql

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "DEFAULT_SEGMENT",
    "ReportOptions",
    "config_labels",
    "contradicted_claims",
    "pass_rates",
    "pass_rates_by_segment",
    "render_html",
    "render_terminal",
    "report_figures",
    "resolve_segment",
    "score_histogram",
    "write_html_report",
]

DEFAULT_SEGMENT = "app_version"
CAUSES = ("contradicted", "unsupported", "no_claims", "invalid")
_CAUSE_HEADERS = {
    "contradicted": "contra.",
    "unsupported": "unsupp.",
    "no_claims": "no claims",
    "invalid": "invalid",
}
_CAUSE_COLOURS = {
    "contradicted": "#d62728",
    "unsupported": "#ff7f0e",
    "no_claims": "#7f7f7f",
    "invalid": "#9467bd",
}
_MAX_SEGMENT_VALUES = 30
_STEPS = {"day": "1d", "week": "1w", "month": "1mo"}


@dataclass(frozen=True)
class ReportOptions:
    """What a report shows: the window, the period, the settings and the segment column."""

    since: date | None = None
    until: date | None = None
    grain: str = "day"
    periods: int = 7
    threshold: float | None = None
    penalize_ambiguous: bool | None = None
    segment: str | None = None
    top_claims: int = 10

    def settings(self) -> dict[str, Any]:
        """The bound parameters shared by every macro call."""
        return {
            "threshold": self.threshold,
            "penalize_ambiguous": self.penalize_ambiguous,
            "since": self.since,
            "until": self.until,
        }


def _check(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> None:
    if options.threshold is not None and not 0.0 <= options.threshold <= 1.0:
        raise ConfigError(f"--threshold must be between 0 and 1, got {options.threshold}")
    if options.periods < 1:
        raise ConfigError(f"--periods must be at least 1, got {options.periods}")
    if not con.execute(sql("report_has_macros")).fetchall()[0][0]:
        raise DatabaseError(
            "this database predates the analysis views (migration 002); open it once "
            "read-write, e.g. with `faith score`, to migrate it"
        )


def _frame(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> pl.DataFrame:
    """The result of `flows/store/sql/<name>.sql` as a frame; every value is a bound parameter."""
    return con.sql(sql(name), params=params).pl()


def pass_rates(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> pl.DataFrame:
    """`pass_rates` of the report's window and settings, oldest period first."""
    return _frame(con, "report_pass_rates", {"grain": options.grain, **options.settings()})


def pass_rates_by_segment(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, segment: str, *, grain: str | None
) -> pl.DataFrame:
    """`pass_rates_by_segment` (grain None: the whole window in one period)."""
    return _frame(
        con,
        "report_pass_rates_by_segment",
        {"segment": segment, "grain": grain, **options.settings()},
    )


def score_histogram(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, bins: int = 10
) -> pl.DataFrame:
    """`score_histogram`: scored cases per config and score bin."""
    return _frame(con, "report_score_histogram", {"bins": bins, **options.settings()})


def contradicted_claims(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> pl.DataFrame:
    """`contradicted_claims`: the top claims judged `no`, with their passages."""
    return _frame(
        con,
        "report_contradicted_claims",
        {"n": options.top_claims, "since": options.since, "until": options.until},
    )


def config_labels(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """A short description of each config: judge and the settings its runs used."""
    labels = {}
    for row in con.execute(sql("report_configs")).fetchall():
        config_id, judge, threshold, penalize, strict = row[:5]
        parts = [judge or "judge unknown"]
        if threshold is not None:
            parts.append(f"threshold {threshold:g}")
        if penalize:
            parts.append("penalize ambiguous")
        if strict:
            parts.append("strict")
        labels[config_id] = ", ".join(parts)
    return labels


def resolve_segment(con: duckdb.DuckDBPyConnection, requested: str | None) -> str | None:
    """The segment column to slice by: the one asked for, else app_version if present."""
    known = {row[0] for row in con.execute(sql("report_segments")).fetchall()}
    if requested is None:
        return DEFAULT_SEGMENT if DEFAULT_SEGMENT in known else None
    if requested not in known:
        choices = ", ".join(sorted(known)) or "none"
        raise ConfigError(f"no segment column {requested!r} in this database; known: {choices}")
    return requested


def latest_periods(rates: pl.DataFrame, periods: int) -> pl.DataFrame:
    """The last `periods` periods of each config, oldest first."""
    return (
        rates.sort("config_id", "period", nulls_last=False)
        .group_by("config_id", maintain_order=True)
        .tail(periods)
    )


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _rate(row: dict[str, Any]) -> str:
    if row["pass_rate"] is None:
        return "–"
    return f"{_pct(row['pass_rate'])} [{_pct(row['pass_rate_low'])}–{_pct(row['pass_rate_high'])}]"


def _score(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _day(value: datetime | None) -> str:
    return "–" if value is None else f"{value:%Y-%m-%d}"


def _period(value: date | datetime | None) -> str:
    return "(no logged_at)" if value is None else value.isoformat()


def render_terminal(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, console: Console
) -> None:
    """Per config, its latest periods; then the window per segment value; as rich tables."""
    _check(con, options)
    rates = latest_periods(pass_rates(con, options), options.periods)
    labels = config_labels(con)
    if options.threshold is not None or options.penalize_ambiguous is not None:
        console.print(
            Text(f"Recomputed from the stored verdict counts: {_settings_text(options)}.")
        )
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
        for name in ("cases", "scored", "pass rate [95% CI]", "score", *_CAUSE_HEADERS.values()):
            table.add_column(name, justify="right", no_wrap=True)
        for row in group.iter_rows(named=True):
            table.add_row(*(Text(cell) for cell in _period_cells(row)))
        console.print(table)

    segment = resolve_segment(con, options.segment)
    if segment is None:
        return
    by_segment = pass_rates_by_segment(con, options, segment, grain=None).filter(
        pl.col("segment_value").is_not_null().any().over("config_id")
    )
    for (config_id,), group in by_segment.group_by("config_id", maintain_order=True):
        table = Table(title=Text(f"{config_id}: pass rate by {segment}"), box=box.SIMPLE_HEAD)
        table.add_column(segment)
        for name in ("cases", "scored", "pass rate [95% CI]", "score"):
            table.add_column(name, justify="right", no_wrap=True)
        for row in group.iter_rows(named=True):
            table.add_row(
                Text(_segment_label(row["segment_value"])),
                *(Text(cell) for cell in _period_cells(row)[1:5]),
            )
        console.print(table)


def _settings_text(options: ReportOptions) -> str:
    return ", ".join(
        f"{name} {'as configured' if value is None else value}"
        for name, value in (
            ("threshold", options.threshold),
            ("penalize_ambiguous", options.penalize_ambiguous),
        )
    )


def _period_cells(row: dict[str, Any]) -> list[str]:
    """period, cases, scored, pass rate [interval], mean score, then the attribution split."""
    return [
        _period(row["period"]),
        f"{row['cases']:,}",
        f"{row['scored']:,}",
        _rate(row),
        _score(row["mean_score"]),
        *(f"{row[cause]:,}" for cause in CAUSES),
    ]


def _segment_label(value: str | None) -> str:
    return "(none)" if value is None else value


def _periods(frame: pl.DataFrame) -> list[str]:
    return [_period(value) for value in frame["period"]]


def _colour(config_id: str, configs: list[str], alpha: float = 1.0) -> str:
    """One colour per config, the same in every chart."""
    palette = qualitative.Plotly
    red, green, blue = hex_to_rgb(palette[configs.index(config_id) % len(palette)])
    return f"rgba({red}, {green}, {blue}, {alpha})"


def _with_gaps(group: pl.DataFrame, grain: str) -> pl.DataFrame:
    """Every period from the first to the last, empty ones null: lines break at a gap."""
    step = _STEPS.get(grain)
    if step is None or group.is_empty():
        return group
    periods = pl.date_range(group["period"].min(), group["period"].max(), step, eager=True)
    return periods.alias("period").to_frame().join(group, on="period", how="left")


def _band(
    x: list[str], low: list[float | None], high: list[float | None]
) -> tuple[list[str | None], list[float | None]]:
    """The interval as one closed shape per run of periods with data, None between shapes.

    plotly closes each gap-separated segment of a `toself` trace on its own, so the band
    breaks where the line does instead of bridging the gap.
    """
    band_x: list[str | None] = []
    band_y: list[float | None] = []
    run: list[int] = []
    for index in [*range(len(x)), None]:
        if index is not None and low[index] is not None:
            run.append(index)
            continue
        if run:
            band_x += [x[i] for i in run] + [x[i] for i in reversed(run)] + [None]
            band_y += [high[i] for i in run] + [low[i] for i in reversed(run)] + [None]
            run = []
    return band_x, band_y


def _pass_rate_figure(rates: pl.DataFrame, grain: str, configs: list[str]) -> go.Figure:
    figure = go.Figure()
    scored = rates.filter(pl.col("scored") > 0, pl.col("period").is_not_null())
    for (config_id,), observed in scored.group_by("config_id", maintain_order=True):
        group = _with_gaps(observed, grain)
        x = _periods(group)
        rate, low, high = group["pass_rate"], group["pass_rate_low"], group["pass_rate_high"]
        band_x, band_y = _band(x, low.to_list(), high.to_list())
        figure.add_trace(
            go.Scatter(
                x=band_x,
                y=band_y,
                mode="lines",
                fill="toself",
                fillcolor=_colour(config_id, configs, 0.15),
                line={"width": 0},
                hoverinfo="skip",
                legendgroup=config_id,
                showlegend=False,
                name=f"{config_id} 95% interval",
            )
        )
        figure.add_trace(
            go.Scatter(
                x=x,
                y=rate.to_list(),
                mode="lines+markers",
                name=config_id,
                legendgroup=config_id,
                line={"color": _colour(config_id, configs)},
                error_y={
                    "type": "data",
                    "array": (high - rate).to_list(),
                    "arrayminus": (rate - low).to_list(),
                    "thickness": 1,
                    "width": 3,
                },
                customdata=group.select("passed", "scored").rows(),
                hovertemplate="%{x}: %{y:.1%} (%{customdata[0]} of %{customdata[1]})",
            )
        )
    figure.update_layout(
        title=f"Pass rate by {grain}, with its 95% Wilson interval",
        yaxis={"title": "pass rate", "range": [0, 1.05], "tickformat": ".0%"},
        xaxis={"title": grain, "type": "date"},
    )
    return figure


def _histogram_figure(histogram: pl.DataFrame, configs: list[str]) -> go.Figure:
    figure = go.Figure()
    for (config_id,), group in histogram.group_by("config_id", maintain_order=True):
        labels = [
            f"{low:.1f}–{high:.1f}" for low, high in group.select("bin_low", "bin_high").rows()
        ]
        figure.add_trace(
            go.Bar(
                x=labels,
                y=group["cases"].to_list(),
                name=config_id,
                marker_color=_colour(config_id, configs),
            )
        )
    figure.update_layout(
        title="Score distribution (scored cases)",
        barmode="group",
        xaxis={"title": "score", "type": "category"},
        yaxis={"title": "cases"},
    )
    return figure


def _segment_figure(by_segment: pl.DataFrame, segment: str, configs: list[str]) -> go.Figure:
    figure = go.Figure()
    # configs whose cases never carry the segment would only add an empty "(none)" bar
    scored = by_segment.filter(
        pl.col("scored") > 0, pl.col("segment_value").is_not_null().any().over("config_id")
    )
    for (config_id,), group in scored.group_by("config_id", maintain_order=True):
        top = group.sort("cases", descending=True).head(_MAX_SEGMENT_VALUES).sort("segment_value")
        rate = top["pass_rate"]
        figure.add_trace(
            go.Bar(
                x=[_segment_label(value) for value in top["segment_value"]],
                y=rate.to_list(),
                name=config_id,
                marker_color=_colour(config_id, configs),
                error_y={
                    "type": "data",
                    "array": (top["pass_rate_high"] - rate).to_list(),
                    "arrayminus": (rate - top["pass_rate_low"]).to_list(),
                },
                customdata=top.select("passed", "scored").rows(),
                hovertemplate="%{x}: %{y:.1%} (%{customdata[0]} of %{customdata[1]})",
            )
        )
    figure.update_layout(
        title=f"Pass rate by {segment} over the window (95% Wilson interval)",
        barmode="group",
        xaxis={"title": segment, "type": "category"},
        yaxis={"title": "pass rate", "range": [0, 1.05], "tickformat": ".0%"},
    )
    return figure


def _attribution_figure(rates: pl.DataFrame, grain: str, configs: list[str]) -> go.Figure:
    configs = configs or [""]
    figure = make_subplots(
        rows=len(configs),
        cols=1,
        shared_xaxes=True,
        subplot_titles=configs,
        vertical_spacing=0.3 / len(configs),
    )
    dated = rates.filter(pl.col("period").is_not_null())
    periods = _periods(dated.select("period").unique().sort("period"))
    for index, config_id in enumerate(configs, start=1):
        group = dated.filter(pl.col("config_id") == config_id)
        for cause in CAUSES:
            figure.add_trace(
                go.Bar(
                    x=_periods(group),
                    y=group[cause].to_list(),
                    name=cause.replace("_", " "),
                    legendgroup=cause,
                    showlegend=index == 1,
                    marker_color=_CAUSE_COLOURS[cause],
                ),
                row=index,
                col=1,
            )
        # categories, not dates: a lone bar on a date axis is drawn a hair wide
        figure.update_xaxes(
            type="category", categoryorder="array", categoryarray=periods, row=index, col=1
        )
    figure.update_layout(
        title=f"Why cases are not a clean pass, by {grain}",
        barmode="stack",
        height=max(420, 300 * len(configs)),
    )
    return figure


def judge_agreement(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> pl.DataFrame:
    """Each nightly judge check: agreement with the golden set, by config and time."""
    if not con.execute(sql("report_has_judge_agreement")).fetchall()[0][0]:
        return pl.DataFrame()
    return _frame(con, "report_judge_agreement", {"since": options.since, "until": options.until})


def _agreement_figure(checks: pl.DataFrame, configs: list[str]) -> go.Figure:
    figure = go.Figure()
    known = configs + [c for c in checks["config_id"].unique().to_list() if c not in configs]
    for config_id, group in checks.group_by("config_id", maintain_order=True):
        figure.add_trace(
            go.Scatter(
                x=group["checked_at"].to_list(),
                y=group["agreement"].to_list(),
                mode="lines+markers",
                name=str(config_id[0]),
                line={"color": _colour(str(config_id[0]), known)},
            )
        )
    floor = checks["floor"].max()
    figure.add_hline(y=floor, line_dash="dot", annotation_text=f"floor {floor:.0%}")
    figure.update_layout(
        title="Judge agreement with the golden set, each nightly check",
        yaxis={"title": "agreement", "range": [0, 1.05], "tickformat": ".0%"},
        height=380,
    )
    return figure


def report_figures(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, rates: pl.DataFrame | None = None
) -> dict[str, go.Figure]:
    """The report's charts by name, built from the analysis macros; `rates`, if the caller
    has them already, are `pass_rates(con, options)` (the heaviest query, run once)."""
    if rates is None:
        _check(con, options)
        rates = pass_rates(con, options)
    configs = rates["config_id"].unique(maintain_order=True).to_list()
    figures = {
        "pass_rate": _pass_rate_figure(rates, options.grain, configs),
        "score_distribution": _histogram_figure(score_histogram(con, options), configs),
    }
    segment = resolve_segment(con, options.segment)
    if segment is not None:
        by_segment = pass_rates_by_segment(con, options, segment, grain=None)
        figures["by_segment"] = _segment_figure(by_segment, segment, configs)
    figures["attribution"] = _attribution_figure(rates, options.grain, configs)
    checks = judge_agreement(con, options)
    if checks.height:
        figures["judge_agreement"] = _agreement_figure(checks, configs)
    return figures


def _table_html(headers: list[str], rows: list[list[str]]) -> str:
    """An HTML table; every cell is escaped here, so callers pass plain text."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _claims_html(claims: pl.DataFrame) -> str:
    if claims.is_empty():
        return "<p>No claim was judged contradicted in this window.</p>"
    rows = []
    for row in claims.iter_rows(named=True):
        passages = "".join(f"<li>{html.escape(p)}</li>" for p in row["passages"])
        rows.append(
            "<tr>"
            f"<td>{html.escape(row['config_id'])}</td>"
            f"<td>{row['rank']}</td>"
            f"<td class=claim>{html.escape(row['claim'])}</td>"
            f"<td>{row['times']:,}</td>"
            f"<td>{row['cases']:,}</td>"
            f"<td>{html.escape(row['example_case_id'])}</td>"
            f"<td><ul>{passages}</ul></td>"
            "</tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("config", "rank", "claim", "times", "cases", "example case", "passages read")
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _configs_html(con: duckdb.DuckDBPyConnection) -> str:
    headers = ["config", "judge", "threshold", "penalize ambiguous", "strict", "cases", "logged"]
    rows = [
        [
            config_id,
            judge or "",
            "" if threshold is None else f"{threshold:g}",
            str(penalize),
            str(strict),
            f"{cases:,}",
            f"{_day(first)} to {_day(last)}",
        ]
        for config_id, judge, threshold, penalize, strict, cases, first, last in con.execute(
            sql("report_configs")
        ).fetchall()
    ]
    return _table_html(headers, rows)


def _summary_html(rates: pl.DataFrame) -> str:
    headers = ["config", "period", "cases", "scored", "pass rate [95% CI]", "mean score"]
    headers += [cause.replace("_", " ") for cause in CAUSES]
    rows = [[row["config_id"], *_period_cells(row)] for row in rates.iter_rows(named=True)]
    return _table_html(headers, rows)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>faithpipe report</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5rem 2rem; color: #222; }}
h1 {{ margin-bottom: 0.2rem; }}
.meta {{ color: #666; margin-top: 0; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }}
th, td {{ border: 1px solid #ddd; padding: 0.3rem 0.6rem; vertical-align: top; text-align: left; }}
th {{ background: #f4f4f4; }}
td.claim {{ max-width: 28rem; }}
td ul {{ margin: 0; padding-left: 1.1rem; }}
.chart {{ margin-bottom: 1rem; }}
</style>
<script type="text/javascript">{plotlyjs}</script>
</head>
<body>
<h1>faithpipe report</h1>
<p class="meta">{meta}</p>
<h2>Metric configs</h2>
{configs}
<h2>Latest periods</h2>
{summary}
{charts}
<h2>Claims most often contradicted</h2>
{claims}
</body>
</html>
"""


def render_html(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> str:
    """The whole report as one HTML page, plotly.js inlined: it works offline."""
    _check(con, options)
    all_rates = pass_rates(con, options)
    figures = report_figures(con, options, all_rates)
    charts = "\n".join(
        '<div class="chart">'
        + pio.to_html(
            figure,
            full_html=False,
            include_plotlyjs=False,
            div_id=f"chart-{name}",
            config={"displaylogo": False, "responsive": True},
        )
        + "</div>"
        for name, figure in figures.items()
    )
    window = f"{options.since or 'start'} to {options.until or 'end'}"
    meta = html.escape(f"Window: {window}; {_settings_text(options)}; by {options.grain}.")
    rates = latest_periods(all_rates, options.periods)
    return _PAGE.format(
        plotlyjs=get_plotlyjs(),
        meta=meta,
        configs=_configs_html(con),
        summary=_summary_html(rates),
        charts=charts,
        claims=_claims_html(contradicted_claims(con, options)),
    )


def write_html_report(
    con: duckdb.DuckDBPyConnection, path: Path | str, *, options: ReportOptions | None = None
) -> Path:
    """Write the HTML report of `con` to `path` (parents created); returns the path."""
    path = Path(path)
    page = render_html(con, options or ReportOptions())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
