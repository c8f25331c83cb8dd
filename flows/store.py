"""The one module that owns the DuckDB file: opening (with a lock wait), migrations, SQL."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from flows.errors import DatabaseError, DatabaseLocked
from flows.sql_functions import register_metric_functions

DEFAULT_DB = Path("data") / "faithpipe.duckdb"
_MIGRATION = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
_LOCK_POLL_SECONDS = 0.2


@cache
def sql(name: str) -> str:
    """Text of `flows/sql/<name>.sql` (queries and migrations live there, not in strings)."""
    return resources.files("flows").joinpath("sql", f"{name}.sql").read_text()


def migrations() -> list[tuple[int, str]]:
    """(version, file stem) of every numbered migration, in order."""
    found = []
    for entry in resources.files("flows").joinpath("sql").iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name.removesuffix(".sql")))
    return sorted(found)


def connect(
    path: Path | str, *, read_only: bool = False, lock_timeout: float = 0.0
) -> duckdb.DuckDBPyConnection:
    """Open the database, waiting up to `lock_timeout` seconds while another process holds it.

    DuckDB allows one writing process XOR many readers per file (stack-notes §3).
    """
    path = Path(path)
    if read_only and not path.exists():
        raise DatabaseError(f"{path}: no such database; run `faith score` first")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + max(lock_timeout, 0.0)
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
        except duckdb.IOException as exc:
            if "lock" not in str(exc).lower():
                raise DatabaseError(f"{path}: {exc}") from exc
            if time.monotonic() >= deadline:
                holder = re.search(r"\(PID (\d+)\)", str(exc))
                who = f"process {holder.group(1)}" if holder else "another process"
                raise DatabaseLocked(
                    f"{path} is locked by {who} (a run in progress?); waited {lock_timeout:g} s. "
                    "Wait for it to finish, raise --lock-timeout, or use another --db."
                ) from exc
            time.sleep(_LOCK_POLL_SECONDS)
            continue
        # The lexical metric is callable from SQL on every faithpipe connection.
        register_metric_functions(con)
        return con


def migrate(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Apply the migrations not yet recorded, each in one transaction; returns those applied."""
    con.execute(sql("000_schema_migrations"))
    done = {row[0] for row in con.execute("SELECT version FROM schema_migrations").fetchall()}
    known = migrations()
    newest = max((version for version, _ in known), default=0)
    if done and max(done) > newest:
        raise DatabaseError(
            f"database schema version {max(done)} is newer than this faithpipe ({newest}); "
            "upgrade faithpipe"
        )
    applied = []
    for version, name in known:
        if version in done:
            continue
        with transaction(con):
            con.execute(sql(name))
            con.execute(sql("record_migration"), {"version": version, "name": name})
        applied.append(name)
    return applied


def open_store(
    path: Path | str = DEFAULT_DB, *, lock_timeout: float = 0.0
) -> duckdb.DuckDBPyConnection:
    """A migrated read-write connection: the only way flows write to the database."""
    con = connect(path, lock_timeout=lock_timeout)
    try:
        # Checkpoint every ~256 MB of WAL, not DuckDB's 16 MB: a checkpoint at nearly every
        # batch made each COMMIT cost ~0.4 s, and none at all until the end kept every new
        # row in memory (bench/pipeline.py). Committed batches are in the WAL either way, so a
        # crash loses none. The memory limit keeps DuckDB's cache from growing with the input.
        # No vacuum at checkpoints: it merged each batch's last, part-filled row group into
        # its neighbours, rewriting them; a 1M-row run wrote a file 1.7x larger and 25% slower
        # (bench/pipeline.py). The cost: space of replaced rows is not reclaimed (see README).
        con.execute("SET checkpoint_threshold = '256MB'")
        con.execute("SET memory_limit = '1GB'")
        con.execute("SET max_vacuum_tasks = 0")
        migrate(con)
    except Exception:
        con.close()
        raise
    return con


def register(con: duckdb.DuckDBPyConnection, name: str, frame: pl.DataFrame) -> None:
    """Make `frame` readable as the view `name` on `con`, without copying its strings.

    Handed over as Arrow with string views, which DuckDB reads as they are; a polars frame
    given directly is exported with every string copied into classic Arrow strings, ~10% of
    a batch's write (bench/pipeline.py)."""
    con.register(name, frame.to_arrow(compat_level=pl.CompatLevel.newest()))


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """BEGIN ... COMMIT, or ROLLBACK on any error: a batch is written whole or not at all."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def run(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None) -> None:
    """Execute every statement of the named SQL file, each with the bound parameters it uses.

    DuckDB binds parameters to the last statement of a string only, so files are run statement
    by statement (our files keep `;` out of literals and comments).
    """
    params = params or {}
    for statement in statements(name):
        named = set(re.findall(r"\$(\w+)", statement))
        con.execute(statement, {key: value for key, value in params.items() if key in named})


@cache
def statements(name: str) -> tuple[str, ...]:
    """The statements of a SQL file, comment lines removed."""
    lines = [line for line in sql(name).splitlines() if not line.lstrip().startswith("--")]
    return tuple(part.strip() for part in "\n".join(lines).split(";") if part.strip())
