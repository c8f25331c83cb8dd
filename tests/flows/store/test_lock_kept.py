"""A process holding the database keeps its write lock whatever else it does with the file.
DuckDB locks it with fcntl, and POSIX drops a process's fcntl locks on a file when the process
closes *any* descriptor of it: reading its first bytes (the SQLite check) or copying it (the
snapshot) let another process open the database for writing while this one still wrote it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from flows.store.db import connect, open_store
from flows.store.snapshot import write_snapshot

PROBE = """
import sys, duckdb
try:
    duckdb.connect(sys.argv[1]).close()
    print("opened")
except duckdb.IOException as exc:
    print("locked" if "lock" in str(exc).lower() else f"other: {exc}")
"""


def another_process_says(db: Path) -> str:
    """What another process meets when it opens the database to write."""
    return subprocess.run(
        [sys.executable, "-c", PROBE, str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()


def test_a_second_connection_of_the_holding_process_keeps_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    try:
        assert another_process_says(db) == "locked"
        open_store(db).close()  # a second connection of the run's own process
        connect(db).close()
        assert another_process_says(db) == "locked"
    finally:
        con.close()
    assert another_process_says(db) == "opened"


def test_writing_the_snapshot_keeps_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    try:
        assert write_snapshot(con, db) is not None
        assert another_process_says(db) == "locked"
    finally:
        con.close()
