"""The flow process's side of a shard: load it in one transaction, in partition order, then
remove it. Loading is idempotent: each shard is the run's batch of its partition number, and
a batch the run has counted already is not written again (flows/store/batch_writes.py)."""

from __future__ import annotations

import logging
import shutil
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs import MetricConfig
from flows.engines.shards import Shard, read_shard
from flows.errors import DatabaseWriteFailed
from flows.store.batch_writes import commit_bytes, write_batch
from flows.store.db import DISK_ERRORS, OUT_OF_MEMORY, limit_memory
from flows.store.shard_data import store_replies
from flows.store.stale_shards import stale_replies

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")


class QuarantineNumbers:
    """Occurrence numbers of identical quarantined rows across partitions: a worker numbers
    them within its partition (`<md5>-1`, ...); loading in partition order shifts them by the
    copies earlier partitions held, which gives the local engine's keys."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()

    def shifted(self, quarantined: pl.DataFrame) -> pl.DataFrame:
        if quarantined.height == 0:
            return quarantined
        mapping: dict[str, str] = {}
        most: Counter[str] = Counter()
        for key in quarantined["row_key"].unique(maintain_order=True).to_list():
            base, _, number = key.rpartition("-")
            mapping[key] = f"{base}-{self._seen[base] + int(number)}"
            most[base] = max(most[base], int(number))
        self._seen.update(most)
        return quarantined.with_columns(
            row_key=pl.col("row_key").replace_strict(mapping, return_dtype=pl.String)
        )


def load_shard(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    number: int,
    *,
    run_id: str,
    config_id: str,
    config: MetricConfig,
    numbers: QuarantineNumbers,
) -> Shard:
    """Commit one shard: its judge replies, then its batch in one transaction; then remove it."""
    shard = read_shard(path, number)
    # Room for the PRIMARY KEY indexes' keys this shard adds (as the local writer makes).
    adding = shard.replies.height + shard.scored.quarantined.height
    limit_memory(con, adding=adding, writing=commit_bytes(shard.scored))
    store_replies(con, shard.replies)  # paid for: kept even if the batch fails below
    scored = replace(shard.scored, quarantined=numbers.shifted(shard.scored.quarantined))
    try:
        write_batch(
            con,
            scored,
            run_id=run_id,
            config_id=config_id,
            config=config,
            seconds=shard.seconds,
            batch_no=number,
        )
    except (*DISK_ERRORS, OUT_OF_MEMORY) as exc:
        out_of_memory = isinstance(exc, OUT_OF_MEMORY)
        cure = "free memory" if out_of_memory else "free disk space or fix the database's disk"
        raise DatabaseWriteFailed(
            f"{run_id}: loading shard {number} ({scored.counts['rows_in']:,} rows) failed, none "
            f"of it was kept ({type(exc).__name__}: {str(exc).splitlines()[0]}); committed "
            f"batches are safe: {cure}, then run again"
        ) from exc
    shutil.rmtree(path, ignore_errors=True)
    return shard


def keep_unloaded_replies(con: duckdb.DuckDBPyConnection, folder: Path) -> bool:
    """A stopping run's shards that finished but were not loaded: store the judge replies
    they paid for, in one transaction; returns whether they are safe (none, or stored), so
    the folder may go. On failure the folder stays for the next run's salvage."""
    if not folder.is_dir():
        return True
    try:
        replies = stale_replies(folder.parent, folder.name)
        kept = store_replies(con, pl.concat(replies)) if replies else 0
    except Exception as exc:
        # Broad on purpose: this runs on a stop or failure path, whose exit code and line an
        # error here must not replace; the replies stay on disk, so nothing is lost.
        log.warning(
            "the unloaded shards' judge replies stay in %s for the next run: %s", folder, exc
        )
        return False
    if kept:
        log.info("kept %d judge replies of shards finished but not loaded", kept)
    return True
