"""The three-table form: questions, contexts (long) and outputs joined on case_id by DuckDB,
and the outputs and contexts no question claims, as quarantine rows."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import polars as pl

from flows.errors import InputUnreadable
from flows.read.formats import duckdb_paths
from flows.read.shapes import RawBatch, Source
from flows.store.db import sql, statements

THREE_TABLES = ("questions", "contexts", "outputs")


def orphan_rows(source: Source) -> pl.DataFrame:
    """Three-table form: outputs and contexts whose case_id has no question, as quarantine
    rows (`check`, `case_id`, `column`, `value`, `row_json`, `source_file`, `row`)."""
    if source.form in ("turns", "chat"):
        from flows.read.turns import bad_turns

        return bad_turns(source)
    if source.form != "three":
        return pl.DataFrame()
    con = duckdb.connect()
    try:
        params = _duckdb_file_lists(source)
        found = con.sql(sql("three_table_orphans"), params=params).pl()
    finally:
        con.close()
    return found.with_columns(
        source_file=pl.lit(str(source.root)), row=pl.int_range(pl.len(), dtype=pl.UInt32)
    )


def count_orphan_rows(source: Source) -> int:
    """How many rows orphan_rows will quarantine: they are rows in, so a run's progress
    counts them in its total."""
    con = duckdb.connect()
    try:
        (orphans,) = statements("three_table_orphans")
        query = f"SELECT count(*) FROM ({orphans})"
        return int(con.execute(query, _duckdb_file_lists(source)).fetchall()[0][0])
    finally:
        con.close()


def three_table_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
    """Join questions, contexts (long, ordered by position) and outputs in DuckDB, streamed."""
    con = duckdb.connect()
    try:
        params = _duckdb_file_lists(source)
        try:
            reader = con.sql(sql("read_three_tables"), params=params).to_arrow_reader(batch_size)
        except duckdb.Error as exc:
            raise InputUnreadable(f"{source.spec}: cannot join the three tables ({exc})") from exc
        for record_batch in reader:
            frame = pl.from_arrow(record_batch)
            assert isinstance(frame, pl.DataFrame)
            yield RawBatch(frame, str(source.root))
    finally:
        con.close()


def _duckdb_file_lists(source: Source) -> dict[str, list[str]]:
    """Each table's files as DuckDB reads them literally: it treats every path as a glob, so a
    file named `part[1].parquet` would be read as `part1.parquet`. A glob character becomes a
    one-character class of itself."""
    return {name: duckdb_paths(source.files[name]) for name in THREE_TABLES}
