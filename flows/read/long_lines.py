"""A CSV line longer than DuckDB's readers are told to read (16 MB): DuckDB refuses the file with
words that name another fault or another line. A 40 MB answer was "CSV Error on Line: 1:
Maximum line size ... Actual Size: 33554376 bytes" or "Value with unterminated quote found",
and an unquoted one "The Parallel CSV Reader currently does not support a full read". The
file read through names the line and its size instead, and what to do."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from flows.read.csv_ends import csv_end_said

# A CSV line up to 16 MB (an answer and a context past the size limits, which quarantine the
# row) is read, not the 2 MB past which DuckDB refuses the whole file; its buffer twice that,
# or the larger limit alone slows every read by a quarter.
CSV_LINE_BYTES = 16 * 1024 * 1024

# DuckDB's words where a line past CSV_LINE_BYTES may be their cause.
_MAYBE_LONG = (
    "Maximum line size",
    "Value with unterminated quote",
    "does not support a full read",
    "Error when sniffing file",
)
_PIECE = 1 << 20


def first_long_line(path: Path) -> tuple[int, int] | None:
    """The number and size in bytes of the file's first line (of its text, gzipped) longer than
    CSV_LINE_BYTES, its line end left out; None when there is none, or when lines end in a
    lone CR (read by "\\n", every line of such a file would be one)."""
    opened = gzip.open(path, "rb") if path.suffix.lower() == ".gz" else open(path, "rb")  # noqa: SIM115
    number = 0
    try:
        with opened as file:
            while line := file.readline(CSV_LINE_BYTES + 2):
                number += 1
                body = line.rstrip(b"\r\n") if line.endswith(b"\n") else line
                if len(body) <= CSV_LINE_BYTES:
                    continue
                if b"\r" in body:
                    return None
                size = len(line)
                while not line.endswith(b"\n") and (line := file.readline(_PIECE)):
                    size += len(line)
                return number, size - _line_end(line)
    except (OSError, EOFError, zlib.error):
        return None
    return None


def _line_end(last: bytes) -> int:
    return 2 if last.endswith(b"\r\n") else 1 if last.endswith(b"\n") else 0


def long_line_said(path: Path, said: str) -> str:
    """DuckDB's error `said` on the CSV file, or, when a line of it is past CSV_LINE_BYTES and
    the error may be that line's, the line's number and size and what to do; an unterminated
    quote at the file's end says the file may be still being written (flows/read/csv_ends.py)."""
    if not any(words in said for words in _MAYBE_LONG):
        return said
    found = first_long_line(path)
    if found is None:
        return said + csv_end_said(path, said)  # a file still being written, cut in a quote
    number, size = found
    return (
        f"line {number} is {size:,} bytes: a CSV line past 16 MiB is not read: "
        "write the log as Parquet"
    )
