"""Passage ids stored before migration 007 (polars' `hash()`, stable within one polars
version only) and their move to the version-independent ids (`faith rekey`)."""

from __future__ import annotations

import duckdb
import polars as pl

from flows.store.db import register, run_sql_file, sql, transaction


def legacy_passage_ids(con: duckdb.DuckDBPyConnection) -> pl.Series:
    """The passage ids still stored under a pre-007 id (`old_id`)."""
    return con.sql(sql("legacy_passage_ids")).pl()["old_id"]


def rekey_passages_by(con: duckdb.DuckDBPyConnection, key_map: pl.DataFrame) -> None:
    """Move every row keyed by an `old_id` of `key_map` to its `new_id`, in one transaction."""
    register(con, "key_map", key_map)
    try:
        with transaction(con):
            run_sql_file(con, "rekey_passages")
    finally:
        con.unregister("key_map")
