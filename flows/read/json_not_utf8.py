"""JSON records holding a byte that UTF-8 cannot hold (a Windows-1252 export's "é", one
corrupt byte), for which DuckDB's JSON readers refuse the whole file. A mended copy
(flows/read/lone_surrogates.py, which mends half UTF-16 pairs alike) writes each such byte in a
string as its escape (`\\xe9`, four characters of text) and names the record's columns holding
one under NOT_UTF8, so the contract quarantines that row (`<column>_not_utf8`, as a CSV row's,
flows/read/not_utf8.py); every other record is copied byte for byte. A byte outside a string or
in a key is not mended: the file stays exit 3. (A record that itself holds U+FFFD before an
escaped backslash, "x" and two hex digits, beside such a byte, is read as holding one there too.)
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

from schemas import NOT_UTF8, NOT_UTF8_MARK

# DuckDB's words for it (its JSON parser's)
INVALID_UTF8 = "invalid UTF-8 encoding"
# In the JSON text, each byte UTF-8 cannot hold as U+FFFD and its escape, its backslash escaped
# (`\ufffd\\xe9`): JSON text inside a string, which a string's value reads as U+FFFD, `\xe9`.
_IN_TEXT = re.compile(r"\ufffd\\\\x([0-9a-f]{2})")
_IN_VALUE = re.compile(re.escape(NOT_UTF8_MARK) + "[0-9a-f]{2}")


def _json_escaped(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    bad = error.object[error.start : error.end]
    return "".join(f"\ufffd\\\\x{byte:02x}" for byte in bad), error.end


codecs.register_error("faithpipe-json-not-utf8", _json_escaped)


def refused_as_not_utf8(error: BaseException) -> bool:
    """Whether DuckDB refused a JSON file for a byte UTF-8 cannot hold."""
    return INVALID_UTF8 in str(error)


def marked_text(raw: bytes, encoding: str = "utf-8") -> str:
    """The bytes as text, each byte UTF-8 cannot hold marked (U+FFFD and its escape)."""
    return raw.decode(encoding, errors="faithpipe-json-not-utf8")


def holds_marks(text: str) -> bool:
    return _IN_TEXT.search(text) is not None


def mark_places(text: str) -> list[int]:
    """Where marked_text marked a byte."""
    return [found.start() for found in _IN_TEXT.finditer(text)]


def mended_lines(block: bytes) -> bytes | None:
    """Whole lines of JSON Lines, each one holding a byte UTF-8 cannot hold mended as one
    record; the block as it is when it is UTF-8; None when such a line cannot be mended."""
    try:
        block.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return block
    lines = marked_text(block).split("\n")
    for i, line in enumerate(lines):
        if holds_marks(line):
            record = mended_record(line)
            if record is None:
                return None
            lines[i] = record
    return "\n".join(lines).encode("utf-8")


def mended_record(record: str) -> str | None:
    """The record (marked_text) with each marked byte written as its escape and its columns
    holding one named first under NOT_UTF8; None when it is no object or a key holds one."""
    try:
        value = json.loads(record.lstrip("\ufeff"))
    except ValueError:
        return None
    if not isinstance(value, dict) or any(_IN_VALUE.search(key) for key in value):
        return None
    columns = [key for key, item in value.items() if _holds(item)]
    text = _IN_TEXT.sub(r"\\\\x\1", record)
    opening = text.index("{") + 1
    return f"{text[:opening]}{json.dumps(NOT_UTF8)}: {json.dumps(columns)}, {text[opening:]}"


def _holds(value: Any) -> bool:
    if isinstance(value, str):
        return _IN_VALUE.search(value) is not None
    if isinstance(value, dict):
        return any(_IN_VALUE.search(key) or _holds(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds(item) for item in value)
    return False
