"""The report's numbers: each one a bound call of an analysis macro of
flows/store/sql/analysis.sql (rebuilt on every open), returned as a frame."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs.config import check_threshold
from faith_udfs.errors import ConfigError
from flows.errors import DatabaseError
from flows.report.segments import DEFAULT_SEGMENT_TOP, SEGMENT_RANKS
from flows.store.db import sql

if TYPE_CHECKING:
    import duckdb


DEFAULT_SEGMENT = "app_version"
CAUSES = ("contradicted", "unsupported", "no_claims", "invalid")


MAX_SEGMENT_VALUES = 30
DEFAULT_MAX_INVALID_SHARE = 0.1  # the runs' default (--max-invalid-share)
PERIOD_STEPS = {"day": "1d", "week": "1w", "month": "1mo"}


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
    # Segment values listed per config in the terminal (the chart draws at most
    # MAX_SEGMENT_VALUES of them), ranked by `segment_rank`; None: every value.
    segment_top: int | None = DEFAULT_SEGMENT_TOP
    segment_rank: str = "cases"
    top_claims: int = 10
    # A period whose invalid share is above this is flagged; None: each config's latest run's
    # --max-invalid-share (DEFAULT_MAX_INVALID_SHARE when no run recorded one).
    max_invalid_share: float | None = None
    cost_runs: int = 10

    def settings(self) -> dict[str, Any]:
        """The bound parameters shared by every macro call."""
        return {
            "threshold": self.threshold,
            "penalize_ambiguous": self.penalize_ambiguous,
            "since": self.since,
            "until": self.until,
        }


def check_options(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> None:
    if options.threshold is not None:
        check_threshold(options.threshold, "--threshold")
    if options.periods < 1:
        raise ConfigError(f"--periods must be at least 1, got {options.periods}")
    if options.segment_top is not None and options.segment_top < 1:
        raise ConfigError(f"--segment-top must be at least 1, got {options.segment_top}")
    if options.segment_rank not in SEGMENT_RANKS:
        choices = ", ".join(SEGMENT_RANKS)
        raise ConfigError(f"--segment-rank must be one of {choices}, got {options.segment_rank!r}")
    if options.since is not None and options.until is not None and options.since > options.until:
        raise ConfigError(
            f"--since {options.since} is after --until {options.until}: no day is in the window"
        )
    if not con.execute(sql("report_has_macros")).fetchall()[0][0]:
        raise DatabaseError(
            "this database predates the analysis views (migration 002); open it once "
            "read-write, e.g. with `faith score`, to migrate it"
        )
    if options.segment is not None:  # before anything is printed, not after the tables
        resolve_segment(con, options.segment)


def _frame(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> pl.DataFrame:
    """The result of `flows/store/sql/<name>.sql` as a frame; every value is a bound parameter."""
    return con.sql(sql(name), params=params).pl()


def pass_rates(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> pl.DataFrame:
    """`pass_rates` of the report's window and settings, oldest period first; with
    `invalid_flagged`: the period's invalid share is above its config's limit."""
    rates = _frame(con, "report_pass_rates", {"grain": options.grain, **options.settings()})
    given = options.max_invalid_share
    default = DEFAULT_MAX_INVALID_SHARE if given is None else given
    return flag_invalid(rates, invalid_limits(con, options), default)


def has_costs(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether `runs` has the cost columns (migration 009; a database not opened read-write
    since has not)."""
    return bool(con.execute(sql("report_has_costs")).fetchall()[0][0])


def invalid_limits(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> dict[str, float]:
    """Per config, the invalid share above which a period is flagged (the option, else its
    latest completed run's --max-invalid-share); configs not listed get the default."""
    if options.max_invalid_share is not None or not has_costs(con):
        return {}
    return dict(con.execute(sql("report_invalid_limits")).fetchall())


def flag_invalid(rates: pl.DataFrame, limits: dict[str, float], default: float) -> pl.DataFrame:
    """`rates` with `max_invalid_share` (the limit) and `invalid_flagged` (above it)."""
    if "invalid_share" not in rates.columns:  # pass_rates of a database before 009
        rates = rates.with_columns(invalid_share=pl.lit(None, dtype=pl.Float64))
    limit = pl.col("config_id").replace_strict(limits, default=default, return_dtype=pl.Float64)
    return rates.with_columns(max_invalid_share=limit).with_columns(
        invalid_flagged=(pl.col("invalid_share") > pl.col("max_invalid_share")).fill_null(False)
    )


def run_costs(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> pl.DataFrame:
    """The latest runs' judge calls, tokens and cost, per run and per 1,000 cases."""
    if not has_costs(con):
        return pl.DataFrame()
    return _frame(con, "report_run_costs", {"n": options.cost_runs})


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


def judge_agreement(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> pl.DataFrame:
    """Each nightly judge check: agreement with the golden set, by config and time."""
    if not con.execute(sql("report_has_judge_agreement")).fetchall()[0][0]:
        return pl.DataFrame()
    return _frame(con, "report_judge_agreement", {"since": options.since, "until": options.until})
