"""The pre-pass that finds repeated case_ids: the whole source's case_id column (only it),
counted by DuckDB as it streams by (by polars when there are few), files alike read together
(flows/read/streaming.py)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from flows.errors import InputUnreadable
from flows.read.finding import file_facts
from flows.read.formats import error_line, json_strings
from flows.read.read_options import contract_column
from flows.read.shapes import Source
from flows.read.streaming import (
    READ_ERRORS,
    SMALL_FILE_ROWS,
    file_runs,
    iter_batches,
    row_group_spans,
    text_frames,
)
from flows.scratch import scratch_folder
from flows.store.db import sql
from schemas import content_case_ids

# Counting the source's case_ids to find repeats: DuckDB's memory for it (it spills the rest to
# a temporary folder), and the ids read at a time (~25 MB of short ids).
_ID_COUNT_MEMORY = "256MB"
_ID_ROWS = 1_000_000
_ID_SCHEMA = pa.schema([("case_id", pa.string_view())])
# Up to this many ids in all, polars counts them in memory (~40 MB at most): a DuckDB
# connection of its own cost ~70 ms of every small run.
_IDS_IN_MEMORY = 100_000


def duplicated_case_ids(source: Source) -> pl.DataFrame:
    """`case_id`s that occur more than once in the whole source (read from that column only).

    Counted by DuckDB as the ids stream by, file by file: its aggregate spills to a temporary
    folder past `_ID_COUNT_MEMORY`, so this pre-pass needs as much memory at 10M rows as at 1M
    (polars' group_by held every id: a 0.43 GB peak at 1M rows, 2.3 GB at 10M; bench/memory.py).
    """
    if source.form in ("turns", "chat"):
        return pl.DataFrame(schema={"case_id": pl.String})  # repeated turns: turns.py
    if source.options.case_id == "content":
        return _repeated_ids(lambda: _content_ids(source))
    tables = ["cases"] if source.form == "wide" else ["questions", "outputs"]
    found = [
        _repeated_ids(functools.partial(_given_ids, source, source.files[table]))
        for table in tables
    ]
    return pl.concat(found).unique()


def _given_ids(source: Source, paths: list[Path]) -> Iterator[pa.RecordBatch]:
    for run in file_runs(source, paths, _ID_ROWS):
        facts = file_facts(run[0], source)
        column = contract_column(facts.names, "case_id", source.options)
        column = column if source.form == "wide" else "case_id"
        as_text = pl.col(column).cast(pl.String).alias("case_id")
        plain = facts.format == "json" and not facts.lone_surrogates
        strings = json_strings(run, column, _ID_ROWS) if plain else None
        if strings is not None:
            for frame in strings:
                yield from _batches(frame.select(as_text))
        elif facts.format != "parquet":
            for frame in text_frames(run, facts, _ID_ROWS, only=column, id_column=column):
                yield from _batches(frame.select(as_text))
        elif len(run) == 1 and (facts.rows or 0) > SMALL_FILE_ROWS:
            yield from _case_ids(run[0], column)
        else:
            scan = pl.scan_parquet([str(path) for path in run], glob=False, hive_partitioning=False)
            try:
                ids = scan.select(as_text).collect()
            except READ_ERRORS:
                # Read alone, the file that cannot be read fails the run naming it.
                for path in run:
                    yield from _case_ids(path, column)
                continue
            yield from _batches(ids)


def _batches(ids: pl.DataFrame) -> list[pa.RecordBatch]:
    """The ids as Arrow batches, one per chunk: a scan of many files has a chunk per file."""
    return ids.rechunk().to_arrow(compat_level=pl.CompatLevel.newest()).to_batches()


def _content_ids(source: Source) -> Iterator[pa.RecordBatch]:
    """`--case-id content`: the ids the main pass will make, from every row's content."""
    for raw in iter_batches(source, _ID_ROWS):
        ids = content_case_ids(raw.frame, lists_as_json=raw.lists_as_json).alias("case_id")
        yield from _batches(ids.to_frame())


def _repeated_ids(read: Callable[[], Iterator[pa.RecordBatch]]) -> pl.DataFrame:
    """The ids repeated across what `read` streams; a file that cannot be read fails naming it."""
    failed: list[InputUnreadable] = []

    def batches() -> Iterator[pa.RecordBatch]:
        try:
            for batch in read():
                yield batch.cast(_ID_SCHEMA)
        except InputUnreadable as exc:
            failed.append(exc)  # DuckDB rewords what its Arrow stream raised
            raise

    stream = batches()
    held: list[pa.RecordBatch] = []
    rows = 0
    for batch in stream:
        held.append(batch)
        rows += batch.num_rows
        if rows > _IDS_IN_MEMORY:
            return _counted_by_duckdb(itertools.chain(held, stream), failed)
    ids = pl.DataFrame(pa.Table.from_batches(held, _ID_SCHEMA))
    return ids.group_by("case_id").len().filter(pl.col("len") > 1).select("case_id")


def _counted_by_duckdb(
    batches: Iterator[pa.RecordBatch], failed: list[InputUnreadable]
) -> pl.DataFrame:
    """The ids repeated in `batches`, counted by DuckDB in bounded memory (it spills)."""
    ids = pa.RecordBatchReader.from_batches(_ID_SCHEMA, batches)
    with scratch_folder("ids") as spill:
        con = duckdb.connect(
            config={"memory_limit": _ID_COUNT_MEMORY, "temp_directory": str(spill)}
        )
        try:
            con.execute("SET enable_progress_bar = false")  # a session option, not a config one
            con.register("case_ids", ids)
            repeated = con.sql(sql("repeated_case_ids")).pl()
        except duckdb.Error:
            if failed:
                raise failed[0] from None
            raise
        finally:
            con.close()
    return repeated


def _case_ids(path: Path, column: str = "case_id") -> Iterator[pa.RecordBatch]:
    """One file's case_id column as text, a run of row groups at a time; a corrupt page
    fails the run naming the file."""
    file = pl.scan_parquet(path, glob=False).select(pl.col(column).cast(pl.String).alias("case_id"))
    try:
        for start, rows in row_group_spans(pq.ParquetFile(path), _ID_ROWS):
            frame = file.slice(start, rows).collect()
            yield from _batches(frame)
    except READ_ERRORS as exc:
        unreadable = f"{path}: cannot read its case_id column ({error_line(exc)})"
        raise InputUnreadable(unreadable) from exc
