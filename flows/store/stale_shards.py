"""Dask shards a run left unloaded in `<db>.shards/`: the judge replies they paid for, kept
in `judge_cache` by the next run on the database, whatever its engine, before the shards go.

A shard is left by a flow process killed before loading it, by a task still running when
its run stopped (it finishes its partition on a `--scheduler` cluster), or by a stopped run
that could not store its unloaded shards' replies. Only a process holding the database
salvages, so no live run owns any of them.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import duckdb
import polars as pl

from flows.store.shard_data import store_replies

log = logging.getLogger("faithpipe")


def shard_root(db: str) -> Path:
    """Where a run's workers write their shards: next to the database (workers on other
    machines need this folder on a shared file system)."""
    return Path(f"{db}.shards").resolve()


def stale_replies(folder: Path, run: str = "*") -> list[pl.DataFrame]:
    """The judge replies in shards a run (`run`, by default any) left unloaded: paid for."""
    return [pl.read_parquet(file) for file in folder.glob(f"{run}/part-*/replies.parquet")]


def salvage_stale_shards(con: duckdb.DuckDBPyConnection, root: Path) -> None:
    """Shards a dead or stopped run left behind: keep the judge replies they paid for, then
    remove them. Their rows are scored again (from those replies, at no cost) by this run,
    which re-reads the whole source."""
    if not root.is_dir():
        return
    kept = sum(store_replies(con, replies) for replies in stale_replies(root))
    if kept:
        log.info("kept %d judge replies from shards an earlier run left behind", kept)
    for folder in root.iterdir():
        shutil.rmtree(folder, ignore_errors=True)
