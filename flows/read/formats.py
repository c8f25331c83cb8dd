"""How a source's files are read: DuckDB's own CSV and JSON readers streamed in bounded batches
(Parquet stays with source.py's reader); which format each file is and the column mapping are
flows/read/read_options.py's."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa

from flows.errors import InputUnreadable
from flows.read.error_lines import error_line
from flows.read.json_values import (
    json_values_as_text,
    json_wrong_types,
    quoted,
    text_kept_columns,
)
from flows.read.list_cells import NON_STRING_ITEM, python_lists_as_json
from flows.read.long_lines import CSV_LINE_BYTES, long_line_said
from flows.read.small_json import SMALL_JSON_BYTES, bom_array, small_objects
from flows.scratch import scratch_folder
from schemas import LONE_SURROGATES, NOT_UTF8

# What DuckDB's readers may hold in memory while streaming a file: they spill past it.
_READER_MEMORY = "512MB"
# DuckDB's readers, by format. CSV: every column as text, so no type guessed from the first
# rows can fail on a later one (the contract casts and quarantines value by value). JSON: the
# types are inferred from the whole file, so a column whose values differ in type arrives as
# JSON text instead of failing the read.
# A JSON record up to 64 MiB (an answer or a context past the size limits, which quarantine the
# row) is read, not the 32 MiB past which DuckDB refuses the whole file: its readers read a
# record up to twice their maximum_object_size. Told 64 MiB, they asked for 256 MiB of the
# readers' 512 MB for a larger record (an out-of-memory, not the file refused).
JSON_OBJECT_BYTES = 32 * 1024 * 1024
JSON_OBJECTS = f"maximum_object_size := {JSON_OBJECT_BYTES}"
# A time format no logged text is written in: read_json detects no date or time with it.
NO_TIME_FORMAT = "faithpipe: strings stay text"
# Hive partitioning off: DuckDB reads `key=value` folders in a path by itself, and its value
# replaced a column of that name the file has (channel=app/ stored every row's `channel` as
# `app`); the folders are added as columns by flows/read/streaming.py, a file's own column
# winning, as from Parquet.
_READERS = {
    # The quote is RFC 4180's: left to the sniffer, one unbalanced quote made it read the
    # file with none, every JSON passage list its quoted text (all rows quarantined); told,
    # it gives up on the file (flows/read/csv_dialect.py names the line).
    "csv": "read_csv($files, all_varchar := true, header := true, union_by_name := true, "
    f"quote := '\"', max_line_size := {CSV_LINE_BYTES}, buffer_size := {2 * CSV_LINE_BYTES}, "
    "hive_partitioning := false)",
    # Strings stay strings (as CSV's all_varchar): left to read_json, a column of ISO times
    # was typed TIMESTAMP until one row wrote another form ("2026-11-01 12:00"), and the file's
    # every row then read otherwise: an appended night changed each old quarantined row's
    # row_json, its row_key with it, and stored them again as the night's (a false exit 11).
    # The contract parses a text logged_at as it does a CSV's; no text matches these formats.
    "json": "read_json($files, union_by_name := true, sample_size := -1, "
    f"{JSON_OBJECTS}, hive_partitioning := false, "
    f"timestampformat := '{NO_TIME_FORMAT}', dateformat := '{NO_TIME_FORMAT}')",
    "parquet": "read_parquet($files, union_by_name := true, hive_partitioning := false)",
}
# The column a run of files read in one query names each row's file in.
FILE_COLUMN = "__faithpipe_file"


def duckdb_paths(paths: list[Path]) -> list[str]:
    """Paths as DuckDB reads them literally: it treats every path as a glob, so a file named
    `part[1].parquet` would be read as `part1.parquet`. A glob character becomes a
    one-character class of itself."""
    return [re.sub(r"([\[\]*?])", r"[\1]", str(path)) for path in paths]


def reader_sql(fmt: str, together: bool = False, array: bool = False, hive: bool = False) -> str:
    """DuckDB's table function reading `$files` in `fmt`. `together`: a run of files alike
    (flows/read/streaming.py) read in one query, each row's file in FILE_COLUMN; a run of CSV
    files shares one header line, so DuckDB sniffs the first file's dialect only (by name,
    it sniffs every file: ~10 ms a file, most of the time of 5,000 one-row files). `array`:
    JSON files that are arrays after a byte-order mark (flows/read/small_json.py: bom_array),
    which read_json must be told are arrays."""
    reader = _READERS[fmt]
    if hive:  # conversations: DuckDB's own `key=value` columns, as they always came
        reader = reader.replace(", hive_partitioning := false", "")
    if array and fmt == "json":
        reader = reader.removesuffix(")") + ", format := 'array')"
    if not together:
        return reader
    reader = reader.removesuffix(")") + f", filename := '{FILE_COLUMN}')"
    return reader.replace(", union_by_name := true", "") if fmt == "csv" else reader


def json_format(paths: list[Path]) -> str:
    """How DuckDB's JSON readers are to read files alike (their first tells): 'array' for
    arrays after a byte-order mark, else 'auto'."""
    return "array" if paths and bom_array(paths[0]) else "auto"


def is_compressed(path: Path) -> bool:
    """Whether the file is gzip-compressed (by its name, as DuckDB's readers tell)."""
    return path.suffix.lower() == ".gz"


def _reader(paths: list[Path], fmt: str) -> str:
    """reader_sql for these files alike."""
    array = fmt == "json" and json_format(paths) == "array"
    return reader_sql(fmt, together=len(paths) > 1, array=array)


def json_keys_renamed(columns: list[str], keys: list[str]) -> dict[str, str]:
    """read_json's (and read_csv's) columns named as the file's keys (header): DuckDB's names
    are case-insensitive, so of the keys `input` and `Input` it names the second `Input_1`,
    and the segment would be stored under a name the file does not have. DuckDB orders its
    columns as the keys first appear, so when the two lists are as long and each column is its
    key or that key with a suffix, the columns take their keys' names, place by place (`tag`,
    `Tag`, `Tag_1` read as `tag`, `Tag_1`, `Tag_1_1` are renamed back whole); else nothing is
    renamed."""
    if len(columns) != len(keys):
        return {}
    pairs = list(zip(columns, keys, strict=True))
    if not all(c == k or c.lower().startswith(k.lower() + "_") for c, k in pairs):
        return {}
    return {column: key for column, key in pairs if column != key}


def reader_connection() -> duckdb.DuckDBPyConnection:
    """A DuckDB connection for reading files, its memory bounded (it spills past it)."""
    con = duckdb.connect(config={"memory_limit": _READER_MEMORY})
    con.execute("SET enable_progress_bar = false")
    return con


def count_file_rows(paths: list[Path], fmt: str) -> int:
    """Rows in CSV or JSON files, a run of files alike read through once in one query."""
    return int(_ask(paths, fmt, "SELECT count(*)", "cannot read its data")[0][0])


def _ask(paths: list[Path], fmt: str, select: str, failure: str) -> list[tuple]:
    """`select` over the files' rows; a DuckDB error fails the run naming the file."""
    con = reader_connection()
    try:
        reader = _reader(paths, fmt)
        return con.execute(f"{select} FROM {reader}", {"files": duckdb_paths(paths)}).fetchall()
    except duckdb.Error as exc:
        failed = _failing(con, paths, fmt, exc)
        said = long_line_said(failed, error_line(exc)) if fmt == "csv" else error_line(exc)
        raise InputUnreadable(f"{failed}: {failure} ({said})") from exc
    finally:
        con.close()


_NAMED_FILE = re.compile(r'(?:in file|Failed to read file) "([^"]+)"')


def _failing(con: duckdb.DuckDBPyConnection, paths: list[Path], fmt: str, error: Exception) -> Path:
    """Which of the files a query over all of them failed on: the one DuckDB's error names
    (`in file "…"`, `Failed to read file "…"`: a key twice, a line of another shape, which
    counting a file's rows alone never finds), else the first that fails alone."""
    for named in _NAMED_FILE.findall(str(error)):
        if Path(named) in paths:
            return Path(named)
    for path in paths if len(paths) > 1 else []:
        try:
            con.execute(
                f"SELECT count(*) FROM {_reader([path], fmt)}", {"files": duckdb_paths([path])}
            )
        except duckdb.Error:
            return path
    return paths[0]


def duckdb_frames(
    paths: list[Path],
    fmt: str,
    batch_size: int,
    list_column: str | None = None,
    *,
    names: list[str] | None = None,
    only: str | None = None,
    gather: bool = True,
    id_column: str | None = None,
) -> Iterator[pl.DataFrame]:
    """CSV or JSON files' rows (files of one format whose columns are alike, in order) in
    frames of at most `batch_size`, streamed by DuckDB in one query; with more than one file,
    each row's file is in FILE_COLUMN. A CSV's `list_column` written by DuckDB itself
    (`[a, 'b, c']`, its COPY's list syntax) is turned into JSON text; JSON text and anything
    else are left for the contract. `names`: the files' columns, when known already; `only`:
    that one column is read (and no FILE_COLUMN); `gather`: JSON files are read as one
    (_json_together); `id_column`: the case id's column, a JSON number read as written."""
    # Small JSON files are gathered; with larger ones among them, they are read by their list.
    if fmt == "json" and only is None and gather and len(paths) > 1 and _all_small(paths):
        yield from _json_together(paths, batch_size, list_column, names, id_column)
        return
    con = reader_connection()
    files = {"files": duckdb_paths(paths)}
    reader = _reader(paths, fmt)
    try:
        try:
            if names is None:
                found = con.execute(f"DESCRIBE SELECT * FROM {reader}", files).fetchall()
                names = [row[0] for row in found]
            read_as = _read_names(con, f"SELECT * FROM {reader}", files, names)
            select = "*" if only is None else quoted(read_as.get(only, only))
            python_lists = only is None and fmt == "csv" and list_column in names
            if python_lists:
                column = quoted(read_as.get(list_column or "", list_column or ""))
                select = f"* REPLACE ({_duckdb_lists_as_json(column)} AS {column})"
            query = con.sql(f"SELECT {select} FROM {reader}", params=files)
            kept = _text_kept(query, only, id_column) if fmt == "json" else ""
            if kept:  # UUIDs, times of day and float ids read as written
                reader = reader.removesuffix(")") + f", columns := {kept})"
                select = "*" if only is None else quoted(only)
                query = con.sql(f"SELECT {select} FROM {reader}", params=files)
            read = [c for c in query.columns if c not in (FILE_COLUMN, LONE_SURROGATES, NOT_UTF8)]
            keys = json_keys_renamed(read, names) if only is None else {}
            unwrapped = json_values_as_text(query.columns, query.types, keep=list_column)
            marks = json_wrong_types(query.columns, query.types, list_column, keys)
            if unwrapped:
                marked = f", {marks}" if marks and only is None else ""
                query = query.project(f"* REPLACE ({unwrapped}){marked}")
            for frame in _rebatched(query.to_arrow_reader(batch_size), batch_size):
                read_frame = frame.rename(keys) if keys else frame
                if python_lists:
                    read_frame = python_lists_as_json(read_frame, list_column or "")
                yield read_frame
        # OSError: DuckDB's error raised inside the stream of batches, carried by pyarrow
        except (duckdb.Error, OSError) as exc:
            failed = _failing(con, paths, fmt, exc)
            said = long_line_said(failed, error_line(exc)) if fmt == "csv" else error_line(exc)
            raise InputUnreadable(f"{failed}: cannot read its data ({said})") from exc
    finally:
        con.close()


def _text_kept(query: duckdb.DuckDBPyRelation, only: str | None, id_column: str | None) -> str:
    """json_values.text_kept_columns for the JSON files' columns `query` reads (`only`: the
    one key it reads), the case id's read as text."""
    pairs = [(n, t) for n, t in zip(query.columns, query.types, strict=True) if n != FILE_COLUMN]
    keys = [only] if only is not None else [name for name, _ in pairs]
    texts = frozenset([id_column] if id_column else [])
    return text_kept_columns(keys, [kind for _, kind in pairs], texts)


def _read_names(
    con: duckdb.DuckDBPyConnection, query: str, files: dict, names: list[str]
) -> dict[str, str]:
    """The files' columns DuckDB names otherwise, and its names: of two that differ only in
    case it names the second with a suffix (`Input`, `INPUT_1`), and binds a name in any case."""
    if len({name.casefold() for name in names}) == len(names):
        return {}
    found = [row[0] for row in con.execute(f"DESCRIBE {query}", files).fetchall()]
    found = [name for name in found if name not in (FILE_COLUMN, LONE_SURROGATES, NOT_UTF8)]
    pairs = zip(names, found, strict=True) if len(found) == len(names) else []
    return {name: column for name, column in pairs if name != column}


def _json_together(
    paths: list[Path],
    batch_size: int,
    list_column: str | None,
    names: list[str] | None,
    id_column: str | None,
) -> Iterator[pl.DataFrame]:
    """JSON files alike read as one: their objects, as written, gathered into one JSON array
    in a temporary file that read_json reads once. read_json over a list of files infers a
    schema for each file (~0.7 ms a one-row file, most of the time of 5,000 of them); the
    types one inference over all the objects finds are those union_by_name finds for files
    alike. Small files only (flows/read/small_json.py), in groups of up to `_GATHERED_BYTES`
    a temporary file; each row's file in FILE_COLUMN. `list_column`: the passages, read as
    duckdb_frames reads them from one file."""

    def frames(files: list[Path], gather: bool = True) -> Iterator[pl.DataFrame]:
        return duckdb_frames(
            files, "json", batch_size, list_column, names=names, gather=gather, id_column=id_column
        )

    for group in _byte_groups(paths, _GATHERED_BYTES):
        if len(group) == 1:  # a file larger than a group: read alone
            for frame in frames(group):
                yield frame.with_columns(pl.lit(str(group[0])).alias(FILE_COLUMN))
            continue
        with scratch_folder("json") as folder:
            gathered = Path(folder) / "objects.json"
            files = _gather_objects(group, gathered)
            if files is None:  # one of them cannot be read as objects: read_json says why
                yield from frames(group, gather=False)
                continue
            read = 0
            try:
                for frame in frames([gathered]):
                    yield frame.with_columns(files.slice(read, frame.height).alias(FILE_COLUMN))
                    read += frame.height
            except InputUnreadable as exc:
                if read:  # named in the file it came from, not the gathered one
                    raise InputUnreadable(
                        str(exc).replace(str(gathered), str(files[read]), 1)
                    ) from exc
                # What read_json refuses of the objects gathered, it names in their file.
                yield from frames(group, gather=False)


def _all_small(paths: list[Path]) -> bool:
    try:
        return all(os.path.getsize(path) <= SMALL_JSON_BYTES for path in paths)
    except OSError:
        return False  # DuckDB names the file it cannot read


# Bytes of JSON files gathered into one temporary file at most (files alike, read together).
_GATHERED_BYTES = 64 * 1024 * 1024


def _byte_groups(paths: list[Path], most: int) -> Iterator[list[Path]]:
    """The files in order, in groups of at most `most` bytes (a larger file alone)."""
    group: list[Path] = []
    held = 0
    for path in paths:
        size = os.path.getsize(path)
        if group and held + size > most:
            yield group
            group, held = [], 0
        group.append(path)
        held += size
    if group:
        yield group


def _gather_objects(paths: list[Path], target: Path) -> pl.Series | None:
    """Write the files' objects, each as its file has it, as one JSON array to `target`;
    returns each object's file (None when DuckDB cannot read them as objects)."""
    con = reader_connection()
    try:
        query = con.sql(
            "SELECT filename, json FROM "
            f"read_json_objects($files, filename := true, format := $format, {JSON_OBJECTS})",
            params={"files": duckdb_paths(paths), "format": json_format(paths)},
        )
        table = query.to_arrow_table()
    except duckdb.Error:
        return None
    finally:
        con.close()
    objects = table.column("json").to_pylist()
    with target.open("w", encoding="utf-8") as out:
        out.write("[\n")
        out.write(",\n".join(objects))
        out.write("\n]\n")
    files = pl.from_arrow(table.column("filename"))
    assert isinstance(files, pl.Series)
    return files.cast(pl.String)


def json_strings(paths: list[Path], column: str, batch_size: int) -> Iterator[pl.DataFrame] | None:
    """A JSON text column of JSON files, from their objects in one query with no type
    inference (read_json infers a schema a file: ~4 ms each); None when some value is not a
    string, which read_json would read as another type."""
    if all(_small_strings(path, column) for path in paths):  # small files: parsed here
        return _parsed_strings(paths, column, batch_size)
    pointer = "/" + column.replace("~", "~0").replace("/", "~1")
    params = {"files": duckdb_paths(paths), "pointer": pointer, "format": json_format(paths)}
    objects = f"read_json_objects($files, format := $format, {JSON_OBJECTS})"
    con = reader_connection()
    try:
        others = con.execute(
            f"SELECT count(*) FROM {objects} "
            "WHERE json_type(json, $pointer) NOT IN ('VARCHAR', 'NULL')",
            params,
        ).fetchall()[0][0]
    except duckdb.Error:
        others = 1  # read_json says what is wrong
    if others:
        con.close()
        return None
    query = con.sql(
        f"SELECT json_extract_string(json, $pointer) AS {quoted(column)} FROM {objects}",
        params=params,
    )
    return _closing(con, _rebatched(query.to_arrow_reader(batch_size), batch_size))


def _small_strings(path: Path, column: str) -> bool:
    """Whether the file is a small JSON file of objects whose `column` is text or absent."""
    objects = small_objects(path)
    return objects is not None and all(
        isinstance(value.get(column), str | None) for value in objects
    )


def _parsed_strings(paths: list[Path], column: str, batch_size: int) -> Iterator[pl.DataFrame]:
    """`column` of small JSON files parsed here, in frames of at most `batch_size`."""
    held: list[str | None] = []
    for path in paths:
        held.extend(value.get(column) for value in small_objects(path) or [])
        while len(held) >= batch_size:
            yield pl.DataFrame({column: held[:batch_size]}, schema={column: pl.String})
            held = held[batch_size:]
    if held:
        yield pl.DataFrame({column: held}, schema={column: pl.String})


def _closing(
    con: duckdb.DuckDBPyConnection, frames: Iterator[pl.DataFrame]
) -> Iterator[pl.DataFrame]:
    try:
        yield from frames
    finally:
        con.close()


def _rebatched(reader: pa.RecordBatchReader, batch_size: int) -> Iterator[pl.DataFrame]:
    """DuckDB's record batches in frames of `batch_size` rows (the last one shorter): it
    hands each file's rows over apart, so 5,000 one-row files would be 5,000 frames."""
    held: list[pa.RecordBatch] = []
    rows = 0
    for record_batch in reader:
        held.append(record_batch)
        rows += record_batch.num_rows
        while rows >= batch_size:
            table = pa.Table.from_batches(held, reader.schema)
            yield _frame(table.slice(0, batch_size))
            rest = table.slice(batch_size)
            held, rows = rest.to_batches(), rest.num_rows
    if rows:
        yield _frame(pa.Table.from_batches(held, reader.schema))


def _frame(table: pa.Table) -> pl.DataFrame:
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def _duckdb_lists_as_json(column: str) -> str:
    # A cell holding a backslash, or an item no string (`None`), is left as written: it may be
    # a Python list, whose escapes and items DuckDB's list syntax reads otherwise (list_cells.py
    # reads it).
    return (
        f"CASE WHEN {column} IS NULL OR json_valid({column}) OR contains({column}, '\\') "
        f"OR regexp_matches({column}, '{NON_STRING_ITEM}') THEN {column} "
        f"ELSE coalesce(CAST(to_json(TRY_CAST({column} AS VARCHAR[])) AS VARCHAR), {column}) END"
    )
