"""A scoring run on a Dask cluster: the flow process plans, snapshots and is the only writer;
each partition is scored by a task on a worker, which writes a shard; shards are loaded in
partition order, one transaction each, as their tasks finish.

Results equal `--engine local`'s: the same partitions-as-batches, the same classification
(against a snapshot taken as the run starts, which a run's own batches never change: they
never share a case_id), the same duplicate rule and quarantine keys.
"""

from __future__ import annotations

import logging
import shutil
import time
import uuid
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs import MetricConfig
from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import ConfigError
from flows.engines.loading import (
    QuarantineNumbers,
    keep_unloaded_replies,
    load_shard,
)
from flows.engines.partition_task import PartitionJob
from flows.engines.partitions import duplicate_rules, plan_partitions
from flows.engines.shared_items import ask_shared_items
from flows.engines.submitters import Submitter
from flows.errors import JudgeEndpointError
from flows.judges.endpoint.breaker import LEFT_PENDING
from flows.judges.factory import build_judge, close_judge, refuse_unbuildable
from flows.read.source import (
    Source,
    check_unchanged,
    count_rows,
    duplicated_case_ids,
    resolve_source,
    said_if_changed,
)
from flows.run.batches import config_has_cases
from flows.run.calibration import check_calibration_database, with_calibration
from flows.run.progress import LogProgress, Progress
from flows.run.remembered_judge import remembered_judge
from flows.run.run_end import complete_run, mark_stopped
from flows.run.settings import ScoreSettings
from flows.run.stop_signals import as_stop, signals_deferred, stops_held
from flows.store.db import open_store
from flows.store.run_costs import price_run
from flows.store.run_registry import run_row, start_run, supersede_dead_runs
from flows.store.shard_data import write_case_states, write_stored_replies
from flows.store.stale_shards import salvage_stale_shards, shard_root

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")


def run_score_on_dask(
    settings: ScoreSettings,
    submitter: Submitter,
    *,
    progress: Progress | None = None,
    source: Source | None = None,
) -> dict[str, Any]:
    """Score SOURCE on the cluster behind `submitter`; returns the run's row of `runs`.
    `source`: SOURCE as require_dask_source found it (its files are not listed again)."""
    progress = progress or LogProgress()
    started = time.perf_counter()
    source = source or require_dask_source(settings)
    total, duplicated = _read_before_writing(source)
    con = _open_run_store(settings)
    # A stopping run's clean-up (the store's close is its checkpoint) notes a second stop
    # instead of raising it: a SIGTERM after Ctrl-C made the exit 143 under a SIGINT row.
    stopping = False
    try:
        supersede_dead_runs(con)
        settings = with_calibration(settings, con)  # workers get the cut-offs, not the name
        settings = remembered_judge(settings, con)  # and the judge mode judge-check found
        root = shard_root(settings.db)
        salvage_stale_shards(con, root)
        config = settings.metric_config()
        identity = _judge_identity(settings)
        config_id = config.config_id(identity)
        run_id: str | None = None
        folder: Path | None = None
        handles: list[Any] = []
        leave_folder = False
        try:
            # As a local run's (flows/run/pipeline.py): a stop from the row's insert on
            # marks it, never leaves it `running`.
            with stops_held():
                run_id = _start(con, settings, source, config_id, identity)
            _price(con, settings, run_id)
            folder = root / run_id
            progress.start(total, f"run {run_id} ({config_id}) of {settings.source} on Dask")
            jobs = _plan(
                con,
                settings,
                source,
                duplicated,
                folder=folder,
                config=config,
                config_id=config_id,
                run_id=run_id,
            )
            handles = [submitter.submit(job) for job in jobs]
            numbers = QuarantineNumbers()
            for job, handle in zip(jobs, handles, strict=True):
                shard = load_shard(
                    con,
                    _shard_read(submitter, handle, job, settings, source),
                    job.partition.number,
                    run_id=run_id,
                    config_id=config_id,
                    config=config,
                    numbers=numbers,
                )
                progress.advance(shard.scored.counts["rows_in"], run_row(con, run_id))
                if shard.fatal:
                    raise _refused(shard.fatal)
        except BaseException as exc:
            stopping = True
            with signals_deferred():
                submitter.cancel(handles)
                leave_folder = _mark_stopped(con, run_id, folder, started, exc)
            stop = as_stop(exc)
            if stop is not None and stop is not exc:
                raise stop from exc  # a signal DuckDB reworded while a shard loaded
            raise
        finally:
            with _while_stopping(stopping):
                _clean_up(progress, None if leave_folder else folder)
        return complete_run(con, run_id, settings, started)
    finally:
        _close_store(con, stopping)


def _read_before_writing(source: Source) -> tuple[int, pl.DataFrame]:
    """SOURCE's rows counted and its duplicated case_ids found, its files unchanged since
    they were listed (flows/read/file_stamps.py), before the database is touched."""
    with said_if_changed(source.stamps, source.all_files):
        total, duplicated = count_rows(source), duplicated_case_ids(source)
    check_unchanged(source.stamps, source.all_files)
    return total, duplicated


def _shard_read(
    submitter: Submitter, handle: Any, job: PartitionJob, settings: ScoreSettings, source: Source
) -> Path:
    """The partition's shard, once its files are found as they were listed: a file written
    or renamed over since is exit 3, the rows its worker read not loaded (a local run's rule)."""
    shard = Path(submitter.result(handle, settings.task_timeout))
    check_unchanged(source.stamps, [Path(piece.path) for piece in job.partition.pieces])
    return shard


def _while_stopping(stopping: bool) -> AbstractContextManager[None]:
    """Further stop signals noted, not raised, while a stopping run cleans up."""
    return signals_deferred() if stopping else nullcontext()


def _close_store(con: duckdb.DuckDBPyConnection, stopping: bool) -> None:
    """The run's store closed (its checkpoint); a stopping run's hears no further stop."""
    with _while_stopping(stopping):
        con.close()


def _clean_up(progress: Progress, folder: Path | None) -> None:
    """The run's progress ended and its shard folder (unless it must stay) removed."""
    progress.stop()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _open_run_store(settings: ScoreSettings) -> duckdb.DuckDBPyConnection:
    """The run's database, once a `--calibration` it names could be stored there: a refused
    run creates no file, nor does a judge no run could build (flows/judges/factory.py)."""
    check_calibration_database(settings)
    refuse_unbuildable(settings.judge, dry_run=settings.dry_run)
    return open_store(settings.db, lock_timeout=settings.lock_timeout)


def require_dask_source(settings: ScoreSettings) -> Source:
    """SOURCE, refused (ConfigError, exit 2) when Dask does not read it, before a cluster is
    started or joined, the database made or a judge asked: at a scheduler with no worker yet,
    the refusal waited --task-timeout and became exit 10."""
    source = resolve_source(settings.source, settings.read_options())
    _require_one_parquet_table(settings, source)
    return source


def _require_one_parquet_table(settings: ScoreSettings, source: Source) -> None:
    """--engine dask reads one wide Parquet table with its own names (ConfigError if not)."""
    options = source.options
    if (
        source.form != "wide"
        or not source.all_parquet
        or options.columns
        or options.case_id != "given"
    ):
        raise ConfigError(
            f"{settings.source}: --engine dask reads one Parquet cases table with its own "
            "column names; score the three-table form, conversations, CSV or JSON, --columns "
            "and --case-id content with --engine local"
        )


def _mark_stopped(
    con: duckdb.DuckDBPyConnection,
    run_id: str | None,
    folder: Path | None,
    started: float,
    exc: BaseException,
) -> bool:
    """Mark a stopped run's row (once it is in) and keep its shards' paid replies; returns
    whether the shard folder must stay for the next run to salvage."""
    if run_id is not None:
        mark_stopped(con, run_id, started, exc)
    # Shards finished but not loaded hold replies paid for: into judge_cache now (or,
    # failing that, left for the next run to salvage).
    return folder is not None and not keep_unloaded_replies(con, folder)


def _judge_identity(settings: ScoreSettings) -> JudgeIdentity:
    """The run's judge identity, from a judge built only for it (workers build their own)."""
    probe = build_judge(settings.judge)
    identity = probe.identity
    close_judge(probe)
    return identity


def _start(
    con: duckdb.DuckDBPyConnection,
    settings: ScoreSettings,
    source: Source,
    config_id: str,
    identity: JudgeIdentity,
) -> str:
    """The run's row of `runs`, as a local run's; returns its run_id."""
    return start_run(
        con,
        flow=settings.flow,
        config_id=config_id,
        config=settings.describe(identity.as_dict()),
        source=source.spec,
    )


def _price(con: duckdb.DuckDBPyConnection, settings: ScoreSettings, run_id: str) -> None:
    """The run's prices per million tokens (its cost follows at its end)."""
    price_input, price_output = settings.prices()
    price_run(
        con, run_id, price_input_usd=price_input, price_output_usd=price_output, dry_run=False
    )


def _plan(
    con: duckdb.DuckDBPyConnection,
    settings: ScoreSettings,
    source: Source,
    duplicated: pl.DataFrame,
    *,
    folder: Path,
    config: MetricConfig,
    config_id: str,
    run_id: str,
) -> list[PartitionJob]:
    """The run's partitions as jobs, with the snapshots they read in the run's shard folder:
    what is stored under the config (when anything is) and the LLM judge's stored replies,
    taken once the items more than one partition asks are asked (shared_items.py)."""
    folder.mkdir(parents=True)
    partitions = plan_partitions(source, settings.batch_size)
    root = str(source.root) if source.root else None
    limits = settings.size_limits()
    rules = duplicate_rules(duplicated, partitions, root, limits) if duplicated.height else {}
    case_states = replies = semaphore = None
    if config_has_cases(con, config_id):
        case_states = str(folder / "case_states.parquet")
        write_case_states(con, config_id, Path(case_states))
    jobs = [
        PartitionJob(
            partition=partition,
            root=root,
            shards=str(folder),
            judge=settings.judge,
            config=config,
            case_states=case_states,
            replies=None,
            semaphore=None,
            duplicates=rules.get(partition.number),
            limits=limits,
        )
        for partition in partitions
    ]
    if settings.judge.kind != "openai":
        return jobs
    # The items partitions share, asked once here: the replies' snapshot then holds them.
    shared = ask_shared_items(
        con, settings.judge, jobs, config, run_id=run_id, prepaid=folder / "prepaid.parquet"
    )
    if shared.fatal:  # the flow process's judge has said it, as the local engine's does
        raise JudgeEndpointError(shared.fatal)
    replies = str(folder / "replies.parquet")
    write_stored_replies(con, settings.judge.model or "", Path(replies))
    semaphore = f"faithpipe-llm-{folder.name}-{uuid.uuid4().hex[:8]}"
    return [
        replace(job, replies=replies, semaphore=semaphore, prepaid=shared.prepaid) for job in jobs
    ]


def run_on_dask(settings: ScoreSettings, *, progress: Progress | None = None) -> dict[str, Any]:
    """The plain route's entry: start or join the cluster, run, close the client."""
    from flows.engines.cluster import dask_client
    from flows.engines.submitters import ClientSubmitter

    source = require_dask_source(settings)
    refuse_unbuildable(settings.judge, dry_run=settings.dry_run)  # before a cluster starts
    with dask_client(settings) as client:
        return run_score_on_dask(
            settings, ClientSubmitter(client), progress=progress, source=source
        )


def _refused(fatal: str) -> JudgeEndpointError:
    """The endpoint's refusal of every call, told once: the workers' judges print nothing
    (worker_setup.py), so the flow process says it in the words the local engine's judge
    uses (flows/judges/endpoint/transport.py). A breaker's opening is no refusal: the local
    engine says it in the run's error line alone, and so does this one."""
    if LEFT_PENDING not in fatal:
        log.error("judge endpoint: %s; no further calls are made", fatal)
    return JudgeEndpointError(fatal)
