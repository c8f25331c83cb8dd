"""Reading a run's DuckDB file back in tests: read-only, closed after each query."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl


def query(db: Path, sql: str) -> list[tuple]:
    """Rows of `sql` on the database file, opened read-only for this query alone."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def frame(db: Path, sql: str) -> pl.DataFrame:
    """`sql`'s result on the database file as a polars frame, opened read-only for it alone."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql(sql).pl()
    finally:
        con.close()
