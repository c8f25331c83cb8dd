"""Read-only analysis of a scored database: queries, terminal tables, charts, the HTML report.

Every number comes from the analysis macros of flows/store/sql/002_analysis.sql; this room
only binds parameters, shapes frames and draws.
"""

from flows.report.charts import report_figures
from flows.report.html import render_html, write_html_report
from flows.report.labels import config_labels, config_names
from flows.report.queries import (
    DEFAULT_SEGMENT,
    ReportOptions,
    contradicted_claims,
    pass_rates,
    pass_rates_by_segment,
    resolve_segment,
    score_histogram,
)
from flows.report.terminal import render_terminal

__all__ = [
    "DEFAULT_SEGMENT",
    "ReportOptions",
    "config_labels",
    "config_names",
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
