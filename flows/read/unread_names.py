"""File names that say a log faithpipe does not read: another compression than gzip, or tabs
between the values. Named in a folder or a glob, such a file would be left out without a
word, its rows lost beside the files read, so it is refused (exit 3) naming the file."""

from __future__ import annotations

from pathlib import Path

from flows.errors import InputUnreadable
from flows.read.read_options import EXTENSIONS

# Compressions DuckDB's readers do not read a log in (only gzip, as `.gz`): a file named as a
# log in one of them would be skipped in a folder, or read as Parquet when named alone.
_OTHER_COMPRESSIONS = (".bz2", ".xz", ".lzma", ".zst", ".zstd", ".lz4", ".zip", ".7z", ".br")
_OTHER_GZIP = (".gzip", ".gzp")


# Tab-separated logs, read as CSV when named alone with --format csv: in a folder or a glob
# they were left out without a word, their rows lost beside the files read.
_TAB_SEPARATED = (".tsv", ".tab")


def check_unread_names(
    paths: list[Path], folder: Path | None = None, *, tab_separated: bool = True
) -> None:
    """Exit 3 naming the first file whose name says a log format compressed otherwise than
    gzip `.gz` (`day1.jsonl.zst`) or, with `tab_separated`, a `.tsv` or `.tab` log (plain or
    .gz). A folder's metadata (`_`, `.` names) is not looked at."""
    for path in paths:
        if folder is not None and is_metadata(path, folder):
            continue
        problem = _unread(path, tab_separated=tab_separated)
        if problem is not None:
            raise InputUnreadable(f"{path}: {problem}")


def _unread(path: Path, *, tab_separated: bool) -> str | None:
    """Why a file so named is not read among logs, or None."""
    suffixes = [suffix.lower() for suffix in path.suffixes[-2:]]
    if len(suffixes) == 2 and suffixes[0] in EXTENSIONS:
        if suffixes[1] in _OTHER_GZIP:
            return "a gzip file is read when named .gz: rename it"
        if suffixes[1] in _OTHER_COMPRESSIONS:
            return (
                f"a {suffixes[1]} compressed file is not read (logs are read plain or gzip, "
                ".gz): decompress it, recompress it with gzip, or move it out"
            )
    if suffixes[-1:] == [".gz"]:
        suffixes = suffixes[:-1]
    if tab_separated and suffixes[-1:] and suffixes[-1] in _TAB_SEPARATED:
        return (
            "a tab-separated file is not read among others (only .parquet, .csv, .json, "
            ".jsonl and .ndjson, each optionally .gz): rename it .csv (its tabs are found), or "
            "move it out"
        )
    return None


def is_metadata(path: Path, folder: Path) -> bool:
    """A table's metadata, not logs: a CSV or JSON file under a name that starts with `_` or
    `.` (Delta's `_delta_log/*.json`, Spark's `_SUCCESS`, hidden files)."""
    hidden = any(part.startswith(("_", ".")) for part in path.relative_to(folder).parts)
    return hidden and path.suffix.lower() != ".parquet"
