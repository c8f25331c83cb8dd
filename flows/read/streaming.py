"""Reading a source as raw batches in bounded memory, and the row ranges a Dask run's
partitions read. Files alike (one format, the same columns and types, the same `key=value`
folders) are read together in one query: validating, reading and committing a batch has a
fixed cost, and 5,000 one-row files read file by file took 96 s (bench/small_files.py).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from flows.errors import InputUnreadable
from flows.read import not_utf8
from flows.read.file_facts import FileFacts, described_facts, is_compressed
from flows.read.file_stamps import check_unchanged, said_if_changed
from flows.read.finding import file_facts
from flows.read.formats import FILE_COLUMN, count_file_rows, duckdb_frames, error_line
from flows.read.hive_folders import hive_values
from flows.read.lone_surrogates import mended
from flows.read.read_options import ReadOptions, contract_column, mapped
from flows.read.shapes import RawBatch, Source
from flows.read.three_tables import three_table_batches

# What reading a file's pages can raise when a page is corrupt: a Rust panic in polars'
# decoder is a BaseException, not an Exception.
READ_ERRORS = (OSError, pa.ArrowException, pl.exceptions.PolarsError, pl.exceptions.PanicException)
# A Parquet file of at most this many rows is a small file: read in one scan with the small
# files next to it, up to a batch's rows (a larger one is read a run of row groups at a time).
SMALL_FILE_ROWS = 10_000


def iter_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
    """Stream the source as raw batches of at most `batch_size` rows, in bounded memory. Each
    batch's files are checked unchanged since the source was resolved before it is handed on
    (flows/read/file_stamps.py): a file still being written fails the run, its rows read so far
    in the batch not committed; a file its reader could not find is named as removed."""
    batches = _batches(source, batch_size)
    try:
        while True:
            with said_if_changed(source.stamps, source.all_files):  # removed, replaced: said so
                raw = next(batches, None)
            if raw is None:
                return
            check_unchanged(source.stamps, _files_read(source, raw))
            yield raw
    finally:
        batches.close()


def _files_read(source: Source, raw: RawBatch) -> list[Path]:
    """The files a batch's rows were read from (a conversation's or a joined case's: every
    file, which are read together)."""
    if source.form != "wide":
        return source.all_files
    if raw.files is None:
        named = [Path(raw.source_file)]
    else:
        named = [Path(name) for name in raw.files.unique(maintain_order=True).to_list()]
    # a name told otherwise than the source lists it (DuckDB's own): every file, to be sure
    return named if all(path in source.stamps for path in named) else source.all_files


def _batches(source: Source, batch_size: int) -> Generator[RawBatch, None, None]:
    if source.form == "three":
        yield from three_table_batches(source, batch_size)
        return
    if source.form in ("turns", "chat"):
        from flows.read.turns import iter_turn_batches

        yield from iter_turn_batches(source, batch_size)
        return
    content_ids = source.options.case_id == "content"
    for run in file_runs(source, source.files["cases"], batch_size):
        for frame, files in run_frames(source, run, batch_size):
            lists_as_json = source.format_of(run[0]) != "parquet"
            yield RawBatch(frame, str(run[0]), lists_as_json, content_ids, files)


def count_rows(source: Source) -> int:
    """Rows the source holds (cases; in the three-table form joined rows and orphan rows):
    Parquet's from its footers, JSON's from the objects its files hold
    (flows/read/file_facts.py), CSV's by reading them through, a run of files alike in one
    query (a conversation's, by turns.py)."""
    if source.form in ("turns", "chat"):
        from flows.read.turns import count_turn_rows

        return count_turn_rows(source)
    paths = source.files["cases" if source.form == "wide" else "questions"]
    total = 0
    if source.form == "three":  # outputs and contexts without a question are rows in too
        from flows.read.three_tables import count_orphan_rows

        total += count_orphan_rows(source)
    for run in file_runs(source, paths, 2**62):
        counted = [file_facts(path, source).rows for path in run]
        if None in counted:
            fmt = file_facts(run[0], source).format
            total += _csv_rows(run) if fmt == "csv" else count_file_rows(run, fmt)
        else:
            total += sum(rows or 0 for rows in counted)
    return total


def file_runs(source: Source, paths: list[Path], rows_wanted: int) -> Iterator[list[Path]]:
    """The files in runs read together: files alike (format, columns and their types, how
    DuckDB is told to read them, `key=value` folders), wherever they are in the listing, so a
    folder whose formats alternate by name (`part-000.csv`, `part-001.jsonl`, …) is one run a
    format, not a run a file; Parquet ones only while small and up to `rows_wanted` rows a run
    (CSV and JSON are streamed, so a run of them has no bound). A run is handed on when full,
    a file not small alone where it is listed, and the runs left in the order of their first
    file."""
    runs: dict[tuple, tuple[list[Path], int]] = {}  # files alike: their run, its rows
    for path in paths:
        facts = file_facts(path, source)
        if not _small(facts, rows_wanted):
            yield [path]
            continue
        hive = tuple(hive_values(path, source.root))
        alike = (facts.format, is_compressed(path), facts.columns, facts.json_format, hive)
        rows = (facts.rows or 0) if facts.format == "parquet" else 0
        run, held = runs.get(alike, ([], 0))
        if run and held + rows > rows_wanted:
            yield run
            run, held = [], 0
        run.append(path)
        runs[alike] = (run, held + rows)
    for run, _ in runs.values():
        yield run


def run_frames(
    source: Source, run: list[Path], batch_size: int
) -> Iterator[tuple[pl.DataFrame, pl.Series | None]]:
    """A run's rows in frames of at most `batch_size`, columns mapped and `key=value` folders
    added; with each frame, its rows' files when the run has more than one."""
    first = file_facts(run[0], source)
    list_column = contract_column(first.names, "retrieval_context", source.options)
    id_column = contract_column(first.names, "case_id", source.options)
    try:
        if first.format != "parquet":
            for read in text_frames(run, first, batch_size, list_column, id_column=id_column):
                files = read[FILE_COLUMN] if FILE_COLUMN in read.columns else None
                frame = mapped(read.drop(FILE_COLUMN, strict=False), source.options)
                yield _with_hive(frame, source, run, files), _named(files)
        elif not _small(first, batch_size):
            for read in file_frames(run[0], batch_size):
                yield _with_hive(mapped(read, source.options), source, run, None), None
        else:
            yield _small_parquet(source, run)
    except READ_ERRORS as exc:
        raise InputUnreadable(f"{run[0]}: cannot read its data ({error_line(exc)})") from exc


def _csv_rows(run: list[Path]) -> int:
    try:
        return not_utf8.count_csv_rows(run)
    except InputUnreadable as exc:
        raise _as_alone(run, exc) from exc.__cause__


def _as_alone(run: list[Path], error: InputUnreadable) -> InputUnreadable:
    """A CSV file of a run that DuckDB's multi-file reader, reading it with the first's
    dialect, cannot read is described alone, which names its fault: a field too many was
    said to lack `case_id` (`schema mismatch in glob`), mixed line ends `Error when sniffing
    file`. A file that reads alone (a fault of the run) keeps the run's error."""
    if len(run) < 2:
        return error
    for path in run:
        if str(error).startswith(f"{path}: "):
            try:
                described_facts(path, "csv")
            except InputUnreadable as alone:
                return alone
    return error


def text_frames(
    run: list[Path],
    first: FileFacts,
    batch_size: int,
    list_column: str | None = None,
    *,
    only: str | None = None,
    id_column: str | None = None,
) -> Iterator[pl.DataFrame]:
    """duckdb_frames of a run of CSV or JSON files alike (`first`: the first one's facts); a
    JSON file holding half a UTF-16 pair is read alone, from its mended copy, and named as
    itself in any error (flows/read/lone_surrogates.py). `id_column`: the case id's column."""
    if first.format == "csv":
        try:
            yield from not_utf8.csv_frames(run, first.names, batch_size, list_column, only)
        except InputUnreadable as exc:
            raise _as_alone(run, exc) from exc.__cause__
        return
    if not first.lone_surrogates:
        yield from duckdb_frames(
            run,
            first.format,
            batch_size,
            list_column,
            names=first.names,
            only=only,
            id_column=id_column,
        )
        return
    with mended(run[0]) as copy:
        read = copy or run[0]  # changed since its facts were read: DuckDB says what is wrong
        try:
            yield from duckdb_frames(
                [read],
                "json",
                batch_size,
                list_column,
                names=first.names,
                only=only,
                id_column=id_column,
            )
        except InputUnreadable as exc:
            raise InputUnreadable(str(exc).replace(str(read), str(run[0]))) from exc


def _small_parquet(source: Source, run: list[Path]) -> tuple[pl.DataFrame, pl.Series | None]:
    """A run of small Parquet files in one scan; when it fails, each alone, so the file that
    cannot be read fails the run naming it."""
    paths = [str(path) for path in run]
    try:
        # scan, not read_parquet: only the scan keeps glob=False (`part[1].parquet`)
        read = pl.scan_parquet(paths, glob=False, hive_partitioning=False).collect()
    except READ_ERRORS:
        if len(run) == 1:
            raise
        for path in run:
            try:
                pl.scan_parquet(path, glob=False, hive_partitioning=False).collect()
            except READ_ERRORS as exc:
                raise InputUnreadable(f"{path}: cannot read its data ({error_line(exc)})") from exc
        raise
    files = _row_files(run, source) if len(run) > 1 else None
    return _with_hive(mapped(read, source.options), source, run, files), files


def _small(facts: FileFacts, rows_wanted: int) -> bool:
    """Whether the file may be read with others: CSV and JSON always (DuckDB streams them) but
    a JSON file read mended, Parquet when it is a small file."""
    if facts.format != "parquet":
        return not facts.lone_surrogates
    return _rows(facts) <= min(SMALL_FILE_ROWS, rows_wanted)


def _named(files: pl.Series | None) -> pl.Series | None:
    return None if files is None else files.cast(pl.String).alias("source_file")


def _row_files(run: list[Path], source: Source) -> pl.Series:
    """Each row's file of a run of Parquet files, from their footers' row counts."""
    rows = [_rows(file_facts(path, source)) for path in run]
    index = pl.Series([i for i, n in enumerate(rows) for _ in range(n)], dtype=pl.UInt32)
    return pl.Series("source_file", [str(path) for path in run]).gather(index)


def _rows(facts: FileFacts) -> int:
    assert facts.rows is not None  # Parquet: from its footer
    return facts.rows


def _with_hive(
    frame: pl.DataFrame, source: Source, run: list[Path], files: pl.Series | None
) -> pl.DataFrame:
    """The rows with their files' `key=value` folders as columns (a column a file has wins);
    the files of a run have the same folder keys, each its own values."""
    hive = _hive_values(run[0], source)
    extra = [key for key in hive if key not in frame.columns]
    if not extra:
        return frame
    if files is None or len(run) == 1:
        return frame.with_columns(pl.lit(hive[key]).alias(key) for key in extra)
    by_file = {str(path): _hive_values(path, source) for path in run}
    return frame.with_columns(
        files.replace_strict({file: values[key] for file, values in by_file.items()})
        .cast(pl.String)
        .alias(key)
        for key in extra
    )


def _hive_values(path: Path, source: Source) -> dict[str, str]:
    """The file's `key=value` folders, a key `--columns` maps under its contract name
    (`--columns logged_at=day`: logs partitioned by day, with no time column of their own)."""
    contract = {column: name for name, column in source.options.columns.items()}
    return {contract.get(key, key): value for key, value in hive_values(path, source.root).items()}


def file_frames(
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
    for start, rows in row_group_spans(reader, batch_size):
        yield file.slice(start, rows).collect()


def row_group_spans(reader: pq.ParquetFile, rows_wanted: int) -> list[tuple[int, int]]:
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
    """Rows `start` to `start + rows` of one Parquet file, its columns under their contract
    names as a local run reads them (`Case_ID` is `case_id`: Dask refuses `--columns`), hive
    values added as columns: one piece of a Dask run's partition, read where the task runs."""
    path = Path(path)
    try:
        scan = pl.scan_parquet(path, hive_partitioning=False, glob=False)
        frame = mapped(scan.slice(start, rows).collect(), ReadOptions())
    except READ_ERRORS as exc:
        raise InputUnreadable(f"{path}: cannot read its data ({error_line(exc)})") from exc
    hive = hive_values(path, root)
    extra = {k: v for k, v in hive.items() if k not in frame.columns}
    return RawBatch(frame.with_columns(pl.lit(v).alias(k) for k, v in extra.items()), str(path))
