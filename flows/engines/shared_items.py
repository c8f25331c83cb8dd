"""The items more than one partition would ask the LLM judge, asked once in the flow process
before the partitions start: partitions running at once each answer from the snapshot of
`judge_cache` taken as the run starts, so a passage, answer or question two of them share
was asked by both (811 calls for the local engine's 692 on bench/engines.py's 200 cases).

The flow process reads and validates each partition as its task will (partition_cases),
keeps only the keys of the items its cases ask, reads again the rows that ask a shared item
first, and asks its own judge (the run's store as its call cache) those items alone
(faith_udfs/shared_items.py): the snapshot written after holds their replies, so no
partition asks them again. Their calls and tokens count in the run's row at once, and each
task charges them to the case that asks each first, so a Dask run counts and charges each
call as `--engine local` does."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs import Judge, MetricConfig
from faith_udfs.metric import CASE_COLUMNS, score_cases
from faith_udfs.shared_items import first_askers, item_keys, shared_item_cases
from flows.engines.partition_task import PartitionJob, partition_cases
from flows.judges.factory import build_judge, close_judge, judge_usage
from flows.judges.settings import JudgeSettings
from flows.run.judge_accounting import USAGE, case_usage
from flows.run.stop_signals import signals_deferred
from flows.store.run_costs import count_shared_items

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")

# Shared items asked per slice: a slice's items are asked concurrently, its replies stored
# as it ends. Each row asks one item of its own (passages, then answers, then questions),
# so a question's passages and answer, asked in an earlier slice, are found stored.
ASKED_AT_ONCE = 500


@dataclass(frozen=True)
class SharedItems:
    """What asking the shared items left: the charges per partition's case (`prepaid`, a
    Parquet file; None when nothing was asked) and why the endpoint refuses every call."""

    prepaid: str | None
    fatal: str | None


def ask_shared_items(
    con: duckdb.DuckDBPyConnection,
    judge: JudgeSettings,
    jobs: Sequence[PartitionJob],
    config: MetricConfig,
    *,
    run_id: str,
    prepaid: Path,
) -> SharedItems:
    """Ask the LLM judge, before the partitions start, every item more than one of `jobs`
    would ask; their replies go to `judge_cache` and their usage to the run's row, and the
    charges of each partition's cases to `prepaid`."""
    if judge.kind != "openai" or len(jobs) < 2:
        return SharedItems(None, None)
    # Each partition's distinct items with the first row asking each: a knowledge base's
    # passages repeat on most rows, and the flow process holds every partition's keys.
    asked = [
        item_keys(partition_cases(job).todo())
        .unique(["kind", "key"], keep="first", maintain_order=True)
        .with_columns(partition=pl.lit(job.partition.number))
        for job in jobs
    ]
    firsts = first_askers(pl.concat(asked))
    if firsts.height == 0:
        return SharedItems(None, None)
    cases = shared_item_cases(_first_askers_cases(jobs, firsts), firsts)
    log.info(
        "asking the judge the %d items more than one partition asks, before they start",
        cases.height,
    )
    asker = build_judge(judge, con)  # its call cache: the run's store
    before = judge_usage(asker)
    usages = []
    fatal = None
    try:
        # In slices: each one's replies reach judge_cache as it ends, so a flow process
        # killed here loses the replies of one slice at most (a local run's: one batch's).
        for start in range(0, cases.height, ASKED_AT_ONCE):
            frames = score_cases(
                cases.slice(start, ASKED_AT_ONCE).select(CASE_COLUMNS),
                asker,
                config,
                max_sentence_pairs=None,  # the contract quarantined what passes the run's limit
            )
            usages.append(case_usage(frames, asker))
            fatal = getattr(asker, "fatal_error", None)
            if fatal:
                break
            if cases.height > ASKED_AT_ONCE:  # a long step says how far it got
                done = min(start + ASKED_AT_ONCE, cases.height)
                log.info("asked %d of the %d shared items", done, cases.height)
    except BaseException:
        # A stop (or a failure): a second stop while the judge closes cannot cut it short,
        # as a local run's clean-up (flows/run/stopping.py): its paid replies, its count.
        with signals_deferred():
            _close_and_count(con, asker, before, run_id)
        raise
    _close_and_count(con, asker, before, run_id)
    usage = [frame for frame in usages if frame is not None]
    if not usage:
        return SharedItems(None, fatal)
    charged = (
        cases.select("case_id", "partition", "asker")
        .join(pl.concat(usage), on="case_id")
        .group_by("partition", "asker", maintain_order=True)
        .agg(pl.col(column).sum() for column in USAGE)
        .rename({"asker": "case_id"})
    )
    charged.write_parquet(prepaid)
    return SharedItems(str(prepaid), fatal)


def _close_and_count(
    con: duckdb.DuckDBPyConnection, asker: Judge, before: dict[str, int], run_id: str
) -> None:
    """The judge closed, its replies written to judge_cache (asked or stopped), and the calls
    it made added to the run's row."""
    close_judge(asker)
    spent = {k: v - before[k] for k, v in judge_usage(asker).items()}
    count_shared_items(con, run_id, spent)


def _first_askers_cases(jobs: Sequence[PartitionJob], firsts: pl.DataFrame) -> pl.DataFrame:
    """The cases asking first the items of `firsts`, read again: `partition`, `case_row`,
    `case_id`, `actual_output`, `retrieval_context`."""
    found = []
    for job in jobs:
        number = job.partition.number
        rows = firsts.filter(pl.col("partition") == number)["case_row"].unique().sort()
        if rows.len():
            todo = partition_cases(job).todo().select(CASE_COLUMNS).with_row_index("case_row")
            found.append(todo[rows.to_list()].with_columns(partition=pl.lit(number)))
    return pl.concat(found, how="vertical_relaxed")
