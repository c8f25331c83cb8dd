"""The one place Parquet logs are read: finding files, checking them, streaming batches,
and the row ranges a Dask run's partitions read (flows/engines/partitions.py asks here).

A SOURCE is a file, a folder (searched recursively, hive `key=value` folders become columns),
or a glob. A folder holding `questions`, `contexts` and `outputs` (files or folders) is read in
the three-table form and joined on `case_id`.
"""

from __future__ import annotations

import glob
import itertools
import os
import re
import tempfile
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from flows.errors import InputUnreadable
from flows.store.db import sql
from schemas import REQUIRED_COLUMNS

THREE_TABLES = ("questions", "contexts", "outputs")

# Rows per batch: read, scored and committed together. Above DuckDB's row group (122,880
# rows), so a batch's rows are written straight into the database file; smaller commits go
# through the WAL and are written again at the next checkpoint, which cost a third of a run's
# time (bench/pipeline.py). A batch in flight peaks at a few hundred MB, however large the
# input; `--batch-size` trades memory for speed.
DEFAULT_BATCH_SIZE = 150_000
# What reading a file's pages can raise when a page is corrupt: a Rust panic in polars'
# decoder is a BaseException, not an Exception.
_READ_ERRORS = (OSError, pa.ArrowException, pl.exceptions.PolarsError, pl.exceptions.PanicException)
# Counting the source's case_ids to find repeats: DuckDB's memory for it (it spills the rest to
# a temporary folder), and the ids read from a file at a time (~25 MB of short ids).
_ID_COUNT_MEMORY = "256MB"
_ID_ROWS = 1_000_000
_ID_SCHEMA = pa.schema([("case_id", pa.string_view())])


@dataclass(frozen=True)
class Source:
    """Resolved input: its form and the Parquet files of each table."""

    spec: str
    form: str  # "wide" | "three"
    files: dict[str, list[Path]] = field(default_factory=dict)
    root: Path | None = None

    @property
    def all_files(self) -> list[Path]:
        return [path for paths in self.files.values() for path in paths]


@dataclass(frozen=True)
class RawBatch:
    """Rows as read, before any validation, and where they came from."""

    frame: pl.DataFrame
    source_file: str


def resolve_source(spec: str | Path) -> Source:
    """Find the Parquet files behind SOURCE; fails with a clear message when there are none.

    Files are named by their absolute, normalised path (symbolic links are not followed, so a
    linked `key=value` folder keeps its value), so a row has one identity (its quarantine key)
    however SOURCE was spelled. A path that exists is read as itself, even when its name holds
    glob characters (`logs[1].parquet`); only one that does not is a glob.
    """
    text = str(spec)
    path = _absolute(Path(text).expanduser())
    if path.is_file():
        return _checked(Source(text, "wide", {"cases": [path]}, path.parent))
    if path.is_dir():
        tables = {name: _table_files(path, name) for name in THREE_TABLES}
        if all(tables.values()):
            return _checked(Source(text, "three", tables, path))
        return _checked(Source(text, "wide", {"cases": _parquet_under(path)}, path))
    if any(char in text for char in "*?["):
        found = {_absolute(Path(p)) for p in glob.glob(text, recursive=True)}
        files = sorted(p for p in found if p.suffix == ".parquet" and p.is_file())
        return _checked(Source(text, "wide", {"cases": files}, _absolute(_glob_root(text))))
    raise InputUnreadable(f"{text}: no such file, folder or glob")


def _absolute(path: Path) -> Path:
    """Absolute, `.` and `..` folded, links kept as they are."""
    return Path(os.path.abspath(path))


def _checked(source: Source) -> Source:
    if not source.all_files:
        raise InputUnreadable(f"{source.spec}: no Parquet files found")
    for table, paths in source.files.items():
        for path in paths:
            check_file(path, "cases" if table == "cases" else table, source.root)
    return source


def _table_files(folder: Path, name: str) -> list[Path]:
    single = folder / f"{name}.parquet"
    if single.is_file():
        return [single]
    sub = folder / name
    return _parquet_under(sub) if sub.is_dir() else []


def _parquet_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.parquet") if p.is_file())


def _glob_root(pattern: str) -> Path:
    """The folders before the first part holding a glob character: hive values are read
    below it, never above."""
    fixed = itertools.takewhile(
        lambda part: not any(char in part for char in "*?["), Path(pattern).parts
    )
    return Path(*fixed) if pattern else Path()


def check_file(path: Path, table: str, root: Path | None) -> pa.Schema:
    """The file's schema, read from its footer; unreadable or incomplete files fail the run."""
    try:
        schema = pq.read_schema(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputUnreadable(f"{path}: not a readable Parquet file ({_short(exc)})") from exc
    present = set(schema.names) | set(hive_values(path, root))
    missing = [column for column in REQUIRED_COLUMNS[table] if column not in present]
    if missing:
        raise InputUnreadable(
            f"{path}: missing required column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (has: {', '.join(schema.names)})"
        )
    return schema


def hive_values(path: Path, root: Path | None) -> dict[str, str]:
    """`key=value` folders between the source root and the file, as columns."""
    try:
        relative = path.parent.relative_to(root) if root else path.parent
    except ValueError:
        relative = path.parent
    values = {}
    for part in relative.parts:
        key, sep, value = part.partition("=")
        if sep and key:
            values[key] = urllib.parse.unquote(value)
    return values


def count_rows(source: Source) -> int:
    """Rows the source holds (cases, or questions in the three-table form), from footers."""
    table = "cases" if source.form == "wide" else "questions"
    return sum(pq.ParquetFile(path).metadata.num_rows for path in source.files[table])


def duplicated_case_ids(source: Source) -> pl.DataFrame:
    """`case_id`s that occur more than once in the whole source (read from that column only).

    Counted by DuckDB as the ids stream by, file by file: its aggregate spills to a temporary
    folder past `_ID_COUNT_MEMORY`, so this pre-pass needs as much memory at 10M rows as at 1M
    (polars' group_by held every id: a 0.43 GB peak at 1M rows, 2.3 GB at 10M; bench/memory.py).
    """
    tables = ["cases"] if source.form == "wide" else ["questions", "outputs"]
    found = [_repeated_ids(source.files[table]) for table in tables]
    return pl.concat(found).unique()


def _repeated_ids(paths: list[Path]) -> pl.DataFrame:
    """The ids repeated across `paths`; a file that cannot be read fails naming it."""
    failed: list[InputUnreadable] = []

    def batches() -> Iterator[pa.RecordBatch]:
        for path in paths:
            try:
                yield from _case_ids(path)
            except InputUnreadable as exc:
                failed.append(exc)  # DuckDB rewords what its Arrow stream raised
                raise

    ids = pa.RecordBatchReader.from_batches(_ID_SCHEMA, batches())
    with tempfile.TemporaryDirectory(prefix="faithpipe-ids-") as spill:
        con = duckdb.connect(config={"memory_limit": _ID_COUNT_MEMORY, "temp_directory": spill})
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


def _case_ids(path: Path) -> Iterator[pa.RecordBatch]:
    """One file's case_id column as text, a run of row groups at a time; a corrupt page
    fails the run naming the file."""
    file = pl.scan_parquet(path, glob=False).select(pl.col("case_id").cast(pl.String))
    try:
        for start, rows in _row_group_spans(pq.ParquetFile(path), _ID_ROWS):
            frame = file.slice(start, rows).collect()
            yield from frame.to_arrow(compat_level=pl.CompatLevel.newest()).to_batches()
    except _READ_ERRORS as exc:
        raise InputUnreadable(f"{path}: cannot read its case_id column ({_short(exc)})") from exc


def iter_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
    """Stream the source as raw batches of at most `batch_size` rows, in bounded memory."""
    if source.form == "three":
        yield from _three_table_batches(source, batch_size)
        return
    for path in source.files["cases"]:
        hive = hive_values(path, source.root)
        try:
            for read in _file_frames(path, batch_size):
                extra = {k: v for k, v in hive.items() if k not in read.columns}
                frame = read.with_columns(pl.lit(v).alias(k) for k, v in extra.items())
                yield RawBatch(frame, str(path))
        except _READ_ERRORS as exc:
            raise InputUnreadable(f"{path}: cannot read its data ({_short(exc)})") from exc


def _file_frames(path: Path, batch_size: int) -> Iterator[pl.DataFrame]:
    """The file's rows in frames of about `batch_size`, a run of whole row groups at a time.

    polars reads runs of row groups up to two batches long: it decodes strings straight into
    its own layout, where pyarrow's strings had to be copied over (~0.2 CPU-s per 1M rows,
    bench/run_profile.py). A file with a longer row group is streamed by pyarrow in batch-size
    pieces, so memory stays bounded by the batch, not by how the file was written; one reader
    a file, because the two differ on a few types (INT96 with a zone, date64).
    """
    reader = pq.ParquetFile(path)
    longest = max(
        (reader.metadata.row_group(g).num_rows for g in range(reader.metadata.num_row_groups)),
        default=0,
    )
    if longest > 2 * batch_size:
        for record_batch in reader.iter_batches(batch_size=batch_size):
            frame = pl.from_arrow(record_batch)
            assert isinstance(frame, pl.DataFrame)
            yield frame
        return
    # glob=False: a file named like a pattern (`logs[1].parquet`) is that file, not a search.
    file = pl.scan_parquet(path, hive_partitioning=False, glob=False)
    for start, rows in _row_group_spans(reader, batch_size):
        yield file.slice(start, rows).collect()


def _row_group_spans(reader: pq.ParquetFile, rows_wanted: int) -> list[tuple[int, int]]:
    """(first row, rows) of runs of whole row groups, each at most `rows_wanted` rows unless
    one row group alone is longer."""
    start, rows = 0, 0
    spans: list[tuple[int, int]] = []
    for group in range(reader.metadata.num_row_groups):
        if rows and rows + reader.metadata.row_group(group).num_rows > rows_wanted:
            spans.append((start, rows))
            start, rows = start + rows, 0
        rows += reader.metadata.row_group(group).num_rows
    if rows:
        spans.append((start, rows))
    return spans


def orphan_rows(source: Source) -> pl.DataFrame:
    """Three-table form: outputs and contexts whose case_id has no question, as quarantine
    rows (`check`, `case_id`, `column`, `value`, `row_json`, `source_file`, `row`)."""
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


def _three_table_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
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
    return {
        name: [re.sub(r"([\[\]*?])", r"[\1]", str(path)) for path in source.files[name]]
        for name in THREE_TABLES
    }


def file_rows(path: str | Path) -> int:
    """Rows of one Parquet file, from its footer (a Dask run's partition plan)."""
    return pq.ParquetFile(path).metadata.num_rows


def read_rows(path: str | Path, start: int, rows: int, root: Path | None) -> RawBatch:
    """Rows `start` to `start + rows` of one Parquet file, hive values added as columns:
    one piece of a Dask run's partition, read where the task runs."""
    path = Path(path)
    try:
        scan = pl.scan_parquet(path, hive_partitioning=False, glob=False)
        frame = scan.slice(start, rows).collect()
    except _READ_ERRORS as exc:
        raise InputUnreadable(f"{path}: cannot read its data ({_short(exc)})") from exc
    hive = hive_values(path, root)
    extra = {k: v for k, v in hive.items() if k not in frame.columns}
    return RawBatch(frame.with_columns(pl.lit(v).alias(k) for k, v in extra.items()), str(path))


def _short(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
