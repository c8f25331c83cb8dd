"""The copy of the database that readers open while a run holds its lock
(`<db>.snapshot.duckdb`, written after each completed run with `--snapshot`)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import duckdb

__all__ = ["snapshot_path", "write_snapshot"]

log = logging.getLogger("faithpipe")
# The copy, in a child process (write_snapshot says why).
_COPY = "import shutil, sys; shutil.copyfile(sys.argv[1], sys.argv[2])"


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
        # Copied by another process: this one closing a descriptor of the database file would
        # drop DuckDB's write lock on it (POSIX fcntl locks), and another run could open it.
        subprocess.run(  # noqa: S603 (this interpreter, our own paths, no shell)
            [sys.executable, "-I", "-S", "-c", _COPY, str(path), str(partial)],
            check=True,
            capture_output=True,
        )
        with partial.open("rb+") as copied:
            os.fsync(copied.fileno())
        os.replace(partial, target)  # readers see the old copy or the new one, never half
    except (OSError, duckdb.Error, subprocess.CalledProcessError) as exc:
        log.warning("no snapshot of %s for readers written: %s", path, exc)
        return None
    finally:
        partial.unlink(missing_ok=True)  # a copy cut short (an error, Ctrl-C) leaves nothing
    return target
