"""A CSV file DuckDB's sniffer could not read as a table: one line it cannot fit (an unbalanced
quote, a line with a field too many) makes it give up on the dialect, and it reads the file
as one column named by the whole header line. Read strictly in the header's own dialect, the
file names that line instead (exit 3), where the run reported every column missing."""

from __future__ import annotations

import csv
from pathlib import Path

import duckdb

from flows.errors import InputUnreadable
from flows.read.formats import CSV_LINE_BYTES, duckdb_paths, error_line
from flows.read.long_lines import long_line_said

# The delimiters a header line may be split by; the one it holds most is its own.
_DELIMITERS = (",", ";", "\t", "|")

_STRICT = (
    "SELECT count(*) FROM read_csv($files, auto_detect := false, header := true, "
    "delim := $delimiter, quote := '\"', escape := '\"', columns := $columns, "
    f"max_line_size := {CSV_LINE_BYTES}, buffer_size := {2 * CSV_LINE_BYTES})"
)


def unsniffed(columns: list[str]) -> bool:
    """Whether the sniffer read the file as one column whose name is a header line."""
    return len(columns) == 1 and any(mark in columns[0] for mark in _DELIMITERS)


def unlike_header(columns: list[str], header: str) -> bool:
    """Whether the sniffer's columns are not the header line's: not as many as its fields (in
    the delimiter it holds most), the first not the one it starts with. A line among the first
    rows with a field too many made DuckDB take that line for the header, its values for
    column names, and the run said the header line looked missing."""
    delimiter = max(_DELIMITERS, key=header.count)
    fields = next(csv.reader([header], delimiter=delimiter), [])
    first = columns[0] if columns else ""
    return len(columns) != len(fields) and not header.lstrip('"').startswith(first)


def repeated_names(header: str) -> tuple[str, ...]:
    """The names a header line (in the delimiter it holds most) gives two columns or more:
    DuckDB names the second `name_1`, so which one is `name` the file's columns do not say."""
    delimiter = max(_DELIMITERS, key=header.count)
    fields = next(csv.reader([header], delimiter=delimiter), [])
    return tuple(sorted({name for name in fields if fields.count(name) > 1}))


def bad_line(con: duckdb.DuckDBPyConnection, path: Path, header: str) -> InputUnreadable | None:
    """The file read strictly (quote and escape '"', the header's delimiter): DuckDB's word on
    its first line that does not fit ('CSV Error on Line: 4: Expected Number of Columns: 5
    Found: 6'; a line past 16 MB named by its size), or None when every line fits."""
    delimiter = max(_DELIMITERS, key=header.count)
    names = next(csv.reader([header], delimiter=delimiter), [])
    columns = dict.fromkeys(names, "VARCHAR")
    if len(columns) < 2 or len(columns) != len(names):
        return None  # no header DuckDB could be given: the caller says what is missing
    params = {"files": duckdb_paths([path]), "delimiter": delimiter, "columns": columns}
    try:
        con.execute(_STRICT, params).fetchall()
    except duckdb.Error as exc:
        said = long_line_said(path, error_line(exc))
        return InputUnreadable(f"{path}: not a readable CSV file ({said})")
    return None
