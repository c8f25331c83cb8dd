"""Small JSON files' objects, parsed here instead of asked of DuckDB: a query over 5,000
one-row files costs ~0.5 ms a file in DuckDB's multi-file reader, where reading and parsing a
small file costs a few µs. Only what is plainly objects is parsed here (an array of objects,
one object, or one object a line); anything else is left to DuckDB, which says what is wrong.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path
from typing import Any

from flows.read.lone_surrogates import holds_half_pairs

# A JSON file at most this long (as stored) is parsed here; a larger one is left to DuckDB.
SMALL_JSON_BYTES = 256 * 1024
_BOM = b"\xef\xbb\xbf"
_JSON_SPACE = b" \t\r\n"


def _refuse(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")  # NaN, Infinity: DuckDB's parser refuses them


def small_objects(path: Path) -> list[dict[str, Any]] | None:
    """The file's objects, in order, when it is small and plainly objects; else None."""
    return small_json(path)[0]


def small_json(path: Path) -> tuple[list[dict[str, Any]] | None, bool]:
    """The file's small_objects and its bom_array, from one read of a small file."""
    try:
        if os.path.getsize(path) > SMALL_JSON_BYTES:
            return None, bom_array(path)
        raw = path.read_bytes()
        if path.suffix.lower() == ".gz":
            raw = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error):  # DuckDB names what is wrong with it
        return None, False
    return _plain_objects(raw), _array_after_bom(raw)


def _plain_objects(raw: bytes) -> list[dict[str, Any]] | None:
    if holds_half_pairs(raw):  # parsed here, but DuckDB reads it mended (lone_surrogates.py)
        return None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark is no part of the JSON
    except UnicodeDecodeError:
        return None
    try:
        whole = json.loads(text, parse_constant=_refuse)
        values = whole if isinstance(whole, list) else [whole]
    except RecursionError:  # nested deeper than Python parses: DuckDB says what is wrong
        return None
    except ValueError:
        try:  # one object a line
            values = [
                json.loads(line, parse_constant=_refuse)
                for line in text.splitlines()
                if line.strip()
            ]
        except (ValueError, RecursionError):
            return None
    if not values or not all(isinstance(value, dict) for value in values):
        return None
    return values


def object_keys(objects: list[dict[str, Any]]) -> list[str]:
    """The objects' keys in the order they first appear (read_json orders its columns so)."""
    return list(dict.fromkeys(key for value in objects for key in value))


def bom_array(path: Path) -> bool:
    """Whether the file is a JSON array after a UTF-8 byte-order mark. DuckDB's JSON readers
    tell an array by its first byte, so they read such a file as one value (a record that is
    an array) unless told it is an array; a mark before one object a line they skip."""
    try:
        opened = gzip.open(path, "rb") if path.suffix.lower() == ".gz" else open(path, "rb")  # noqa: SIM115
        with opened as file:
            start = file.read(4096)
    except (OSError, EOFError, zlib.error):
        return False  # DuckDB names what is wrong with it
    return _array_after_bom(start)


def _array_after_bom(start: bytes) -> bool:
    return start.startswith(_BOM) and start[len(_BOM) :].lstrip(_JSON_SPACE).startswith(b"[")
