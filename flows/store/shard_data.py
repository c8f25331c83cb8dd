"""The store's side of the Dask engine: snapshots the workers read instead of the database,
and the judge replies their shards bring back (content hashes: flows/store/content_hash.py).

Workers never open the DuckDB file (one writer): the flow process takes these snapshots once,
as Parquet files, and loads what comes back in its own transactions.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from flows.store.db import sql, transaction

# judge_cache's columns, as a shard carries them (flows/store/sql/001_tables.sql).
REPLY_COLUMNS: dict[str, pl.DataType] = {
    "cache_key": pl.String(),
    "kind": pl.String(),
    "model": pl.String(),
    "prompt_version": pl.String(),
    "schema_name": pl.String(),
    "reply": pl.String(),
    "prompt_tokens": pl.Int32(),
    "completion_tokens": pl.Int32(),
    "created_at": pl.Datetime("us"),
    "item": pl.String(),  # migration 018
}


def write_case_states(con: duckdb.DuckDBPyConnection, config_id: str, path: Path) -> None:
    """Every case stored under the config (`case_id`, `stored_hash`, `stored_status`), as a
    Parquet file the workers classify their partitions against."""
    # written by DuckDB as it reads: a warehouse of 10M cases never sits in memory here
    con.sql(sql("stored_case_states"), params={"config_id": config_id}).write_parquet(str(path))


def write_stored_replies(con: duckdb.DuckDBPyConnection, model: str, path: Path) -> None:
    """The judge replies stored for `model` (`cache_key`, `reply`), as a Parquet file."""
    con.sql(sql("stored_replies"), params={"model": model}).write_parquet(str(path))


def store_replies(con: duckdb.DuckDBPyConnection, replies: pl.DataFrame) -> int:
    """Upsert judge replies a shard brought back into `judge_cache`, in one transaction;
    returns how many. A reply stored before is replaced by the same reply: idempotent."""
    if replies.height == 0:
        return 0
    if "item" not in replies.columns:  # a shard written before migration 018
        replies = replies.with_columns(item=pl.lit(None, dtype=pl.String))
    params = {name: replies[name].to_list() for name in REPLY_COLUMNS}
    with transaction(con):
        con.execute(sql("judge_cache_upsert"), params)
    return replies.height
