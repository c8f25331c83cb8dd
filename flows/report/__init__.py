"""Read-only analysis of a scored database: queries, terminal tables, charts, the HTML report.

Every number comes from the analysis macros of flows/store/sql/analysis.sql; this room
only binds parameters, shapes frames and draws.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Where each name of the room's face lives. Loaded on first use: the charts need plotly
# (~0.2 s), which every `faith` command would otherwise load to build its argument parser.
_HOMES = {
    "report_figures": "charts",
    "render_html": "html",
    "write_html_report": "html",
    "config_labels": "labels",
    "config_names": "labels",
    "DEFAULT_SEGMENT": "queries",
    "ReportOptions": "queries",
    "contradicted_claims": "queries",
    "pass_rates": "queries",
    "pass_rates_by_segment": "queries",
    "resolve_segment": "queries",
    "score_histogram": "queries",
    "render_terminal": "terminal",
}

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


def __getattr__(name: str) -> Any:
    """`from flows.report import X` loads X's module then (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
