"""The copy of the database that readers open while a run holds its lock
(`<db>.snapshot.duckdb`, written after each completed run with `--snapshot`)."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import duckdb

__all__ = ["snapshot_path", "write_snapshot"]

log = logging.getLogger("faithpipe")


def snapshot_path(path: Path | str) -> Path:
    """Where the copy for readers is written: `<db>.snapshot.duckdb`, next to the database."""
    path = Path(path)
    return path.with_name(f"{path.name}.snapshot.duckdb")


def write_snapshot(con: duckdb.DuckDBPyConnection, path: Path | str) -> Path | None:
    """Copy the database as it is now to `snapshot_path(path)`, for readers while the next run
    holds the lock; call it with no transaction open. A failure is logged, never raised."""
    path = Path(path)
    target = snapshot_path(path)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        con.execute("CHECKPOINT")  # every commit into the file: the copy needs no WAL
        shutil.copyfile(path, partial)
        with partial.open("rb+") as copied:
            os.fsync(copied.fileno())
        os.replace(partial, target)  # readers see the old copy or the new one, never half
    except (OSError, duckdb.Error) as exc:
        log.warning("no snapshot of %s for readers written: %s", path, exc)
        return None
    finally:
        partial.unlink(missing_ok=True)  # a copy cut short (an error, Ctrl-C) leaves nothing
    return target
