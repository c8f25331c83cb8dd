"""What the end of a JSON file DuckDB could not read says about it. DuckDB names a malformed
record one or two past the file's last when the fault is its end (`record/value 12` of a
10-record array), so a file cut short (a night reading a log its exporter is still writing, a
copy cut short) or an array with a comma after its last item is said so; and JSON Lines
whose records are followed by commas (an array's items without its brackets), which DuckDB
names as a record at its first byte."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

from flows.read.formats import is_compressed

_SPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"
_TAIL_BYTES = 64 * 1024
CUT_SHORT = (
    "; the file ends in the middle of a record: a file still being written, or a copy cut "
    "short? Write it under another name (FILE.tmp) and rename it when complete, or remove it"
)
TRAILING_COMMA = "; the array has a comma after its last item, which JSON allows none"
COMMAS = (
    "; its first line ends in a comma after its object: JSON Lines hold one object a line, "
    "nothing between them (an array's items without its brackets? write [ … ] around them)"
)


def json_end_said(path: Path) -> str:
    """CUT_SHORT, TRAILING_COMMA, COMMAS, or "" when the file's end is whole (or cannot be
    read)."""
    try:
        head, tail, whole = _ends(path)
    except (OSError, EOFError, zlib.error):
        return ""
    if not tail.rstrip(_SPACE):
        return ""
    if head.removeprefix(_BOM).lstrip(_SPACE).startswith(b"["):
        return _array_end(tail.rstrip(_SPACE))
    first, ended, _ = head.removeprefix(_BOM).lstrip(_SPACE).partition(b"\n")
    if ended and first.rstrip(_SPACE).endswith(b"},"):
        return COMMAS
    return "" if _last_line_whole(tail, whole) else CUT_SHORT


def _array_end(end: bytes) -> str:
    if not end.endswith(b"]"):
        return CUT_SHORT
    return TRAILING_COMMA if end[:-1].rstrip(_SPACE).endswith(b",") else ""


def _last_line_whole(tail: bytes, whole: bool) -> bool:
    """Whether JSON Lines end in a whole line: ended, or a record as it is; a last line longer
    than the tail ends in its object's brace. A last line that starts no record (the `}` of
    an object written over several lines) is not told cut short: its start is not read."""
    if tail.endswith(b"\n"):
        return True
    before, _, last = tail.rpartition(b"\n")
    if not before and not whole:
        return tail.rstrip(_SPACE).endswith(b"}")
    last = last.removeprefix(_BOM).lstrip(_SPACE)
    if not last.startswith(b"{"):  # a record's end over several lines (an indented object)
        return True
    try:
        json.loads(last)
    except ValueError:
        return False
    return True


def _ends(path: Path) -> tuple[bytes, bytes, bool]:
    """The first bytes of the file's text, its last (gzip's text, read through), and whether
    those are its whole text."""
    if not is_compressed(path):
        with open(path, "rb") as file:
            head = file.read(4096)
            size = path.stat().st_size
            file.seek(max(0, size - _TAIL_BYTES))
            return head, file.read(), size <= _TAIL_BYTES
    with gzip.open(path, "rb") as zipped:
        head = tail = zipped.read(_TAIL_BYTES)
        whole = True
        while block := zipped.read(_TAIL_BYTES):
            tail, whole = tail[-_TAIL_BYTES:] + block, False
    return head[:4096], tail, whole
