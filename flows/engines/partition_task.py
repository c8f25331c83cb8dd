"""One Dask task: read a partition, validate it, skip what the snapshot says is done, score
the rest and write the results as a shard. Runs on a worker; never opens the database."""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from faith_udfs import MetricConfig
from flows.engines.partitions import DuplicateRule, Partition, read_partition
from flows.engines.shards import Shard, shard_path, write_paid_replies, write_shard
from flows.engines.worker_judge import ShardReplies, partition_running, running_judge
from flows.judges.settings import JudgeSettings
from flows.run.batches import QuarantineKeys, decide, score_batch, validate_batch
from flows.run.judge_accounting import USAGE
from flows.run.pipeline import no_cases
from flows.store.content_hash import content_hashes
from flows.store.reply_journal import ReplyJournal, earlier_replies, journal_path
from schemas import ScoredBatch, SizeLimits


@dataclass(frozen=True)
class PartitionJob:
    """Everything a task needs, small enough to ship: paths, not frames."""

    partition: Partition
    root: str | None
    shards: str  # the run's shard folder
    judge: JudgeSettings
    config: MetricConfig
    case_states: str | None  # Parquet snapshot of what is stored under the config, if any
    replies: str | None  # Parquet snapshot of the judge's stored replies, if any
    semaphore: str | None  # name of the cluster's cap on LLM calls in flight
    duplicates: DuplicateRule | None = None
    limits: SizeLimits | None = None  # the run's row size limits (None: the defaults)
    # Parquet of what the run asked before the partitions started (flows/engines/
    # shared_items.py), charged to this partition's cases: `partition`, `case_id`, usage.
    prepaid: str | None = None


def score_partition(job: PartitionJob) -> str:
    """Score one partition into a shard; returns the shard's path. A closing worker waits
    for it to be written (flows/engines/worker_preload.py): a task whose judge a stopped run
    cut off writes the replies it paid for, which the next run keeps."""
    with partition_running():
        return _scored_partition(job)


@dataclass(frozen=True)
class PartitionCases:
    """A partition's rows as its task reads them: the valid cases, the quarantined rows,
    each case classified against the snapshot, and the seconds reading and validating took."""

    cases: pl.DataFrame
    quarantine: pl.DataFrame
    classified: pl.DataFrame
    seconds_read: float
    seconds_validate: float

    def todo(self) -> pl.DataFrame:
        """The cases its task scores (score_batch's): those not already scored."""
        kept = self.classified.filter(~pl.col("skip")).select("case_id")
        return self.cases.join(kept, on="case_id", how="semi", maintain_order="left")


def partition_cases(job: PartitionJob) -> PartitionCases:
    """Read, validate, resolve duplicated case_ids and classify one partition's rows."""
    started = time.perf_counter()
    keys = QuarantineKeys()  # occurrence numbers within the partition; the loader shifts them
    plan = job.duplicates.plan() if job.duplicates else None
    valid, quarantined = [], []
    seconds_validate = 0.0
    for raw in read_partition(job.partition, job.root):
        rows = validate_batch(raw, job.limits)
        seconds_validate += rows.seconds
        kept = rows.valid
        if plan is not None:
            kept, copies = plan.resolve(kept)
            quarantined.append(keys.keyed(copies))
        valid.append(kept)
        quarantined.append(keys.keyed(rows.quarantined))
    seconds_read = time.perf_counter() - started - seconds_validate
    cases = pl.concat(valid, how="vertical_relaxed") if valid else no_cases()
    if cases.height == 0:
        cases = no_cases()
    quarantine = pl.concat(quarantined, how="vertical_relaxed")
    classified = classify_against(cases, job.case_states)
    return PartitionCases(cases, quarantine, classified, seconds_read, seconds_validate)


def _scored_partition(job: PartitionJob) -> str:
    read = partition_cases(job)
    cases, classified, quarantine = read.cases, read.classified, read.quarantine
    folder = Path(job.shards)
    name = shard_path(folder, job.partition.number).name
    journal = ReplyJournal(journal_path(folder, name))
    replies = ShardReplies(job.replies, journal, earlier_replies(folder, name))
    with closing(journal):  # closed whatever ends the task; removed once its replies are safe
        try:
            with running_judge(job.judge, replies, job.semaphore) as judge:
                scored = score_batch(cases, classified, quarantine, judge, job.config)
                scored = with_prepaid(scored, job)
                fatal = getattr(judge, "fatal_error", None)
        except BaseException:
            # Cut off (a stopped run's closing worker stops its judge) or failed: the calls it
            # made are paid for; their replies go where a retry and the next run keep them.
            if write_paid_replies(folder, job.partition.number, replies.replies()) is not None:
                journal.remove()
            raise
        shard = Shard(
            job.partition.number,
            scored,
            {"read": read.seconds_read, "validate": read.seconds_validate},
            replies.replies(),
            fatal,
        )
        written = write_shard(folder, shard)
        journal.remove()  # the shard carries its replies
    return str(written)


def with_prepaid(scored: ScoredBatch, job: PartitionJob) -> ScoredBatch:
    """`scored` with the calls and tokens asked for its cases before the partitions started
    charged to them (the run counted them then; the cases found the replies cached)."""
    if job.prepaid is None or scored.frames is None:
        return scored
    prepaid = (
        pl.scan_parquet(job.prepaid)
        .filter(pl.col("partition") == job.partition.number)
        .select("case_id", *USAGE)
        .collect()
    )
    if prepaid.height == 0:
        return scored
    usage = scored.usage
    if usage is None:
        usage = scored.frames.case_scores.select("case_id").with_columns(
            judge_calls=pl.lit(0.0), prompt_tokens=pl.lit(0), completion_tokens=pl.lit(0)
        )
    charged = usage.join(prepaid, on="case_id", how="left", suffix="_prepaid").select(
        "case_id", *(pl.col(c) + pl.col(f"{c}_prepaid").fill_null(0) for c in USAGE)
    )
    return replace(scored, usage=charged.cast(dict(usage.schema)))  # type: ignore[arg-type]


def classify_against(cases: pl.DataFrame, case_states: str | None) -> pl.DataFrame:
    """What `flows.run.batches.classify` decides, against the snapshot instead of the store."""
    hashed = content_hashes(cases)
    if case_states is None:
        stored = pl.DataFrame(
            schema={"case_id": pl.String, "stored_hash": pl.String, "stored_status": pl.String}
        )
    else:
        stored = (
            pl.scan_parquet(case_states)
            .filter(pl.col("case_id").is_in(hashed["case_id"].implode()))
            .collect()
        )
    return decide(hashed.join(stored, on="case_id", how="left"))
