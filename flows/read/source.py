"""The one place logs are read: finding files, checking them, streaming batches, and
the row ranges a Dask run's partitions read (flows/engines/partitions.py asks here).

A SOURCE is a file, a folder (searched recursively, hive `key=value` folders become columns),
or a glob, of Parquet, CSV or JSON (flows/read/formats.py). A folder holding `questions`,
`contexts` and `outputs` (files or folders) is read in the three-table form and joined on
`case_id`; a table of turns or a chat log becomes cases in flows/read/turns.py.
"""

from __future__ import annotations

import functools
import glob
import itertools
import os
import tempfile
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from flows.errors import InputUnreadable
from flows.read.formats import (
    ReadOptions,
    column_names,
    count_file_rows,
    duckdb_frames,
    mapped,
    named_format,
)
from flows.read.shapes import RawBatch, Source
from flows.read.three_tables import THREE_TABLES, orphan_rows, three_table_batches
from flows.store.db import sql
from schemas import REQUIRED_COLUMNS, content_case_ids

__all__ = ["THREE_TABLES", "RawBatch", "Source", "orphan_rows", "resolve_source"]

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


def resolve_source(spec: str | Path, options: ReadOptions | None = None) -> Source:
    """Find the files behind SOURCE; fails with a clear message when there are none.

    Files are named by their absolute, normalised path (symbolic links are not followed, so a
    linked `key=value` folder keeps its value), so a row has one identity (its quarantine key)
    however SOURCE was spelled. A path that exists is read as itself, even when its name holds
    glob characters (`logs[1].parquet`); only one that does not is a glob.
    """
    text = str(spec)
    options = options or ReadOptions()
    path = _absolute(Path(text).expanduser())
    if path.is_file():
        return _checked(Source(text, "wide", {"cases": [path]}, path.parent, options))
    if path.is_dir():
        tables = {name: _table_files(path, name) for name in THREE_TABLES}
        if all(tables.values()):
            return _checked(Source(text, "three", tables, path, options))
        found = _files_under(path, options)
        return _checked(Source(text, "wide", {"cases": found}, path, options))
    if any(char in text for char in "*?["):
        globbed = {_absolute(Path(p)) for p in glob.glob(text, recursive=True)}
        # A glob's files are read as --format whatever their names; without it, by name.
        wanted = options.wanted_format
        files = sorted(p for p in globbed if p.is_file() and (wanted or named_format(p, options)))
        root = _absolute(_glob_root(text))
        return _checked(Source(text, "wide", {"cases": files}, root, options))
    raise InputUnreadable(f"{text}: no such file, folder or glob")


def _absolute(path: Path) -> Path:
    """Absolute, `.` and `..` folded, links kept as they are."""
    return Path(os.path.abspath(path))


def _checked(source: Source) -> Source:
    if not source.all_files:
        raise InputUnreadable(
            f"{source.spec}: no Parquet, CSV or JSON files found (.parquet, .csv, .json, "
            ".jsonl, .ndjson, each optionally .gz)"
        )
    if source.form == "wide":
        source = replace(source, form=_shape(source))
    if source.form in ("turns", "chat"):
        if source.options.case_id == "content":
            raise InputUnreadable(
                f"{source.spec}: a conversation's case_ids come from its id and turn; "
                "--case-id content is for cases tables"
            )
        source = replace(source, files={source.form: source.files["cases"]})
    for table, paths in source.files.items():
        for path in paths:
            check_file(path, table, source.root, source)
    return source


def _shape(source: Source) -> str:
    """cases, turns or chat, from the first file's columns (mapped to the contract's names):
    a `messages` column is a chat log, `role` and `content` a table of turns."""
    first = source.files["cases"][0]
    names = set(_mapped_names(first, source))
    if "messages" in names:
        return "chat"
    if {"role", "content"} <= names and "actual_output" not in names:
        return "turns"
    return "wide"


def _table_files(folder: Path, name: str) -> list[Path]:
    """The three-table form's files of one table (Parquet: DuckDB joins them)."""
    single = folder / f"{name}.parquet"
    if single.is_file():
        return [single]
    sub = folder / name
    return sorted(p for p in sub.rglob("*.parquet") if p.is_file()) if sub.is_dir() else []


def _files_under(folder: Path, options: ReadOptions) -> list[Path]:
    """The folder's files of a format faithpipe reads. A CSV or JSON file under a name that
    starts with `_` or `.` is a table's metadata (Delta's `_delta_log/*.json`, Spark's
    `_SUCCESS`, hidden files), not logs: Parquet is read wherever it lies, as it always was."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file() and named_format(path, options) and not _metadata(path, folder)
    )


def _metadata(path: Path, folder: Path) -> bool:
    hidden = any(part.startswith(("_", ".")) for part in path.relative_to(folder).parts)
    return hidden and path.suffix.lower() != ".parquet"


def _glob_root(pattern: str) -> Path:
    """The folders before the first part holding a glob character: hive values are read
    below it, never above."""
    fixed = itertools.takewhile(
        lambda part: not any(char in part for char in "*?["), Path(pattern).parts
    )
    return Path(*fixed) if pattern else Path()


def check_file(
    path: Path, table: str, root: Path | None, source: Source | None = None
) -> list[str]:
    """The file's columns (a Parquet footer, or DuckDB's reader); unreadable or incomplete
    files fail the run. A required column missing under its own name may be under the name
    `--columns` maps it from, or made by `--case-id content`."""
    source = source or Source(str(path), "wide")
    names = _file_names(path, source)
    options = source.options
    present = set(names) | set(hive_values(path, root))
    required = [
        column
        for column in REQUIRED_COLUMNS[table]
        if not (column == "case_id" and options.case_id == "content" and table == "cases")
    ]
    missing = [column for column in required if options.source_name(column) not in present]
    if missing:
        spelled = [
            column
            if options.source_name(column) == column
            else f"{options.source_name(column)} (--columns {column}=...)"
            for column in missing
        ]
        hint = "; name yours with --columns NAME=COLUMN,..." if table in ("cases", "turns") else ""
        if "case_id" in missing and table == "cases":
            hint += " or make case_id with --case-id content"
        raise InputUnreadable(
            f"{path}: missing required column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(spelled)} (has: {', '.join(names)}){hint}"
        )
    return names


def _file_names(path: Path, source: Source) -> list[str]:
    fmt = source.format_of(path)
    if fmt != "parquet":
        return column_names(path, fmt)
    try:
        return pq.read_schema(path).names
    except (OSError, pa.ArrowException) as exc:
        raise InputUnreadable(f"{path}: not a readable Parquet file ({_short(exc)})") from exc


def _mapped_names(path: Path, source: Source) -> list[str]:
    reverse = {column: name for name, column in source.options.columns.items()}
    return [reverse.get(name, name) for name in _file_names(path, source)]


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
    """Rows the source holds (cases, or questions in the three-table form), from footers
    (a CSV or JSON file is counted by reading it through; a conversation's, by turns.py)."""
    if source.form in ("turns", "chat"):
        from flows.read.turns import count_turn_rows

        return count_turn_rows(source)
    table = "cases" if source.form == "wide" else "questions"
    return sum(
        pq.ParquetFile(path).metadata.num_rows
        if source.format_of(path) == "parquet"
        else count_file_rows(path, source.format_of(path))
        for path in source.files[table]
    )


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
    column = source.options.source_name("case_id") if source.form == "wide" else "case_id"
    for path in paths:
        fmt = source.format_of(path)
        if fmt == "parquet":
            yield from _case_ids(path, column)
            continue
        for frame in duckdb_frames(path, fmt, _ID_ROWS, None):
            ids = frame.select(pl.col(column).cast(pl.String).alias("case_id"))
            yield from ids.to_arrow(compat_level=pl.CompatLevel.newest()).to_batches()


def _content_ids(source: Source) -> Iterator[pa.RecordBatch]:
    """`--case-id content`: the ids the main pass will make, from every row's content."""
    for raw in iter_batches(source, _ID_ROWS):
        ids = content_case_ids(raw.frame, lists_as_json=raw.lists_as_json).alias("case_id")
        yield from ids.to_frame().to_arrow(compat_level=pl.CompatLevel.newest()).to_batches()


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


def _case_ids(path: Path, column: str = "case_id") -> Iterator[pa.RecordBatch]:
    """One file's case_id column as text, a run of row groups at a time; a corrupt page
    fails the run naming the file."""
    file = pl.scan_parquet(path, glob=False).select(pl.col(column).cast(pl.String).alias("case_id"))
    try:
        for start, rows in _row_group_spans(pq.ParquetFile(path), _ID_ROWS):
            frame = file.slice(start, rows).collect()
            yield from frame.to_arrow(compat_level=pl.CompatLevel.newest()).to_batches()
    except _READ_ERRORS as exc:
        raise InputUnreadable(f"{path}: cannot read its case_id column ({_short(exc)})") from exc


def iter_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
    """Stream the source as raw batches of at most `batch_size` rows, in bounded memory."""
    if source.form == "three":
        yield from three_table_batches(source, batch_size)
        return
    if source.form in ("turns", "chat"):
        from flows.read.turns import iter_turn_batches

        yield from iter_turn_batches(source, batch_size)
        return
    content_ids = source.options.case_id == "content"
    small = _SmallFiles(batch_size, content_ids)
    for path in source.files["cases"]:
        hive = hive_values(path, source.root)
        fmt = source.format_of(path)
        try:
            if fmt != "parquet":
                frames = duckdb_frames(
                    path, fmt, batch_size, source.options.source_name("retrieval_context")
                )
            else:
                reader = pq.ParquetFile(path)
                if reader.metadata.num_rows <= min(_SMALL_FILE_ROWS, batch_size):
                    # Read whole, and validated with the small files next to it (issue 22).
                    # scan, not read_parquet: only the scan keeps glob=False (`part[1].parquet`)
                    read = pl.scan_parquet(path, glob=False, hive_partitioning=False).collect()
                    yield from small.add(path, _with_hive(mapped(read, source.options), hive))
                    continue
                frames = _file_frames(path, batch_size, reader)
            yield from small.flush()
            for read in frames:
                frame = _with_hive(mapped(read, source.options), hive)
                yield RawBatch(frame, str(path), fmt != "parquet", content_ids)
        except _READ_ERRORS as exc:
            raise InputUnreadable(f"{path}: cannot read its data ({_short(exc)})") from exc
    yield from small.flush()


# A file of at most this many rows is a small file: read whole and batched with its small
# neighbours, as validating (and reading) a batch has a fixed cost: 5,000 one-row files took
# 96 s file by file, 66 s of it validation (bench/small_files.py).
_SMALL_FILE_ROWS = 10_000


class _SmallFiles:
    """Consecutive small files with the same columns, gathered into one raw batch of at most
    `batch_size` rows, each row with its own file; read order is kept."""

    def __init__(self, batch_size: int, content_ids: bool) -> None:
        self._batch_size = batch_size
        self._content_ids = content_ids
        self._frames: list[pl.DataFrame] = []
        self._paths: list[str] = []

    def add(self, path: Path, frame: pl.DataFrame) -> Iterator[RawBatch]:
        held = sum(f.height for f in self._frames)
        if self._frames and (
            frame.schema != self._frames[0].schema or held + frame.height > self._batch_size
        ):
            yield from self.flush()
        self._frames.append(frame)
        self._paths.append(str(path))

    def flush(self) -> Iterator[RawBatch]:
        if not self._frames:
            return
        frames, paths = self._frames, self._paths
        self._frames, self._paths = [], []
        if len(frames) == 1:
            yield RawBatch(frames[0], paths[0], content_ids=self._content_ids)
            return
        files = pl.Series("source_file", paths).gather(
            pl.Series([i for i, f in enumerate(frames) for _ in range(f.height)], dtype=pl.UInt32)
        )
        yield RawBatch(
            pl.concat(frames, how="vertical"), paths[0], content_ids=self._content_ids, files=files
        )


def _with_hive(frame: pl.DataFrame, hive: dict[str, str]) -> pl.DataFrame:
    """The file's rows with its `key=value` folders as columns (a column it has wins)."""
    extra = {k: v for k, v in hive.items() if k not in frame.columns}
    return frame.with_columns(pl.lit(v).alias(k) for k, v in extra.items())


def _file_frames(
    path: Path, batch_size: int, reader: pq.ParquetFile | None = None
) -> Iterator[pl.DataFrame]:
    """The file's rows in frames of about `batch_size`, a run of whole row groups at a time.

    polars reads runs of row groups up to two batches long: it decodes strings straight into
    its own layout, where pyarrow's strings had to be copied over (~0.2 CPU-s per 1M rows,
    bench/run_profile.py). A file with a longer row group is streamed by pyarrow in batch-size
    pieces, so memory stays bounded by the batch, not by how the file was written; one reader
    a file, because the two differ on a few types (INT96 with a zone, date64).
    """
    reader = reader or pq.ParquetFile(path)
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
