"""The one module that owns the DuckDB file: opening (with a lock wait), migrations, SQL."""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from flows.errors import (
    DatabaseCorrupt,
    DatabaseError,
    DatabaseLocked,
    DatabaseUnwritable,
)
from flows.store.database_owner import (
    database_path,
    refuse_foreign_database,
    refuse_newer_database,
    refuse_sqlite_file,
    refuse_unreadable_database,
)
from flows.store.database_template import date_as_new, place_new_database
from flows.store.disk_faults import full_disk_at_open, make_db_folder
from flows.store.lock_holder import lock_holder
from flows.store.migration_blockers import migrate_past_indexes
from flows.store.reader_definitions import LIVE_DEFINITIONS, read_with_current_definitions
from flows.store.snapshot import snapshot_path
from flows.store.sql_files import made_from, migrations, sql, statements
from flows.store.sql_functions import register_metric_functions

DEFAULT_DB = Path("data") / "faithpipe.duckdb"
_LOCK_POLL_SECONDS = 0.2
# How long `faith report` and `faith runs` wait for a run without a snapshot to finish.
DEFAULT_READ_WAIT = 30.0
# The disk said no (full, read-only, failing): an I/O error, a failed commit (the WAL could
# not be written), or DuckDB invalidating the database after such an error. Other DuckDB
# errors are bugs and stay as they are.
DISK_ERRORS = (duckdb.IOException, duckdb.TransactionException, duckdb.FatalException)
# DuckDB could not hold what a commit needs under its memory limit (a batch too large).
OUT_OF_MEMORY = duckdb.OutOfMemoryException

log = logging.getLogger("faithpipe")


def connect(
    path: Path | str, *, read_only: bool = False, lock_timeout: float = 0.0
) -> duckdb.DuckDBPyConnection:
    """Open the database, waiting up to `lock_timeout` seconds while another process holds it.

    DuckDB allows one writing process XOR many readers per file (stack-notes §3).
    """
    path = Path(path)
    if read_only and holds_no_database(path):  # nor does an empty file (touch): DuckDB's line
        raise DatabaseError(f"{path}: no such database; run `faith score` first")
    if not read_only:
        make_db_folder(path)
    con = _open_when_free(
        path,
        read_only=read_only,
        wait=lock_timeout,
        locked=_locked_for_writing(path, lock_timeout),
    )
    # The lexical metric is callable from SQL on every faithpipe connection.
    register_metric_functions(con)
    return con


def _open_when_free(
    path: Path,
    *,
    read_only: bool,
    wait: float,
    locked: Callable[[str | None], str],
    waiting: Callable[[str | None], None] | None = None,
) -> duckdb.DuckDBPyConnection:
    """duckdb.connect, retried while another process holds the file's lock, for `wait` seconds
    at most; `waiting(pid)` is told once when it must wait, `locked(pid)` is the message of
    DatabaseLocked when the wait is over (pid: the holder's, when DuckDB names it)."""
    refuse_sqlite_file(path)
    deadline = time.monotonic() + max(wait, 0.0)
    told = False
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only)
        except (duckdb.IOException, duckdb.CatalogException) as exc:  # Catalog: a data file
            if "lock" not in str(exc).lower():
                fault = database_fault(exc, path) or full_disk_at_open(exc, path)
                raise fault or DatabaseError(f"{path}: {exc}") from exc
            holder = re.search(r"\(PID (\d+)\)", str(exc))
            pid = holder.group(1) if holder else None
            if time.monotonic() >= deadline:
                raise DatabaseLocked(locked(pid)) from exc
            if waiting is not None and not told:
                waiting(pid)
                told = True
            time.sleep(_LOCK_POLL_SECONDS)


# How DuckDB words the faults that have an exit code of their own: the OS's words for a file
# it may not write (EROFS, EPERM of an immutable file, EACCES), and its own for a file cut
# short or whose block checksum fails.
_UNWRITABLE = ("read-only file system", "operation not permitted", "permission denied")
_CORRUPT = ("could not read enough bytes", "corrupt database file", "checksum")


def database_fault(exc: BaseException, path: Path | str) -> DatabaseError | None:
    """The documented error a DuckDB failure on the file stands for, if it is one: unwritable
    (exit 12), corrupt (exit 13) or a log file read-only (exit 5); None for any other failure."""
    if not isinstance(exc, duckdb.Error):
        return None
    text = str(exc).strip()
    reason = text.splitlines()[0] if text else type(exc).__name__
    lowered = text.lower()
    if "in-memory database in read-only mode" in lowered:  # DuckDB's views over day1.parquet
        return DatabaseError(
            f"{path} is not a faithpipe database but a data file (Parquet, CSV or JSON), which "
            "DuckDB reads as a table. Nothing was read; give --db the database `faith score` wrote."
        )
    if any(words in lowered for words in _UNWRITABLE):
        return DatabaseUnwritable(
            f"{path}: the database cannot be written ({reason}); it is on a read-only file "
            "system, immutable (chattr +i) or not writable by this user: fix that, or give "
            "--db a writable file"
        )
    if any(words in lowered for words in _CORRUPT):
        return DatabaseCorrupt(
            f"{path}: the database file is corrupt ({reason}); it was truncated or damaged "
            "on disk: restore it from a backup or its snapshot, or give --db a new file"
        )
    return None


def _locked_for_writing(path: Path, waited: float) -> Callable[[str | None], str]:
    """The message of a writer that gave up waiting for the lock, naming a faith run as one
    (`lock_holder`): another process may be a run or any DuckDB session holding the file
    open (`duckdb -readonly`, a notebook), where it guessed "a run in progress?" of either."""

    def said(pid: str | None) -> str:
        holder = lock_holder(pid)
        guess = "" if holder.startswith("a faith run") else " (a run, or a DuckDB session?)"
        return (
            f"{path} is locked by {holder}{guess}; waited {round(waited, 1):g} s. "
            "Wait for it to finish, raise --lock-timeout, or use another --db."
        )

    return said


def connect_for_reading(
    path: Path | str,
    *,
    wait: float = DEFAULT_READ_WAIT,
    snapshot: bool = True,
    option: str = "--wait",
    warn_older: bool = True,
) -> duckdb.DuckDBPyConnection:
    """A read-only connection for reports, with this faithpipe's analysis macros and views
    (reader_definitions; `warn_older`: say when an older database's tables refuse them).
    While a run holds the write lock, the copy written after the last completed run is read
    at once (with `snapshot`, saying so in one line); without a copy, it waits up to `wait`
    seconds (saying so, and that the command's `option` sets them), then raises
    DatabaseLocked."""
    path = database_path(path)  # not empty, not a folder
    if holds_no_database(path):
        raise DatabaseError(f"{path}: no such database; run `faith score` first")
    copy = snapshot_path(path)
    if snapshot and copy.exists():
        taken = datetime.fromtimestamp(copy.stat().st_mtime, UTC)
        try:
            con = _open_when_free(
                path,
                read_only=True,
                wait=0.0,
                locked=lambda pid: (
                    f"{path} is being written by {lock_holder(pid)}; reading its snapshot of "
                    f"{taken:%Y-%m-%d %H:%M:%S} UTC, written after the last completed run ({copy})"
                ),
            )
        except DatabaseLocked as busy:
            log.warning("%s", busy)
            # No writer ever opens the copy (it is written aside and renamed): no wait here.
            con = _open_when_free(
                copy, read_only=True, wait=0.0, locked=_locked_for_writing(copy, 0)
            )
    else:
        # not said to a command that writes the database itself (rekey, batches --refresh)
        readers = f" Runs given --snapshot write {copy.name} for readers after each completed run."
        readers = readers if snapshot else ""
        con = _open_when_free(
            path,
            read_only=True,
            wait=wait,
            waiting=lambda pid: log.warning(
                "%s is being written by %s; waiting up to %g s for it to finish (%s to change)",
                path,
                lock_holder(pid),
                wait,
                option,
            ),
            locked=lambda pid: (
                f"{path} is still being written by {lock_holder(pid)} after {wait:g} s; try "
                f"again when the run has finished, or raise {option}.{readers}"
            ),
        )
    try:
        refuse_unreadable_database(con, path)
    except (DatabaseError, duckdb.Error):  # refused, or unreadable: the caller gets no handle
        con.close()
        raise
    register_metric_functions(con)
    read_with_current_definitions(con, path, warn=warn_older)
    return con


def migrate(
    con: duckdb.DuckDBPyConnection, *, walk: bool = False, path: Path | str = "the database"
) -> list[str]:
    """Apply the migrations not yet recorded, each in one transaction; returns those applied.

    A new database takes them all in one transaction, from the one script of their tables
    (sql/new_database.sql, when it is made from exactly these migrations; `walk`: through
    each migration all the same): one commit instead of ~20, and no macro made only to be
    replaced by define_analysis; a failure leaves the database empty. An index the user made
    does not stop a migration (migration_blockers); a foreign key is refused, naming `path`."""
    con.execute(sql("000_schema_migrations"))
    done = {row[0] for row in con.execute("SELECT version FROM schema_migrations").fetchall()}
    known = migrations()
    refuse_newer_database(max(done, default=None), known)
    pending = [(version, name) for version, name in known if version not in done]
    tables = None if done or walk else sql("new_database")
    if tables is not None and made_from(tables) == {version for version, _ in pending}:
        with transaction(con):
            con.execute(tables)
            for version, name in pending:
                con.execute(sql("record_migration"), {"version": version, "name": name})
        applied = [name for _, name in pending]
    else:
        steps = [pending] if not done else [[migration] for migration in pending]
        applied = []
        for step in steps:
            migrate_past_indexes(con, transaction, partial(_apply, con, step), step[-1][1], path)
            applied += [name for _, name in step]
    if max(done | {v for v, name in known if name in applied}, default=0) >= LIVE_DEFINITIONS:
        define_analysis(con, again=bool(applied))
    return applied


def _apply(con: duckdb.DuckDBPyConnection, step: list[tuple[int, str]]) -> None:
    """The migrations of `step`, each recorded, in the caller's transaction."""
    for version, name in step:
        con.execute(sql(name))
        con.execute(sql("record_migration"), {"version": version, "name": name})


def define_analysis(con: duckdb.DuckDBPyConnection, *, again: bool = False) -> bool:
    """(Re)create every analysis macro and view from their one live definition
    (sql/analysis.sql), in one transaction, when that text changed since they were last made
    (or `again`: a migration ran); returns whether it did. Whatever older migrations defined
    is replaced, so a database migrated long ago reads with the current definitions."""
    text = sql("analysis")
    digest = hashlib.sha256(text.encode()).hexdigest()
    if not again and con.execute(sql("analysis_digest")).fetchall()[0][0] == digest:
        return False  # current: an open recreates nothing (it would cost ~0.1 s)
    with transaction(con):
        con.execute(text)
        run_sql_file(con, "record_analysis", {"sha256": digest})
    return True


def holds_no_database(path: Path | str) -> bool:
    """Whether `path` holds no database: no file, or an empty one (mktemp, touch), which
    open_store makes a new database of (commands that only read refuse it). A pipe, device or
    socket is refused: its size is 0 too, and open_store unlinked `--db /dev/null`; so are a
    folder and an empty name."""
    path = database_path(path)
    if path.exists() and not path.is_file():
        raise DatabaseError(f"{path}: not a database file but a pipe, a device or a socket")
    return not path.exists() or path.stat().st_size == 0


def open_store(
    path: Path | str = DEFAULT_DB, *, lock_timeout: float = 0.0
) -> duckdb.DuckDBPyConnection:
    """A migrated read-write connection: the only way flows write to the database.

    Another program's database is refused before anything is written to it (DatabaseError).
    """
    path = database_path(path)  # not empty, not a folder
    deadline = time.monotonic() + max(lock_timeout, 0.0)
    _look_before_writing(path, lock_timeout)
    if path.exists() and holds_no_database(path):
        path.unlink()  # an empty file (mktemp, touch) is no DuckDB file, and holds nothing
    placed = place_new_database(path, _made_in_place, made_of=_schema_texts)
    con = connect(path, lock_timeout=max(deadline - time.monotonic(), 0.0))
    try:
        # Again inside: when this process had the file open already, the look above could not.
        refuse_foreign_database(con, path)
        # Checkpoint every ~128 MB of WAL, not DuckDB's 16 MB: a checkpoint at nearly every
        # batch made each COMMIT cost ~0.4 s, and none at all until the end kept every new
        # row in memory (bench/pipeline.py); until a checkpoint, each batch's part-filled last
        # row groups stay in memory (~10 MB a batch). Committed batches are in the WAL either
        # way, so a crash loses none.
        # No vacuum at checkpoints: it merged each batch's last, part-filled row group into
        # its neighbours, rewriting them; a 1M-row run wrote a file 1.7x larger and 25% slower
        # (bench/pipeline.py). The cost: space of replaced rows is not reclaimed (see README).
        con.execute("SET checkpoint_threshold = '128MB'")
        con.execute("SET memory_limit = '1GB'")
        con.execute("SET max_vacuum_tasks = 0")
        migrate(con, path=path)
        if placed:
            date_as_new(con)
        limit_memory(con)
    except Exception as exc:
        con.close()
        fault = database_fault(exc, path)
        if fault is not None:
            raise fault from exc
        raise
    return con


def _schema_texts() -> tuple[object, ...]:
    """What migrate() makes a new database from: a template made from other texts (a test's,
    an older faithpipe's) is not copied."""
    walked = tuple((version, name, sql(name)) for version, name in migrations())
    return (walked, sql("new_database"), sql("analysis"))


def _made_in_place(path: Path) -> None:
    """A new database at `path`, made by its statements and closed (database_template's)."""
    con = connect(path)
    try:
        migrate(con)
    finally:
        con.close()


# DuckDB keeps every block a run writes in its buffer pool until the memory limit is reached
# (~22 MB a 150,000-row batch), so a limit of 1 GB let a 10M-row run hold 0.9 GB more than a
# 1M-row one (bench/memory.py). Evicting them costs nothing: they are on disk already.
_STORE_MEMORY_MB = 384
# ... but a PRIMARY KEY's index (ART) must fit under the limit once a write touches it, and it
# cannot be evicted: 1.75M 64-character keys did not fit in 256 MB (the COMMIT failed). Room is
# added for the indexed rows stored (judge_cache, quarantine), measured ~170 bytes a key, and
# re-set before each batch's commit for the keys the run has added since (limit_memory).
_INDEX_BYTES_PER_ROW = 256


def memory_limit_mb(indexed_rows: int, writing: int = 0) -> int:
    """The writer's DuckDB memory limit with room for `indexed_rows` keys of PRIMARY KEY
    indexes (a fixed buffer pool plus ~256 bytes a key) and for a commit of `writing` bytes
    of text: a batch below a row group is held whole until its COMMIT, which needs 2-3 times
    it (3,003 rows logging a 59 kB system prompt each ran out of 384 MB, every night)."""
    room = max(3 * writing - (_STORE_MEMORY_MB << 19), 0)  # the pool's first half is room
    return _STORE_MEMORY_MB + (max(indexed_rows, 0) * _INDEX_BYTES_PER_ROW + room) // 10**6


def limit_memory(con: duckdb.DuckDBPyConnection, adding: int = 0, writing: int = 0) -> None:
    """A fixed memory limit for the writing connection, with room for its key indexes (those
    stored now and `adding` more) and a commit of `writing` bytes. Called on opening and again
    before each batch's commit, so a run adding millions of keys (a source quarantined whole,
    a large judge_cache) or a batch of long rows does not outgrow the limit it opened with."""
    (indexed,) = con.execute(sql("indexed_rows")).fetchall()[0]
    limit_mb = memory_limit_mb(int(indexed) + adding, writing)
    try:
        con.execute(f"SET memory_limit = '{limit_mb}MB'")
    except duckdb.OutOfMemoryException as exc:  # more is held than estimated: keep the limit
        log.warning("kept DuckDB's memory limit as it was (%s)", str(exc).splitlines()[0])


@contextmanager
def reader_memory(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """The writer's memory limit lifted to a reader's (DuckDB's default) for an analysis query
    once nothing is being written, then set again: DuckDB's JSON functions hold several times
    2,048 cases' segments at once, and segments of ~40 kB ran out of the writer's limit."""
    con.execute("RESET memory_limit")
    try:
        yield con
    finally:
        limit_memory(con)


def _look_before_writing(path: Path, lock_timeout: float) -> None:
    """Refuse a foreign database through a read-only connection, which leaves the file's
    bytes as they are: a read-write one would replay and checkpoint its WAL on closing.
    Without a WAL there is nothing to replay: open_store's own look, before it writes, is
    enough (and a read-only open cost ~40 ms of every command on an existing database)."""
    if not path.exists() or path.stat().st_size == 0 or not Path(f"{path}.wal").exists():
        return
    try:
        con = _open_when_free(
            path,
            read_only=True,
            wait=lock_timeout,
            locked=_locked_for_writing(path, lock_timeout),
        )
    except duckdb.ConnectionException:
        return  # this process has it open read-write already: open_store checks in there
    try:
        refuse_foreign_database(con, path)
    except duckdb.Error as exc:
        raise database_fault(exc, path) or exc from exc
    finally:
        con.close()


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


def run_sql_file(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None
) -> None:
    """Execute every statement of the named SQL file, each with the bound parameters it uses.

    DuckDB binds parameters to the last statement of a string only, so files are run statement
    by statement (our files keep `;` out of literals and comments).
    """
    params = params or {}
    for statement in statements(name):
        named = set(re.findall(r"\$(\w+)", statement))
        con.execute(statement, {key: value for key, value in params.items() if key in named})
