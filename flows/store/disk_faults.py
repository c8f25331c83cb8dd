"""The disk's faults as a database is opened: its folder that cannot be made, and a disk too
full for DuckDB to create the file at all; each the documented error (a full disk: exit 7,
a read-only mount or no permission: exit 12), never a bare OSError or `not a database`."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from flows.errors import DISK_FULL_ERRNOS, DatabaseUnwritable, DatabaseWriteFailed

# The OS's words for a full disk, as DuckDB quotes them.
_FULL = tuple(os.strerror(number).lower() for number in DISK_FULL_ERRNOS)


def make_db_folder(path: Path) -> None:
    """The database's folder, made if missing; one that cannot be made is the documented fault
    (a read-only mount or no permission: exit 12; a full disk: exit 7), never a bare OSError."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = f"{exc.strerror or type(exc).__name__}: {exc.filename or path.parent}"
        if exc.errno in DISK_FULL_ERRNOS:
            raise DatabaseWriteFailed(
                f"{path}: its folder cannot be created ({reason}); free disk space, then run again"
            ) from exc
        raise DatabaseUnwritable(
            f"{path}: the database cannot be written, its folder cannot be created ({reason}); "
            "fix the folder's permissions or mount, or give --db a writable path"
        ) from exc


def full_disk_at_open(exc: duckdb.Error, path: Path) -> DatabaseWriteFailed | None:
    """DuckDB's refusal to create or open the file on a full disk (`Could not write file ...:
    No space left on device`), as exit 7 with the full disk's line; None for any other. It was
    `not a faithpipe database` (exit 5), leaving an empty file a later run makes anew."""
    text = str(exc).strip()
    if not any(words in text.lower() for words in _FULL):
        return None
    return DatabaseWriteFailed(
        f"{path}: the database cannot be created or opened ({text.splitlines()[0]}): the disk "
        "is full; free disk space, then run again"
    )
