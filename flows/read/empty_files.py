"""Log files that hold no rows, which a folder of logs skips: log rotation, Spark and JSON
exporters leave them beside the day's files, and read, each stopped the run as a file missing
every column ("has: json", "has: column0")."""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path

from flows.read.file_facts import is_compressed
from flows.read.read_options import ReadOptions, format_of

# A file this small is looked into: a gzip of nothing is 20 bytes (more with a name or a
# comment in its header), and `[]` or a few blank lines are what a JSON exporter writes for
# an hour without logs; a plain file only up to a few lines' bytes, so a folder of 5,000
# one-row files is not read twice (85 ms more if each were). A larger one is left to its reader.
_LOOKED_INTO_BYTES = 4096
_PLAIN_LOOKED_INTO_BYTES = 64
_BOM = b"\xef\xbb\xbf"
_EMPTY_ARRAY = re.compile(rb"\[\s*\]")


def emptiness(path: Path, options: ReadOptions) -> str | None:
    """Why a CSV or JSON file holds no rows ('0 bytes', 'a gzip of 0 bytes', 'blank lines
    only', 'an empty JSON array'), or None when it may hold some. A 0-byte Parquet file is a
    broken one (a writer that died): it is not empty here, and fails the run."""
    fmt = format_of(path, options) or "parquet"
    if fmt == "parquet":
        return None
    size = path.stat().st_size
    if size == 0:
        return "0 bytes"
    small = size <= (_LOOKED_INTO_BYTES if is_compressed(path) else _PLAIN_LOOKED_INTO_BYTES)
    content = _small_content(path) if small else None
    return None if content is None else _what_is_empty(content, fmt)


def _what_is_empty(content: bytes, fmt: str) -> str | None:
    """emptiness of a small file's content (uncompressed)."""
    text = content.removeprefix(_BOM).strip()
    if not content:
        return "a gzip of 0 bytes"
    if not text:
        return "blank lines only"
    if fmt == "json" and _EMPTY_ARRAY.fullmatch(text):
        return "an empty JSON array"
    return None


def _small_content(path: Path) -> bytes | None:
    """A small file's bytes, uncompressed; None when it uncompresses to more than a small
    file's, or is corrupt (its reader says what is wrong with it)."""
    try:
        if not is_compressed(path):
            return path.read_bytes()
        with gzip.open(path, "rb") as file:
            content = file.read(_LOOKED_INTO_BYTES + 1)
    except (OSError, EOFError, zlib.error):
        return None
    return content if len(content) <= _LOOKED_INTO_BYTES else None
