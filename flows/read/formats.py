"""How a source's files are read: which format each is, the column mapping, and DuckDB's own
CSV and JSON readers streamed in bounded batches (Parquet stays with source.py's reader)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from flows.errors import InputUnreadable

FORMATS = ("parquet", "csv", "json")
# `--format` spellings: JSON Lines and NDJSON are DuckDB's newline-delimited JSON.
FORMAT_CHOICES = ("auto", *FORMATS, "jsonl", "ndjson")
_EXTENSIONS = {
    ".parquet": "parquet",
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
}
# What DuckDB's readers may hold in memory while streaming a file: they spill past it.
_READER_MEMORY = "512MB"
# DuckDB's readers, by format. CSV: every column as text, so no type guessed from the first
# rows can fail on a later one (the contract casts and quarantines value by value). JSON: the
# types are inferred from the whole file, so a column whose values differ in type arrives as
# JSON text instead of failing the read.
_READERS = {
    "csv": "read_csv($files, all_varchar := true, header := true, union_by_name := true)",
    "json": "read_json($files, union_by_name := true, sample_size := -1)",
    "parquet": "read_parquet($files, union_by_name := true)",
}
CONTRACT_NAMES = (
    "case_id",
    "input",
    "actual_output",
    "retrieval_context",
    "logged_at",
    "conversation_id",
    "turn",
    "role",
    "content",
    "messages",
)


@dataclass(frozen=True)
class ReadOptions:
    """How to read a source: its format, which of its columns are the contract's, how a
    missing case_id is made, and (turns) how many earlier turns a case may rely on."""

    format: str = "auto"
    # contract name -> the source's column name (`--columns input=question,...`)
    columns: Mapping[str, str] = field(default_factory=dict)
    case_id: str = "given"  # given | content
    conversation_window: int = 4

    def __post_init__(self) -> None:
        if self.format not in FORMAT_CHOICES:
            raise ValueError(f"--format {self.format}: choose one of {', '.join(FORMAT_CHOICES)}")
        unknown = sorted(set(self.columns) - set(CONTRACT_NAMES))
        if unknown:
            raise ValueError(
                f"--columns {', '.join(unknown)}: not a contract column "
                f"(choose from {', '.join(CONTRACT_NAMES)})"
            )
        if self.case_id not in ("given", "content"):
            raise ValueError(f"--case-id {self.case_id}: choose given or content")

    @property
    def wanted_format(self) -> str | None:
        """The format --format names (None: by extension)."""
        if self.format == "auto":
            return None
        return "json" if self.format in ("jsonl", "ndjson") else self.format

    def source_name(self, contract_name: str) -> str:
        """The source's column holding `contract_name`."""
        return self.columns.get(contract_name, contract_name)


def parse_columns(text: str | None) -> dict[str, str]:
    """`input=question,actual_output=answer` -> {"input": "question", ...}."""
    mapping: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, column = part.partition("=")
        if not sep or not name.strip() or not column.strip():
            raise ValueError(f"--columns {part.strip()!r}: write CONTRACT_NAME=SOURCE_COLUMN")
        mapping[name.strip()] = column.strip()
    return mapping


def format_of(path: Path, options: ReadOptions) -> str | None:
    """The file's format: --format's, else its extension's (`.gz` looked through); None when
    the name says no format faithpipe reads."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    by_name = _EXTENSIONS.get(suffixes[-1]) if suffixes else None
    return options.wanted_format or by_name


def named_format(path: Path, options: ReadOptions) -> bool:
    """Whether a file found in a folder or glob is one to read: its name says a format (the
    one --format names, when given)."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    found = _EXTENSIONS.get(suffixes[-1]) if suffixes else None
    return found is not None and options.wanted_format in (None, found)


def mapped(frame: pl.DataFrame, options: ReadOptions) -> pl.DataFrame:
    """The frame with the mapped columns under their contract names."""
    renames = {
        source: name
        for name, source in options.columns.items()
        if source in frame.columns and source != name
    }
    clashing = [name for name in renames.values() if name in frame.columns]
    if clashing:
        raise InputUnreadable(
            f"--columns maps onto {', '.join(clashing)}, which the source has already: "
            "map that column too, or drop it"
        )
    return frame.rename(renames) if renames else frame


def duckdb_paths(paths: list[Path]) -> list[str]:
    """Paths as DuckDB reads them literally: it treats every path as a glob, so a file named
    `part[1].parquet` would be read as `part1.parquet`. A glob character becomes a
    one-character class of itself."""
    return [re.sub(r"([\[\]*?])", r"[\1]", str(path)) for path in paths]


def reader_sql(fmt: str) -> str:
    """DuckDB's table function reading `$files` in `fmt`."""
    return _READERS[fmt]


def reader_connection() -> duckdb.DuckDBPyConnection:
    """A DuckDB connection for reading files, its memory bounded (it spills past it)."""
    con = duckdb.connect(config={"memory_limit": _READER_MEMORY})
    con.execute("SET enable_progress_bar = false")
    return con


def column_names(path: Path, fmt: str) -> list[str]:
    """The file's columns as DuckDB's reader sees them; an unreadable file fails the run."""
    found = _ask(path, fmt, "DESCRIBE SELECT *", f"not a readable {fmt.upper()} file")
    return [row[0] for row in found]


def count_file_rows(path: Path, fmt: str) -> int:
    """Rows in one CSV or JSON file (read through once)."""
    return int(_ask(path, fmt, "SELECT count(*)", "cannot read its data")[0][0])


def _ask(path: Path, fmt: str, select: str, failure: str) -> list[tuple]:
    """`select` over the file's rows; a DuckDB error fails the run naming the file."""
    con = reader_connection()
    try:
        return con.execute(
            f"{select} FROM {reader_sql(fmt)}", {"files": duckdb_paths([path])}
        ).fetchall()
    except duckdb.Error as exc:
        raise InputUnreadable(f"{path}: {failure} ({_first(exc)})") from exc
    finally:
        con.close()


def duckdb_frames(
    path: Path, fmt: str, batch_size: int, list_column: str | None = None
) -> Iterator[pl.DataFrame]:
    """One CSV or JSON file's rows in frames of at most `batch_size`, streamed by DuckDB. A
    CSV's `list_column` written by DuckDB itself (`[a, 'b, c']`, its COPY's list syntax) is
    turned into JSON text; JSON text and anything else are left for the contract."""
    con = reader_connection()
    files = {"files": duckdb_paths([path])}
    try:
        try:
            select = "*"
            if fmt == "csv" and list_column in column_names(path, fmt):
                column = quoted(list_column or "")
                select = f"* REPLACE ({_duckdb_lists_as_json(column)} AS {column})"
            query = con.sql(f"SELECT {select} FROM {reader_sql(fmt)}", params=files)
            for record_batch in query.to_arrow_reader(batch_size):
                frame = pl.from_arrow(record_batch)
                assert isinstance(frame, pl.DataFrame)
                yield frame
        except duckdb.Error as exc:
            raise InputUnreadable(f"{path}: cannot read its data ({_first(exc)})") from exc
    finally:
        con.close()


def _duckdb_lists_as_json(column: str) -> str:
    return (
        f"CASE WHEN {column} IS NULL OR json_valid({column}) THEN {column} "
        f"ELSE coalesce(CAST(to_json(TRY_CAST({column} AS VARCHAR[])) AS VARCHAR), {column}) END"
    )


def quoted(name: str) -> str:
    """A column name as a DuckDB identifier, whatever characters it holds."""
    return '"' + name.replace('"', '""') + '"'


def _first(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
