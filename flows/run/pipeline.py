"""A scoring run, start to end: read, validate, score and write batch by batch.

`run_score` is plain Python: the Prefect flow passes task-wrapped steps, the fast ad-hoc route
passes the plain functions. Either way, each batch commits in one transaction and the run is
marked completed only after its last batch.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import os
import time
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs import Judge
from flows.errors import DatabaseWriteFailed, JudgeEndpointError
from flows.judges.factory import build_judge, close_judge, judge_protocol, refuse_unbuildable
from flows.read.duplicates import DuplicatePlan
from flows.read.source import (
    Source,
    check_unchanged,
    count_rows,
    duplicated_case_ids,
    even_batch_size,
    iter_batches,
    orphan_rows,
    resolve_source,
    said_if_changed,
)
from flows.run.batches import (
    Batch,
    classify,
    validate_batch,
)
from flows.run.calibration import check_calibration_database, with_calibration
from flows.run.progress import LogProgress, Progress
from flows.run.remembered_judge import remembered_judge
from flows.run.run_end import (
    complete_run,
    describe,
    dry_run_db,
    mark_stopped,
    price,
    supersede_unless_dry,
)
from flows.run.run_state import RunState, Steps, is_pure_judge
from flows.run.settings import ScoreSettings
from flows.run.stop_signals import as_stop, signals_deferred, stops_held
from flows.run.stopping import close_stages, stop_and_mark
from flows.scrub import register_secret
from flows.store.batch_writes import commit_bytes
from flows.store.db import (
    DISK_ERRORS,
    OUT_OF_MEMORY,
    database_fault,
    limit_memory,
    open_store,
)
from flows.store.run_costs import count_dry_batch
from flows.store.run_registry import run_row, start_run
from flows.waits import result_of, result_unless
from schemas import CONTRACT_TYPES, ScoredBatch, SizeLimits

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")

# Batches queued for writing behind the one being written, before reading waits.
_QUEUED_WRITES = 2
# Before each commit the memory limit gets room for the keys stored so far and those the batch
# adds: its quarantine rows, and judge_cache entries, at most this many a judge call (a packed
# call answers up to 8 items by default). A batch that adds no key adds no room.
_CACHED_KEYS_PER_CALL = 16


def run_score(
    settings: ScoreSettings,
    *,
    steps: Steps | None = None,
    progress: Progress | None = None,
    judge: Judge | None = None,
    read: tuple[Source, int, pl.DataFrame] | None = None,
) -> dict[str, Any]:
    """Score SOURCE into the database; returns the run's row of `runs`.

    The source is resolved and every file's footer checked before the database is touched:
    an unreadable file or a missing column fails the run and writes nothing. `read`: that
    read (`read_before_writing`), when the caller made it already (a night, before its judge
    check), so the input is not read through twice.
    """
    # A dry run writes nothing but its own row of `runs`.
    steps = (
        replace(steps or Steps(), write=count_dry_batch) if settings.dry_run else steps or Steps()
    )
    progress = progress or LogProgress()
    started = time.perf_counter()
    source, total, duplicates = read or read_before_writing(settings)
    if judge is not None:  # a judge of the caller's: its key is registered by no endpoint
        # of ours, and is cut out of the cases' errors (score_batch) as an endpoint's is
        register_secret(os.environ.get(settings.judge.api_key_env), key=True)
    else:
        refuse_unbuildable(settings.judge, dry_run=settings.dry_run)  # before the database
    con = _open_run_store(settings)
    con_free = True
    owned = judge is None  # a judge the caller passed in stays open for the caller
    try:
        # --calibration NAME: its cut-offs, read before anything is written (a refused one,
        # exit 2, leaves the database as it was)
        settings = with_calibration(settings, con)
        supersede_unless_dry(con, settings)
        if judge is None:  # the judge mode and --timeout judge-check found, unless given
            settings = remembered_judge(settings, con)
        judge = judge or build_judge(settings.judge, con, dry_run=settings.dry_run)
        config = settings.metric_config()
        config_id = config.config_id(judge.identity)
        run_id = None
        try:
            # A stop signal during start_run waits until its row is in and its id known, and
            # a stop from then on marks the row (where the handler in place raises one:
            # faithpipe's, Prefect's): a Ctrl-C just after start-up (the first import in
            # price()) left it `running` for good.
            with stops_held():
                run_id = start_run(
                    con,
                    flow=settings.flow,
                    config_id=config_id,
                    config=settings.describe(judge.identity.as_dict()),
                    source=source.spec,
                )
            price(con, run_id, settings)
            limits = settings.size_limits()
            state = RunState(
                con,
                run_id,
                config_id,
                config,
                judge,
                steps,
                progress,
                limits=limits,
                db=settings.db,
            )
        except BaseException as exc:
            if run_id is not None:
                with signals_deferred():
                    mark_stopped(con, run_id, started, exc)
            raise
        try:
            progress.start(total, f"run {run_id} ({config_id}) of {settings.source}")
            _score_all(state, source, duplicates, even_batch_size(total, settings.batch_size))
        except BaseException as exc:
            # Not con_free: the writing thread is stuck inside DuckDB, and closing the
            # connection under it could crash; the process exit ends both.
            con_free, judge_idle = _stop_run(state, started, exc)
            # Nor while a judge built here is still busy: its caches' cursors are children of
            # `con`, and DuckDB refuses to close a connection one of them is using ("connection
            # is busy with another call"), which would replace the run's own error. An offline
            # judge holds none: a batch it is still scoring (a loaded machine: past the grace)
            # cannot stop the close, which lets the caller open the file again at once.
            con_free = con_free and (judge_idle or not owned or is_pure_judge(judge))
            owned = owned and judge_idle
            stop = as_stop(exc)
            if stop is not None and stop is not exc:
                raise stop from exc  # a signal DuckDB reworded while a query ran
            raise
        # Every batch is in: a stop (or the deadline) now waits until the stages are closed
        # and the run's row says completed, then is raised (exit 130/143/14; nightly's check
        # is left to its re-run).
        return complete_run(
            con,
            run_id,
            settings,
            started,
            judge_protocol(judge),
            judge_warning=getattr(judge, "run_warning", None),
            first=lambda: close_stages(state, deferring=False),
        )
    finally:
        if owned and judge is not None:
            _close_judge_quietly(judge)
        if con_free:
            con.close()


def read_before_writing(settings: ScoreSettings) -> tuple[Source, int, pl.DataFrame]:
    """SOURCE resolved, its rows counted and its duplicated case_ids found: the reads that
    refuse an unreadable input (exit 3: a missing column, a malformed line, a chat log with
    no time) before any database is made or touched."""
    source = resolve_source(settings.source, settings.read_options())
    with said_if_changed(source.stamps, source.all_files):  # removed as it was counted
        counted, duplicated = count_rows(source), duplicated_case_ids(source)
    check_unchanged(source.stamps, source.all_files)  # written to as it was counted: exit 3
    return source, counted, duplicated


def _stop_run(state: RunState, started: float, exc: BaseException) -> tuple[bool, bool]:
    """stop_and_mark, then the stages closed whatever it raised (a second stop is noted)."""
    try:
        return stop_and_mark(state, started, exc)
    finally:
        close_stages(state)


def _open_run_store(settings: ScoreSettings) -> duckdb.DuckDBPyConnection:
    """The run's database (a dry run's stand-in), once a `--calibration` it names could be
    stored there: a refused run creates no file."""
    check_calibration_database(settings)
    return open_store(dry_run_db(settings), lock_timeout=settings.lock_timeout)


def _close_judge_quietly(judge: Judge) -> None:
    """Flush and close a judge the run built. Its results are committed already; a failed
    flush only loses cache entries, so it is reported, not raised over the run's outcome."""
    try:
        close_judge(judge)
    except Exception as exc:
        log.warning("closing the judge failed (some cached answers may be lost): %s", exc)


def _score_all(state: RunState, source: Source, duplicates: pl.DataFrame, batch_size: int) -> None:
    """Gather rows read (valid and quarantined) into batches of `batch_size` and hand each on
    as it fills: a source of bad rows is quarantined batch by batch, not in one transaction.
    Duplicated case_ids are resolved on the way (flows/read/duplicates.py), never held back."""
    batch = Batch()
    orphans = orphan_rows(source)
    if orphans.height:
        batch.quarantined.append(state.keys.keyed(orphans))
    plan = _duplicate_plan(source, duplicates, batch_size, state.limits)
    clock = time.perf_counter()
    for raw in iter_batches(source, batch_size):
        batch.seconds_read += time.perf_counter() - clock
        rows = state.steps.validate(raw, state.limits)
        batch.seconds_validate += rows.seconds
        valid = rows.valid
        if plan is not None:
            valid, copies = plan.resolve(valid)
            batch.quarantined.append(state.keys.keyed(copies))
        batch.valid.append(valid)
        batch.quarantined.append(state.keys.keyed(rows.quarantined))
        while batch.rows_in >= batch_size:
            full, batch = batch.split(batch_size)
            _process(state, full)
        clock = time.perf_counter()
    if batch.rows_in:
        _process(state, batch)
    _drain(state)


def _duplicate_plan(
    source: Source, duplicates: pl.DataFrame, batch_size: int, limits: SizeLimits
) -> DuplicatePlan | None:
    """How repeated case_ids are resolved; with `--case-id content` a repeated id is a
    repeated content, so every copy after the first is an exact copy."""
    if not duplicates.height:
        return None
    if source.options.case_id == "content":
        return DuplicatePlan(duplicates["case_id"].clear(), duplicates["case_id"])
    return DuplicatePlan.of(
        duplicates,
        iter_batches(source, batch_size),
        functools.partial(validate_batch, limits=limits),
    )


def _process(state: RunState, batch: Batch) -> None:
    """Classify a batch here, then queue its scoring and its write; wait only when two
    batches are already queued behind the one being written (memory stays bounded)."""
    if state.stop_scoring.is_set():
        _drain(state)  # raises the failure that stopped the run
    cases = pl.concat(batch.valid, how="vertical_relaxed") if batch.valid else no_cases()
    quarantined = pl.concat(batch.quarantined, how="vertical_relaxed")
    if cases.height == 0:
        cases = no_cases()
    # Batches never share a case_id (one copy of a duplicated id is kept), so classifying
    # one before the previous is written cannot miss a row.
    try:
        classified = classify(
            state.reader, cases, state.config_id, stored_before=state.stored_before
        )
    except OUT_OF_MEMORY as exc:
        raise DatabaseWriteFailed(
            f"{state.run_id}: DuckDB ran out of memory hashing a batch of {batch.rows_in:,} rows "
            f"({describe(exc).splitlines()[0]}); committed batches are safe: lower "
            "--max-answer-bytes, --max-context-bytes or --batch-size, then run again"
        ) from exc
    # A copied context lets Prefect tasks run in the other threads.
    scorer = state.scorers[state.submitted % len(state.scorers)]
    scoring = scorer.submit(
        contextvars.copy_context().run,
        _score_unless_stopped,
        state,
        cases,
        classified,
        quarantined,
    )
    state.submitted += 1
    writing = state.writer.submit(
        contextvars.copy_context().run, _write_scored, state, scoring, batch, state.submitted
    )
    state.scorings.append(scoring)
    state.writes.append(writing)
    while len(state.writes) > _QUEUED_WRITES or (state.writes and state.writes[0].done()):
        result_of(state.writes.popleft())  # raises the first failure, in batch order


def _score_unless_stopped(
    state: RunState, cases: pl.DataFrame, classified: pl.DataFrame, quarantined: pl.DataFrame
) -> ScoredBatch:
    """In the scoring thread: score the batch, unless the run has stopped."""
    if state.stop_scoring.is_set():
        raise RuntimeError("not scored: the run stopped")
    try:
        return state.steps.score(cases, classified, quarantined, state.judge, state.config)
    except BaseException:
        state.stop_scoring.set()
        raise


def _write_scored(
    state: RunState, scoring: Future[ScoredBatch], batch: Batch, batch_no: int
) -> None:
    """In the writing thread: once the batch is scored, write it in one transaction, then
    report progress."""
    try:
        scored = result_unless(scoring, state.stop_writing, "not written: the run stopped")
        with state.con_lock:
            if state.stop_writing.is_set():  # stopped while this batch was being scored
                raise RuntimeError("not written: the run stopped")
            # Room for the PRIMARY KEY indexes' keys the run added so far and this batch's.
            adding = batch.rows_quarantined + _CACHED_KEYS_PER_CALL * scored.spent["calls"]
            limit_memory(state.con, adding=adding, writing=commit_bytes(scored))
            try:
                state.steps.write(
                    state.con,
                    scored,
                    run_id=state.run_id,
                    config_id=state.config_id,
                    config=state.config,
                    seconds={"read": batch.seconds_read, "validate": batch.seconds_validate},
                    batch_no=batch_no,
                )
            # The disk said no (full, read-only, failing): see store.db.DISK_ERRORS.
            except DISK_ERRORS as exc:
                fault = database_fault(exc, state.db)  # read-only or corrupt: 12 or 13
                raise fault or DatabaseWriteFailed(
                    f"{state.run_id}: writing a batch of {batch.rows_in:,} rows failed, none of it "
                    f"was kept ({describe(exc).splitlines()[0]}); committed batches are safe: "
                    "free disk space or fix the database's disk, then run again"
                ) from exc
            except OUT_OF_MEMORY as exc:
                raise DatabaseWriteFailed(
                    f"{state.run_id}: DuckDB ran out of memory committing a batch of "
                    f"{batch.rows_in:,} rows, none of it was kept "
                    f"({describe(exc).splitlines()[0]}); committed batches are safe: "
                    "lower --batch-size or free memory, then run again"
                ) from exc
            run = run_row(state.con, state.run_id)
        state.progress.advance(batch.rows_in, run)
        fatal = getattr(state.judge, "fatal_error", None)
        if fatal:
            # The endpoint refuses every call (key, model, URL): stop instead of marking
            # every remaining case invalid. This batch's invalid cases are retried next run.
            raise JudgeEndpointError(fatal)
    except BaseException:
        state.stop_scoring.set()
        state.stop_writing.set()
        raise


def _drain(state: RunState) -> None:
    """Wait for every queued write, oldest first."""
    while state.writes:
        result_of(state.writes.popleft())


def no_cases() -> pl.DataFrame:
    """A batch with no valid rows: the contract's columns, as validation leaves them."""
    return pl.DataFrame(schema={**CONTRACT_TYPES, "segments": pl.String, "source_file": pl.String})
