"""What the end of a CSV file DuckDB could not read says about it: a file whose last line ends
inside a quoted value (an answer with a comma, quoted, cut where the night found it: an
exporter still writing the file, or a copy cut short) is said so, as a JSON file cut in the
middle of a record is (flows/read/json_ends.py)."""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path

CUT_IN_QUOTES = (
    "; the file ends inside a quoted value: a file still being written, or a copy cut short? "
    "Write it under another name (FILE.tmp) and rename it when complete, or remove it"
)
_UNTERMINATED = re.compile(r"CSV Error on Line: (\d+): Value with unterminated quote")
_PIECE = 1 << 20


def csv_end_said(path: Path, said: str) -> str:
    """CUT_IN_QUOTES when DuckDB's error `said` is an unterminated quote on the file's last
    line and the file's quotes do not pair (its text ends inside one); "" otherwise."""
    named = _UNTERMINATED.search(said)
    if named is None:
        return ""
    ends = _ends(path)
    if ends is None:
        return ""
    last_line, quotes = ends
    return CUT_IN_QUOTES if int(named.group(1)) == last_line and quotes % 2 else ""


def _ends(path: Path) -> tuple[int, int] | None:
    """The number of the file's last line (of its text, gzipped) and its quote characters;
    None when the file ends in a line end (a cut there cannot be told) or cannot be read."""
    opened = gzip.open(path, "rb") if path.suffix.lower() == ".gz" else open(path, "rb")  # noqa: SIM115
    lines = quotes = 0
    last = b""
    try:
        with opened as file:
            while block := file.read(_PIECE):
                lines += block.count(b"\n")
                quotes += block.count(b'"')
                last = block
    except (OSError, EOFError, zlib.error):
        return None
    if not last or last.endswith(b"\n"):
        return None
    return lines + 1, quotes
