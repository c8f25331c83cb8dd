"""CSV files read together that DuckDB's multi-file reader misreads without a word. Read as
one run, a file whose line opens a quote it never closes lost its rows from that line on
(29 rows in of 30 one-row files, exit 0), where the file alone is exit 3 naming the line. A
CSV file as faithpipe reads it (quote and escape `"`) holds an even number of quote
characters; a file of a run holding an odd number is read strictly, alone, for its line."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from flows.read.formats import is_compressed

_BLOCK_BYTES = 16 * 1024 * 1024


def odd_quotes(path: Path) -> bool:
    """Whether the file's text (gzip's, for a .gz) holds an odd number of `"`, read a block
    at a time; False for a file that cannot be read through (DuckDB names what is wrong)."""
    count = 0
    try:
        with gzip.open(path, "rb") if is_compressed(path) else open(path, "rb") as file:
            while block := file.read(_BLOCK_BYTES):
                count += block.count(b'"')
    except (OSError, EOFError, zlib.error):
        return False
    return count % 2 == 1
