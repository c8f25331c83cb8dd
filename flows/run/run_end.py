"""A run's row at its end: completed (with the judge's protocol, the invalid-share check and
the readers' snapshot), or stopped (interrupted by a signal, or failed with its reason)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flows.errors import QuarantineShareExceeded, TooManyInvalid
from flows.run.alarms import warn_if_mostly_invalid, warn_if_mostly_quarantined
from flows.run.settings import ScoreSettings
from flows.run.stop_signals import completion_held, signals_deferred, stopping_signal
from flows.scrub import scrub
from flows.store.judge_memory import record_run_judge
from flows.store.run_costs import count_unbatched_usage, price_run, top_quarantine_checks
from flows.store.run_registry import (
    finish_run,
    mark_run_warning,
    run_row,
    supersede_dead_runs,
)
from flows.store.snapshot import write_snapshot
from flows.store.stale_shards import salvage_stale_shards, shard_root

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")
# More checks than a run's rows can fail: the run line is given them all.
EVERY_CHECK = 100_000


def dry_run_db(settings: ScoreSettings) -> str:
    """The database a run opens: a dry run of a database that does not exist yet reads an
    empty one in memory (nothing stored, nothing cached) instead of creating the file."""
    if settings.dry_run and not Path(settings.db).exists():
        return ":memory:"
    return settings.db


def supersede_unless_dry(con: duckdb.DuckDBPyConnection, settings: ScoreSettings) -> None:
    """Mark dead runs superseded and keep the judge replies of the Dask shards runs left
    unloaded (a Dask run killed, then finished on this engine, pays for none of them again),
    unless this is a dry run (which writes no other row)."""
    if not settings.dry_run:
        supersede_dead_runs(con)
        salvage_stale_shards(con, shard_root(settings.db))


def price(con: duckdb.DuckDBPyConnection, run_id: str, settings: ScoreSettings) -> None:
    """Record the run's prices per million tokens (its cost follows at its end)."""
    price_input, price_output = settings.prices()
    price_run(
        con,
        run_id,
        price_input_usd=price_input,
        price_output_usd=price_output,
        dry_run=settings.dry_run,
    )


def complete_run(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    settings: ScoreSettings,
    started: float,
    judge_protocol: tuple[str | None, int] = (None, 0),
    *,
    judge_warning: str | None = None,
    first: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Every batch is committed: mark the run completed with the LLM judge's structured-output
    mode and estimated-token calls, check its quarantine and invalid shares, write the readers'
    snapshot if asked; returns the run's row with its top quarantine checks (raises
    QuarantineShareExceeded or TooManyInvalid past a share). `first` runs before the mark,
    where a stop waits for it (the run's stages closing); the snapshot is no part of it: a
    stop may cut a long copy short. A step that fails marks the row as a stop would, if it
    is not marked yet; a stop held meanwhile is raised over the failure (stops_held)."""
    marked = False
    try:
        with completion_held():
            if first is not None:
                first()
            finish_run(con, run_id, "completed", time.perf_counter() - started)
            marked = True
            record_run_judge(con, run_id, *judge_protocol)
            if judge_warning:  # the judge's own word on the run (a batch judge giving up)
                mark_run_warning(con, run_id, judge_warning)
                log.warning("run %s: %s", run_id, judge_warning)
            too_many_invalid = warn_if_mostly_invalid(con, run_id, settings.max_invalid_share)
            drifted = warn_if_mostly_quarantined(con, run_id, settings.max_quarantine_share)
    except BaseException as exc:
        _end_unfinished_completion(con, run_id, started, exc, marked=marked)
        raise
    # every check the run's rows failed: the run line names them all, up to its limit
    checks = top_quarantine_checks(con, run_id, limit=EVERY_CHECK)
    row = {**run_row(con, run_id), "quarantine_checks": checks}
    # Last: a checkpoint the disk is too full for leaves the connection unusable (DuckDB
    # invalidates the database; its WAL, every batch, is replayed by the next open).
    if settings.snapshot and not settings.dry_run:
        write_snapshot(con, settings.db)
    # the source comes first: its rows never reached the judge
    alarm = (
        QuarantineShareExceeded(drifted)
        if drifted
        else TooManyInvalid(too_many_invalid)
        if too_many_invalid
        else None
    )
    if alarm is not None and not settings.dry_run:
        alarm.run = row  # the CLI prints the run line before the error
        raise alarm
    # A dry run's estimate is printed first; its caller raises the alarm after it.
    return {**row, "dry_run_alarm": alarm} if settings.dry_run else row


def _end_unfinished_completion(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    started: float,
    exc: BaseException,
    *,
    marked: bool,
) -> None:
    """A completion cut short: the failure that a stop held meanwhile is raised over is
    logged (its line would be lost), and a row not marked yet says `interrupted` or
    `failed`, never `running` until a later run supersedes it."""
    failure = exc.__context__
    if stopping_signal(exc) is not None and isinstance(failure, Exception):
        log.warning("run %s: %s, as it stopped", run_id, describe(failure))
    if not marked:
        with signals_deferred():
            mark_stopped(con, run_id, started, exc)


def mark_stopped(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    started: float,
    exc: BaseException,
    *,
    spent: dict[str, int] | None = None,
) -> None:
    """The run row says `interrupted` (a signal) or `failed` (with the reason), and, given the
    judge's usage over the run (`spent`), counts the calls and tokens of batches it did not
    commit as well: they were paid for. A failure to mark (the disk that failed the write) is
    reported; the next run supersedes the row."""
    stopped_by = stopping_signal(exc)
    if stopped_by:
        status, error = "interrupted", f"interrupted by {stopped_by}"
    else:
        status, error = "failed", describe(exc)
    try:
        if spent:
            count_unbatched_usage(con, run_id, spent)
        finish_run(con, run_id, status, time.perf_counter() - started, error=error)
    except Exception as mark_error:
        log.warning("could not mark run %s %s: %s", run_id, status, describe(mark_error))


def describe(exc: BaseException) -> str:
    """An exception as one line's start: its class and message, scrubbed as the cases'
    errors are (a judge's crash may quote its key, and what its model wrote)."""
    return scrub(f"{type(exc).__name__}: {exc}", model_text=True)
