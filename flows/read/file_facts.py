"""What each of a source's files holds, read once for the whole run: its format, its columns
with their types (files alike are read together, flows/read/streaming.py) and, for Parquet,
its rows. A folder of 5,000 files had its footers read four times over, file by file."""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from pyarrow import fs

from flows.errors import InputUnreadable
from flows.read import not_utf8
from flows.read.csv_dialect import bad_line, repeated_names, unlike_header, unsniffed
from flows.read.csv_quotes import odd_quotes
from flows.read.formats import (
    JSON_OBJECTS,
    count_file_rows,
    duckdb_paths,
    error_line,
    is_compressed,
    json_format,
    reader_connection,
    reader_sql,
)
from flows.read.json_ends import json_end_said
from flows.read.lone_surrogates import mended, refused_for_mending
from flows.read.long_lines import long_line_said
from flows.read.not_utf8 import refused_as_not_utf8
from flows.read.read_options import ReadOptions, format_of
from flows.read.small_json import object_keys, small_json
from schemas import LONE_SURROGATES, NOT_UTF8

# A Parquet file at most this long is read whole to read its footer: opening it through
# pyarrow's filesystem costs more than reading a small file's bytes (5,000 one-row files:
# 2.0 s against 2.6 s; threads made it slower, on 2 cores).
_READ_WHOLE_BYTES = 256 * 1024


@dataclass(frozen=True)
class FileFacts:
    """One file's format, its columns as (name, type) in its order, and its rows when the
    file says them without being read through (a Parquet footer, a JSON file's objects;
    None for CSV). A CSV column's type is VARCHAR; a JSON one's is "" (inferred as the file
    is read). `json_format`: how DuckDB's JSON readers must be told to read it ('array' for
    an array after a byte-order mark, formats.json_format), so files alike share it.
    `lone_surrogates`: a JSON file that holds half a UTF-16 pair in a string, or a byte UTF-8
    cannot hold, read from its mended copy (flows/read/lone_surrogates.py). `repeated`: the
    names a CSV header line gives two columns (DuckDB names the second `name_1`). `unread`:
    why polars, which reads a Parquet cases table, cannot read the file (a column's type);
    DuckDB, which reads conversations, can. `failed`: why DuckDB could not describe the file
    (raised when the file is looked at, flows/read/finding.py: asked again, a file of 34 MB
    lines took another 8 s to fail)."""

    format: str
    columns: tuple[tuple[str, str], ...]
    rows: int | None = None
    json_format: str = "auto"
    lone_surrogates: bool = False
    repeated: tuple[str, ...] = ()
    unread: str | None = None
    failed: InputUnreadable | None = None

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.columns]


def gather_facts(files: Iterable[tuple[Path, str]]) -> dict[Path, FileFacts]:
    """Facts of each (path, format) that can be read; one that cannot is left out, to fail
    the run when its turn comes to be checked (flows/read/finding.py), as file by file.

    Asking DuckDB's readers about each CSV or JSON file costs ~10 ms a file (its sniffer), so
    a CSV file's columns are read once for each distinct header line (and compression), and
    the JSON files' keys in one query over all of them; types are left to the reading.
    """
    files = list(files)
    facts: dict[Path, FileFacts] = {}
    for path, fmt in files:
        if fmt == "parquet":
            found = _footer_facts(path)
            if isinstance(found, FileFacts):
                facts[path] = found
    csv = [path for path, fmt in files if fmt == "csv"]
    json = [path for path, fmt in files if fmt == "json"]
    if not csv and not json:
        return facts  # a DuckDB connection costs ~30 ms: none for Parquet alone
    con = reader_connection()
    try:
        facts.update(_csv_facts(con, csv))
        facts.update(_json_facts(con, json))
    finally:
        con.close()
    return facts


def _csv_facts(con: duckdb.DuckDBPyConnection, paths: list[Path]) -> dict[Path, FileFacts]:
    """CSV files' columns, asked of DuckDB once for each header line: every column is text."""
    facts: dict[Path, FileFacts] = {}
    by_header: dict[tuple[bytes, bool], FileFacts | InputUnreadable] = {}
    keys: dict[Path, tuple[bytes, bool]] = {}
    for path in paths:
        try:
            key = keys[path] = (_first_line(path), is_compressed(path))
        except OSError:
            continue  # unreadable: DuckDB names why when the file is checked
        if key not in by_header:
            described = by_header[key] = _described(con, path, "csv")
            if isinstance(described, InputUnreadable):  # this file's, naming it
                facts[path] = FileFacts("csv", (), failed=described)
        found = by_header[key]
        if isinstance(found, FileFacts):
            facts[path] = found
    # Files read together (flows/read/csv_quotes.py): one whose quotes do not pair fails as
    # it does alone, naming its line.
    together = Counter(keys.values())
    for path, key in keys.items():
        if together[key] > 1 and facts.get(path) is by_header[key] and odd_quotes(path):
            failed = bad_line(con, path, _header(path))
            if failed is not None:
                facts[path] = FileFacts("csv", (), failed=failed)
    return facts


# A UTF-16 text's byte-order marks (little- and big-endian): Excel's "Unicode Text" and
# PowerShell's default export write them.
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
_UTF16 = "UTF-16 text, not UTF-8; save the file as UTF-8, e.g. iconv -f UTF-16 -t UTF-8 FILE > NEW"


def _first_line(path: Path) -> bytes:
    """The file's first line (of its text, gzipped); b"" for a gzip stream cut short or
    corrupt before its end, whose reader names the file (exit 3): gzip raised EOFError, a bug's
    exit 1 with no file named."""
    opened = gzip.open(path, "rb") if is_compressed(path) else open(path, "rb")  # noqa: SIM115
    try:
        with opened as file:
            return file.readline(1 << 20)
    except (EOFError, zlib.error):
        return b""


# The JSON files' keys, in the order they first appear in each file (DuckDB's read_json
# orders its columns so), and their objects: the rows read_json makes of them.
_JSON_KEYS = f"""
WITH objects AS (
    SELECT filename, json_keys(json) AS keys, json_type(json) AS kind, row_number() OVER () AS n
    FROM read_json_objects($files, filename := true, format := $format, {JSON_OBJECTS})
), keyed AS (
    SELECT filename, n, unnest(keys) AS key, unnest(range(len(keys))) AS i FROM objects
), firsts AS (
    SELECT filename, key, min(n * 1000000 + i) AS first FROM keyed GROUP BY filename, key
), counted AS (
    SELECT filename, count(*) AS objects,
           min(n) FILTER (WHERE kind <> 'OBJECT') - min(n) + 1 AS stray,
           arg_min(kind, n) FILTER (WHERE kind <> 'OBJECT') AS stray_kind
    FROM objects GROUP BY filename
)
SELECT filename, list(key ORDER BY first) FILTER (WHERE key IS NOT NULL), any_value(objects),
       any_value(stray), any_value(stray_kind)
FROM counted LEFT JOIN firsts USING (filename) GROUP BY filename
"""


# DuckDB's json_type of a record, as a reader of the file would name it
_JSON_KINDS = {"ARRAY": "array", "VARCHAR": "string", "BOOLEAN": "true or false", "NULL": "null"}
_JSON_KINDS |= dict.fromkeys(("UBIGINT", "BIGINT", "DOUBLE", "HUGEINT"), "number")


def _json_facts(con: duckdb.DuckDBPyConnection, paths: list[Path]) -> dict[Path, FileFacts]:
    """JSON files' keys: a small file's parsed here, the others' in one query (one for each
    way DuckDB must be told to read them); a file neither can tell (unreadable, no objects)
    is asked of DuckDB's read_json alone."""
    facts: dict[Path, FileFacts] = {}
    asked: dict[str, list[Path]] = {}
    for path in paths:  # a small file's keys parsed here (flows/read/small_json.py)
        objects, array = small_json(path)
        told = "array" if array else "auto"
        if objects is None:
            asked.setdefault(told, []).append(path)
        else:
            columns = tuple((name, "") for name in object_keys(objects))
            facts[path] = FileFacts("json", columns, len(objects), told)
    keys: dict[str, tuple[list[str], int, bool]] = {}
    for told, files in asked.items():
        for name, names, objects, stray, kind, halves in _json_keys(con, files, told):
            keys[name] = (names, objects, halves)
            if stray is not None:  # a record read_json would make a one-column `json` row of
                raise InputUnreadable(
                    f"{name}: record {stray} is a JSON {_JSON_KINDS.get(kind, kind.lower())}, "
                    "not an object: each line (or item of the array) must be one object; "
                    "nothing was written"
                )
        for path in files:
            names, rows, halves = keys.get(str(path), ([], 0, False))
            fact = (
                FileFacts("json", tuple((name, "") for name in names), rows, told, halves)
                if names
                else _described(con, path, "json")
            )
            # a failure kept too: described again as the file is checked, it took as long
            facts[path] = (
                fact if isinstance(fact, FileFacts) else FileFacts("json", (), failed=fact)
            )
    for path, fact in facts.items():
        if "" in fact.names:  # read_json reads the file as one MAP column: every row empty
            raise InputUnreadable(
                f'{path}: a key of its objects is empty (""), which DuckDB\'s JSON reader '
                "cannot read as a column (it would read every row as empty): rename that key, "
                "or write the file as Parquet; nothing was written"
            )
    return facts


def _json_keys(
    con: duckdb.DuckDBPyConnection, paths: list[Path], told: str, mend: bool = True
) -> list[tuple]:
    """_JSON_KEYS over the files, each file's row in the files' order, and whether it was read
    mended; when DuckDB cannot read one of them, each is asked alone, so a bad file hides no
    other's stray record."""
    try:
        found = con.execute(_JSON_KEYS, {"files": duckdb_paths(paths), "format": told}).fetchall()
    except duckdb.Error as exc:
        if len(paths) == 1:
            halves = mend and refused_for_mending(exc)
            return _mended_keys(con, paths[0]) if halves else []
        return [row for path in paths for row in _json_keys(con, [path], told)]
    order = {str(path): i for i, path in enumerate(paths)}
    return [(*row, False) for row in sorted(found, key=lambda row: order.get(row[0], len(order)))]


def _mended_keys(con: duckdb.DuckDBPyConnection, path: Path) -> list[tuple]:
    """_json_keys of a file holding half a UTF-16 pair or a byte UTF-8 cannot hold, from its
    mended copy; [] when it cannot be mended (read_json names what is wrong with it)."""
    with mended(path) as copy:
        found = _json_keys(con, [copy], "auto", mend=False) if copy else []
        if copy is not None and not found:  # its keys too large to list (a record of 40 MB)
            fact = _described(con, copy, "json")  # asked as any large file is
            if isinstance(fact, FileFacts):
                rows = count_file_rows([copy], "json")
                found = [(str(copy), fact.names, rows, None, None, True)]
    return [
        (str(path), [n for n in names if n not in _MARKS], objects, stray, kind, True)
        for _, names, objects, stray, kind, _ in found
    ]


# The columns a mended copy adds, naming a record's columns that held what it mended.
_MARKS = (LONE_SURROGATES, NOT_UTF8)


def parquet_facts(path: Path) -> FileFacts:
    """One Parquet file's facts from its footer; an unreadable file fails the run."""
    fact = _footer_facts(path)
    if isinstance(fact, InputUnreadable):
        raise fact
    return fact


def described_facts(path: Path, fmt: str) -> FileFacts:
    """One CSV or JSON file's facts, as DuckDB's reader sees it; an unreadable file fails."""
    con = reader_connection()
    try:
        fact = _described(con, path, fmt)
    finally:
        con.close()
    if isinstance(fact, InputUnreadable):
        raise fact
    return fact


_LOCAL = fs.LocalFileSystem()
_PARQUET_MAGIC = b"PAR1"
_FORMAT_HINT = (
    "; a file whose name says no format is read as Parquet: name its format with "
    "--format csv|json|ndjson (a tab-separated file is read as CSV)"
)


def _is_parquet(path: Path) -> bool:
    """Whether the file is Parquet, whatever its name: PAR1 at its start and its end."""
    try:
        with open(path, "rb") as file:
            head = file.read(4)
            file.seek(max(os.path.getsize(path) - 4, 0))
            return head == _PARQUET_MAGIC == file.read(4)
    except OSError:
        return False  # unreadable: DuckDB names why


def _cut_short(path: Path, named: str | None) -> bool:
    """Whether the file is Parquet without its end: PAR1 at its start only, or empty under a
    Parquet name."""
    try:
        with open(path, "rb") as file:
            head = file.read(4)
    except OSError:
        return False
    return (head == _PARQUET_MAGIC and not _is_parquet(path)) or (not head and named == "parquet")


def _footer_facts(path: Path) -> FileFacts | InputUnreadable:
    # Not pq.read_schema(path): it resolves which filesystem a path is on each time, a third
    # of the cost of a one-row file's footer.
    try:
        if os.path.getsize(path) <= _READ_WHOLE_BYTES:
            with open(path, "rb") as whole:
                metadata = pq.read_metadata(pa.BufferReader(whole.read()))
        else:
            with _LOCAL.open_input_file(str(path)) as file:
                metadata = pq.read_metadata(file)
        schema = metadata.schema.to_arrow_schema()
    except (OSError, pa.ArrowException) as exc:
        # A name that says no format is read as Parquet: a .tsv or .log export lands here.
        named = format_of(path, ReadOptions())  # a .csv is read as Parquet by --format only
        hint = _FORMAT_HINT if named is None else ""
        if named not in (None, "parquet"):
            hint = f"; its name says {named.upper()}: score it without --format parquet"
        elif _cut_short(path, named):  # an exporter writing into the folder as the night reads it
            hint = (
                "; it ends before its footer: a file still being written, or a copy cut short? "
                f"Write it under another name ({path.name}.tmp) and rename it when complete, "
                "or remove it"
            )
        return InputUnreadable(f"{path}: not a readable Parquet file ({error_line(exc)}){hint}")
    columns = tuple((field.name, str(field.type)) for field in schema)
    return FileFacts("parquet", columns, metadata.num_rows, unread=_unread_said(path, schema))


def _unread_said(path: Path, schema: pa.Schema) -> str | None:
    """The line a cases table's column polars cannot read fails with (it would panic, or
    fail naming no column); None when it has none."""
    for field in schema:
        unread = _unread_type(field.type)
        if unread is not None:
            return (
                f"{path}: column {field.name} is typed {field.type} ({unread}), which "
                "faithpipe's Parquet reader cannot read: " + _UNREAD_FIX[unread]
            )
    return None


# Arrow types polars reads none of: a list view (pyarrow writes them; polars panics, a Rust
# trace on stderr and an error naming the case_id column) and a decimal of more than 38
# digits (BigQuery's BIGNUMERIC; "precision must be between 1 and 38", naming no column).
_LIST_VIEW = "an Arrow list view"
_WIDE_DECIMAL = "a decimal of more than 38 digits"
_UNREAD_FIX = {
    _LIST_VIEW: "write it as a plain list (pyarrow: cast it to pa.list_(pa.string()))",
    _WIDE_DECIMAL: "cast it to text or to a decimal of at most 38 digits in the export, or "
    "leave it out",
}


def _unread_type(kind: pa.DataType) -> str | None:
    """What makes an Arrow type, or a type it holds, one polars cannot read (None: nothing)."""
    if pa.types.is_list_view(kind) or pa.types.is_large_list_view(kind):
        return _LIST_VIEW
    if pa.types.is_decimal(kind) and kind.precision > 38:
        return _WIDE_DECIMAL
    for i in range(kind.num_fields):
        unread = _unread_type(kind.field(i).type)
        if unread is not None:
            return unread
    return None


# DuckDB's sniffer gives up on a file whose first lines hold one past max_line_size, saying
# only this: the file read strictly names the line ("Maximum line size ... exceeded").
_SNIFFING = "Error when sniffing file"
# DuckDB's JSON readers' words for a record they cannot parse (flows/read/json_ends.py)
_MALFORMED = "Malformed JSON"


def _header(path: Path) -> str:
    """The header line, ended by LF, CRLF or a lone CR (Excel for Mac's "CSV (Macintosh)"
    ends every line so, which DuckDB reads; Python's csv refused the whole file as a line)."""
    text = _first_line(path).decode("utf-8-sig", errors="replace")
    return re.split(r"\r\n?|\n", text, maxsplit=1)[0]


def csv_line_fault(con: duckdb.DuckDBPyConnection, path: Path) -> InputUnreadable | None:
    """The CSV file's first line that does not fit its header's dialect, as exit 3 naming it
    (csv_dialect.bad_line); None when every line fits."""
    return bad_line(con, path, _header(path))


def _undescribed(
    con: duckdb.DuckDBPyConnection, path: Path, fmt: str, exc: duckdb.Error
) -> FileFacts | InputUnreadable:
    """What DuckDB could not describe: a CSV file that is not UTF-8 described from its mended
    copy (its rows are read so, not_utf8.py), a line past 16 MB among the first named, else
    the file unreadable."""
    if fmt == "csv" and refused_as_not_utf8(exc):
        with not_utf8.mended(path) as copy:
            fact = None if copy is None else _described(con, copy, fmt)
        if isinstance(fact, InputUnreadable):  # named as the file, not as its copy
            return InputUnreadable(str(fact).replace(str(copy), str(path)))
        if fact is not None:
            return fact
    if fmt == "csv" and _SNIFFING in str(exc):  # a line past 16 MB among the first: which
        failed = bad_line(con, path, _header(path))
        if failed is not None:
            return failed
    said = long_line_said(path, error_line(exc)) if fmt == "csv" else error_line(exc)
    if fmt == "json" and _MALFORMED in said:  # past its last record: is its end the fault?
        said += json_end_said(path)
    unreadable = InputUnreadable(f"{path}: not a readable {fmt.upper()} file ({said})")
    unreadable.__cause__ = exc  # raised later; an out-of-memory cause is told apart (exit 7)
    return unreadable


def _described(con: duckdb.DuckDBPyConnection, path: Path, fmt: str) -> FileFacts | InputUnreadable:
    if _first_line(path).startswith(_UTF16_MARKS):  # DuckDB: "error sniffing", "not supported"
        return InputUnreadable(f"{path}: {_UTF16}")
    if _is_parquet(path):  # read as text, it was "not UTF-8" (iconv it) or "malformed JSON"
        return InputUnreadable(
            f"{path}: a Parquet file (it starts with PAR1), not {fmt.upper()}: score it "
            "with --format parquet, or without --format when its name ends .parquet"
        )
    told = json_format([path]) if fmt == "json" else "auto"
    describe = f"DESCRIBE SELECT * FROM {reader_sql(fmt, array=told == 'array')}"
    try:
        found = con.execute(describe, {"files": duckdb_paths([path])}).fetchall()
    except duckdb.Error as exc:
        return _undescribed(con, path, fmt, exc)
    names = [str(row[0]) for row in found]
    header = _header(path) if fmt == "csv" else ""  # read once (of a gzip file: unzipped)
    if fmt == "csv" and (unsniffed(names) or unlike_header(names, header)):
        failed = bad_line(con, path, header)
        if failed is not None:
            return failed
    columns = tuple((name, str(row[1])) for name, row in zip(names, found, strict=True))
    repeated = repeated_names(header) if fmt == "csv" else ()
    return FileFacts(fmt, columns, json_format=told, repeated=repeated)
