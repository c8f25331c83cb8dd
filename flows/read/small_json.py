"""Small JSON files' objects, parsed here instead of asked of DuckDB: a query over 5,000
one-row files costs ~0.5 ms a file in DuckDB's multi-file reader, where reading and parsing a
small file costs a few µs. Only what is plainly objects is parsed here (an array of objects,
one object, or one object a line); anything else is left to DuckDB, which says what is wrong.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

# A JSON file at most this long (as stored) is parsed here; a larger one is left to DuckDB.
SMALL_JSON_BYTES = 256 * 1024


def _refuse(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")  # NaN, Infinity: DuckDB's parser refuses them


def small_objects(path: Path) -> list[dict[str, Any]] | None:
    """The file's objects, in order, when it is small and plainly objects; else None."""
    try:
        if os.path.getsize(path) > SMALL_JSON_BYTES:
            return None
        raw = path.read_bytes()
        if path.suffix.lower() == ".gz":
            raw = gzip.decompress(raw)
        text = raw.decode("utf-8")
    except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError):
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
