"""JSON strings holding half a UTF-16 pair ("\\ud83d" alone: a text cut in the middle of an
emoji, as Python's json and JavaScript write it), for which DuckDB's JSON readers refuse the
whole file. Such a file is read from a mended copy: a record holding one has it written as its
text (the six characters `\\ud83d`) and names its columns holding one under LONE_SURROGATES,
so the contract quarantines that row (schemas/contract.py); every other byte is copied as it is.
A record holding a byte UTF-8 cannot hold is mended alike (flows/read/json_not_utf8.py).
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from flows.read import json_not_utf8
from flows.scratch import scratch_folder
from schemas import LONE_SURROGATES

# DuckDB's words for it (its JSON parser's, yyjson's)
HALF_PAIR_ERRORS = ("no low surrogate", "invalid low surrogate", "invalid high surrogate")
# At each backslash, one escape: an escaped backslash, a whole pair (both kept as they are), or
# half a pair (group 1). JSON allows a backslash in strings only, so no string is tracked.
_ESCAPES = re.compile(
    rb"\\(?:\\|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    rb"|(u[dD][89a-fA-F][0-9a-fA-F]{2}))"
)
_TEXT_ESCAPES = re.compile(_ESCAPES.pattern.decode())
_HALF = re.compile("[\ud800-\udfff]")
# Lines of JSON Lines mended a block at a time (an array is mended whole).
_BLOCK_BYTES = 16 * 1024 * 1024
# A JSON array is mended whole in memory, at ~13x its size (a review: 1.44 GB for a 109 MB
# array of emoji text); a larger one is not mended, and is the exit 3 it was, whose line says
# to mend it (or to write JSON Lines, which are mended a block at a time).
_ARRAY_MEND_BYTES = 32 * 1024 * 1024


def refused_for_half_pairs(error: BaseException) -> bool:
    """Whether DuckDB refused a JSON file for half a UTF-16 pair in a string."""
    return any(words in str(error) for words in HALF_PAIR_ERRORS)


def refused_for_mending(error: BaseException) -> bool:
    """Whether DuckDB refused a JSON file for what a mended copy mends: half a UTF-16 pair, or
    a byte UTF-8 cannot hold."""
    return refused_for_half_pairs(error) or json_not_utf8.refused_as_not_utf8(error)


def holds_half_pairs(raw: bytes) -> bool:
    """Whether the JSON text holds an escape of half a UTF-16 pair."""
    return any(found.group(1) for found in _ESCAPES.finditer(raw))


@contextmanager
def mended(path: Path) -> Iterator[Path | None]:
    """A mended copy of the JSON file (uncompressed, in a temporary folder, removed after),
    or None when a record holding half a pair or a byte UTF-8 cannot hold cannot be mended
    (it is no object, a key holds it, or it spans lines of a file that is no array): DuckDB
    says what is wrong with it."""
    with scratch_folder("mended") as folder:
        zipped = path.suffix.lower() == ".gz"
        copy = Path(folder) / (path.stem if zipped else path.name)
        try:
            opened = gzip.open(path, "rb") if zipped else open(path, "rb")  # noqa: SIM115
            with opened as file, copy.open("wb") as out:
                done = _mend(file, out)
        except (OSError, EOFError, ValueError, zlib.error):  # a broken gzip stream
            done = False
        yield copy if done else None


def _mend(file: io.BufferedIOBase, out: IO[bytes]) -> bool:
    """Copy the file mended to `out`: an array whole, else line by line in blocks."""
    start = file.read(_BLOCK_BYTES)
    if start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"["):  # an array: its items mended
        whole = start + file.read(_ARRAY_MEND_BYTES + 1 - len(start))
        if len(whole) > _ARRAY_MEND_BYTES:
            return False
        text = _mended_items(json_not_utf8.marked_text(whole, "utf-8-sig"))
        if text is not None:
            out.write(text.encode("utf-8"))
        return text is not None
    block = start
    while block:  # one object a line: each line holding half a pair mended alone
        if not block.endswith(b"\n"):
            block += file.readline()
        lines = json_not_utf8.mended_lines(block)
        lines = None if lines is None else _mended_lines(lines)
        if lines is None:
            return False
        out.write(lines)
        block = file.read(_BLOCK_BYTES)
    return True


def _mended_lines(block: bytes) -> bytes | None:
    """Whole lines, each one holding half a pair mended as one record."""
    pieces, copied = [], 0
    for found in _ESCAPES.finditer(block):
        if found.group(1) is None or found.start() < copied:
            continue
        first = block.rfind(b"\n", 0, found.start()) + 1
        end = block.find(b"\n", found.start())
        end = len(block) if end < 0 else end
        record = _mended_record(block[first:end])
        if record is None:
            return None
        pieces += [block[copied:first], record]
        copied = end
    return b"".join([*pieces, block[copied:]])


def _mended_items(text: str) -> str | None:
    """An array's items, those holding half a pair or a byte UTF-8 cannot hold mended."""
    halves = [found.start() for found in _TEXT_ESCAPES.finditer(text) if found.group(1)]
    halves = sorted([*halves, *json_not_utf8.mark_places(text)])
    decoder = json.JSONDecoder()
    pieces, copied, at = [], 0, text.index("[") + 1
    try:
        while halves:
            at = _past(text, at, " \t\r\n,")
            _, end = decoder.raw_decode(text, at)
            if halves[0] < end:
                record = _mended_item(text[at:end])
                if record is None:
                    return None
                pieces += [text[copied:at], record]
                copied = end
                halves = [half for half in halves if half >= end]
            at = end
    except ValueError:
        return None
    return "".join([*pieces, text[copied:]])


def _mended_item(item: str) -> str | None:
    """An item of an array mended: its bytes UTF-8 cannot hold, then its half pairs."""
    if json_not_utf8.holds_marks(item):
        mended_item = json_not_utf8.mended_record(item)
        if mended_item is None:
            return None
        item = mended_item
    if not holds_half_pairs(item.encode("utf-8")):
        return item
    record = _mended_record(item.encode("utf-8"))
    return None if record is None else record.decode("utf-8")


def _past(text: str, at: int, characters: str) -> int:
    while at < len(text) and text[at] in characters:
        at += 1
    return at


def _mended_record(record: bytes) -> bytes | None:
    """The record with each half pair written as its text and its columns holding one named
    first under LONE_SURROGATES; None when it is no object or a key holds one."""
    try:
        value = json.loads(record)
    except ValueError:
        return None
    if not isinstance(value, dict) or any(_HALF.search(key) for key in value):
        return None
    columns = [key for key, item in value.items() if _holds_half(item)]
    text = _ESCAPES.sub(lambda m: b"\\\\" + m.group(1) if m.group(1) else m.group(0), record)
    opening = text.index(b"{") + 1
    named = f"{json.dumps(LONE_SURROGATES)}: {json.dumps(columns)}, ".encode()
    return text[:opening] + named + text[opening:]


def _holds_half(value: Any) -> bool:
    if isinstance(value, str):
        return _HALF.search(value) is not None
    if isinstance(value, dict):
        return any(_HALF.search(key) or _holds_half(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds_half(item) for item in value)
    return False
