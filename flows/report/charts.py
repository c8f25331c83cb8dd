"""The report's charts (plotly figures): pass rates with their interval, scores, segments,
causes of failure and judge agreement."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import plotly.graph_objects as go
import polars as pl
from plotly.colors import hex_to_rgb, qualitative
from plotly.subplots import make_subplots

from flows.printable import printable
from flows.report.labels import config_names, name_of
from flows.report.queries import (
    CAUSES,
    MAX_SEGMENT_VALUES,
    PERIOD_STEPS,
    ReportOptions,
    check_options,
    judge_agreement,
    pass_rates,
    pass_rates_by_segment,
    resolve_segment,
    score_histogram,
)
from flows.report.segments import chart_labels, held_values, segment_label, top_values
from flows.report.terminal import period_text
from flows.store.db import sql

if TYPE_CHECKING:
    import duckdb


_CAUSE_COLOURS = {
    "contradicted": "#d62728",
    "unsupported": "#ff7f0e",
    "no_claims": "#7f7f7f",
    "invalid": "#9467bd",
}


def chart_text(text: str) -> str:
    """Text from the logs as plotly draws it literally: plotly reads `<b>`, `<br>` and
    `<a href=...>` in labels and titles as markup (a segment value could add a link to the
    page), and decodes entities, so `&`, `<` and `>` go as entities; control characters,
    bidirectional ones among them (U+202E drew a label and the words after it backwards),
    are shown as escapes (`\\u202e`), as in the terminal."""
    shown = printable(text)
    return shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def hover_text(value: str | None, width: int = 80) -> str:
    """A segment value whole, as a bar's hover shows it (its axis label is cut): chart_text in
    lines of `width` characters (plotly's hover does not wrap), split before escaping."""
    shown = segment_label(value)
    lines = [shown[at : at + width] for at in range(0, len(shown), width)] or [""]
    return "<br>".join(chart_text(line) for line in lines)


def _periods(frame: pl.DataFrame) -> list[str]:
    return [period_text(value) for value in frame["period"]]


def _colour(config_id: str, configs: list[str], alpha: float = 1.0) -> str:
    """One colour per config, the same in every chart."""
    palette = qualitative.Plotly
    red, green, blue = hex_to_rgb(palette[configs.index(config_id) % len(palette)])
    return f"rgba({red}, {green}, {blue}, {alpha})"


# At most this many periods are filled in between the first and the last: one case logged at
# 0001-01-01 (.NET's DateTime.MinValue, a placeholder in real logs) made 740,000 empty days, a
# 31 MB page built in 28 s; past it the line is drawn through the gaps.
MAX_FILLED_PERIODS = 3_000
_PERIOD_DAYS = {"day": 1, "week": 7, "month": 28}


def _with_gaps(group: pl.DataFrame, grain: str) -> pl.DataFrame:
    """Every period from the first to the last, empty ones null: lines break at a gap."""
    step = PERIOD_STEPS.get(grain)
    if step is None or group.is_empty():
        return group
    first, last = group["period"].min(), group["period"].max()
    if not (isinstance(first, dt.date) and isinstance(last, dt.date)):
        return group  # not a column of dates: nothing to fill
    if (last - first).days // _PERIOD_DAYS[grain] > MAX_FILLED_PERIODS:
        return group
    periods = pl.date_range(first, last, step, eager=True)
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


NOTHING_SCORED = "Nothing scored in this window."
NOTHING_DATED = "No scored case in this window has a logged_at day to draw it by."


def _say_empty(figure: go.Figure, text: str) -> go.Figure:
    """`figure` with `text` across its middle: a chart with nothing to draw says why, instead
    of a blank plot (an empty database, a segment column all null)."""
    figure.add_annotation(
        text=chart_text(text), xref="paper", yref="paper", x=0.5, y=0.5, showarrow=False
    )
    return figure


# Legends under the plot, in rows: a config's label is long, and a legend at the side would
# take half of a phone-wide chart.
LEGEND_BELOW = {"orientation": "h", "yanchor": "top", "y": -0.22, "x": 0}
MIN_SEGMENT_CASES = 30  # a segment value with fewer scored cases is drawn faded and labelled


def fitted_range(rates: pl.Series) -> list[float]:
    """An axis around the pass rates themselves (not a thin day's wide interval): a trend
    between 93% and 100% fills the chart instead of its top tenth."""
    values = rates.drop_nulls()
    if values.is_empty():
        return [0.0, 1.05]
    low, high = float(values.min()), float(values.max())  # type: ignore[arg-type]
    pad = max((high - low) * 0.25, 0.02)
    return [max(0.0, low - pad), min(1.0, high + pad) + 0.005]


def _pass_rate_figure(
    rates: pl.DataFrame, grain: str, configs: list[str], names: dict[str, str]
) -> go.Figure:
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
                name=f"{chart_text(name_of(names, config_id))} 95% interval",
            )
        )
        figure.add_trace(
            go.Scatter(
                x=x,
                y=rate.to_list(),
                mode="lines+markers",
                name=chart_text(name_of(names, config_id)),
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
        yaxis={
            "title": "pass rate",
            "range": fitted_range(scored["pass_rate"]),
            "tickformat": ".0%",
        },
        xaxis={"title": grain, "type": "date", **_date_ticks(scored, grain)},
        legend=LEGEND_BELOW,
        showlegend=True,  # the config's label shows even when it is the only one
    )
    return figure if figure.data else _say_empty(figure, _why_nothing(rates))


def _why_nothing(rates: pl.DataFrame) -> str:
    """Why a chart over the periods has nothing to draw."""
    return NOTHING_DATED if rates.filter(pl.col("scored") > 0).height else NOTHING_SCORED


_TICK_DAYS = {"day": 1, "week": 7}
MAX_DATE_TICKS = 8


def _date_ticks(rates: pl.DataFrame, grain: str) -> dict[str, object]:
    """Whole periods between ticks: plotly would tick a three-day window at 00:00 and 12:00."""
    days = _TICK_DAYS.get(grain)
    if days is None or rates.is_empty():
        return {}
    first, last = rates["period"].min(), rates["period"].max()
    if not (isinstance(first, dt.date) and isinstance(last, dt.date)):
        return {}
    periods = (last - first).days // days + 1  # the span, gaps included
    step = days * max(1, -(-periods // MAX_DATE_TICKS))
    # the year too when the span crosses one: ticks 250 years apart read 'Jan 1' each
    tickformat = "%b %-d" if first.year == last.year else "%b %-d, %Y"
    return {"dtick": step * 86_400_000, "tickformat": tickformat}


def _histogram_figure(
    histogram: pl.DataFrame,
    configs: list[str],
    thresholds: dict[str, float],
    names: dict[str, str],
) -> go.Figure:
    """Cases per score bin on a log scale (the top bin dwarfs the rest), each threshold drawn."""
    figure = go.Figure()
    for (config_id,), group in histogram.group_by("config_id", maintain_order=True):
        bounds = group.select("bin_low", "bin_high").rows()
        figure.add_trace(
            go.Bar(
                x=[(low + high) / 2 for low, high in bounds],
                width=[(high - low) * 0.9 for low, high in bounds],
                y=group["cases"].to_list(),
                name=chart_text(name_of(names, config_id)),
                marker_color=_colour(config_id, configs),
                customdata=[f"{low:.1f}–{high:.1f}" for low, high in bounds],
                hovertemplate="score %{customdata}: %{y:,} cases",
            )
        )
    for index, threshold in enumerate(sorted(set(thresholds.values()))):
        figure.add_vline(
            x=threshold,
            line={"dash": "dash", "color": "#b3261e"},
            annotation_text=f"threshold {threshold:g}",
            # alternate sides, so that two close thresholds' labels do not overlap
            annotation_position="top left" if index % 2 else "top right",
        )
    figure.update_layout(
        title="Score distribution (scored cases; log scale)",
        barmode="group",
        xaxis={"title": "score", "range": [0, 1]},
        yaxis={"title": "cases", "type": "log"},
        legend=LEGEND_BELOW,
        showlegend=True,  # the config's label shows even when it is the only one
    )
    return figure if figure.data else _say_empty(figure, NOTHING_SCORED)


def _segment_figure(
    by_segment: pl.DataFrame,
    segment: str,
    configs: list[str],
    names: dict[str, str],
    options: ReportOptions,
) -> go.Figure:
    figure = go.Figure()
    # the values the terminal table ranks; one with no scored case is drawn with no bar
    held = held_values(by_segment)
    if held.filter(pl.col("scored") > 0).is_empty():
        return _say_empty(figure, f"No scored case in this window has a value of {segment}.")
    most = min(options.segment_top or MAX_SEGMENT_VALUES, MAX_SEGMENT_VALUES)
    left_out = values = 0
    for (config_id,), group in held.group_by("config_id", maintain_order=True):
        ranked = top_values(group, most, options.segment_rank)
        left_out, values = max(left_out, ranked.left_out), max(values, group.height)
        top = ranked.shown.sort("segment_value", nulls_last=False)
        rate = top["pass_rate"]
        few = [n < MIN_SEGMENT_CASES for n in top["scored"]]
        figure.add_trace(
            go.Bar(
                x=[
                    chart_text(label) + _few_note(n, small)
                    for label, n, small in zip(
                        chart_labels(top["segment_value"]), top["scored"], few, strict=True
                    )
                ],
                y=rate.to_list(),
                name=chart_text(name_of(names, config_id)),
                marker_color=_colour(config_id, configs),
                marker_opacity=[0.3 if small else 1.0 for small in few],
                error_y={
                    "type": "data",
                    "array": (top["pass_rate_high"] - rate).to_list(),
                    "arrayminus": (rate - top["pass_rate_low"]).to_list(),
                },
                # the whole value, which the cut axis label is not
                customdata=[
                    (passed, scored, hover_text(value))
                    for passed, scored, value in top.select(
                        "passed", "scored", "segment_value"
                    ).iter_rows()
                ],
                hovertemplate="%{customdata[2]}: %{y:.1%} (%{customdata[0]} of %{customdata[1]})",
            )
        )
    # a per-user column has 10,000 values: the chart draws the top ones, and says so
    cut = f"; the top {most} of {values:,} values by {options.segment_rank}" if left_out else ""
    figure.update_layout(
        # as typed: the page shows a chart's title as an escaped heading, not plotly's
        # (html.py), where chart_text's entities showed as '&amp;'
        title=f"Pass rate by {printable(segment)} over the window (95% Wilson interval){cut}",
        barmode="group",
        xaxis={"title": chart_text(segment), "type": "category"},
        yaxis={"title": "pass rate", "range": [0, 1.05], "tickformat": ".0%"},
        legend={**LEGEND_BELOW, "y": -0.4},  # below the slanted segment names
        showlegend=True,  # the config's label shows even when it is the only one
    )
    return figure


def _few_note(scored: int, few: bool) -> str:
    """What a segment bar's label adds when its pass rate rests on few scored cases, or none
    (no bar: its cases are all invalid or pending)."""
    if scored == 0:
        return " (none scored)"
    return f" (n={scored}: too few)" if few else ""


def _attribution_figure(
    rates: pl.DataFrame, grain: str, configs: list[str], names: dict[str, str]
) -> go.Figure:
    configs = configs or [""]
    figure = make_subplots(
        rows=len(configs),
        cols=1,
        shared_xaxes=True,
        subplot_titles=[chart_text(name_of(names, c)) for c in configs],  # drawn by plotly
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
        legend=LEGEND_BELOW,
    )
    return figure if periods else _say_empty(figure, _why_nothing(rates))


def _agreement_figure(checks: pl.DataFrame, configs: list[str], names: dict[str, str]) -> go.Figure:
    figure = go.Figure()
    known = configs + [c for c in checks["config_id"].unique().to_list() if c not in configs]
    for config_id, group in checks.group_by("config_id", maintain_order=True):
        figure.add_trace(
            go.Scatter(
                x=group["checked_at"].to_list(),
                y=group["agreement"].to_list(),
                mode="lines+markers",
                name=chart_text(name_of(names, str(config_id[0]))),
                line={"color": _colour(str(config_id[0]), known)},
            )
        )
    floor = checks.select(pl.col("floor").max()).item()
    figure.add_hline(y=floor, line_dash="dot", annotation_text=f"floor {floor:.0%}")
    figure.update_layout(
        title="Judge agreement with the golden set, each nightly check",
        yaxis={"title": "agreement", "range": [0, 1.05], "tickformat": ".0%"},
        height=380,
        legend=LEGEND_BELOW,
        showlegend=True,  # the config's label shows even when it is the only one
    )
    return figure


def config_thresholds(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> dict[str, float]:
    """The pass mark of each config as the report applies it (--threshold, else its runs');
    a strict config keeps its own (1), as case_results reads it."""
    found = {}
    rows = con.execute(sql("report_configs")).fetchall()
    for config_id, _judge, threshold, _penalize, strict, *_rest in rows:
        given = options.threshold is not None and not strict
        chosen = options.threshold if given else threshold
        if chosen is not None:
            found[config_id] = float(chosen)
    return found


def report_figures(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, rates: pl.DataFrame | None = None
) -> dict[str, go.Figure]:
    """The report's charts by name, built from the analysis macros; `rates`, if the caller
    has them already, are `pass_rates(con, options)` (the heaviest query, run once)."""
    if rates is None:
        check_options(con, options)
        rates = pass_rates(con, options)
    configs = rates["config_id"].unique(maintain_order=True).to_list()
    names = config_names(con, configs)
    figures = {
        "pass_rate": _pass_rate_figure(rates, options.grain, configs, names),
        "score_distribution": _histogram_figure(
            score_histogram(con, options), configs, config_thresholds(con, options), names
        ),
    }
    segment = resolve_segment(con, options.segment)
    if segment is not None:
        by_segment = pass_rates_by_segment(con, options, segment, grain=None)
        figures["by_segment"] = _segment_figure(by_segment, segment, configs, names, options)
    figures["attribution"] = _attribution_figure(rates, options.grain, configs, names)
    checks = judge_agreement(con, options)
    if checks.height:
        figures["judge_agreement"] = _agreement_figure(checks, configs, names)
    return figures
