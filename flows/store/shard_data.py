"""The store's side of the Dask engine: snapshots the workers read instead of the database,
the judge replies their shards bring back, and content hashes computed without the database.

Workers never open the DuckDB file (one writer): the flow process takes these snapshots once,
as Parquet files, and loads what comes back in its own transactions.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl

from flows.store.db import register, sql, transaction

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
    params = {name: replies[name].to_list() for name in REPLY_COLUMNS}
    with transaction(con):
        con.execute(sql("judge_cache_upsert"), params)
    return replies.height


def content_hashes(cases: pl.DataFrame) -> pl.DataFrame:
    """`case_id` and `content_hash` of each case, computed by the same SQL as classify_cases.sql
    in an in-memory DuckDB (no database file), so a worker's hashes are the store's."""
    con = duckdb.connect()
    try:
        found = []
        for piece in hashable_slices(cases):
            register(con, "incoming", piece)
            hashed = pl.from_arrow(con.sql(sql("hash_cases")).to_arrow_table())
            con.unregister("incoming")
            assert isinstance(hashed, pl.DataFrame)
            found.append(hashed.select("case_id", "content_hash"))
    finally:
        con.close()
    return pl.concat(found) if found else pl.DataFrame(schema=_HASHED)


# Content DuckDB hashes at a time: its JSON text of a case takes several times the case's
# bytes while it is built (a 50 MB answer asked for 512 MiB), so a batch is hashed in slices
# of about this many bytes of content (plus, at most, the one case that starts last in it).
_HASH_SLICE_BYTES = 32 << 20
_HASHED = {"case_id": pl.String, "content_hash": pl.String}


def hashable_slices(cases: pl.DataFrame) -> Iterator[pl.DataFrame]:
    """The columns a case's content hash covers, in slices of about `_HASH_SLICE_BYTES` bytes
    of content, in order: DuckDB's memory for hashing stays bounded whatever a batch holds."""
    content = cases.select("case_id", "input", "actual_output", "retrieval_context")
    size = (
        pl.col("input").str.len_bytes().fill_null(0)
        + pl.col("actual_output").str.len_bytes().fill_null(0)
        + pl.col("retrieval_context")
        .list.eval(pl.element().str.len_bytes())
        .list.sum()
        .fill_null(0)
    )
    # A slice is the cases starting within one `_HASH_SLICE_BYTES` stretch of the content.
    slice_no = content.select(((size.cum_sum() - size) // _HASH_SLICE_BYTES).alias("_slice"))
    if content.height == 0 or slice_no["_slice"][-1] == 0:
        yield content
        return
    yield from content.with_columns(slice_no).partition_by(
        "_slice", maintain_order=True, include_key=False
    )
