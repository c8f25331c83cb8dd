"""CSV files holding bytes that UTF-8 cannot (one corrupt byte, or a Windows-1252 export's "é"),
for which DuckDB's CSV reader stops at the first such line. Such a file is read from a mended
copy where each of those bytes is written as its escape (`\\xe9`) behind U+FFFD; the rows
holding one are named under NOT_UTF8, so the contract quarantines them (`<column>_not_utf8`,
schemas/contract.py), and every other row reads as from a clean file. Nothing is guessed: the
text is not decoded in another encoding. (A valid line of such a file that itself holds U+FFFD
before "x" and two hex digits is read as holding such a byte too.)
"""

from __future__ import annotations

import codecs
import gzip
import io
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import duckdb
import polars as pl

from flows.errors import InputUnreadable
from flows.read.formats import (
    FILE_COLUMN,
    count_file_rows,
    duckdb_frames,
    error_line,
    is_compressed,
)
from flows.scratch import scratch_folder
from schemas import NOT_UTF8, NOT_UTF8_MARK

# DuckDB's words for it (csv_error.cpp)
_INVALID_UNICODE = "Invalid unicode"
# U+FFFD, then the byte's escape: what a mended copy writes for a byte UTF-8 cannot hold. The
# escape alone could be a log's own text ("C:\xe9"); behind U+FFFD it is the mend's.
_MARK = NOT_UTF8_MARK
_MARKED = r"\x{FFFD}\\x([0-9a-f]{2})"
_BLOCK_BYTES = 16 * 1024 * 1024


def _escaped(error: UnicodeError) -> tuple[str | bytes, int]:
    """Each byte UTF-8 cannot hold as the mark and its escape (`\ufffd\\xe9`)."""
    assert isinstance(error, UnicodeDecodeError)
    bad = error.object[error.start : error.end]
    return "".join(f"{_MARK}{byte:02x}" for byte in bad), error.end


codecs.register_error("faithpipe-not-utf8", _escaped)


def refused_as_not_utf8(error: BaseException | None) -> bool:
    """Whether DuckDB's CSV reader stopped at a line holding a byte UTF-8 cannot hold (its
    error, or pyarrow's OSError carrying it from a stream of batches)."""
    return isinstance(error, duckdb.Error | OSError) and _INVALID_UNICODE in str(error)


def _refused(error: InputUnreadable | OSError) -> bool:
    return refused_as_not_utf8(error.__cause__ if isinstance(error, InputUnreadable) else error)


def _open(path: Path) -> io.BufferedIOBase:
    """The file's bytes, gzip's text for a .gz."""
    return gzip.open(path, "rb") if is_compressed(path) else open(path, "rb")


def is_utf8_file(path: Path) -> bool:
    """Whether the whole file (gzip's text, for a .gz) is UTF-8 text; read a block at a time."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with _open(path) as file:
            while block := file.read(_BLOCK_BYTES):
                decoder.decode(block)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    except (OSError, EOFError, zlib.error):
        return True  # unreadable: DuckDB says what is wrong with it
    return True


@contextmanager
def mended(path: Path) -> Iterator[Path | None]:
    """A mended copy of the CSV file (uncompressed, in a temporary folder, removed after), or
    None when it cannot be read through (a broken gzip stream: DuckDB says what is wrong)."""
    with scratch_folder("mended") as folder:
        copy = Path(folder) / (path.stem if is_compressed(path) else path.name)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="faithpipe-not-utf8")
        try:
            with _open(path) as file, copy.open("w", encoding="utf-8", newline="") as out:
                while block := file.read(_BLOCK_BYTES):
                    out.write(decoder.decode(block))
                out.write(decoder.decode(b"", final=True))
        except (OSError, EOFError, zlib.error):
            yield None
            return
        yield copy


@contextmanager
def mended_run(run: list[Path]) -> Iterator[dict[Path, Path]]:
    """Each file of the run that is not UTF-8 text, and its mended copy."""
    with ExitStack() as stack:
        copies: dict[Path, Path] = {}
        for path in run:
            if not is_utf8_file(path):
                copy = stack.enter_context(mended(path))
                if copy is not None:
                    copies[path] = copy
        yield copies


def marked(frame: pl.DataFrame) -> pl.DataFrame:
    """A frame read from mended copies with its rows' columns that held a byte UTF-8 cannot
    hold named under NOT_UTF8, and each such byte written as its escape (`\\xe9`), the text
    the quarantine keeps."""
    texts = [name for name, kind in frame.schema.items() if kind == pl.String]
    names = [pl.when(pl.col(name).str.contains(_MARKED)).then(pl.lit(name)) for name in texts]
    found = pl.concat_list(names).list.drop_nulls() if names else pl.lit([], pl.List(pl.String))
    return frame.with_columns(
        *(pl.col(name).str.replace_all(_MARKED, r"\x${1}") for name in texts),
        found.alias(NOT_UTF8),
    )


def count_csv_rows(run: list[Path]) -> int:
    """count_file_rows of a run of CSV files, those that are not UTF-8 counted from mended
    copies (DuckDB's count stops at such a byte where its sniffer reads it)."""
    try:
        return count_file_rows(run, "csv")
    except InputUnreadable as exc:
        if not _refused(exc):
            raise
        with mended_run(run) as copies:
            if not copies:
                raise
            return count_file_rows([copies.get(path, path) for path in run], "csv")


def csv_frames(
    run: list[Path], names: list[str], batch_size: int, list_column: str | None, only: str | None
) -> Iterator[pl.DataFrame]:
    """duckdb_frames of a run of CSV files (`names`: their columns); where DuckDB stops at a
    byte UTF-8 cannot hold, the rest of the run is read again from mended copies of its files
    that are not UTF-8 (the rows already read skipped: a copy holds the same rows in the same
    order), their rows holding such a byte marked for the contract."""
    done = 0
    try:
        for frame in duckdb_frames(run, "csv", batch_size, list_column, names=names, only=only):
            yield frame
            done += frame.height
    except (InputUnreadable, OSError) as exc:
        if not _refused(exc):
            raise
        with mended_run(run) as copies:
            if not copies:
                raise
            read = [copies.get(path, path) for path in run]
            as_run = {str(copies[path]): str(path) for path in copies}
            frames = duckdb_frames(read, "csv", batch_size, list_column, names=names, only=only)
            try:
                for frame in _skipped(frames, done):
                    yield marked(_as_run(frame, as_run))
            except (InputUnreadable, OSError) as again:  # named as the file, not its copy
                said = str(again) if isinstance(again, InputUnreadable) else error_line(again)
                for copy, path in as_run.items():
                    said = said.replace(copy, path)
                raise InputUnreadable(said) from again


def _as_run(frame: pl.DataFrame, files: dict[str, str]) -> pl.DataFrame:
    """Each row's file (FILE_COLUMN, with more than one file) named as the run's, not a copy."""
    if FILE_COLUMN not in frame.columns:
        return frame
    return frame.with_columns(pl.col(FILE_COLUMN).cast(pl.String).replace(files))


def _skipped(frames: Iterator[pl.DataFrame], rows: int) -> Iterator[pl.DataFrame]:
    """The frames but their first `rows` rows."""
    for frame in frames:
        if rows >= frame.height:
            rows -= frame.height
            continue
        yield frame.slice(rows) if rows else frame
        rows = 0
