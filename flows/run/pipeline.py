"""A scoring run, start to end: read, validate, score and write batch by batch.

`run_score` is plain Python: the Prefect flow passes task-wrapped steps, the fast ad-hoc route
passes the plain functions. Either way, each batch commits in one transaction and the run is
marked completed only after its last batch.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs import Judge, MetricConfig
from flows.errors import (
    DatabaseWriteFailed,
    JudgeEndpointError,
    QuarantineShareExceeded,
    TooManyInvalid,
)
from flows.judges.factory import build_judge, close_judge, judge_protocol
from flows.read.duplicates import DuplicatePlan
from flows.read.source import (
    Source,
    count_rows,
    duplicated_case_ids,
    iter_batches,
    orphan_rows,
    resolve_source,
)
from flows.run.alarms import warn_if_mostly_invalid, warn_if_mostly_quarantined
from flows.run.batches import (
    Batch,
    QuarantineKeys,
    ScoredBatch,
    ValidatedRows,
    classify,
    config_has_cases,
    score_batch,
    validate_batch,
)
from flows.run.calibration import with_calibration
from flows.run.progress import LogProgress, Progress
from flows.run.settings import ScoreSettings
from flows.run.stage import Stage
from flows.run.stop_signals import as_stop, signals_deferred, stopping_signal
from flows.store.batch_writes import write_batch
from flows.store.db import (
    DISK_ERRORS,
    OUT_OF_MEMORY,
    database_fault,
    limit_memory,
    open_store,
    write_snapshot,
)
from flows.store.judge_memory import record_run_judge
from flows.store.run_costs import count_dry_batch, price_run, top_quarantine_checks
from flows.store.run_registry import finish_run, run_row, start_run, supersede_dead_runs
from flows.waits import result_of, result_unless
from schemas import CONTRACT_TYPES, SizeLimits

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")

# Batches queued for writing behind the one being written, before reading waits.
_QUEUED_WRITES = 2
# A stopping run exits within 5 s of the signal or failure: the batch being committed gets
# this long to finish, then it is interrupted (rolled back), and the run row is marked.
_COMMIT_GRACE_SECONDS = 2.0
_ROLLBACK_GRACE_SECONDS = 1.0
# ... and the batch being scored this long to notice, before the judge is closed under it.
_SCORING_GRACE_SECONDS = 0.5
# Before each commit the memory limit gets room for the keys stored so far and those the batch
# adds: its quarantine rows, and judge_cache entries, at most this many a judge call (a packed
# call answers up to 8 items by default). A batch that adds no key adds no room.
_CACHED_KEYS_PER_CALL = 16


@dataclass(frozen=True)
class Steps:
    """The batch steps a run calls; the Prefect flow swaps in task-wrapped versions."""

    validate: Callable[..., ValidatedRows] = validate_batch
    score: Callable[..., ScoredBatch] = score_batch
    write: Callable[..., float] = write_batch


@dataclass
class RunState:
    """What a run in progress holds between batches."""

    con: duckdb.DuckDBPyConnection
    run_id: str
    config_id: str
    config: MetricConfig
    judge: Judge
    steps: Steps
    progress: Progress
    keys: QuarantineKeys = field(default_factory=QuarantineKeys)
    limits: SizeLimits = field(default_factory=SizeLimits)
    db: str = "the database"  # its path, for the error lines
    # Three stages on three threads, so each core always has work (polars and DuckDB release
    # the GIL): this thread reads, validates and classifies batch N+2 while the scoring
    # thread scores N+1 and the writing thread commits N. One thread each: judges see one
    # batch at a time, and batches commit in order. Every future they hand out ends, so no
    # wait here can hang on a cancelled one (concurrent.futures' executors never report a
    # future cancelled by shutdown to `wait`).
    scorer: Stage = field(default_factory=lambda: Stage("faithpipe-score"))
    writer: Stage = field(default_factory=lambda: Stage("faithpipe-write"))
    writes: deque[Future[None]] = field(default_factory=deque)
    # Batches handed to the writer so far: each write knows its number, so a retried write
    # of a committed batch adds nothing.
    submitted: int = 0
    # The scoring of the latest batch, so stopping can give it a moment before closing the judge.
    scoring: Future[Any] | None = None
    # Set when a batch fails or the run is interrupted: no later batch is scored (no judge call
    # is paid for a batch that would not be committed) ...
    stop_scoring: threading.Event = field(default_factory=threading.Event)
    # ... or committed. Batches before a failed one are still committed, in order.
    stop_writing: threading.Event = field(default_factory=threading.Event)
    # Held by the writing thread while it uses `con`; a stopping run takes it (and keeps it),
    # so no batch starts committing after the run was marked.
    con_lock: threading.Lock = field(default_factory=threading.Lock)
    # This thread's cursor for classifying; `con` is the writing thread's. One connection
    # must never serve two threads at once: their statements would share one transaction.
    reader: duckdb.DuckDBPyConnection = field(init=False)
    # Whether the config had cases stored when the run began; if not, classifying a batch
    # only hashes it (a run's batches never share a case_id).
    stored_before: bool = field(init=False)

    def __post_init__(self) -> None:
        self.reader = self.con.cursor()
        self.stored_before = config_has_cases(self.con, self.config_id)


def run_score(
    settings: ScoreSettings,
    *,
    steps: Steps | None = None,
    progress: Progress | None = None,
    judge: Judge | None = None,
) -> dict[str, Any]:
    """Score SOURCE into the database; returns the run's row of `runs`.

    The source is resolved and every file's footer checked before the database is touched:
    an unreadable file or a missing column fails the run and writes nothing.
    """
    # A dry run writes nothing but its own row of `runs`.
    steps = (
        replace(steps or Steps(), write=count_dry_batch) if settings.dry_run else steps or Steps()
    )
    progress = progress or LogProgress()
    started = time.perf_counter()
    source = resolve_source(settings.source, settings.read_options())
    total = count_rows(source)
    duplicates = duplicated_case_ids(source)
    con = open_store(dry_run_db(settings), lock_timeout=settings.lock_timeout)
    owned = judge is None  # a judge the caller passed in stays open for the caller
    try:
        _supersede_unless_dry(con, settings)
        settings = with_calibration(settings, con)  # --calibration NAME: its cut-offs
        judge = judge or build_judge(settings.judge, con, dry_run=settings.dry_run)
        config = settings.metric_config()
        config_id = config.config_id(judge.identity)
        run_id = start_run(
            con,
            flow=settings.flow,
            config_id=config_id,
            config=settings.describe(judge.identity.as_dict()),
            source=source.spec,
        )
        _price(con, run_id, settings)
        try:
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
            with signals_deferred():
                mark_stopped(con, run_id, started, exc)
            raise
        try:
            progress.start(total, f"run {run_id} ({config_id}) of {settings.source}")
            _score_all(state, source, duplicates, settings.batch_size)
        except BaseException as exc:
            con_free, judge_idle = _stop_and_mark(state, started, exc)
            owned = owned and judge_idle
            if not con_free:
                # The writing thread is stuck inside DuckDB: closing the connection under it
                # could crash; the process exit ends both.
                con = None
            stop = as_stop(exc)
            if stop is not None and stop is not exc:
                raise stop from exc  # a signal DuckDB reworded while a query ran
            raise
        finally:
            _close_stages(state)
        return complete_run(con, run_id, settings, started, judge_protocol(judge))
    finally:
        if owned and judge is not None:
            _close_judge_quietly(judge)
        if con is not None:
            con.close()


def dry_run_db(settings: ScoreSettings) -> str:
    """The database a run opens: a dry run of a database that does not exist yet reads an
    empty one in memory (nothing stored, nothing cached) instead of creating the file."""
    if settings.dry_run and not Path(settings.db).exists():
        return ":memory:"
    return settings.db


def _supersede_unless_dry(con: duckdb.DuckDBPyConnection, settings: ScoreSettings) -> None:
    """Mark dead runs superseded, unless this is a dry run (which writes no other row)."""
    if not settings.dry_run:
        supersede_dead_runs(con)


def _price(con: duckdb.DuckDBPyConnection, run_id: str, settings: ScoreSettings) -> None:
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
) -> dict[str, Any]:
    """Every batch is committed: mark the run completed with the LLM judge's structured-output
    mode and estimated-token calls, check its quarantine and invalid shares, write the readers'
    snapshot if asked; returns the run's row with its top quarantine checks (raises
    QuarantineShareExceeded or TooManyInvalid past a share)."""
    with signals_deferred():
        finish_run(con, run_id, "completed", time.perf_counter() - started)
        record_run_judge(con, run_id, *judge_protocol)
        too_many_invalid = warn_if_mostly_invalid(con, run_id, settings.max_invalid_share)
        drifted = warn_if_mostly_quarantined(con, run_id, settings.max_quarantine_share)
    if settings.snapshot and not settings.dry_run:
        write_snapshot(con, settings.db)
    if drifted:  # the source comes first: its rows never reached the judge
        raise QuarantineShareExceeded(drifted)
    if too_many_invalid:
        raise TooManyInvalid(too_many_invalid)
    return {**run_row(con, run_id), "quarantine_checks": top_quarantine_checks(con, run_id)}


def _stop_and_mark(state: RunState, started: float, exc: BaseException) -> tuple[bool, bool]:
    """Stop the run's threads and mark its row; returns whether the connection is free for
    this thread and whether the judge is idle (so it may be closed)."""
    with signals_deferred():
        con_free = _stop(state)
        judge_idle = con_free and _scoring_ended(state)
        # When the writing thread still holds the connection, a cursor of its own tries.
        con = state.con if con_free else state.con.cursor()
        mark_stopped(con, state.run_id, started, exc)
    return con_free, judge_idle


def _close_stages(state: RunState) -> None:
    """Every batch is committed, or the stop is handled: a signal now cannot cut the run's last
    steps short (they take milliseconds)."""
    with signals_deferred():
        state.scorer.close()
        state.writer.close()
        state.reader.close()
        state.progress.stop()


def _stop(state: RunState) -> bool:
    """Stop scoring and writing; returns whether this thread may use the connection (the
    batch being committed finished or was rolled back in time)."""
    state.stop_scoring.set()
    state.stop_writing.set()
    stop = getattr(state.judge, "stop", None)  # a judge that calls out gives up its waits
    if callable(stop):
        stop()
    if state.con_lock.acquire(timeout=_COMMIT_GRACE_SECONDS):
        return True
    log.warning("stopping: the batch being committed is rolled back")
    state.con.interrupt()
    return state.con_lock.acquire(timeout=_ROLLBACK_GRACE_SECONDS)


def _scoring_ended(state: RunState) -> bool:
    """Whether the judge is idle, so closing it cannot pull it from under a batch."""
    scoring = state.scoring
    if scoring is None or scoring.done():
        return True
    try:
        scoring.exception(timeout=_SCORING_GRACE_SECONDS)
    except TimeoutError:
        log.warning("stopping: the judge is still busy; its unflushed cache entries are lost")
        return False
    return True


def mark_stopped(
    con: duckdb.DuckDBPyConnection, run_id: str, started: float, exc: BaseException
) -> None:
    """The run row says `interrupted` (a signal) or `failed` (with the reason). A failure to
    mark (the disk that failed the write) is reported; the next run supersedes the row."""
    stopped_by = stopping_signal(exc)
    if stopped_by:
        status, error = "interrupted", f"interrupted by {stopped_by}"
    else:
        status, error = "failed", _describe(exc)
    try:
        finish_run(con, run_id, status, time.perf_counter() - started, error=error)
    except Exception as mark_error:
        log.warning("could not mark run %s %s: %s", run_id, status, _describe(mark_error))


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


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
            f"({_describe(exc).splitlines()[0]}); committed batches are safe: lower "
            "--max-answer-bytes, --max-context-bytes or --batch-size, then run again"
        ) from exc
    # A copied context lets Prefect tasks run in the other threads.
    scoring = state.scorer.submit(
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
    state.scoring = scoring
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
            limit_memory(state.con, adding=adding)
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
                    f"was kept ({_describe(exc).splitlines()[0]}); committed batches are safe: "
                    "free disk space or fix the database's disk, then run again"
                ) from exc
            except OUT_OF_MEMORY as exc:
                raise DatabaseWriteFailed(
                    f"{state.run_id}: DuckDB ran out of memory committing a batch of "
                    f"{batch.rows_in:,} rows, none of it was kept "
                    f"({_describe(exc).splitlines()[0]}); committed batches are safe: "
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
